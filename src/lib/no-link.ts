import {
  closeSync,
  constants,
  fstatSync,
  ftruncateSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readlinkSync,
  readSync,
  realpathSync,
  unlinkSync,
  writeSync,
  type Dirent,
  type Stats,
} from "node:fs";
import path from "node:path";

// Reading below a folder without ever being led elsewhere: every folder between the base and the
// file is checked to be a folder and not a link, and the file itself is opened without following
// a link (O_NOFOLLOW) and read only when fstat says it is a regular file. Where the system says
// which file an open descriptor is (/proc/self/fd on Linux), that is checked too, so a folder
// swapped for a link between the check and the open is caught. Fixtures and the record are read
// this way by the library and by clear compare alike. Files the tool writes below a folder it was
// given (a capture kit's transports, a sitting's records) are written the same way round.

export type Refusal = "missing" | "link" | "not-a-file" | "oversize" | "unreadable";

/** The bytes of a regular file, with whether any of its execute bits is set; or why it was not read. */
export type NoLinkRead = { bytes: Buffer; executable: boolean } | { refused: Refusal; at: string; detail: string };

function lstatOrNull(p: string): Stats | null {
  try {
    return lstatSync(p);
  } catch {
    return null;
  }
}

/** What stands at `p`, a link not followed; or why nothing can be said: the error's code. */
function lstatOrCode(p: string): Stats | string {
  try {
    return lstatSync(p);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code ?? "unknown error";
  }
}

/** The first folder on the way from `base` to `rel` that is missing, a link or not a folder, or that a folder above keeps this user from looking at. */
function folderProblem(base: string, parts: string[]): { refused: Refusal; at: string; detail: string } | null {
  for (let k = 1; k < parts.length; k++) {
    const at = parts.slice(0, k).join("/");
    const stat = lstatOrCode(path.join(base, at));
    // A folder this user may not look into (EACCES) hides what stands there: that is no proof it is missing.
    if (stat === "ENOENT" || stat === "ENOTDIR") return { refused: "missing", at, detail: "no such folder" };
    if (typeof stat === "string") return { refused: "unreadable", at, detail: `could not be looked at (${stat})` };
    if (stat.isSymbolicLink()) return { refused: "link", at, detail: "is a symbolic link; never followed" };
    if (!stat.isDirectory()) return { refused: "not-a-file", at, detail: "is not a folder" };
  }
  return null;
}

function openFile(file: string, at: string): number | { refused: Refusal; at: string; detail: string } {
  try {
    return openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ELOOP") return { refused: "link", at, detail: "is a symbolic link; never followed" };
    if (code === "ENOENT") return { refused: "missing", at, detail: "no such file" };
    // A socket (ENXIO), or a device with nothing behind it, is no file whatever its permissions.
    if (code === "ENXIO" || code === "ENODEV" || code === "EOPNOTSUPP") return { refused: "not-a-file", at, detail: `is not a regular file (${code})` };
    return { refused: "unreadable", at, detail: `could not be opened (${code ?? "unknown error"})` };
  }
}

/** The file an open descriptor is, as the system resolved it; null where the system does not say. */
function openedPath(fd: number): string | null {
  try {
    return readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    return null;
  }
}

function realOrNull(p: string): string | null {
  try {
    return realpathSync(p);
  } catch {
    return null;
  }
}

/**
 * Reads `rel` (a path below `base`, with / between its parts) whole, or says why not. A file
 * larger than `maxBytes` is not read.
 */
export function readBelow(base: string, rel: string, maxBytes: number): NoLinkRead {
  const parts = rel.split("/");
  if (parts.some((p) => p === "." || p === "..")) return { refused: "not-a-file", at: rel, detail: "is not a path below the folder" };
  const above = folderProblem(base, parts);
  if (above) return above;
  const fd = openFile(path.join(base, rel), rel);
  if (typeof fd !== "number") return fd;
  try {
    // What was opened is the file below the base, not one a link swapped in on the way led to.
    const opened = openedPath(fd);
    const realBase = opened === null ? null : realOrNull(base);
    if (opened !== null && realBase !== null && opened !== path.join(realBase, ...parts)) {
      return { refused: "link", at: rel, detail: "was reached through a link swapped in while it was opened; never followed" };
    }
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { refused: "not-a-file", at: rel, detail: "is not a regular file" };
    if (stat.size > maxBytes) return { refused: "oversize", at: rel, detail: `${stat.size} bytes, above ${maxBytes}` };
    // The bytes are handed to callers: a buffer of their own and of exactly their size, never a
    // slice of Node's shared pool nor of a larger buffer (its .buffer would hold bytes the file has not).
    const buffer = Buffer.allocUnsafeSlow(stat.size);
    let filled = 0;
    for (let n = -1; n !== 0 && filled < stat.size; filled += n) n = readSync(fd, buffer, filled, stat.size - filled, filled);
    // One byte more than the size is asked for, so a file that grew while being read shows.
    const grew = readSync(fd, Buffer.alloc(1), 0, 1, filled) !== 0;
    if (filled !== stat.size || grew) return { refused: "unreadable", at: rel, detail: "changed size while being read" };
    return { bytes: buffer, executable: (stat.mode & 0o111) !== 0 };
  } finally {
    closeSync(fd);
  }
}

