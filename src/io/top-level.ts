import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

/**
 * The top of the working tree holding `cwd`: the nearest folder with a `.git` entry (a folder, or
 * a file in a worktree or submodule), found without starting git; git itself answers only where
 * the environment points it elsewhere (GIT_DIR, GIT_WORK_TREE).
 */
export function gitTopLevel(cwd: string): string | null {
  if (process.env.GIT_DIR === undefined && process.env.GIT_WORK_TREE === undefined) {
    for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
      if (existsSync(path.join(dir, ".git"))) return dir;
      if (path.dirname(dir) === dir) return null;
    }
  }
  return gitRevParseTopLevel(cwd);
}

function gitRevParseTopLevel(cwd: string): string | null {
  try {
    const out = execFileSync("git", ["rev-parse", "--show-toplevel"], { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
    return out.trim() || null;
  } catch {
    return null;
  }
}

