import { execFileSync } from "node:child_process";
import { existsSync, lstatSync, statSync, type Stats } from "node:fs";
import path from "node:path";
import { BUNDLED_RULES_DIR, RulesError, validateAgainst } from "./load-rules.js";
import { readRegularFile } from "./read-capture-dir.js";
import type { ScanWaiver } from "../types.js";

// The repository a command works in, and its clear.config.json.

export interface ClearConfig {
  paths?: { capturesInbox?: string; fixtures?: string; clearance?: string; rules?: string };
  limits?: { maxFileBytes?: number; maxDepth?: number };
  users?: string[];
  literals?: { name: string; value: string; placeholder: string }[];
  policies?: { "env-dump-v1"?: { reason: string; pointers?: string[] } };
  /** Scan findings a person declared not secrets: by fixture, pointer, rule and the value's SHA-256. */
  waivers?: ScanWaiver[];
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

/** A config's text, parsed and checked against its schema; `shownAs` names it in errors. */
export function parseConfigText(text: string, shownAs: string): ClearConfig {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new RulesError(`${shownAs}: not valid JSON (${(err as Error).message})`);
  }
  validateAgainst("config", value, shownAs);
  return value as ClearConfig;
}

/** clear.config.json at the root, read without following a link; absent means the defaults. */
export function loadConfig(root: string | null): ClearConfig {
  if (root === null) return {};
  const file = path.join(root, "clear.config.json");
  const stat = lstatOrNull(file);
  if (stat === null) return {};
  if (stat.isSymbolicLink()) throw new RulesError(`${file}: is a symbolic link; the tool never reads its config through one (replace it with the file itself)`);
  const read = readRegularFile(file, { maxFileBytes: 1 << 20, maxDepth: 1 });
  if (!read.bytes) throw new RulesError(`${file}: ${read.problem?.message ?? "cannot be read"}`);
  return parseConfigText(Buffer.from(read.bytes).toString("utf8"), file);
}

function lstatOrNull(file: string): Stats | null {
  try {
    return lstatSync(file);
  } catch {
    return null;
  }
}

/** The rules folder: the config's, else the repository's own rules/ when it holds catalogues, else the bundled one. */
export function rulesDirFor(root: string | null, config: ClearConfig): string {
  if (root !== null && config.paths?.rules) return path.resolve(root, config.paths.rules);
  if (root !== null && existsSync(path.join(root, "rules", "harnesses"))) return path.join(root, "rules");
  return BUNDLED_RULES_DIR;
}
