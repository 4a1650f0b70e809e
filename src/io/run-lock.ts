import { closeSync, existsSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { OutputError } from "../errors.js";
import { gitMaybe } from "./git.js";

// One `clear run` at a time per repository: a lock file in git's own folder, created
// exclusively. A lock left by a process that no longer runs on this machine is taken over; any
// other is a refusal that changes nothing.

function lockPath(root: string): string {
  const inGit = gitMaybe(["rev-parse", "--git-path", "clear-run.lock"], root)?.toString("utf8").trim();
  return inGit ? path.resolve(root, inGit) : path.join(root, ".clear-run.lock");
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

function take(file: string, owner: string): boolean {
  try {
    const fd = openSync(file, "wx", 0o644);
    writeSync(fd, owner);
    closeSync(fd);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  }
}

function readOr(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

/**
 * Takes over the lock `held` of a process that no longer runs. One run at a time may do so,
 * holding a second lock beside it; under that one the lock is read again, and only the very lock
 * found dead is removed: a run that found it dead too, a moment later, finds the new owner's.
 */
function takeOver(file: string, held: string, owner: string): boolean {
  const takeover = `${file}.takeover`;
  if (!take(takeover, owner)) return false;
  try {
    if (readOr(file) === held) rmSync(file, { force: true });
    return take(file, owner);
  } finally {
    rmSync(takeover, { force: true });
  }
}

/** Runs `work` holding the repository's run lock; a second run meanwhile exits 2 having changed nothing. */
export async function withRunLock<T>(root: string, work: () => Promise<T>): Promise<T> {
  const file = lockPath(root);
  const owner = `${process.pid} ${os.hostname()}\n`;
  if (!take(file, owner)) {
    const held = readOr(file);
    const [pid, host] = held.trim().split(" ");
    const stale = held !== "" && host === os.hostname() && /^[0-9]+$/.test(pid ?? "") && !alive(Number(pid));
    if (!stale || !takeOver(file, held, owner)) {
      const also = existsSync(`${file}.takeover`) ? ` and ${file}.takeover` : "";
      throw new OutputError(`another clear run is working in this repository (${held.trim() || "its lock is being written"}); wait for it, or remove ${file}${also} if none is running`);
    }
  }
  try {
    return await work();
  } finally {
    try {
      if (readFileSync(file, "utf8") === owner) rmSync(file, { force: true });
    } catch {
      // already gone
    }
  }
}
