import { promises as fs } from "node:fs";
import path from "node:path";
import { OutputError } from "../errors.js";
import { syncDir, writeAtomic } from "./write-atomic.js";

// Writes a set of repository files all or nothing, never through a link: every folder on the way
// is made or checked one level at a time, each file lands whole (temporary file, fsync, rename),
// each folder is flushed once, and if one write fails the ones already done are put back.

const IN_FLIGHT = 16;

/** Refuses a link (or anything but a folder) at any level of `relDir` under `root`; makes what is missing. `checked` spares a folder seen already. */
async function ensureFolder(root: string, relDir: string, checked: Set<string>): Promise<void> {
  let cur = root;
  for (const part of relDir.split("/").filter(Boolean)) {
    cur = path.join(cur, part);
    if (checked.has(cur)) continue;
    checked.add(cur);
    let stat = await fs.lstat(cur).catch(() => null);
    if (stat === null) {
      await fs.mkdir(cur).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== "EEXIST") throw err;
      });
      stat = await fs.lstat(cur);
    }
    if (stat.isSymbolicLink()) throw new OutputError(`${path.relative(root, cur)}: is a symbolic link; the tool never writes through one (replace it with a real folder)`);
    if (!stat.isDirectory()) throw new OutputError(`${path.relative(root, cur)}: is not a folder; nothing written`);
  }
}

/** The bytes a repository file holds now, or null when absent; a link or a non-file there is refused. */
export async function readRepoFile(root: string, rel: string): Promise<Buffer | null> {
  const abs = path.join(root, rel);
  const stat = await fs.lstat(abs).catch(() => null);
  if (stat === null) return null;
  if (stat.isSymbolicLink()) throw new OutputError(`${rel}: is a symbolic link; the tool never reads or writes through one (replace it with the file itself)`);
  if (!stat.isFile()) throw new OutputError(`${rel}: is not a regular file`);
  return fs.readFile(abs);
}


export async function writeRepoFiles(root: string, files: { path: string; bytes: Uint8Array }[]): Promise<void> {
  const folders = [...new Set(files.map((f) => path.posix.dirname(f.path)))].sort();
  const checked = new Set<string>();
  for (const d of folders) await ensureFolder(root, d === "." ? "" : d, checked);
  const before = new Map<string, Buffer | null>();
  for (const f of files) before.set(f.path, await readRepoFile(root, f.path));
  const done: string[] = [];
  try {
    // Writes overlap in bounded groups, each waiting on its own fsync; every group settles before the next.
    for (let at = 0; at < files.length; at += IN_FLIGHT) {
      const group = files.slice(at, at + IN_FLIGHT);
      const results = await Promise.allSettled(group.map((f) => writeAtomic(path.join(root, f.path), f.bytes, { syncFolder: false })));
      results.forEach((r, i) => r.status === "fulfilled" && done.push((group[i] as { path: string }).path));
      const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
      if (failed) throw failed.reason;
    }
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
