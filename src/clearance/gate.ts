import { lstatSync, readFileSync } from "node:fs";
import path from "node:path";
import { pushAll } from "../collections.js";
import { UsageError } from "../errors.js";
import { printable } from "../record/data.js";
import { blocks, finding, type Finding } from "../findings.js";
import { commitChanges, git, gitMaybe, gitMaybeLater, later, LINK_MODE, objectsNamed, lsIndex, lsTree, readBlobs, readObjects, revList, shallowCommits, stagedChanges, SUBMODULE_MODE, type Change, type TreeEntry } from "../io/git.js";
import { parseConfigText, type ClearConfig } from "../io/repo.js";
import { isBundledRules } from "../io/rules-dir.js";
import type { CommitJudges } from "./commit-rules.js";
import { attributesAbove, candidatesFromGit, CONFIG_FILE, guardedFromGit, inOtherSpelling, placesOf, repoPaths, touchesPlaces, wholeTree } from "../io/repo-tree.js";
import { holds, parseRecord, RecordError } from "../record/parse.js";
import { acceptedRewritten, verifyPass, type RawCaptureJudge } from "../passes/verify.js";
import type { RepoLayout } from "../types.js";

type Judge = () => Promise<RawCaptureJudge>;

/**
 * The raw-capture check of a rules folder, loaded once and only when a file asks for it: a commit
 * of accepted fixtures, a deletion or a link loads no rules and no payload reader.
 */
export function rawCaptureJudge(rulesDir: string): Judge {
  let loaded: Promise<RawCaptureJudge> | null = null;
  const load = async (): Promise<RawCaptureJudge> => {
    const [{ loadRawCaptureRules }, { rawCaptureCheck, rawCaptureFinding }] = await Promise.all([import("../io/load-rules.js"), import("../passes/raw-capture.js")]);
    const rules = loadRawCaptureRules(rulesDir);
    const check = rawCaptureCheck(rules.harnesses, rules.payloads);
    return (path, bytes) => rawCaptureFinding(path, bytes, check);
  };
  return () => (loaded ??= load());
}

/**
 * A repository's own rules folder, checked whole (every file against its schema, laid over the
 * bundled rules, the rules checked against each other) before anything else: a broken one is an
 * error naming the file and the place (exit 2), whether or not a file asks for the rules. Where
 * only the bundled rules apply, nothing is loaded here.
 */
export async function checkRulesFolder(rulesDir: string): Promise<void> {
  if (isBundledRules(rulesDir)) return;
  const { loadRules } = await import("../io/load-rules.js");
  loadRules(rulesDir);
}

// The gate: at pre-commit, what is staged; at pre-push, and for `clear verify --range`, every
// commit the destination does not have. Each is checked by the one verify pass: the tool's own
// places (fixtures, inbox, record, config) whenever the change touches them, and every file the
// change brings, anywhere, for raw captures.

const ZERO = /^0+$/;

export interface CommitVerdict {
  commit: string;
  findings: Finding[];
}

/** The paths a change adds or changes (a deletion brings nothing). */
const brought = (changes: Change[]): string[] => changes.filter((c) => c.status !== "D").map((c) => c.path);

/**
 * The paths a change's other spellings of the places are looked for in: what it brings; and, where
 * it changes clear.config.json (a layout moved, or moved back), every path its tree holds, since a
 * path no place's other spelling under the old layout may be one under the new (`Fixtures/` added
 * while the fixtures stood elsewhere lands in `fixtures/` once they stand there again).
 */
function spellingPaths(changes: Change[], all: () => string[]): string[] {
  return changes.some((c) => c.path === CONFIG_FILE) ? all() : brought(changes);
}

