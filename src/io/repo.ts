import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { BUNDLED_RULES_DIR, RulesError, validateAgainst } from "./load-rules.js";
import type { NotAPerson, Rules } from "../types.js";

// The repository a command works in, and its clear.config.json.

export interface ClearConfig {
  paths?: { capturesInbox?: string; fixtures?: string; clearance?: string; rules?: string };
  limits?: { maxFileBytes?: number; maxDepth?: number };
  users?: string[];
  literals?: { name: string; value: string; placeholder: string }[];
  policies?: { "env-dump-v1"?: { reason: string; pointers?: string[] } };
  declarations?: { notPersons?: NotAPerson[] };
}

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

/** The repository root: --root when given, else git's top level for the current directory. */
export function repoRoot(rootFlag: string | undefined, cwd = process.cwd()): string | null {
  if (rootFlag !== undefined) {
    const abs = path.resolve(cwd, rootFlag);
    if (!existsSync(abs) || !statSync(abs).isDirectory()) throw new RulesError(`--root ${rootFlag}: not a directory`);
    return abs;
  }
  return gitTopLevel(cwd);
}

export function loadConfig(root: string | null): ClearConfig {
  if (root === null) return {};
  const file = path.join(root, "clear.config.json");
  if (!existsSync(file)) return {};
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new RulesError(`${file}: not valid JSON (${(err as Error).message})`);
  }
  validateAgainst("config", value, file);
  return value as ClearConfig;
}

/** The rules folder: the config's, else the repository's own rules/ when it holds catalogues, else the bundled one. */
export function rulesDirFor(root: string | null, config: ClearConfig): string {
  if (root !== null && config.paths?.rules) return path.resolve(root, config.paths.rules);
  if (root !== null && existsSync(path.join(root, "rules", "harnesses"))) return path.join(root, "rules");
  return BUNDLED_RULES_DIR;
}

/** The rules with the config's declarations in force: every home grammar built from them (substitution, final check, scan, display) honours them. */
export function withDeclarations(rules: Rules, config: ClearConfig): Rules {
  const declared = config.declarations?.notPersons ?? [];
  return declared.length === 0 ? rules : { ...rules, homes: { ...rules.homes, declared } };
}
