import { pushAll } from "../collections.js";
import { constants, createReadStream, promises as fs, realpathSync } from "node:fs";
import path from "node:path";
import { digestStream } from "./digest-file.js";

// Reading a file the tool did not make (a kit's binary and transports, its kit.json) without
// ever being led elsewhere: never through a link, never a device, a FIFO or a socket (opened
// without blocking, and refused unless fstat says it is a regular file), never under /proc, /sys
// or /dev, where a "file" is the machine's state.

export type Refusal = { kind: "link" | "not-a-file" | "system"; what: string };

const SYSTEM_ROOTS = ["/proc", "/sys", "/dev"];

/** True when the path, resolved, lies in the machine's own state folders. */
export function underSystemFolder(p: string): boolean {
  let real: string;
  try {
    real = realpathSync(p);
  } catch {
    real = path.resolve(p);
  }
  return SYSTEM_ROOTS.some((r) => real === r || real.startsWith(`${r}/`));
}

/** Opens a regular file for reading, or says why not; the caller closes the handle. */
export async function openRegular(file: string): Promise<{ handle: fs.FileHandle; size: number; executable: boolean } | Refusal> {
  const entry = await fs.lstat(file).catch(() => null);
  if (entry?.isSymbolicLink()) return { kind: "link", what: "is a symbolic link" };
  if (underSystemFolder(path.dirname(file))) return { kind: "system", what: "lies under /proc, /sys or /dev, which hold the machine's state, not files" };
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ELOOP") return { kind: "link", what: "is a symbolic link" };
    throw err;
  }
  const stat = await handle.stat();
  if (!stat.isFile()) {
    await handle.close();
    return { kind: "not-a-file", what: stat.isFIFO() ? "is a FIFO" : stat.isCharacterDevice() || stat.isBlockDevice() ? "is a device" : stat.isSocket() ? "is a socket" : "is not a regular file" };
  }
  return { handle, size: stat.size, executable: (stat.mode & 0o111) !== 0 };
}

export function isRefusal(x: unknown): x is Refusal {
  return typeof x === "object" && x !== null && "kind" in x && "what" in x;
}

/** A regular file's bytes, or why it was not read. */
export async function readSafely(file: string): Promise<Buffer | Refusal> {
  const opened = await openRegular(file);
  if (isRefusal(opened)) return opened;
  try {
    return await opened.handle.readFile();
  } finally {
    await opened.handle.close();
  }
}

/** A regular file's SHA-256 and size, streamed, or why it was not read. */
export async function digestSafely(file: string): Promise<{ sha256: string; bytes: number } | Refusal> {
  const d = await digestWithMode(file);
  return isRefusal(d) ? d : { sha256: d.sha256, bytes: d.bytes };
}

/** A regular file's digest and size, and whether the file it opened is executable (any execute bit). */
export async function digestWithMode(file: string): Promise<{ sha256: string; bytes: number; executable: boolean } | Refusal> {
  const opened = await openRegular(file);
  if (isRefusal(opened)) return opened;
  const d = await digestStream(createReadStream("", { fd: opened.handle, highWaterMark: 1 << 20 }));
  return { ...d, executable: opened.executable };
}

/** Every entry under a folder, never following a link: regular files, links, and what is neither. */
export async function walkFolder(dir: string, rel = ""): Promise<{ files: string[]; links: string[]; others: string[] }> {
  const out = { files: [] as string[], links: [] as string[], others: [] as string[] };
  const entries = await fs.readdir(path.join(dir, rel), { withFileTypes: true }).catch(() => []);
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = rel === "" ? e.name : `${rel}/${e.name}`;
    if (e.isSymbolicLink()) out.links.push(p);
    else if (e.isDirectory()) {
      const inner = await walkFolder(dir, p);
      pushAll(out.files, inner.files);
      pushAll(out.links, inner.links);
      pushAll(out.others, inner.others);
    } else if (e.isFile()) out.files.push(p);
    else out.others.push(p);
  }
  return out;
}