/** The config a commit (or the index) holds; links are reported by the verify pass, so one reads as absent here. `listed`: the index's entries, when already read. */
export function configAt(root: string, source: string, listed?: TreeEntry[]): ClearConfig {
  const entries = (listed ?? (source === "index" ? lsIndex([CONFIG_FILE], root) : lsTree(source, [CONFIG_FILE], root))).filter((e) => e.path === CONFIG_FILE);
  const entry = entries[0];
  if (!entry || entry.mode === LINK_MODE) return {};
  const bytes = readBlobs([entry.sha], root).get(entry.sha) ?? Buffer.alloc(0);
  return parseConfigText(bytes.toString("utf8"), `${CONFIG_FILE} in ${source === "index" ? "the index" : `commit ${source.slice(0, 12)}`}`);
}

/**
 * The object the record's path names at a commit, or in the index ("index"); null where there is
 * none, or the commit is not here (a shallow clone's edge). A link's or a submodule's object reads
 * as no batch at all, and the verify pass refuses it where it stands.
 */
function recordBlob(root: string, source: string, layout: RepoLayout): string | null {
  // Read from the tree, which names a blob whether or not git has it: one it lacks is told apart from no record.
  const entries = source === "index" ? lsIndex([layout.clearance], root) : lsTree(source, [layout.clearance], root, false);
  return entries.find((e) => e.path === layout.clearance && e.mode !== "040000" && e.mode !== SUBMODULE_MODE)?.sha ?? null;
}

/** A state of the record: a commit or the index, with the layout it holds. */
interface RecordState {
  source: string;
  layout: RepoLayout;
}

/** Batches accepted in `before` that `after` holds with other text (see acceptedRewritten); nothing is read where the record is the same blob. */
function rewrittenSince(root: string, before: RecordState, after: RecordState): Finding[] {
  const [was, now] = [recordBlob(root, before.source, before.layout), recordBlob(root, after.source, after.layout)];
  if (was === null || now === null || was === now) return [];
  const blobs = readBlobs([was, now], root);
  const earlier = blobs.get(was);
  if (earlier === undefined) throw recordNotHere(before.layout.clearance, before.source);
  return acceptedRewritten(earlier.toString("utf8"), (blobs.get(now) ?? Buffer.alloc(0)).toString("utf8"), after.layout.clearance, `commit ${before.source.slice(0, 12)}`);
}

/** A record git names but does not have (a damaged repository): what it accepted is unknown, so whether a later one rewrote it cannot be told. An error (exit 2), never a pass. */
function recordNotHere(file: string, commit: string): UsageError {
  return new UsageError(`${file} at commit ${commit.slice(0, 12)} is a blob git does not have (a damaged or partial repository), so whether a later ${file} rewrote a batch it accepted cannot be told; fetch or repair the repository (git fsck names what is missing)`);
}

/** Whether the record at a commit holds a batch that is accepted and whose digest holds; an unreadable one is reported by the verify pass. */
function holdsAccepted(root: string, commit: string, layout: RepoLayout): boolean {
  const blob = recordBlob(root, commit, layout);
  const bytes = blob === null ? undefined : readBlobs([blob], root).get(blob);
  if (bytes === undefined) return false;
  try {
    return parseRecord(bytes.toString("utf8"), layout.clearance).batches.some(holds);
  } catch (err) {
    if (err instanceof RecordError) return false;
    throw err;
  }
}

/**
 * A commit whose record holds an accepted batch is checked against each of its parents, which
 * alone say whether that batch was accepted with this text. Where the commit stands at the edge of
 * a shallow clone (a CI checkout of depth 1) and a parent it names is not here, that is unknown:
 * an error (exit 2), never a pass, as for a range that runs past a shallow clone's history.
 */
function parentsNeeded(root: string, commit: string, parents: string[], shallow: Set<string>, layout: RepoLayout): void {
  const absent = shallow.has(commit) ? parents.find((p) => !hasCommit(root, p)) : undefined;
  if (absent === undefined || !holdsAccepted(root, commit, layout)) return;
  throw new UsageError(
    `commit ${commit.slice(0, 12)}'s parent ${absent.slice(0, 12)} is not here (a shallow clone), so whether the commit rewrote a batch of ${layout.clearance} accepted before cannot be told; fetch the history it needs (git fetch --deepen=1, or fetch-depth: 0)`,
  );
}

