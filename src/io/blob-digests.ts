import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { sha256Hex } from "../digest.js";
import { gitMaybe, readBlobs } from "./git.js";

// The SHA-256 of git blobs, remembered by blob id in the repository's git folder, so a commit that
// touches one fixture among thousands reads and hashes that one blob. A blob id names its bytes
// (git rejects colliding objects), and the file lies beside the hooks that run the gate: whoever
// can write it can change the hooks. A line that does not read as "<blob id> <sha256>" is not
// believed; a file that cannot be read or written only costs the reading.

const FILE = "clear-blob-sha256";
const LINE = /^([0-9a-f]{40}|[0-9a-f]{64}) ([0-9a-f]{64})$/;
/** Beyond this many remembered blobs, the ones this run did not ask for are forgotten. */
const MAX_REMEMBERED = 200_000;

function cachePath(root: string): string | null {
  const out = gitMaybe(["rev-parse", "--git-path", FILE], root)?.toString("utf8").trim();
  return out ? path.resolve(root, out) : null;
}

function readCache(file: string): Map<string, string> {
  const known = new Map<string, string>();
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return known;
  }
  for (const line of text.split("\n")) {
    const m = LINE.exec(line);
    if (m) known.set(m[1] as string, m[2] as string);
  }
  return known;
}

function writeCache(file: string, known: Map<string, string>, asked: Set<string>): void {
  let entries = [...known];
  if (entries.length > MAX_REMEMBERED) entries = entries.filter(([id]) => asked.has(id));
  const temp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, entries.map(([id, digest]) => `${id} ${digest}\n`).join(""), { flag: "w", mode: 0o644 });
    renameSync(temp, file);
  } catch {
    rmSync(temp, { force: true });
  }
}

/** SHA-256 of each blob, by blob id; a blob git does not have is left out. */
export function blobDigests(root: string, ids: string[]): Map<string, string> {
  const file = cachePath(root);
  const known = file === null ? new Map<string, string>() : readCache(file);
  const asked = new Set(ids);
  const out = new Map<string, string>();
  const missing: string[] = [];
  for (const id of asked) {
    const digest = known.get(id);
    if (digest === undefined) missing.push(id);
    else out.set(id, digest);
  }
  if (missing.length === 0) return out;
  for (const [id, bytes] of readBlobs(missing, root)) {
    const digest = sha256Hex(bytes);
    out.set(id, digest);
    known.set(id, digest);
  }
  if (file !== null) writeCache(file, known, asked);
  return out;
}
