import { promises as fs } from "node:fs";
import path from "node:path";
import { OutputError } from "../errors.js";

// Writes land whole or not at all: a temporary file in the same folder, flushed, renamed, and the
// folder flushed so the rename is durable.

let written = 0;

export async function syncDir(dir: string): Promise<void> {
  const handle = await fs.open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** A failure names the file being written, never its temporary name. */
function asTarget(err: unknown, temp: string, file: string): unknown {
  const e = err as (NodeJS.ErrnoException & { dest?: string }) | null;
  if (e && typeof e === "object" && (e.path === temp || e.dest === file)) {
    e.path = file;
    delete e.dest;
  }
  return err;
}

export async function writeAtomic(file: string, bytes: Uint8Array, { syncFolder = true }: { syncFolder?: boolean } = {}): Promise<void> {
  const dir = path.dirname(file);
  // Unique within this process; "wx" refuses a name that exists rather than overwrite it.
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${++written}.tmp`);
  const handle = await fs.open(temp, "wx", 0o644).catch((err: unknown) => {
    throw asTarget(err, temp, file);
  });
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } catch (err) {
    await handle.close();
    await fs.rm(temp, { force: true });
    throw asTarget(err, temp, file);
  }
  await handle.close();
  try {
    await fs.rename(temp, file);
  } catch (err) {
    await fs.rm(temp, { force: true });
    throw asTarget(err, temp, file);
  }
  if (syncFolder) await syncDir(dir);
}

const IN_FLIGHT = 16;

/**
 * Runs `work` on every item with a bounded number in flight (writes overlap, since each waits on
 * its own fsync). After the first failure no more start; every started one settles, then that
 * failure is thrown.
 */
export async function inPool<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  const running = new Set<Promise<void>>();
  let failure: { err: unknown } | null = null;
  for (const item of items) {
    if (failure) break;
    const p: Promise<void> = work(item)
      .catch((err: unknown) => {
        failure ??= { err };
      })
      .finally(() => running.delete(p));
    running.add(p);
    if (running.size >= IN_FLIGHT) await Promise.race(running);
  }
  await Promise.all(running);
  if (failure) throw (failure as { err: unknown }).err;
}

/** True when `inner` is `outer` or lies inside it, comparing real paths. */
export async function isInside(inner: string, outer: string): Promise<boolean> {
  const real = async (p: string): Promise<string> => {
    // Resolve the nearest existing ancestor, so a folder yet to be made is placed correctly.
    let cur = path.resolve(p);
    const rest: string[] = [];
    for (;;) {
      try {
        return path.join(await fs.realpath(cur), ...rest.reverse());
      } catch {
        const parent = path.dirname(cur);
        if (parent === cur) return path.resolve(p);
        rest.push(path.basename(cur));
        cur = parent;
      }
    }
  };
  const a = await real(inner);
  const b = await real(outer);
  const rel = path.relative(b, a);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/**
 * Writes a whole folder of files, all or nothing, with one writer: a lock beside `out` taken
 * exclusively, the files written into a staging folder beside it, then the staging folder renamed
 * onto `out` (which must be absent or empty). Any failure removes the staging folder and the lock.
 */
export async function writeFolderWhole(out: string, files: { name: string; bytes: Uint8Array }[], shownAs: string): Promise<void> {
  const parent = path.dirname(out);
  const lock = path.join(parent, `.${path.basename(out)}.clear-lock`);
  try {
    await fs.mkdir(parent, { recursive: true });
    await fs.mkdir(lock);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") throw new OutputError(`--out ${shownAs}: another clear is writing there (remove ${path.basename(lock)} beside it if none is)`);
    throw err;
  }
  const staging = await fs.mkdtemp(path.join(parent, `.${path.basename(out)}.staging-`));
  try {
    await inPool(files, (f) => writeAtomic(path.join(staging, f.name), f.bytes, { syncFolder: false }));
    await syncDir(staging);
    await placeStaging(staging, out, shownAs);
    await syncDir(parent);
  } catch (err) {
    await fs.rm(staging, { recursive: true, force: true });
    throw err;
  } finally {
    await fs.rm(lock, { recursive: true, force: true });
  }
}

async function placeStaging(staging: string, out: string, shownAs: string): Promise<void> {
  const stat = await fs.lstat(out).catch(() => null);
  if (stat && !stat.isDirectory()) throw new OutputError(`--out ${shownAs}: is no longer a folder (it became a link or a file during the run); nothing written`);
  if (stat) {
    if ((await fs.readdir(out)).length > 0) throw new OutputError(`--out ${shownAs}: is not empty; nothing written`);
    await fs.rmdir(out);
  }
  // rename(2) never follows a link at its target and refuses a non-empty folder.
  await fs.rename(staging, out);
}