/** `clear verify` of the working tree: batches the last commit accepted that the record on disk (a regular file, never a link) holds with other text; nothing is parsed where its bytes are the committed ones. */
export function rewrittenInWorkingTree(root: string, layout: RepoLayout, head = headCommit(root)): Finding[] {
  const file = path.join(root, layout.clearance);
  if (head === null || lstatSync(file, { throwIfNoEntry: false })?.isFile() !== true) return [];
  const was = recordBlob(root, head, layoutOrDefault(root, head));
  if (was === null) return [];
  const before = readBlobs([was], root).get(was);
  if (before === undefined) throw recordNotHere(layout.clearance, head);
  const now = readFileSync(file);
  // A record as it was committed rewrote nothing since, as at commit and push, where the record is the same blob.
  if (before.equals(now)) return [];
  return acceptedRewritten(before.toString("utf8"), now.toString("utf8"), layout.clearance, `commit ${head.slice(0, 12)}`);
}

/** Whether a change touches the record, or the config that says where the record stands: otherwise the record is the one its parent holds. */
function changesRecord(changes: Change[], layout: RepoLayout): boolean {
  return changes.some((c) => c.path === layout.clearance || c.path === CONFIG_FILE);
}

/** What a push replaces at its destination: each ref's value there and the object pushed in its place (a range: BASE and HEAD). */
export type Replaced = { from: string; to: string };

/**
 * Batches accepted at `from` (the destination's value of a pushed ref, the base of a range) that
 * `to` (what is pushed in its place, the range's head) holds with other text: a history rewritten
 * and pushed with force, or a batch taken out in one commit and put back with other text in a
 * later one, keeps the ACCEPT the destination shows while each commit against its parent rewrote
 * nothing. Nothing where either end is no commit here (a destination's value this clone lacks).
 */
function rewrittenAcross(root: string, { from, to }: Replaced): Finding[] {
  const [was, now] = [commitAt(root, from), commitAt(root, to)];
  if (was === null || now === null || was === now) return [];
  return rewrittenSince(root, { source: was, layout: layoutOrDefault(root, was) }, { source: now, layout: layoutOrDefault(root, now) });
}

/** A push's or a range's rewrites as a whole (see rewrittenAcross), where none of its commits is refused for one already: that commit's finding says more. */
export function rewrittenAsWhole(root: string, ends: Replaced[], verdicts: CommitVerdict[]): Finding[] {
  if (verdicts.some((v) => v.findings.some((f) => f.code === "accepted-batch-rewritten"))) return [];
  return ends.flatMap((e) => rewrittenAcross(root, e));
}

/** The layout an earlier commit holds; one whose clear.config.json cannot be read (a commit the change mends) is read in the default layout. */
function layoutOrDefault(root: string, commit: string): RepoLayout {
  try {
    return repoPaths(configAt(root, commit));
  } catch {
    return repoPaths({});
  }
}

/** The commit a ref names, or null where it names none (HEAD before the first commit, a ref not fetched). */
function commitAt(root: string, ref: string): string | null {
  return commitIn(gitMaybe(commitOf(ref), root));
}

