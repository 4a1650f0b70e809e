import os from "node:os";
import { UsageError } from "../errors.js";
import { makeDisplay, type Display } from "../display.js";
import { MAX_NAME_CHARS, tooLongName } from "../homes.js";
import { loadRules } from "./load-rules.js";
import { progressLine } from "./process-io.js";
import { DEFAULT_LIMITS, MAX_FILE_BYTES_CAP, type ReadLimits } from "./read-capture-dir.js";
import { loadConfig, repoRoot, rulesDirFor, withDeclarations, type ClearConfig } from "./repo.js";
import type { Io, Rules } from "../types.js";

// What every command starts from: where it is, its config and rules, its limits, and how it may
// show paths and pointers.

export interface Setting {
  root: string | null;
  config: ClearConfig;
  rules: Rules;
  limits: ReadLimits;
  /** User names given (--user, clear.config.json, the runner's home); the sitting adds those it names. */
  users: string[];
  display: Display;
  /** Where a long run says how far it is: stderr when it is a terminal and output is not --json. */
  progress: ((line: string) => void) | null;
}

/**
 * A progress writer for a command, or null (no terminal, --json, or NO_COLOR-style quiet). From
 * here on, whatever the command writes through `io` first wipes the line in progress.
 */
export function progressFor(io: Io, json: boolean | undefined): ((line: string) => void) | null {
  if (!io.tty || json === true || process.env.CLEAR_QUIET !== undefined) return null;
  return progressLine(io);
}

/** The runner's own home and its owner's name, whatever root it stands under. */
export function runnerHome(): { home: string | null; user: string | null } {
  const home = os.homedir();
  if (!home || home === "/" || home === "/root") return { home: home || null, user: null };
  const owner = home.split(/[\\/]/).filter(Boolean).at(-1) ?? null;
  return { home, user: owner };
}

export function loadSetting(rootFlag: string | undefined, cwd: string, opts: { users?: string[]; maxFileBytes?: string } = {}): Setting {
  const root = repoRoot(rootFlag, cwd);
  const config = loadConfig(root);
  const rules = withDeclarations(loadRules(rulesDirFor(root, config)), config);
  const limits: ReadLimits = { maxFileBytes: config.limits?.maxFileBytes ?? DEFAULT_LIMITS.maxFileBytes, maxDepth: config.limits?.maxDepth ?? DEFAULT_LIMITS.maxDepth };
  if (opts.maxFileBytes !== undefined) {
    if (!/^[1-9][0-9]*$/.test(opts.maxFileBytes)) throw new UsageError("--max-file-bytes takes a whole number of bytes");
    if (Number(opts.maxFileBytes) > MAX_FILE_BYTES_CAP) throw new UsageError(`--max-file-bytes takes at most ${MAX_FILE_BYTES_CAP} bytes (1 GiB): a capture is read whole, in one read`);
    limits.maxFileBytes = Number(opts.maxFileBytes);
  }
  for (const u of opts.users ?? []) if (/[\\/]/.test(u) || u.trim() === "") throw new UsageError("--user takes a user name without a path separator");
  const runner = runnerHome();
  const users = [...new Set([...(opts.users ?? []), ...(config.users ?? []), ...(runner.user ? [runner.user] : [])])];
  const tooLong = tooLongName(users);
  if (tooLong) throw new UsageError(`a name given (--user, clear.config.json "users" or the runner's own) is ${tooLong.chars} characters long, more than the ${MAX_NAME_CHARS} the tool can look for`);
  return { root, config, rules, limits, users, display: makeDisplay(rules, users, runner.home), progress: null };
}
