import { isUtf8 } from "node:buffer";
import { pushAll } from "../collections.js";
import { lstatSync, readdirSync, type Dirent } from "node:fs";
import path from "node:path";
import { nodeCrypto, sha256Hex } from "../digest.js";
import { EXEMPT_NAMES, readRecordListing, type Candidate, type GuardedState } from "../passes/verify.js";
import type { RepoLayout } from "../types.js";
import { blobDigests, recordReading } from "./blob-digests.js";
import { gitLater, gitMaybe, later, LINK_MODE, OWN_REPOSITORY, lsIndex, lsIndexLater, lsTree, nulFields, readBlobs, SUBMODULE_MODE, type Change, type TreeEntry } from "./git.js";
import { throughLfs } from "./lfs.js";
import { checkoutChangedPaths, checkoutChangedPathsLater, filteredPaths, filteredPathsLater, filteredWhy, shownOtherwisePaths, type AttributeSource } from "./git-filters.js";
import { foldedPath } from "./path-fold.js";
import { readRegularFile } from "./read-capture-dir.js";

// What verify and the gate check, read from the working tree, from the index or from a commit:
// the tool's own places (fixtures, inbox, record, config), never through a link, and the other
// files a change brings, for the raw-capture check.

export const CONFIG_FILE = "clear.config.json";
const REGULAR_MODES = new Set(["100644", "100755"]);
/** Repository files are read whole up to this size; a larger one is a finding, never skipped silently. */
const MAX_REPO_FILE = 1 << 30;

const clean = (p: string): string => p.replace(/^(\.\/)+/, "").replace(/\/+$/, "");

/** Where a repository keeps its inbox, fixtures and record: the contract's defaults, or clear.config.json's paths. */
export function repoPaths(config: { paths?: { capturesInbox?: string; fixtures?: string; clearance?: string } }): RepoLayout {
  const p = config.paths ?? {};
  return { capturesInbox: clean(p.capturesInbox ?? "captures-inbox"), fixtures: clean(p.fixtures ?? "fixtures"), clearance: clean(p.clearance ?? "CLEARANCE.md") };
}

/** The tool's own places, and every folder above one of them (a link there would move it). */
export function placesOf(layout: RepoLayout): { places: string[]; above: string[] } {
  const places = [layout.fixtures, layout.capturesInbox, layout.clearance, CONFIG_FILE];
  const above = new Set<string>();
  for (const p of places) {
    const parts = p.split("/");
    for (let k = 1; k < parts.length; k++) above.add(parts.slice(0, k).join("/"));
  }
  return { places, above: [...above].sort() };
}

const under = (p: string, dir: string): boolean => (p.length > dir.length ? p.charCodeAt(dir.length) === 0x2f && p.startsWith(dir) : p === dir);

/**
 * The .gitattributes files on the way to the fixtures folder and to the record (the root's, each
 * folder's above them): what they say reaches every fixture, and how the record is shown and checked out.
 */
export function attributesAbove(layout: RepoLayout): string[] {
  const above = new Set<string>();
  for (const parts of [layout.fixtures.split("/"), layout.clearance.split("/").slice(0, -1).concat("")]) {
    parts.forEach((_, k) => above.add([...parts.slice(0, k), ".gitattributes"].join("/")));
  }
  return [...above];
}

/** True when a changed path is one of the tool's places, under one, above one, or a .gitattributes on the way to the fixtures or the record. */
export function touchesPlaces(paths: string[], layout: RepoLayout): boolean {
  const { places, above } = placesOf(layout);
  const attributes = attributesAbove(layout);
  return paths.some((p) => places.some((place) => under(p, place)) || above.includes(p) || attributes.includes(p));
}

/**
 * Paths that name one of the tool's places (or what is under one), or a .gitattributes on the way
 * to them, in another spelling a checkout takes for it: Fixtures/, clearance.md, .GitAttributes
 * (which git on macOS and Windows reads from the working tree, and the check from git's tree does not).
 */
