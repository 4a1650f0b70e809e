import { promises as fs } from "node:fs";
import path from "node:path";
import { writeAtomic } from "./write-atomic.js";

// Writes a set of repository files all or nothing: each lands whole (temporary file, fsync,
// rename), and if one fails, the ones already written are put back as they were.

export async function writeRepoFiles(root: string, files: { path: string; bytes: Uint8Array }[]): Promise<void> {
  const before = new Map<string, Buffer | null>();
  for (const f of files) before.set(f.path, await fs.readFile(path.join(root, f.path)).catch(() => null));
  const done: string[] = [];
  try {
    for (const f of files) {
      const abs = path.join(root, f.path);
      await fs.mkdir(path.dirname(abs), { recursive: true });
      await writeAtomic(abs, f.bytes);
      done.push(f.path);
    }
  } catch (err) {
    for (const p of done.reverse()) {
      const old = before.get(p);
      if (old) await writeAtomic(path.join(root, p), old);
      else await fs.rm(path.join(root, p), { force: true });
    }
    throw err;
  }
}