const commitOf = (ref: string): string[] => ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`];
const commitIn = (answer: Buffer | null): string | null => answer?.toString("utf8").trim() || null;

/** The commit HEAD names, or null before the first commit. */
export function headCommit(root: string): string | null {
  return commitAt(root, "HEAD");
}

/** The commit HEAD names, as `headCommit`, from a git started now and read later. */
export function headCommitLater(root: string): Promise<string | null> {
  return later(gitMaybeLater(commitOf("HEAD"), root).then(commitIn));
}

/** The parents a commit object names. */
function parentsOf(object: Buffer | undefined): string[] {
  if (!object) return [];
  const header = object.subarray(0, Math.max(0, object.indexOf("\n\n"))).toString("utf8");
  return [...header.matchAll(/^parent ([0-9a-f]{40,64})$/gm)].map((m) => m[1] as string);
}

/** The staged change, checked: the places when touched (by the working tree's layout or the staged one), and every file it brings. */
export async function checkStaged(root: string, workingLayout: RepoLayout, check: Judge): Promise<Finding[]> {
  const changes = stagedChanges(root);
  if (changes.length === 0) return [];
  // One listing of the default places (the config among them) serves the staged layout when it is the default one.
  const defaults = placesOf(repoPaths({}));
  const listed = lsIndex([...defaults.places, ...defaults.above], root);
  const staged = repoPaths(configAt(root, "index", listed));
  const paths = changes.map((c) => c.path);
  const touched = touchesPlaces(paths, workingLayout) || touchesPlaces(paths, staged);
  const sameLayout = JSON.stringify(placesOf(staged)) === JSON.stringify(defaults);
  const otherSpelling = inOtherSpelling(spellingPaths(changes, () => lsIndex([], root).map((e) => e.path)), staged);
  const findings = await verifyPass({ guarded: touched ? guardedFromGit(root, staged, "index", sameLayout ? listed : undefined) : null, candidates: candidatesFromGit(root, changes, staged, { index: true }), otherSpelling }, check);
  const head = changesRecord(changes, staged) ? headCommit(root) : null;
  if (head !== null) pushAll(findings, rewrittenSince(root, { source: head, layout: layoutOrDefault(root, head) }, { source: "index", layout: staged }));
  return findings;
}

/** The object ids at `<commit>:<path>` for many names at once; absent ones map to null. */
function objectIds(root: string, names: string[]): Map<string, string | null> {
  const found = objectsNamed(names, root);
  return new Map(names.map((n, i) => [n, found[i]?.id ?? null]));
}

/**
 * Every commit checked whole: the tool's places in that commit's own layout (commits whose places
 * hold the same objects are checked once) and every file the commit changes against its parents.
 */
export async function checkCommits(root: string, commits: string[], check: Judge, judgesOf?: CommitJudges): Promise<CommitVerdict[]> {
  const changes = commitChanges(commits, root);
  // A commit's message travels with it: it is checked for raw captures as a file is.
  const objects = readObjects(commits, root);
  const parents = new Map(commits.map((c) => [c, parentsOf(objects.get(c)?.bytes)]));
  const configIds = objectIds(root, commits.map((c) => `${c}:${CONFIG_FILE}`));
  const configs = new Map<string, { config: ClearConfig; layout: RepoLayout }>();
  const configOf = (commit: string): { config: ClearConfig; layout: RepoLayout } => {
    const id = configIds.get(`${commit}:${CONFIG_FILE}`) ?? "none";
    if (!configs.has(id)) {
      const config = id === "none" ? {} : configAt(root, commit);
      configs.set(id, { config, layout: repoPaths(config) });
    }
    return configs.get(id) as { config: ClearConfig; layout: RepoLayout };
  };
  const layoutOf = (commit: string): RepoLayout => configOf(commit).layout;
  const judgeOf = judgesOf?.(commits.map((commit) => ({ commit, config: configOf(commit).config })));
  const judges = new Map<Judge, number>();
  // What a commit's places are judged by: their objects, and the .gitattributes on the way to its fixtures.
  const judgedBy = (layout: RepoLayout): string[] => {
    const { places, above } = placesOf(layout);
    return [...places, ...above, ...attributesAbove(layout)];
  };
  const placeNames = commits.flatMap((c) => judgedBy(layoutOf(c)).map((p) => `${c}:${p}`));
  const placeIds = objectIds(root, placeNames);
  const seen = new Map<string, Finding[]>();
  const shallow = shallowCommits(root);
  const blobs = readBlobs([...changes.values()].flat().filter((c) => c.status !== "D").map((c) => c.sha), root);
  const verdicts: CommitVerdict[] = [];
  for (const commit of commits) {
    const layout = layoutOf(commit);
    // Judged by the working tree's rules, and by the commit's own where they name more harnesses.
    const judge = judgeOf?.get(commit) ?? check;
    if (!judges.has(judge)) judges.set(judge, judges.size);
    const key = JSON.stringify([judges.get(judge), layout, ...judgedBy(layout).map((p) => placeIds.get(`${commit}:${p}`) ?? null)]);
    if (!seen.has(key)) seen.set(key, await verifyPass({ guarded: guardedFromGit(root, layout, commit), candidates: [] }, judge));
    const object = objects.get(commit);
    const changed = changes.get(commit) ?? [];
    const own = await verifyPass({ guarded: null, candidates: candidatesFromGit(root, changed, layout, { commit }, blobs), otherSpelling: inOtherSpelling(spellingPaths(changed, () => wholeTree(root, commit).map((c) => c.path)), layout) }, judge);
    if (object) pushAll(own, await objectFindings(`commit ${commit.slice(0, 12)} (its headers and message)`, object.bytes, judge));
    parentsNeeded(root, commit, parents.get(commit) ?? [], shallow, layout);
    if (changesRecord(changed, layout)) for (const parent of parents.get(commit) ?? []) pushAll(own, rewrittenSince(root, { source: parent, layout: layoutOrDefault(root, parent) }, { source: commit, layout }));
    verdicts.push({ commit, findings: [...(seen.get(key) as Finding[]), ...own] });
  }
  return verdicts;
}

/**
 * A commit or tag object, headers and message, checked for raw captures as a file is: the payload
 * check finds JSON wherever it stands (after a subject line, in a header, beside bytes of another
 * encoding). At most one finding per object.
 */
async function objectFindings(label: string, bytes: Buffer, check: Judge): Promise<Finding[]> {
  return (await verifyPass({ guarded: null, candidates: [{ path: label, bytes }] }, check)).slice(0, 1);
}

/** `verify --rev`: one commit's places, and every file of its tree for raw captures. */
export async function checkTree(root: string, rev: string, check: Judge, judgesOf?: CommitJudges): Promise<Finding[]> {
  const commit = commitNamed(root, rev, "--rev");
  const config = configAt(root, commit);
  const layout = repoPaths(config);
  const tree = wholeTree(root, commit);
  const judge = judgesOf?.([{ commit, config }]).get(commit) ?? check;
  const findings = await verifyPass({ guarded: guardedFromGit(root, layout, commit), candidates: candidatesFromGit(root, tree, layout, { commit }), otherSpelling: inOtherSpelling(brought(tree), layout) }, judge);
  const object = readObjects([commit], root).get(commit)?.bytes;
  // The commit's headers and message travel with it, and so does the annotated tag a name like v1 gives: each is checked as at push.
  if (object) pushAll(findings, await objectFindings(`commit ${commit.slice(0, 12)} (its headers and message)`, object, judge));
  pushAll(findings, await namedTagFindings(root, rev, judge));
  const parents = parentsOf(object);
  parentsNeeded(root, commit, parents, shallowCommits(root), layout);
  for (const parent of parents.filter((p) => hasCommit(root, p))) pushAll(findings, rewrittenSince(root, { source: parent, layout: layoutOrDefault(root, parent) }, { source: commit, layout }));
  return findings;
}

/** The annotated tags a name given to verify (v1) stands for, down their chain, checked as at push; nothing where it names a commit. */
export async function namedTagFindings(root: string, rev: string, check: Judge): Promise<Finding[]> {
  const named = git(["rev-parse", "--verify", `${rev}^{object}`], root).toString("utf8").trim();
  return tagFindings(root, [{ ref: rev, sha: named }], check);
}

function hasCommit(root: string, sha: string): boolean {
  return gitMaybe(["cat-file", "-e", `${sha}^{commit}`], root) !== null;
}

/** The one URL a push to `remote` goes to: git's own second argument, else the remote's push URL (or the remote itself, where it is a URL or a path); null where it pushes to several. */
function pushTarget(root: string, remote: string | undefined, url: string | undefined): string | null {
  if (url) return url;
  if (!remote) return null;
  const configured = gitMaybe(["remote", "get-url", "--push", "--all", "--", remote], root);
  if (configured === null) return remote;
  const urls = configured.toString("utf8").split("\n").filter(Boolean);
  return urls.length === 1 ? (urls[0] as string) : null;
}

/**
 * What the destination has now, asked of it (git ls-remote of the URL the push goes to): the
 * commit of each of its refs that is here too. Null where it cannot be asked (no URL, several push
 * URLs, git refused): then none counts as had. Remote-tracking refs are never taken for it: they
 * say what the last fetch saw, and a branch taken off the destination since, or a forced push
 * there, would have commits pass unchecked.
 */
function destinationHas(root: string, remote: string | undefined, url: string | undefined): string[] | null {
  const target = pushTarget(root, remote, url);
  if (target === null || target.startsWith("-")) return null;
  // ls-remote rewrites a URL by url.<base>.insteadOf, where the push went to the URL as given: where they differ, it would ask another repository.
  if (gitMaybe(["ls-remote", "--get-url", "--", target], root)?.toString("utf8").trim() !== target) return null;
  const listed = gitMaybe(["ls-remote", "--", target], root, { GIT_TERMINAL_PROMPT: "0" });
  if (listed === null) return null;
  const shas = [...new Set(listed.toString("utf8").split("\n").map((line) => line.split("\t")[0] ?? ""))].filter((sha) => /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/.test(sha));
  if (shas.length === 0) return [];
  const answer = git(["cat-file", "--batch-check=%(objectname) %(objecttype)"], root, shas.map((sha) => `${sha}^{commit}`).join("\n") + "\n").toString("utf8");
  return answer.split("\n").flatMap((line) => (line.endsWith(" commit") ? [line.slice(0, line.indexOf(" "))] : []));
}

export interface PushInput {
  stdin: string;
  remote: string | undefined;
  /** The URL git pushes to (its second argument to the hook). */
  url?: string | undefined;
  env: NodeJS.ProcessEnv;
}

/**
 * The commits a push sends that its destination lacks: from git's ref lines; else from the
 * pre-commit framework's PRE_COMMIT_FROM_REF/TO_REF, which name one ref of the push, and every
 * local ref the named remote does not have, so that a hook manager that passes no ref lines never
 * lets a push of one through unchecked.
 */
export async function commitsToPush(root: string, push: PushInput, check: Judge): Promise<{ commits: string[]; how: string; findings: Finding[]; replaced: Replaced[] }> {
  const { commits, how, objects, replaced } = pushedCommits(root, push);
  return { commits, how, findings: [...notCommits(root, objects), ...(await tagFindings(root, objects, check))], replaced };
}

/** The annotated tags a push sends, down each chain of tags to what it names: each object checked for raw captures as a file is. */
async function tagFindings(root: string, objects: { ref: string; sha: string }[], check: Judge): Promise<Finding[]> {
  const out: Finding[] = [];
  let next = objects.map((o) => ({ ref: o.ref, sha: o.sha }));
  for (let depth = 0; depth < 16 && next.length > 0; depth++) {
    const read = readObjects(next.map((o) => o.sha), root);
    const deeper: { ref: string; sha: string }[] = [];
    for (const o of next) {
      const object = read.get(o.sha);
      if (object?.type !== "tag") continue;
      pushAll(out, await objectFindings(`tag ${o.ref} (its headers and message)`, object.bytes, check));
      const named = /^object ([0-9a-f]{40,64})$/m.exec(object.bytes.toString("utf8"))?.[1];
      if (named) deeper.push({ ref: o.ref, sha: named });
    }
    next = deeper;
  }
  return out;
}

/** Pushed objects that are not commits once peeled (a tag on a blob or a tree) carry files no commit check sees: each is refused. */
function notCommits(root: string, objects: { ref: string; sha: string }[]): Finding[] {
  if (objects.length === 0) return [];
  const found = objectsNamed(objects.map((o) => `${o.sha}^{}`), root);
  return objects.flatMap((o, i) => {
    const type = found[i]?.type ?? "missing";
    return type === "commit" ? [] : [finding("pushed-not-a-commit", { file: o.ref }, { type })];
  });
}

/** Every local ref (another remote's aside) with the object it names. */
function localRefs(root: string): { ref: string; sha: string }[] {
  const out = git(["for-each-ref", "--format=%(objectname) %(refname)"], root).toString("utf8");
  return out
    .split("\n")
    .filter(Boolean)
    .map((l) => ({ sha: l.slice(0, l.indexOf(" ")), ref: l.slice(l.indexOf(" ") + 1) }))
    .filter((r) => !r.ref.startsWith("refs/remotes/"));
}

const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * git's ref lines, `<local ref> <local object> <remote ref> <remote object>`: each object id in
 * hex, as git writes it. A line of another shape is an error (exit 2, the push refused), never
 * skipped and never handed on to git, where a word starting with "-" would be an option.
 */
function refLines(stdin: string): string[][] {
  const lines = stdin.split("\n").map((l) => l.replace(/\r$/, "")).filter((l) => l.trim() !== "");
  return lines.map((line, i) => {
    const fields = line.split(" ");
    if (fields.length !== 4 || !OBJECT_ID.test(fields[1] as string) || !OBJECT_ID.test(fields[3] as string) || fields.some((f) => f === "" || f.startsWith("-"))) {
      throw new UsageError(`pre-push: line ${i + 1} of standard input is not git's "<local ref> <object> <remote ref> <object>"; nothing was pushed`);
    }
    return fields;
  });
}