export function inOtherSpelling(paths: string[], layout: RepoLayout): string[] {
  const places = [...placesOf(layout).places, ...attributesAbove(layout)];
  const folded = places.map(foldedPath);
  return paths.filter((p) => {
    const f = foldedPath(p);
    return folded.some((place, i) => (under(f, place) || underShortName(f, place)) && !under(p, places[i] as string));
  });
}

// A short name NTFS gives a long one (8.3: six characters, a tilde and a number, three of the
// extension): CLEARA~1.MD is CLEARANCE.md on a volume that keeps short names.
const SHORT_NAME = /^([^~.]{1,6})~[1-9][0-9]{0,5}(?:\.([^.]{1,3}))?$/;

/** Whether a folded path lies under a folded place with a segment of it written as that segment's 8.3 short name. */
function underShortName(p: string, place: string): boolean {
  if (!p.includes("~")) return false;
  const have = p.split("/");
  const want = place.split("/");
  if (have.length < want.length) return false;
  return want.every((segment, k) => have[k] === segment || shortNameOf(have[k] as string, segment));
}

function shortNameOf(alias: string, segment: string): boolean {
  const m = SHORT_NAME.exec(alias);
  if (!m) return false;
  const dot = segment.lastIndexOf(".");
  const base = (dot > 0 ? segment.slice(0, dot) : segment).replace(/[. ]/g, "");
  const ext = dot > 0 ? segment.slice(dot + 1) : "";
  return base.startsWith(m[1] as string) && (m[2] === undefined || ext.startsWith(m[2]));
}

interface Sorted {
  fixtures: TreeEntry[];
  inbox: string[];
  exempt: TreeEntry[];
  record: TreeEntry | null;
  links: string[];
  notFiles: string[];
}

function sortEntries(entries: TreeEntry[], layout: RepoLayout): Sorted {
  const out: Sorted = { fixtures: [], inbox: [], exempt: [], record: null, links: [], notFiles: [] };
  for (const e of entries) {
    if (e.mode === LINK_MODE) out.links.push(e.path);
    else if (e.mode === SUBMODULE_MODE || !REGULAR_MODES.has(e.mode)) out.notFiles.push(e.path);
    else if (e.path === layout.clearance) out.record = e;
    else if (under(e.path, layout.fixtures) || under(e.path, layout.capturesInbox)) {
      if (EXEMPT_NAMES.has(e.path.slice(e.path.lastIndexOf("/") + 1))) out.exempt.push(e);
      else if (under(e.path, layout.fixtures)) out.fixtures.push(e);
      else out.inbox.push(e.path);
    }
  }
  return out;
}

/** The tool's places as git holds them: `source` is a commit, or "index" for what is staged; `listed`, the index's entries of these places when already read. */
export function guardedFromGit(root: string, layout: RepoLayout, source: string, listed?: TreeEntry[]): GuardedState {
  const { places, above } = placesOf(layout);
  const entries = listed ?? (source === "index" ? lsIndex(places, root) : lsTree(source, places, root));
  const aboveEntries = above.length === 0 ? [] : (source === "index" ? lsIndex(above, root) : lsTree(source, above, root, false)).filter((e) => above.includes(e.path));
  const sorted = sortEntries([...entries, ...aboveEntries.filter((e) => e.mode !== "040000")], layout);
  // Fixtures are needed by digest only, the record by what it says, the exempt names by their bytes.
  const blobs = readBlobs(sorted.exempt.map((e) => e.sha), root);
  const bytesOf = (e: TreeEntry): Buffer => blobs.get(e.sha) ?? readBlobs([e.sha], root).get(e.sha) ?? Buffer.alloc(0);
  const digests = blobDigests(root, sorted.fixtures.map((e) => e.sha));
  const digestOf = (e: TreeEntry): string => digests.get(e.sha) ?? sha256Hex(bytesOf(e));
  const record = sorted.record;
  const attributeSource: AttributeSource = source === "index" ? { index: true } : { commit: source };
  const checkoutChanged = checkoutChangedPaths(root, sorted.fixtures.map((e) => e.path), attributeSource);
  const config = entries.some((e) => e.path === CONFIG_FILE && REGULAR_MODES.has(e.mode));
  const shownOtherwise = shownOtherwisePaths(root, [...(record ? [record.path] : []), ...(config ? [CONFIG_FILE] : [])], attributeSource);
  return {
    layout,
    fixtures: [...sorted.fixtures, ...sorted.exempt.filter((e) => under(e.path, layout.fixtures))].map((e) => ({ path: e.path, sha256: digestOf(e) })),
    checkoutChanged: [...checkoutChanged].map(([p, attribute]) => ({ path: p, attribute })),
    shownOtherwise: [...shownOtherwise].map(([p, attribute]) => ({ path: p, attribute })),
    inbox: sorted.inbox,
    exempt: readAsStored(root, sorted.exempt.map((e) => ({ path: e.path, bytes: storedBytes(blobs, e.sha) })), attributeSource),
    links: sorted.links,
    notFiles: sorted.notFiles,
    record: null,
    ...(record && { recordReading: recordReading(root, record.sha, layout.clearance, () => readRecordListing(bytesOf(record), layout.clearance)) }),
  };
}

