import { isUtf8 } from "node:buffer";
import { closeSync, constants, fstatSync, openSync, promises as fs, readSync } from "node:fs";
import path from "node:path";
import { sha256Hex } from "../digest.js";
import { CaptureDirError } from "../errors.js";
import { JsonScanError, placeOf, scanJson } from "../json/reader.js";
import type { CaptureEntry, EntryKind, JsonDocument, ReadProblem } from "../types.js";
import { holdYoungGeneration } from "./process-io.js";

// The only way into a capture directory: regular files only, opened without following links,
// capped in size, checked as UTF-8 and parsed with source positions. It never writes.

export interface ReadLimits {
  maxFileBytes: number;
  maxDepth: number;
}

export const DEFAULT_LIMITS: ReadLimits = { maxFileBytes: 8 * 1024 * 1024, maxDepth: 128 };
/** The most a size cap may be (1 GiB; also clear.config.json's limit): a file is read whole, in one read, which Node bounds below 2 GiB. */
export const MAX_FILE_BYTES_CAP = 1024 * 1024 * 1024;

export { CaptureDirError };

/** Offset of the first byte that breaks UTF-8, or -1. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  const n = bytes.length;
  while (i < n) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else return i;
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Decodes and parses one file's bytes; pure, so tests and the bench can call it on bytes in memory. */
export function parseCaptureBytes(bytes: Uint8Array, limits: ReadLimits): { doc?: JsonDocument; problem?: ReadProblem } {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return { problem: { code: "not-utf8", message: "starts with a UTF-8 byte order mark; a host never sends one", line: 1, column: 1 } };
  }
  if (!isUtf8(bytes)) {
    const at = firstInvalidUtf8(bytes);
    const before = decoder.decode(bytes.subarray(0, Math.max(at, 0)));
    const place = placeOf(before, before.length);
    return { problem: { code: "not-utf8", message: `invalid UTF-8 at byte ${at}`, ...place } };
  }
  // Validated above, so the plain decoder cannot substitute anything.
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  if (text.trim() === "") {
    return { problem: { code: "invalid-json", message: "the file is empty", line: 1, column: 1 } };
  }
  try {
    const doc = scanJson(text, { maxDepth: limits.maxDepth });
    const top = doc.spans[0]?.kind;
    if (top !== "object") {
      const kind = top === "array" ? "an array" : top === "null" ? "null" : top === "bool" ? "a boolean" : `a ${top}`;
      return { problem: { code: "not-an-object", message: `the top-level value is ${kind}, not an object`, line: 1, column: 1 } };
    }
    return { doc };
  } catch (err) {
    if (err instanceof JsonScanError) {
      const problem: ReadProblem = { code: err.code, message: err.message, ...placeOf(text, err.offset) };
      if (err.pointer !== undefined) problem.pointer = err.pointer;
      return { problem };
    }
    throw err;
  }
}


export interface RawRead {
  bytes?: Uint8Array;
  size: number;
  problem?: ReadProblem;
}

// Synchronous on purpose: one local file at a time, without a thread-pool round trip per call.
// A capture's bytes are needed only while it is hashed and decoded: one buffer serves every file.
let scratch = Buffer.allocUnsafe(64 * 1024);

/**
 * Reads a regular file whole. With `transient`, the bytes returned are a view of a shared buffer
 * that the next transient read overwrites: the caller uses them at once and keeps none.
 */