function pushedCommits(root: string, push: PushInput): { commits: string[]; how: string; objects: { ref: string; sha: string }[]; replaced: Replaced[] } {
  const remote = push.remote || push.env.PRE_COMMIT_REMOTE_NAME;
  const lines = refLines(push.stdin);
  // Asked of the destination only where a ref new to it (or no ref line) needs it: a ref it has says what it has itself.
  const asked = lines.length === 0 || lines.some(([, localSha, , remoteSha]) => !ZERO.test(localSha as string) && (remoteSha === undefined || ZERO.test(remoteSha) || !hasCommit(root, remoteSha)));
  const had = asked ? destinationHas(root, remote, push.url || push.env.PRE_COMMIT_REMOTE_URL) : null;
  const known = had ?? [];
  const wanted = new Set<string>();
  const add = (tip: string, base: string | undefined): void => {
    // A revision is never read as an option: "--output=<file>" is refused, not handed to git.
    for (const rev of [tip, base]) if (rev !== undefined && rev.startsWith("-")) throw new UsageError(`pre-push: "${printable(rev).slice(0, 60)}" is not a revision`);
    // The destination's value of the ref, which git read from it, says what it has; the remote-tracking
    // refs only where it has none: a branch taken off the destination since the last fetch is still among them.
    const not = base && !ZERO.test(base) && hasCommit(root, base) ? [`^${base}`] : known.length > 0 ? ["--not", ...known] : [];
    for (const c of revList([tip, ...not], root)) wanted.add(c);
  };
  if (lines.length > 0) {
    const objects = lines.filter(([, localSha]) => !ZERO.test(localSha as string)).map(([ref, sha]) => ({ ref: ref as string, sha: sha as string }));
    for (const [, localSha, , remoteSha] of lines) if (!ZERO.test(localSha as string)) add(localSha as string, remoteSha);
    const replaced = lines.filter(([, localSha, , remoteSha]) => !ZERO.test(localSha as string) && !ZERO.test(remoteSha as string)).map(([, to, , from]) => ({ from: from as string, to: to as string }));
    return { commits: [...wanted], how: "the pushed refs", objects, replaced };
  }
  // The pre-commit framework names one pushed ref of the push (the first with commits to send): the others are among the local ones.
  const to = push.env.PRE_COMMIT_TO_REF;
  if (to) add(to, push.env.PRE_COMMIT_FROM_REF);
  // Which refs a push without ref lines sends is not known: every local ref (branches, tags, notes,
  // the stash, any other below refs/) is checked where the destination lacks it, as any may be pushed
  // by its name. Not another remote's refs, which came from elsewhere, nor what only a reflog holds:
  // a commit amended away would otherwise refuse every push until its reflog expired.
  const head = headCommit(root) === null ? [] : ["HEAD"];
  for (const c of revList(["--exclude=refs/remotes/*", "--all", ...head, ...(known.length > 0 ? ["--not", ...known] : [])], root)) wanted.add(c);
  const every = `every local ref ${known.length > 0 ? `that ${remote ?? "the destination"} does not have` : had === null ? "(what the destination has could not be asked of it)" : "(the destination has none of their commits)"}`;
  const how = to ? `PRE_COMMIT_FROM_REF..PRE_COMMIT_TO_REF, and ${every}` : `no ref lines came on standard input, so ${every}`;
  const from = push.env.PRE_COMMIT_FROM_REF;
  const replaced = to && from && !ZERO.test(from) ? [{ from, to }] : [];
  return { commits: [...wanted], how, objects: [...(to ? [{ ref: "PRE_COMMIT_TO_REF", sha: to }] : []), ...localRefs(root)], replaced };
}