/** The ids git gives an empty file (SHA-1 and SHA-256 object formats): empty, whether or not the object is stored. */
// node:crypto is loaded only when a hash is asked for: a commit of accepted fixtures never needs one.
const createHash = (format: string): import("node:crypto").Hash => nodeCrypto().createHash(format);
let emptyBlobs: Set<string> | undefined;
const isEmptyBlob = (sha: string): boolean => (emptyBlobs ??= new Set(["sha1", "sha256"].map((format) => createHash(format).update("blob 0\0").digest("hex")))).has(sha);
const NO_BLOB = "git has no blob for it in this repository, which is damaged or partial, so its bytes cannot be read";

/** A blob's bytes as read; null where git did not give them (an object missing, or not a blob). */
function storedBytes(blobs: Map<string, Buffer>, sha: string): Buffer | null {
  return blobs.get(sha) ?? (isEmptyBlob(sha) ? Buffer.alloc(0) : null);
}

/**
 * Files a change brings outside the fixtures folder and the inbox, with their bytes, for the
 * raw-capture check; `source` is where git reads their attributes from (the index or the commit).
 */
export function candidatesFromGit(root: string, changes: Change[], layout: RepoLayout, source: AttributeSource, read?: Map<string, Buffer>): Candidate[] {
  const wanted = changes.filter((c) => c.status !== "D" && REGULAR_MODES.has(c.mode) && !under(c.path, layout.fixtures) && !under(c.path, layout.capturesInbox));
  const blobs = read ?? readBlobs(wanted.map((c) => c.sha), root);
  // A path another filter than Git LFS stores is bytes that filter wrote: it cannot be checked.
  // A name in bytes that are not UTF-8 is asked by its bytes: by the name it reads as, git would answer for another path.
  const filtered = filteredPaths(root, wanted.filter((c) => (blobs.get(c.sha)?.byteLength ?? 0) > 0).map((c) => c.raw ?? c.path), source);
  // A Git LFS pointer is read with the object it stands for: that is what leaves the machine.
  const files: Candidate[] = wanted.map((c) => {
    const filter = filtered.get(c.path);
    const bytes = storedBytes(blobs, c.sha);
    if (bytes === null) return { path: c.path, missing: NO_BLOB };
    return filter !== undefined ? { path: c.path, missing: filteredWhy(filter) } : { path: c.path, ...throughLfs(root, bytes) };
  });
  const outside = (mode: string): Change[] => changes.filter((c) => c.status !== "D" && c.mode === mode && !under(c.path, layout.fixtures) && !under(c.path, layout.capturesInbox));
  // A link's target is a blob git sends as any other, whatever it holds: it is judged as a file's bytes.
  const links = outside(LINK_MODE);
  const targets = readBlobs(links.map((c) => c.sha), root);
  const linked: Candidate[] = links.map((c) => {
    const bytes = storedBytes(targets, c.sha);
    return bytes === null ? { path: c.path, missing: NO_BLOB } : { path: c.path, bytes };
  });
  // A submodule the change brings names a commit of another repository: the files of that commit are judged too.
  return [...files, ...linked, ...outside(SUBMODULE_MODE).flatMap((c) => submoduleCandidates(root, c.path, c.sha))];
}

