import { execFileSync } from "node:child_process";

// The edge that talks to git: trees, blobs and the index, read without touching the working tree.

export class GitError extends Error {}

export function git(args: string[], cwd: string, input?: string): Buffer {
  try {
    return execFileSync("git", args, { cwd, input, maxBuffer: 1 << 30, stdio: ["pipe", "pipe", "pipe"] });
  } catch (err) {
    const stderr = (err as { stderr?: Buffer }).stderr?.toString().trim();
    throw new GitError(`git ${args[0]}: ${stderr || (err as Error).message}`);
  }
}

export interface TreeEntry {
  mode: string;
  sha: string;
  path: string;
}

/** Entries of a tree-ish (a commit, or ":" style index reads use lsIndex) under the given paths. */
export function lsTree(rev: string, paths: string[], cwd: string): TreeEntry[] {
  const out = git(["ls-tree", "-r", "-z", "--full-tree", rev, "--", ...paths], cwd).toString("utf8");
  return out.split("\0").filter(Boolean).map((line) => {
    const [meta, path] = line.split("\t") as [string, string];
    const [mode, , sha] = meta.split(" ") as [string, string, string];
    return { mode, sha, path };
  });
}

/** Entries of the index (what a commit would hold) under the given paths. */
export function lsIndex(paths: string[], cwd: string): TreeEntry[] {
  const out = git(["ls-files", "-s", "-z", "--", ...paths], cwd).toString("utf8");
  return out.split("\0").filter(Boolean).map((line) => {
    const [meta, path] = line.split("\t") as [string, string];
    const [mode, sha] = meta.split(" ") as [string, string];
    return { mode, sha, path };
  });
}

/** The bytes of several blobs at once. */
export function readBlobs(shas: string[], cwd: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  if (shas.length === 0) return out;
  const all = git(["cat-file", "--batch"], cwd, `${shas.join("\n")}\n`);
  let at = 0;
  for (const sha of shas) {
    const nl = all.indexOf(10, at);
    const header = all.subarray(at, nl).toString("utf8").split(" ");
    const size = Number(header[2]);
    out.set(sha, all.subarray(nl + 1, nl + 1 + size));
    at = nl + 1 + size + 1;
  }
  return out;
}
