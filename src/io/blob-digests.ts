import { closeSync, constants, lstatSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from "node:fs";
import path from "node:path";
import { sha256Hash, sha256Hex } from "../digest.js";
import type { ClearMemory, RecordReading } from "../passes/verify.js";
import { toolVersion } from "../version.js";
import { gitMaybe, readBlobs } from "./git.js";

// The SHA-256 of git blobs, remembered by blob id in the repository's git folder, so a commit that
// touches one fixture among thousands reads and hashes that one blob. A blob id names its bytes
// (git rejects colliding objects), and the file lies beside the hooks that run the gate: whoever
// can write it can change the hooks. A line that does not read as "<blob id> <sha256>" is not
// believed; a file that cannot be read or written only costs the reading. The same holds for the
// record: the listing a record blob gives, when it gives no finding, is remembered by its blob id,
// this tool's version and the digest of the code that reads it, so a commit that leaves the record
// alone does not parse it again.

const FILE = "clear-blob-sha256";
const READING_FILE = "clear-record-reading";
const CLEAR_FILE = "clear-payload-free";
const LINE = /^([0-9a-f]{40}|[0-9a-f]{64}) ([0-9a-f]{64})$/;
/** Beyond this many remembered blobs, the ones this run did not ask for are forgotten. */
const MAX_REMEMBERED = 200_000;

const cachePaths = new Map<string, string[] | null>();

/**
 * The git folder without asking git where it can be told: GIT_DIR as git exports it to hooks, or a
 * `.git` folder at the root. What is remembered there is keyed by blob id, which names the same
 * bytes in any repository, so a folder read wrongly costs the reading only.
 */
function plainGitDir(root: string): string | null {
  if (process.env["GIT_COMMON_DIR"]) return null;
  const given = process.env["GIT_DIR"];
  if (given) return path.resolve(given);
  const dotGit = path.join(root, ".git");
  return lstatSync(dotGit, { throwIfNoEntry: false })?.isDirectory() ? dotGit : null;
}

const NAMES = [FILE, READING_FILE, CLEAR_FILE] as const;

/** Where each remembered file lies in the repository's git folder (asked of git once per root, when it must be). */
function cachePath(root: string, name: (typeof NAMES)[number]): string | null {
  if (!cachePaths.has(root)) {
    const dir = plainGitDir(root);
    const out = dir === null ? gitMaybe(["rev-parse", ...NAMES.flatMap((n) => ["--git-path", n])], root)?.toString("utf8").split("\n") : NAMES.map((n) => path.join(dir, n));
    const found = out?.slice(0, NAMES.length);
    cachePaths.set(root, found && found.length === NAMES.length && found.every(Boolean) ? found.map((p) => path.resolve(root, p)) : null);
  }
  const paths = cachePaths.get(root);
  return paths ? (paths[NAMES.indexOf(name)] as string) : null;
}

function replaceFile(file: string, text: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, text, { flag: "w", mode: 0o644 });
    renameSync(temp, file);
  } catch {
    rmSync(temp, { force: true });
  }
}

/** Added to, never through a link. */
const APPEND = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW;

/** Every line well formed: the usual case, read by position with no look at each line. */
const WHOLE = /^(?:(?:[0-9a-f]{40}|[0-9a-f]{64}) [0-9a-f]{64}\n)*$/;

interface Remembered {
  known: Map<string, string>;
  /** The file is empty or ends at a line's end: a line added goes on as it is. */
  whole: boolean;
}

function readCache(file: string): Remembered {
  const known = new Map<string, string>();
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return { known, whole: true };
  }
  const whole = text === "" || text.endsWith("\n");
  if (WHOLE.test(text)) {
    for (let at = 0; at < text.length; ) {
      const end = text.indexOf("\n", at);
      known.set(text.slice(at, end - 65), text.slice(end - 64, end));
      at = end + 1;
    }
    return { known, whole };
  }
  for (const line of text.split("\n")) {
    const m = LINE.exec(line);
    if (m) known.set(m[1] as string, m[2] as string);
  }
  return { known, whole };
}

/**
 * New lines are added at the end of the file (one write, whole lines); past the bound of `count`
 * lines, or where it cannot be added to, it is written again with `kept` alone.
 */
function addLines(file: string, whole: boolean, added: string[], count: number, kept: () => string[]): void {
  if (count <= MAX_REMEMBERED) {
    try {
      // After a line cut short (a run stopped mid-write), a line break first: the cut line alone is lost.
      const fd = openSync(file, APPEND, 0o644);
      try {
        writeSync(fd, `${whole ? "" : "\n"}${added.map((line) => `${line}\n`).join("")}`);
      } finally {
        closeSync(fd);
      }
      return;
    } catch {
      // written again whole below
    }
  }
  replaceFile(file, kept().map((line) => `${line}\n`).join(""));
}

function writeCache(file: string, { known, whole }: Remembered, added: Map<string, string>, asked: Set<string>): void {
  const line = ([id, digest]: [string, string]): string => `${id} ${digest}`;
  addLines(file, whole, [...added].map(line), known.size, () => [...known].filter(([id]) => known.size <= MAX_REMEMBERED || asked.has(id)).map(line));
}