/**
 * Every file of the commit a submodule names, for the raw-capture check: read in the submodule's
 * own repository, checked out at its path. Where it is not, or lacks that commit, its files cannot
 * be read, and a submodule inside it is not followed: each is refused as unchecked, never passed.
 */
function submoduleCandidates(root: string, at: string, commit: string): Candidate[] {
  const dir = path.join(root, at);
  const here = lstatOrNull(path.join(dir, ".git")) !== null && gitMaybe(["cat-file", "-e", `${commit}^{commit}`], dir, OWN_REPOSITORY) !== null;
  if (!here) return [{ path: at, missing: `it is a submodule whose commit ${commit.slice(0, 12)} is not checked out here, so the files it holds cannot be read` }];
  const entries = lsTree(commit, [], dir, true, OWN_REPOSITORY);
  const regular = entries.filter((e) => REGULAR_MODES.has(e.mode));
  const blobs = readBlobs(regular.map((e) => e.sha), dir, OWN_REPOSITORY);
  const nested = entries.filter((e) => e.mode === SUBMODULE_MODE).map((e) => ({ path: `${at}/${e.path}`, missing: "it is a submodule inside a submodule, which this check does not follow" }));
  return [
    ...nested,
    ...regular.map((e) => {
      const bytes = storedBytes(blobs, e.sha);
      return bytes === null ? { path: `${at}/${e.path}`, missing: NO_BLOB } : { path: `${at}/${e.path}`, bytes };
    }),
  ];
}

/**
 * Files as git stores them, for the payload check: a Git LFS pointer read with its object, and a
 * file (not empty) that a filter other than LFS stores as unchecked, since git keeps what the filter wrote.
 */
function readAsStored(root: string, files: { path: string; bytes: Uint8Array | null }[], source: AttributeSource): Candidate[] {
  const filtered = filteredPaths(root, files.filter((f) => (f.bytes?.byteLength ?? 0) > 0).map((f) => f.path), source);
  return files.map((f) => {
    const filter = filtered.get(f.path);
    if (f.bytes === null) return { path: f.path, missing: NO_BLOB };
    return filter !== undefined ? { path: f.path, missing: filteredWhy(filter) } : { path: f.path, ...throughLfs(root, f.bytes) };
  });
}

/** Every file of a commit's tree, as changes from nothing: what `verify --rev` checks by name and content. */
export function wholeTree(root: string, rev: string): Change[] {
  return lsTree(rev, [], root).map((e) => ({ path: e.path, mode: e.mode, sha: e.sha, status: "A", ...(e.raw === undefined ? {} : { raw: e.raw }) }));
}

interface DiskWalk {
  /** Every regular file in the order walked, with its SHA-256 where `hashed` says; its bytes kept only where `keep` says. */
  files: { path: string; sha256: string | null; bytes: Uint8Array | null }[];
  links: string[];
  notFiles: string[];
  keep: (rel: string) => boolean;
  hashed: (rel: string) => boolean;
}

/**
 * Every entry under a folder on disk, never following a link; each regular file read whole.
 * Synchronous reads, one file at a time, no thread-pool round trip per entry; every READS_PER_TURN
 * files the walk lets the event loop turn, so that the git the caller started meanwhile is answered
 * and what waits on it goes on.
 */
async function walkDisk(root: string, start: string, out: DiskWalk): Promise<void> {
  const stat = lstatOrNull(path.join(root, start));
  if (!stat) return;
  if (stat.isSymbolicLink()) out.links.push(start);
  else if (stat.isDirectory()) await walkFolder(root, start, out);
  else readInto(root, start, out, stat.isFile());
}

const READS_PER_TURN = 128;

async function walkFolder(root: string, folder: string, out: DiskWalk): Promise<void> {
  for (const { e, name, utf8 } of folderEntries(path.join(root, folder))) {
    const rel = `${folder}/${name}`;
    if (!utf8) out.notFiles.push(rel);
    else if (e.isSymbolicLink()) out.links.push(rel);
    else if (e.isDirectory()) await walkFolder(root, rel, out);
    else {
      readInto(root, rel, out, e.isFile());
      if ((out.files.length + out.notFiles.length) % READS_PER_TURN === 0) await new Promise((turned) => setImmediate(turned));
    }
  }
}

