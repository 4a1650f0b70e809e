import { isUtf8 } from "node:buffer";
import { pushAll } from "../collections.js";
import { GitError } from "../errors.js";
import { execFile, execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

// The edge that talks to git: trees, blobs, the index and commit ranges, read without touching
// the working tree. Every listing is read NUL-separated, so a path is taken exactly as git holds
// it (tabs, newlines, quotes, leading dashes, any letters).

export { GitError };

/**
 * git reads objects as they are: a refs/replace entry cannot stand one blob in for another; and
 * every path handed to it is a path, never pathspec magic (a folder named ":inbox" or "*" is that folder).
 */
const GIT_ENV = { ...process.env, GIT_NO_REPLACE_OBJECTS: "1", GIT_LITERAL_PATHSPECS: "1" };

export function git(args: string[], cwd: string, input?: string | Buffer, env?: Record<string, string | undefined>): Buffer {
  try {
    return execFileSync("git", args, { cwd, input, env: env ? { ...GIT_ENV, ...env } : GIT_ENV, maxBuffer: 1 << 30, stdio: ["pipe", "pipe", "pipe"] });
  } catch (err) {
    const stderr = (err as { stderr?: Buffer }).stderr?.toString().trim();
    throw new GitError(`git ${args[0]}: ${stderr || (err as Error).message}`);
  }
}

/**
 * `git` started now and read later: the caller goes on with its own work (reading files) while git
 * runs. The same answer and the same error as `git`, thrown where the answer is awaited.
 */
export function gitLater(args: string[], cwd: string, input?: string | Buffer): Promise<Buffer> {
  return later(
    new Promise((resolve, reject) => {
      const child = execFile("git", args, { cwd, env: GIT_ENV, maxBuffer: 1 << 30, encoding: "buffer" }, (err, stdout, stderr) => {
        if (err) reject(new GitError(`git ${args[0]}: ${stderr.toString().trim() || err.message}`));
        else resolve(stdout);
      });
      // A git that ends before reading all its input fails on its own account; the broken pipe says nothing more.
      child.stdin?.on("error", () => undefined);
      child.stdin?.end(input);
    }),
  );
}

/**
 * A promise awaited later: a failure that comes while the caller's own work runs waits for the
 * await, rather than ending the process as a rejection nothing handles.
 */
export function later<T>(p: Promise<T>): Promise<T> {
  p.catch(() => undefined);
  return p;
}

/**
 * What points git at a repository other than the one its folder holds, as git itself leaves out
 * when it works in a submodule: a hook in a linked worktree is given GIT_DIR and GIT_INDEX_FILE,
 * which would send git, asked inside a submodule's folder, to the superproject's objects.
 */
export const OWN_REPOSITORY: Record<string, undefined> = Object.fromEntries(
  ["GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_OBJECT_DIRECTORY", "GIT_DIR", "GIT_WORK_TREE", "GIT_IMPLICIT_WORK_TREE", "GIT_GRAFT_FILE", "GIT_INDEX_FILE", "GIT_PREFIX", "GIT_SHALLOW_FILE", "GIT_COMMON_DIR"].map((k) => [k, undefined]),
);

/** git's answer, or null when git refuses (an unknown rev, no HEAD yet). */
export function gitMaybe(args: string[], cwd: string, env?: Record<string, string | undefined>): Buffer | null {
  try {
    return git(args, cwd, undefined, env);
  } catch (err) {
    return refused(err);
  }
}

/** `gitMaybe`, from a git started now and read later. */
export function gitMaybeLater(args: string[], cwd: string): Promise<Buffer | null> {
  return later(gitLater(args, cwd).catch(refused));
}

/** Null for git's refusal; anything else is thrown on. */
function refused(err: unknown): null {
  if (err instanceof GitError) return null;
  throw err;
}

/** The id and type git gives each object name (`<commit>:<path>`, `<id>^{}`), in one call; null where it names none. */
export function objectsNamed(names: string[], cwd: string): ({ id: string; type: string } | null)[] {
  if (names.length === 0) return [];
  const lines = git(["cat-file", "--batch-check"], cwd, `${names.join("\n")}\n`).toString("utf8").split("\n");
  return names.map((_, i) => {
    const [id, type] = (lines[i] ?? "").split(" ");
    return id !== undefined && type !== undefined && /^[0-9a-f]{40,64}$/.test(id) ? { id, type } : null;
  });
}

export interface TreeEntry {
  mode: string;
  sha: string;
  path: string;
  /** The name's bytes, where they are not UTF-8: `path` shows them with U+FFFD and names no file, or another one. */
  raw?: Buffer;
}

export const LINK_MODE = "120000";
export const SUBMODULE_MODE = "160000";

/**
 * The NUL-separated fields of a listing, each with its bytes where they are not UTF-8: such a name
 * reads with U+FFFD in it, a name no file has, or another file's.
 */
export function nulFields(out: Buffer): { text: string; raw: Buffer | null }[] {
  // The usual case: all of it UTF-8, decoded at once.
  if (isUtf8(out)) return out.toString("utf8").split("\0").map((text) => ({ text, raw: null }));
  const fields: { text: string; raw: Buffer | null }[] = [];
  for (let at = 0; at <= out.length; ) {
    let end = out.indexOf(0, at);
    if (end === -1) end = out.length;
    const field = out.subarray(at, end);
    fields.push({ text: field.toString("utf8"), raw: isUtf8(field) ? null : field });
    at = end + 1;
  }
  return fields;
}

/** "<meta>\t<path>" records of a -z listing; the path is everything after the first tab (its bytes, where they are not UTF-8). */
function records(out: Buffer): { meta: string; path: string; raw: Buffer | null }[] {
  const found: { meta: string; path: string; raw: Buffer | null }[] = [];
  for (const { text, raw } of nulFields(out)) {
    if (text === "") continue;
    const tab = text.indexOf("\t");
    // The meta is ASCII: the path's bytes start after the first tab byte.
    const pathBytes = raw === null ? null : raw.subarray(raw.indexOf(9) + 1);
    found.push(tab === -1 ? { meta: text, path: "", raw: null } : { meta: text.slice(0, tab), path: text.slice(tab + 1), raw: pathBytes });
  }
  return found;
}

/** Entries of a commit's tree under the given paths; `recursive` false lists the named entries themselves. */
export function lsTree(rev: string, paths: string[], cwd: string, recursive = true, env?: Record<string, string | undefined>): TreeEntry[] {
  const out = git(["ls-tree", ...(recursive ? ["-r"] : []), "-z", "--full-tree", rev, "--", ...paths], cwd, undefined, env);
  return records(out).map(({ meta, path, raw }) => {
    const [mode, , sha] = meta.split(" ") as [string, string, string];
    return raw === null ? { mode, sha, path } : { mode, sha, path, raw };
  });
}

/** Entries of the index (what a commit would hold) under the given paths. */
export function lsIndex(paths: string[], cwd: string): TreeEntry[] {
  return indexEntries(git(["ls-files", "-s", "-z", "--", ...paths], cwd));
}

/** The whole index, as `lsIndex`, from a git started now and read later. */
export function lsIndexLater(cwd: string): Promise<TreeEntry[]> {
  return later(gitLater(["ls-files", "-s", "-z", "--"], cwd).then(indexEntries));
}

function indexEntries(out: Buffer): TreeEntry[] {
  return records(out).map(({ meta, path, raw }) => {
    const [mode, sha] = meta.split(" ") as [string, string];
    return raw === null ? { mode, sha, path } : { mode, sha, path, raw };
  });
}

/** One changed path in a diff: its new mode and blob (zeros for a deletion) and git's status letter. */
export interface Change {
  path: string;
  mode: string;
  sha: string;
  status: string;
  /** The path's bytes, where they are not UTF-8 (see TreeEntry). */
  raw?: Buffer;
}

/** Parses `--raw -z` diff output: ":old new oldsha newsha status\0path\0" records, commit lines between. */
export function parseRawDiff(out: Buffer): { commit: string | null; changes: Change[] }[] {
  const fields = nulFields(out);
  const groups: { commit: string | null; changes: Change[] }[] = [{ commit: null, changes: [] }];
  for (let i = 0; i < fields.length; i++) {
    const f = (fields[i] as { text: string }).text.replace(/^\n/, "");
    if (/^[0-9a-f]{40,64}$/.test(f)) {
      groups.push({ commit: f, changes: [] });
      continue;
    }
    if (!f.startsWith(":")) continue;
    const [, newMode, , newSha, status] = f.slice(1).split(" ") as [string, string, string, string, string];
    const name = fields[++i] ?? { text: "", raw: null };
    const change: Change = { path: name.text, mode: newMode, sha: newSha, status: status.slice(0, 1) };
    (groups.at(-1) as { changes: Change[] }).changes.push(name.raw === null ? change : { ...change, raw: name.raw });
  }
  return groups.filter((g) => g.commit !== null || g.changes.length > 0);
}

// How a change is listed: every path whole and in full, whatever the repository's or the person's
// configuration says. A submodule set to be ignored (.gitmodules' or .git/config's `ignore`,
// `diff.ignoreSubmodules`) would otherwise be left out, and `diff.relative` would list only the
// paths below the folder git runs in.
const LISTING = ["--raw", "-z", "--no-renames", "--no-abbrev", "--ignore-submodules=none", "--no-relative"];

/** What is staged: every path the next commit changes against HEAD (or against nothing, before the first commit). */
const staged = new Map<string, Change[]>();

/**
 * What the index holds against HEAD. Read once per process and index: the gate's fast path and
 * the whole gate after it, in one hook's process, see the one index git holds locked for them.
 */
export function stagedChanges(cwd: string): Change[] {
  const key = `${cwd}\0${process.env["GIT_INDEX_FILE"] ?? ""}`;
  let changes = staged.get(key);
  if (changes === undefined) {
    changes = parseRawDiff(git(["diff", "--cached", ...LISTING], cwd)).flatMap((g) => g.changes);
    staged.set(key, changes);
  }
  return changes;
}

/** What each commit changes against each of its parents (all of it, for a root commit). */
export function commitChanges(commits: string[], cwd: string): Map<string, Change[]> {
  const out = new Map<string, Change[]>(commits.map((c) => [c, []]));
  if (commits.length === 0) return out;
  const raw = git(["diff-tree", "--stdin", "-r", "-m", "--root", ...LISTING], cwd, `${commits.join("\n")}\n`);
  for (const g of parseRawDiff(raw)) {
    if (g.commit === null) continue;
    const list = out.get(g.commit);
    if (list) pushAll(list, g.changes);
    else out.set(g.commit, [...g.changes]);
  }
  return out;
}

/** Commits listed by rev-list arguments, oldest first. */
export function revList(args: string[], cwd: string): string[] {
  // Revisions go on standard input, not the command line: what a destination has may be tens of
  // thousands of refs, past what a command line holds. Options stay on the command line; each
  // revision after --not is written with ^, as standard input takes no option.
  const options: string[] = [];
  const revisions: string[] = [];
  let not = false;
  for (const a of args) {
    if (a === "--not") not = !not;
    else if (a.startsWith("--")) options.push(a);
    else revisions.push(not ? (a.startsWith("^") ? a.slice(1) : `^${a}`) : a);
  }
  return git(["rev-list", "--reverse", ...options, "--stdin", "--"], cwd, `${revisions.join("\n")}\n`).toString("utf8").split("\n").filter(Boolean);
}

/** The commits where a shallow clone's history is cut off: their parents are not here. */
export function shallowCommits(cwd: string): Set<string> {
  const file = path.resolve(cwd, git(["rev-parse", "--git-path", "shallow"], cwd).toString("utf8").trim());
  return existsSync(file) ? new Set(readFileSync(file, "utf8").split("\n").filter(Boolean)) : new Set();
}

/** Several objects at once, each with its type; an object git does not have is left out. */
export function readObjects(shas: string[], cwd: string, env?: Record<string, string | undefined>): Map<string, { type: string; bytes: Buffer }> {
  const out = new Map<string, { type: string; bytes: Buffer }>();
  const wanted = [...new Set(shas)];
  if (wanted.length === 0) return out;
  const all = git(["cat-file", "--batch"], cwd, `${wanted.join("\n")}\n`, env);
  let at = 0;
  for (const sha of wanted) {
    const nl = all.indexOf(10, at);
    const header = all.subarray(at, nl).toString("utf8").split(" ");
    at = nl + 1;
    if (header[1] === "missing" || header.length < 3) continue;
    const size = Number(header[2]);
    out.set(sha, { type: header[1] as string, bytes: all.subarray(at, at + size) });
    at += size + 1;
  }
  return out;
}

/** The bytes of several blobs at once; an object git does not have, or one that is not a blob, is left out. */
export function readBlobs(shas: string[], cwd: string, env?: Record<string, string | undefined>): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const [sha, o] of readObjects(shas, cwd, env)) if (o.type === "blob") out.set(sha, o.bytes);
  return out;
}