/** The entries of the folder `rel` below `base` (`""` for the base itself), after the same checks on the way. */
export function listBelow(base: string, rel: string): { entries: Dirent[] } | { refused: Refusal; at: string; detail: string } {
  const parts = rel === "" ? [] : rel.split("/");
  const above = folderProblem(base, [...parts, ""]);
  if (above) return above;
  try {
    return { entries: readdirSync(path.join(base, rel), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)) };
  } catch (err) {
    return { refused: "unreadable", at: rel, detail: `could not be listed (${(err as NodeJS.ErrnoException).code ?? "unknown error"})` };
  }
}

/** The first folder on the way from `base` to the file `rel` (with / between its parts) that is missing, a link or not a folder; null where none is. */
export function wayBelow(base: string, rel: string): { refused: Refusal; at: string; detail: string } | null {
  const parts = rel.split("/");
  if (parts.some((p) => p === "." || p === "..")) return { refused: "not-a-file", at: rel, detail: "is not a path below the folder" };
  return folderProblem(base, parts);
}

/** True when a regular file (not a link) stands at `rel` below `base`, folders on the way checked. */
export function fileStandsBelow(base: string, rel: string): boolean {
  const parts = rel.split("/");
  if (folderProblem(base, parts)) return false;
  return lstatOrNull(path.join(base, rel))?.isFile() ?? false;
}

export type WriteRefusal = { refused: Refusal | "exists"; at: string; detail: string };

/** Makes each missing folder of `rel` below `base` one at a time (mkdir never follows a link it is asked to make), refusing a link or a file on the way. */
export function makeFoldersBelow(base: string, rel: string): WriteRefusal | null {
  const parts = rel === "" ? [] : rel.split("/");
  if (parts.some((p) => p === "." || p === ".." || p === "")) return { refused: "not-a-file", at: rel, detail: "is not a path below the folder" };
  for (let k = 1; k <= parts.length; k++) {
    const at = parts.slice(0, k).join("/");
    const full = path.join(base, at);
    if (lstatOrNull(full) === null) {
      try {
        mkdirSync(full);
      } catch (err) {
        // Made meanwhile by another: judged below like any folder that stood there.
        const code = (err as NodeJS.ErrnoException).code;
        if (code !== "EEXIST") return { refused: "unreadable", at, detail: `could not be made (${code ?? "unknown error"})` };
      }
    }
    const stat = lstatOrNull(full);
    if (stat?.isSymbolicLink()) return { refused: "link", at, detail: "is a symbolic link; never written through" };
    if (!stat?.isDirectory()) return { refused: "not-a-file", at, detail: "is not a folder" };
  }
  return null;
}

function openForWriting(file: string, at: string, how: "create" | "replace"): number | WriteRefusal {
  const exclusive = how === "create" ? constants.O_EXCL : 0;
  try {
    return openSync(file, constants.O_WRONLY | constants.O_CREAT | exclusive | constants.O_NOFOLLOW | constants.O_NONBLOCK, 0o644);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ELOOP") return { refused: "link", at, detail: "is a symbolic link; never written through" };
    // O_EXCL refuses a link too, dangling or not: lstat says which it met.
    if (code === "EEXIST" && lstatOrNull(file)?.isSymbolicLink()) return { refused: "link", at, detail: "is a symbolic link; never written through" };
    if (code === "EEXIST") return { refused: "exists", at, detail: "already exists" };
    if (code === "ENXIO" || code === "EISDIR") return { refused: "not-a-file", at, detail: `is not a regular file (${code})` };
    return { refused: "unreadable", at, detail: `could not be opened for writing (${code ?? "unknown error"})` };
  }
}

/**
 * Writes `bytes` to `rel` below `base`, its folders made on the way, never through a link: a
 * folder on the way or the file itself that is a link is refused, and so is a file whose open
 * descriptor the system places elsewhere (a folder swapped for a link meanwhile). `create` makes
 * the file or refuses one that stands there; `replace` writes over a regular file in place.
 */
export function writeBelow(base: string, rel: string, bytes: Uint8Array, how: "create" | "replace"): WriteRefusal | null {
  const parts = rel.split("/");
  if (parts.some((p) => p === "." || p === ".." || p === "")) return { refused: "not-a-file", at: rel, detail: "is not a path below the folder" };
  const folders = makeFoldersBelow(base, parts.slice(0, -1).join("/"));
  if (folders) return folders;
  const fd = openForWriting(path.join(base, rel), rel, how);
  if (typeof fd !== "number") return fd;
  try {
    const opened = openedPath(fd);
    const realBase = opened === null ? null : realOrNull(base);
    if (opened !== null && realBase !== null && opened !== path.join(realBase, ...parts)) {
      // Only a file this open made is removed: one that stood there keeps its bytes.
      if (how === "create") unlinkSync(opened);
      return { refused: "link", at: rel, detail: "was reached through a link swapped in while it was opened; never written through" };
    }
    if (!fstatSync(fd).isFile()) return { refused: "not-a-file", at: rel, detail: "is not a regular file" };
    try {
      ftruncateSync(fd, 0);
      for (let off = 0; off < bytes.length; ) off += writeSync(fd, bytes, off, bytes.length - off);
    } catch (err) {
      // A file this call made and could not fill (a full disk) is not left half written.
      if (how === "create") unlinkSync(path.join(base, rel));
      throw err;
    }
    return null;
  } finally {
    closeSync(fd);
  }
}