type EntryType = Pick<Dirent, "isFile" | "isDirectory" | "isSymbolicLink">;

/**
 * A folder's entries, sorted by name. A name that is not UTF-8 reads with U+FFFD: a name no file
 * has or another file's, so it is read by none. Names are read as text, and the folder again as
 * bytes only where a name holds U+FFFD, which a name in valid UTF-8 rarely does: bytes cost a
 * buffer for every name.
 */
function folderEntries(dir: string): { e: EntryType; name: string; utf8: boolean }[] {
  const asText = readdirSync(dir, { withFileTypes: true });
  const entries = asText.some((e) => e.name.includes("\uFFFD"))
    ? readdirSync(dir, { withFileTypes: true, encoding: "buffer" }).map((e) => ({ e, name: e.name.toString("utf8"), utf8: isUtf8(e.name) }))
    : asText.map((e) => ({ e, name: e.name, utf8: true }));
  return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function readInto(root: string, rel: string, out: DiskWalk, regular: boolean): void {
  // A file not kept is read into one reused buffer and hashed at once: 2,000 fixtures hold no memory.
  const keep = out.keep(rel);
  const read = regular ? readRegularFile(path.join(root, rel), { maxFileBytes: MAX_REPO_FILE, maxDepth: 1 }, !keep) : null;
  if (read?.bytes) out.files.push({ path: rel, sha256: out.hashed(rel) ? sha256Hex(read.bytes) : null, bytes: keep ? read.bytes : null });
  else out.notFiles.push(rel);
}

function lstatOrNull(p: string): ReturnType<typeof lstatSync> | null {
  try {
    return lstatSync(p);
  } catch {
    return null;
  }
}

/** A path git lists, with its bytes where they are not UTF-8 (see TreeEntry). */
export type ListedPath = Pick<TreeEntry, "path" | "raw">;

/** The files `git add -A` would add: untracked, and not ignored; from a git started now and read later. */
export function untrackedPathsLater(root: string): Promise<ListedPath[]> {
  const listed = gitLater(["ls-files", "-z", "--others", "--exclude-standard"], root);
  return later(listed.then((out) => nulFields(out).flatMap(({ text, raw }) => (text === "" ? [] : [raw === null ? { path: text } : { path: text, raw }]))));
}

/** The tool's places as they stand on disk; the inbox as the index holds it (raw sittings land there, uncommitted). `listed`, the whole index when already read; `others`, what git lists untracked. */
export async function guardedFromWorkingTree(root: string, layout: RepoLayout, listed?: TreeEntry[] | Promise<TreeEntry[]>, others?: Promise<ListedPath[]>): Promise<GuardedState> {
  const { above } = placesOf(layout);
  const keep = (rel: string): boolean => !under(rel, layout.fixtures) || EXEMPT_NAMES.has(path.posix.basename(rel));
  // A fixture is known by its digest; the record and the config by their bytes.
  const disk: DiskWalk = { files: [], links: [], notFiles: [], keep, hashed: (rel) => under(rel, layout.fixtures) };
  // The attributes of the fixtures the index and the untracked listing name are asked of git while the disk is read; those of any other after.
  const isFixture = (rel: string): boolean => under(rel, layout.fixtures) && !EXEMPT_NAMES.has(path.posix.basename(rel));
  // A listing that fails is told where it is awaited, after the walk: never as a rejection no one handled.
  const askedEarly = listed === undefined ? null : later(Promise.all([listed, others ?? []]).then(([index, untracked]) => [...index, ...untracked].map((e) => e.path).filter(isFixture)));
  const changedEarly = askedEarly === null ? null : later(askedEarly.then((paths) => checkoutChangedPathsLater(root, paths)));
  for (const a of above) if (lstatOrNull(path.join(root, a))?.isSymbolicLink()) disk.links.push(a);
  for (const place of [layout.fixtures, layout.clearance, CONFIG_FILE]) if (!disk.links.some((l) => under(place, l))) await walkDisk(root, place, disk);
  // The inbox's files are read as the index holds them, but a link standing where it stands is refused tracked or not.
  const inboxLinked = !disk.links.some((l) => under(layout.capturesInbox, l)) && lstatOrNull(path.join(root, layout.capturesInbox))?.isSymbolicLink() === true;
  // An index git is still listing is awaited only once the disk is read.
  const index = await listed;
  const inbox = sortEntries(index ? index.filter((e) => under(e.path, layout.capturesInbox)) : lsIndex([layout.capturesInbox], root), layout);
  const inboxBlobs = readBlobs(inbox.exempt.map((e) => e.sha), root);
  const fixtureFiles = disk.files.flatMap((f) => (f.sha256 === null ? [] : [{ ...f, sha256: f.sha256 }]));
  const record = disk.files.find((f) => f.path === layout.clearance)?.bytes;
  const exempt = fixtureFiles.flatMap((f) => (f.bytes && EXEMPT_NAMES.has(path.posix.basename(f.path)) ? [{ path: f.path, bytes: f.bytes }] : []));
  const onDisk = fixtureFiles.map((f) => f.path).filter(isFixture);
  const early = new Set((await askedEarly) ?? []);
  const changed = new Map([...((await changedEarly) ?? []), ...checkoutChangedPaths(root, onDisk.filter((p) => !early.has(p)), { worktree: true })]);
  const checkoutChanged = onDisk.flatMap((p) => (changed.has(p) ? [{ path: p, attribute: changed.get(p) as string }] : []));
  const shownOtherwise = shownOtherwisePaths(root, disk.files.filter((f) => f.path === layout.clearance || f.path === CONFIG_FILE).map((f) => f.path), { worktree: true });
  return {
    layout,
    fixtures: fixtureFiles.map((f) => ({ path: f.path, sha256: f.sha256 })),
    checkoutChanged,
    shownOtherwise: [...shownOtherwise].map(([p, attribute]) => ({ path: p, attribute })),
    inbox: inbox.inbox,
    exempt: [...readAsStored(root, exempt, { worktree: true }), ...readAsStored(root, inbox.exempt.map((e) => ({ path: e.path, bytes: storedBytes(inboxBlobs, e.sha) })), { index: true })],
    links: [...new Set([...disk.links, ...(inboxLinked ? [layout.capturesInbox] : []), ...inbox.links])],
    notFiles: [...disk.notFiles, ...inbox.notFiles],
    record: null,
    ...(record && { recordReading: recordReading(root, gitBlobId(record), layout.clearance, () => readRecordListing(Buffer.from(record), layout.clearance)) }),
  };
}

/** The id git gives these bytes as a blob (SHA-1 object format): the key the record's reading is remembered by, on disk as in the index. */
function gitBlobId(bytes: Uint8Array): string {
  return createHash("sha1").update(`blob ${bytes.byteLength}\0`).update(bytes).digest("hex");
}

/**
 * The paths a check of the working tree reads (tracked or untracked, outside the fixtures and the
 * inbox), and the filter each one's attributes name; apart, those git holds in bytes that are not
 * UTF-8, which no name read as text opens.
 */
export interface CandidatePaths {
  wanted: string[];
  filtered: Map<string, string>;
  notUtf8: string[];
}

/** The candidate paths from git's listings, their attributes asked of git as soon as it has listed them. */
export function candidatePathsLater(root: string, layout: RepoLayout, listed: Promise<TreeEntry[]>, others: Promise<ListedPath[]>): Promise<CandidatePaths> {
  const paths = Promise.all([listed, others]).then(async ([index, untracked]) => {
    const all: ListedPath[] = [...index, ...untracked].filter((e) => !under(e.path, layout.fixtures) && !under(e.path, layout.capturesInbox));
    // A name that is not UTF-8 reads as one with U+FFFD, which another file may have: that file is not read in its place.
    const notUtf8 = new Set(all.flatMap((e) => (e.raw === undefined ? [] : [e.path])));
    // A path in conflict stands in the index once per stage: it is read once.
    const wanted = [...new Set(all.map((e) => e.path))].filter((p) => !notUtf8.has(p));
    return { wanted, filtered: await filteredPathsLater(root, wanted), notUtf8: [...notUtf8] };
  });
  return later(paths);
}

/** No place of the tool's: inside a submodule every file is read for the raw-capture check. */
const NO_PLACES: RepoLayout = { capturesInbox: "", fixtures: "", clearance: "" };
/** How deep submodules inside submodules are followed on disk; one deeper is refused as unchecked. */
const SUBMODULE_DEPTH = 8;

/**
 * The files of each repository checked out inside the working tree, for the raw-capture check, as
 * the gate reads the commit a submodule names: a submodule the index holds, and a repository `git
 * add -A` would add as one (listed untracked as its folder, "emb/"); each read as its own git lists
 * it, tracked and untracked, with its own attributes, and the submodules inside it in turn. One not
 * checked out (an empty folder: a clone that never ran git submodule update) holds nothing here.
 */
export async function submodulesOnDisk(root: string, listed: ListedPath[], depth = 0): Promise<Candidate[]> {
  const out: Candidate[] = [];
  // A name that is not UTF-8 is refused by its name already (candidatesFromWorkingTree): the folder it reads as is another.
  for (const at of new Set(listed.filter((e) => e.raw === undefined).map((e) => e.path))) {
    const dir = path.join(root, at);
    if (lstatOrNull(dir)?.isDirectory() !== true || lstatOrNull(path.join(dir, ".git")) === null) continue;
    if (depth >= SUBMODULE_DEPTH) out.push({ path: at, missing: "it is a repository checked out inside submodules deeper than this check follows" });
    else pushAll(out, (await repositoryOnDisk(dir, depth)).map((c) => ({ ...c, path: c.path === "" ? at : `${at}/${c.path}` })));
  }
  return out;
}

/** The repositories a working tree holds, by git's listings: the index's submodules, and the folders it lists untracked whole ("emb/"), which git add -A adds as submodules. */
export function repositoriesInside(index: TreeEntry[], untracked: ListedPath[]): ListedPath[] {
  const folders = untracked.filter((u) => u.path.endsWith("/")).map((u) => ({ ...u, path: u.path.slice(0, -1) }));
  return [...index.filter((e) => e.mode === SUBMODULE_MODE), ...folders];
}

/** A repository's files on disk, as `clear verify` reads the working tree's, and those of the repositories inside it; one git cannot list is refused as unchecked. */
async function repositoryOnDisk(dir: string, depth: number): Promise<Candidate[]> {
  const [index, others] = [lsIndexLater(dir), untrackedPathsLater(dir)];
  let paths: CandidatePaths;
  try {
    paths = await candidatePathsLater(dir, NO_PLACES, index, others);
  } catch {
    return [{ path: "", missing: "it is a repository checked out here that git cannot list, so the files it holds cannot be read" }];
  }
  const inner = repositoriesInside(await index, await others);
  return [...candidatesFromWorkingTree(dir, paths), ...(await submodulesOnDisk(dir, inner, depth + 1))];
}

/**
 * Every candidate path read from disk (links, folders and missing files left out); as unchecked,
 * one a filter stores, a regular file that cannot be read (not allowed, past the size the check
 * reads, changed while read), and a name git holds in bytes that are not UTF-8, which is never read.
 */
export function candidatesFromWorkingTree(root: string, { wanted, filtered, notUtf8 }: CandidatePaths): Candidate[] {
  const out: Candidate[] = notUtf8.map((p) => ({ path: p, missing: "its name is not UTF-8 (shown with \ufffd), so the file it names cannot be read" }));
  for (const p of wanted) {
    const read = readRegularFile(path.join(root, p), { maxFileBytes: MAX_REPO_FILE, maxDepth: 1 });
    const filter = filtered.get(p);
    if (read.bytes && filter !== undefined && read.bytes.byteLength > 0) out.push({ path: p, missing: filteredWhy(filter) });
    else if (read.bytes) out.push({ path: p, bytes: read.bytes });
    // A file there that was not read is not shown clear: what it holds may be a capture.
    else if (lstatOrNull(path.join(root, p))?.isFile() === true) out.push({ path: p, missing: `it cannot be read (${read.problem?.message ?? "unreadable"})` });
  }
  return out;
}