/** `verify --range BASE..HEAD`: every commit of the range, given its ends (rangeEnds). */
export function commitsInRange(root: string, [base, head]: [string, string]): string[] {
  const commits = revList([head, `^${base}`], root);
  // In a shallow clone the range may run on past where its history stops: what is not here cannot be checked.
  const shallow = shallowCommits(root);
  const stop = commits.find((c) => shallow.has(c));
  if (stop !== undefined) throw new UsageError(`--range: the history stops at commit ${stop.slice(0, 12)} (a shallow clone), so commits of the range may be missing; fetch the history it needs (git fetch --unshallow, or fetch-depth: 0)`);
  return commits;
}

/**
 * The commit a name given on the command line stands for; where it stands for none, a usage error
 * saying which option gave it. The name is said back as every error says back the command line
 * (command.ts: a secret shape starred after its key prefix, a home's owner as the placeholder).
 */
function commitNamed(root: string, rev: string, option: string): string {
  const commit = rev.startsWith("-") ? null : gitMaybe(commitOf(rev), root);
  if (commit === null) throw new UsageError(`${option}: ${rev} is not a commit in this repository (fetch the history it needs, or give a commit it has)`);
  return commit.toString("utf8").trim();
}

/** A range's two ends, BASE and HEAD, each a commit of this repository. */
export function rangeEnds(root: string, range: string): [string, string] {
  const cut = range.indexOf("..");
  const [base, head] = [range.slice(0, cut), range.slice(cut + 2)];
  if (cut <= 0 || head === "" || head.startsWith(".") || /\s/.test(range)) throw new UsageError(`--range takes BASE..HEAD (two commits), not "${range}"`);
  commitNamed(root, base, "--range (its BASE end)");
  commitNamed(root, head, "--range (its HEAD end)");
  return [base, head];
}

export function refused(verdicts: CommitVerdict[]): CommitVerdict[] {
  return verdicts.filter((v) => blocks(v.findings));
}
