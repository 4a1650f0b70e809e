import { lstatSync, mkdirSync, promises as fs, readFileSync } from "node:fs";
import path from "node:path";
import { sha256Hex } from "../digest.js";
import { OutputError } from "../errors.js";
import { inPool, syncDir, writeAtomic } from "./write-atomic.js";

// Writes a set of repository files all or nothing, never through a link: every folder on the way
// is made or checked one level at a time, each file lands whole (temporary file, fsync, rename),
// each folder is flushed once, and if one write fails the ones already done are put back.

/** Refuses a link (or anything but a folder) at any level of `relDir` under `root`; makes what is missing. `checked` spares a folder seen already. Synchronous: one level at a time, no thread-pool round trip per level. */
function ensureFolder(root: string, relDir: string, checked: Set<string>): void {
  let cur = root;
  for (const part of relDir.split("/").filter(Boolean)) {
    cur = path.join(cur, part);
    if (checked.has(cur)) continue;
    checked.add(cur);
    let stat = lstatSync(cur, { throwIfNoEntry: false });
    if (stat === undefined) {
      try {
        mkdirSync(cur);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      }
      stat = lstatSync(cur);
    }
    if (stat.isSymbolicLink()) throw new OutputError(`${path.relative(root, cur)}: is a symbolic link; the tool never writes through one (replace it with a real folder)`);
    if (!stat.isDirectory()) throw new OutputError(`${path.relative(root, cur)}: is not a folder; nothing written`);
  }
}

/** The bytes a repository file holds now, or null when absent; a link or a non-file there is refused. Synchronous, like the folder checks. */
export function readRepoFile(root: string, rel: string): Buffer | null {
  const abs = path.join(root, rel);
  const stat = lstatSync(abs, { throwIfNoEntry: false });
  if (stat === undefined) return null;
  if (stat.isSymbolicLink()) throw new OutputError(`${rel}: is a symbolic link; the tool never reads or writes through one (replace it with the file itself)`);
  if (!stat.isFile()) throw new OutputError(`${rel}: is not a regular file`);
  return readFileSync(abs);
}

export async function writeRepoFiles(root: string, files: { path: string; bytes: Uint8Array }[]): Promise<void> {
  const folders = [...new Set(files.map((f) => path.posix.dirname(f.path)))].sort();
  const checked = new Set<string>();
  for (const d of folders) ensureFolder(root, d === "." ? "" : d, checked);
  const before = new Map<string, Buffer | null>();
  for (const f of files) before.set(f.path, readRepoFile(root, f.path));
  const done: string[] = [];
  try {
    await inPool(files, async (f) => {
      await writeAtomic(path.join(root, f.path), f.bytes, { syncFolder: false });
      done.push(f.path);
    });
    await Promise.all(folders.map((d) => syncDir(path.join(root, d))));
  } catch (err) {
    for (const p of done.reverse()) {
      const old = before.get(p);
      if (old) await writeAtomic(path.join(root, p), old);
      else await fs.rm(path.join(root, p), { force: true });
    }
    throw err;
  }
}

/** Whether a folder on the way to `rel` under `root` is a link (or no folder): what lies below it is not the repository's to read. */
function linkOnTheWay(root: string, rel: string): boolean {
  let cur = root;
  for (const part of rel.split("/").slice(0, -1)) {
    cur = path.join(cur, part);
    const stat = lstatSync(cur, { throwIfNoEntry: false });
    if (stat === undefined || !stat.isDirectory()) return true;
  }
  return false;
}

/** The repository files given that still hold the bytes of the digest given with each (a file changed since, one behind a link, a link, or anything but a file is not one); in the order given. */
export function stillAsWritten(root: string, files: { path: string; sha256: string }[]): string[] {
  return files.flatMap((f) => {
    if (linkOnTheWay(root, f.path)) return [];
    try {
      const bytes = readRepoFile(root, f.path);
      return bytes !== null && sha256Hex(bytes) === f.sha256 ? [f.path] : [];
    } catch (err) {
      if (err instanceof OutputError) return [];
      throw err;
    }
  });
}