/** SHA-256 of each blob, by blob id; a blob git does not have is left out. */
export function blobDigests(root: string, ids: string[]): Map<string, string> {
  const file = cachePath(root, FILE);
  const remembered = file === null ? { known: new Map<string, string>(), whole: true } : readCache(file);
  const known = remembered.known;
  const asked = new Set(ids);
  const out = new Map<string, string>();
  const missing: string[] = [];
  for (const id of asked) {
    const digest = known.get(id);
    if (digest === undefined) missing.push(id);
    else out.set(id, digest);
  }
  if (missing.length === 0) return out;
  const added = new Map<string, string>();
  for (const [id, bytes] of readBlobs(missing, root)) {
    const digest = sha256Hex(bytes);
    out.set(id, digest);
    known.set(id, digest);
    added.set(id, digest);
  }
  if (file !== null && added.size > 0) writeCache(file, remembered, added, asked);
  return out;
}

const DIGEST = /^[0-9a-f]{64}$/;
const CONTROL = /[\u0000-\u001f\u007f]/;

/** A remembered listing, believed only when every entry is a plain path and a SHA-256. */
function rememberedListing(text: string, key: string): [string, string][] | null {
  let held: unknown;
  try {
    held = JSON.parse(text);
  } catch {
    return null;
  }
  const h = held as { key?: unknown; listed?: unknown } | null;
  if (typeof h !== "object" || h === null || h.key !== key || !Array.isArray(h.listed)) return null;
  const ok = h.listed.every((e: unknown) => Array.isArray(e) && e.length === 2 && typeof e[0] === "string" && !CONTROL.test(e[0]) && typeof e[1] === "string" && DIGEST.test(e[1]));
  return ok ? (h.listed as [string, string][]) : null;
}

/**
 * The modules whose code decides what a record says, beside this one's folder: the record's own
 * (every one, so that one it comes to import is not left out), the reading of it into a listing,
 * and the digest a batch holds by. A build with other parsing rules under the same version is
 * another reader: its remembered readings are not this one's.
 */
const READER_MODULES = ["passes/verify.js", "digest.js"];
let readerKey: string | null | undefined;

/** The SHA-256 of the reader's modules, worked out once a run (some 40 KB); null where one cannot be read, and then nothing is remembered. */
function readerDigest(): string | null {
  if (readerKey !== undefined) return readerKey;
  try {
    const dist = new URL("../", import.meta.url);
    const record = readdirSync(new URL("record/", dist)).filter((name) => name.endsWith(".js")).sort().map((name) => `record/${name}`);
    const hash = sha256Hash();
    for (const rel of [...record, ...READER_MODULES]) hash.update(`${rel}\0`).update(readFileSync(new URL(rel, dist))).update("\0");
    readerKey = record.length > 0 ? hash.digest("hex") : null;
  } catch {
    readerKey = null;
  }
  return readerKey;
}

/** What the record blob `id` (at `file`) says: remembered when it gave no finding, else read by `read` each time. */
export function recordReading(root: string, id: string, file: string, read: () => RecordReading): RecordReading {
  const reader = readerDigest();
  const at = reader === null ? null : cachePath(root, READING_FILE);
  const key = `${toolVersion()} ${reader} ${id} ${file}`;
  if (at !== null) {
    let text = "";
    try {
      text = readFileSync(at, "utf8");
    } catch {
      // nothing remembered
    }
    const listed = rememberedListing(text, key);
    if (listed !== null) return { listed, findings: [] };
  }
  const reading = read();
  if (at !== null && reading.findings.length === 0) replaceFile(at, JSON.stringify({ key, listed: reading.listed }));
  return reading;
}

const CLEAR_LINE = /^[0-9a-f]{64}$/;

/**
 * Files the raw-capture check found clear, remembered in the git folder as one SHA-256 each of the
 * rules' key (the tool's version and the rule files, see rawCaptureRulesKey), the path and the
 * bytes: any change to one is another line, and a line that is not a digest is not believed. With
 * no key, or no git folder, nothing is remembered and every file is checked.
 */
export function clearMemory(root: string, rulesKey: string | null): ClearMemory & { save(): void } {
  const file = rulesKey === null ? null : cachePath(root, CLEAR_FILE);
  let text = "";
  try {
    if (file !== null) text = readFileSync(file, "utf8");
  } catch {
    // nothing remembered
  }
  const known = new Set(text.split("\n").filter((line) => CLEAR_LINE.test(line)));
  const asked = new Set<string>();
  const added = new Set<string>();
  const digest = (name: string, bytes: Uint8Array): string =>
    sha256Hash().update(`${rulesKey}\0${name}\0`).update(bytes).digest("hex");
  return {
    isClear(name, bytes) {
      if (file === null) return false;
      const d = digest(name, bytes);
      asked.add(d);
      return known.has(d);
    },
    remember(name, bytes) {
      if (file === null) return;
      const d = digest(name, bytes);
      asked.add(d);
      if (!known.has(d)) added.add(d);
    },
    save() {
      if (file === null || added.size === 0) return;
      for (const d of added) known.add(d);
      addLines(file, text === "" || text.endsWith("\n"), [...added], known.size, () => [...known].filter((d) => known.size <= MAX_REMEMBERED || asked.has(d)));
    },
  };
}