export function readRegularFile(filePath: string, limits: ReadLimits, transient = false): RawRead {
  let fd: number;
  try {
    // O_NOFOLLOW: a file swapped for a link between listing and opening is refused, not followed.
    fd = openSync(filePath, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ELOOP") return { size: 0, problem: { code: "unreadable", message: "became a symbolic link while being read; not followed" } };
    return { size: 0, problem: { code: "unreadable", message: `could not be opened (${code ?? String(err)})` } };
  }
  try {
    const stat = fstatSync(fd);
    const base = { size: stat.size };
    if (!stat.isFile()) return { ...base, problem: { code: "unreadable", message: "is not a regular file" } };
    if (stat.size > limits.maxFileBytes) {
      return { ...base, problem: { code: "oversize", message: `${stat.size} bytes, above the cap of ${limits.maxFileBytes} bytes; not read` } };
    }
    // One byte more than the size is asked for, so a file that grew while being read shows in the
    // same read; on a regular file a short read means the end. Not zero-filled: every byte kept is read.
    if (transient && scratch.length < stat.size + 1) scratch = Buffer.allocUnsafe(Math.max(stat.size + 1, scratch.length * 2));
    const buffer = transient ? scratch : Buffer.allocUnsafe(stat.size + 1);
    let filled = 0;
    for (;;) {
      const want = stat.size + 1 - filled;
      const n = readSync(fd, buffer, filled, want, filled);
      filled += n;
      if (n === 0 || n < want || filled > stat.size) break;
    }
    if (filled !== stat.size) {
      return { ...base, problem: { code: "unreadable", message: `changed size while being read (${Math.min(filled, stat.size + 1)} bytes where ${stat.size} were expected)` } };
    }
    const bytes = buffer.subarray(0, stat.size);
    return { ...base, bytes };
  } finally {
    closeSync(fd);
  }
}

export interface CaptureListing {
  path: string;
  entries: { name: string; entryKind: EntryKind }[];
}

/**
 * True when `dir`, walked part by part as written, goes up ("..") out of a symbolic link: the system
 * goes up from the link's target, while the path read as text goes up from where the link stands,
 * so the two name different folders (`link/../sitting`). Up from a real folder they are one.
 */
async function upOutOfLink(dir: string): Promise<boolean> {
  let at = path.isAbsolute(dir) ? path.parse(dir).root : process.cwd();
  for (const part of dir.split(path.sep)) {
    if (part === "" || part === ".") continue;
    if (part !== "..") {
      at = path.join(at, part);
      continue;
    }
    const link = await fs.lstat(at).then((s) => s.isSymbolicLink(), () => false);
    if (link) return true;
    at = path.dirname(at);
  }
  return false;
}

/** Lists a capture directory without reading any file. Throws CaptureDirError when the folder itself cannot be read. */
export async function listCaptureDir(dir: string, shownAs: string = dir): Promise<CaptureListing> {
  if (await upOutOfLink(dir)) throw new CaptureDirError(`${shownAs}: goes up ("..") out of a symbolic link, which the system takes from the folder the link points to, not from where the path shows it; name the real folder`);
  const abs = path.resolve(dir);
  let stat;
  try {
    stat = await fs.lstat(abs);
  } catch {
    throw new CaptureDirError(`${shownAs}: no such folder`);
  }
  if (stat.isSymbolicLink()) throw new CaptureDirError(`${shownAs}: is a symbolic link; name the real folder`);
  if (!stat.isDirectory()) throw new CaptureDirError(`${shownAs}: not a directory`);
  let dirents;
  try {
    dirents = await fs.readdir(abs, { withFileTypes: true });
  } catch (err) {
    throw new CaptureDirError(`${shownAs}: cannot be listed (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  const entries = dirents.map((d) => ({
    name: d.name,
    entryKind: (d.isSymbolicLink() ? "symlink" : d.isDirectory() ? "directory" : d.isFile() ? "file" : "other") as EntryKind,
  }));
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { path: abs, entries };
}

/** Reads one listed entry: a regular file is read, hashed and parsed; anything else only named. */
export function readCaptureEntry(dirPath: string, listed: { name: string; entryKind: EntryKind }, limits: ReadLimits): CaptureEntry {
  const { name, entryKind } = listed;
  if (entryKind !== "file") return { kind: "unreadable", name, size: 0, entryKind, problem: null, sha256: null };
  const read = readRegularFile(path.join(dirPath, name), limits, true);
  if (!read.bytes) return { kind: "unreadable", name, size: read.size, entryKind, problem: read.problem ?? null, sha256: null };
  const sha256 = sha256Hex(read.bytes);
  const parsed = parseCaptureBytes(read.bytes, limits);
  if (!parsed.doc) return { kind: "unreadable", name, size: read.size, entryKind, problem: parsed.problem ?? null, sha256, text: Buffer.from(read.bytes).toString("utf8") };
  // The bytes are not kept: the document's text is the same content, and a sitting is held once.
  return { kind: "readable", name, size: read.size, sha256, doc: parsed.doc };
}

/** Reads every entry of a listed folder, in name order. */
export function readCaptureEntries(list: CaptureListing, limits: ReadLimits): CaptureEntry[] {
  const entries = list.entries.map((listed) => {
    holdYoungGeneration(true);
    return readCaptureEntry(list.path, listed, limits);
  });
  holdYoungGeneration(false);
  return entries;
}
