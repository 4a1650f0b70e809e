import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readlinkSync, readSync, realpathSync, type Dirent, type Stats } from "node:fs";
import path from "node:path";

// Reading below a folder without ever being led elsewhere: every folder between the base and the
// file is checked to be a folder and not a link, and the file itself is opened without following
// a link (O_NOFOLLOW) and read only when fstat says it is a regular file. Where the system says
// which file an open descriptor is (/proc/self/fd on Linux), that is checked too, so a folder
// swapped for a link between the check and the open is caught. Fixtures and the record are read
// this way by the library and by clear compare alike.

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

/** The first folder on the way from `base` to `rel` that is missing, a link or not a folder. */
function folderProblem(base: string, parts: string[]): { refused: Refusal; at: string; detail: string } | null {
  for (let k = 1; k < parts.length; k++) {
    const at = parts.slice(0, k).join("/");
    const stat = lstatOrNull(path.join(base, at));
    if (stat === null) return { refused: "missing", at, detail: "no such folder" };
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

/**
 * Reads `rel` (a path below `base`, with / between its parts) whole, or says why not. A file
 * larger than `maxBytes` is not read.
 */
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
    // One byte more than the size is asked for, so a file that grew while being read shows. The
    // bytes are handed to callers: a buffer of their own, never a slice of Node's shared pool.
    const buffer = Buffer.allocUnsafeSlow(stat.size + 1);
    let filled = 0;
    for (let n = -1; n !== 0 && filled <= stat.size; filled += n) n = readSync(fd, buffer, filled, stat.size + 1 - filled, filled);
    if (filled !== stat.size) return { refused: "unreadable", at: rel, detail: "changed size while being read" };
    return { bytes: buffer.subarray(0, filled), executable: (stat.mode & 0o111) !== 0 };
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
