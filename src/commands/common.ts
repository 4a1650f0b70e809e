import { UsageError } from "../args.js";
import { CaptureDirError, DEFAULT_LIMITS, listCaptureDir, readCaptureEntry, type CaptureListing, type ReadLimits } from "../io/read-capture-dir.js";
import { loadRules, RulesError } from "../io/load-rules.js";
import { loadConfig, repoRoot, rulesDirFor, type ClearConfig } from "../io/repo.js";
import type { CaptureEntry, Finding, Rules } from "../types.js";

// What every command needs: where it is, its config and rules, and how to speak.

export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
}

export const processIo: Io = {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  cwd: process.cwd(),
};

export interface Setting {
  root: string | null;
  config: ClearConfig;
  rules: Rules;
  limits: ReadLimits;
}

export function setting(rootFlag: string | undefined, cwd: string, maxFileBytes?: string): Setting {
  const root = repoRoot(rootFlag, cwd);
  const config = loadConfig(root);
  const rules = loadRules(rulesDirFor(root, config));
  const limits: ReadLimits = {
    maxFileBytes: config.limits?.maxFileBytes ?? DEFAULT_LIMITS.maxFileBytes,
    maxDepth: config.limits?.maxDepth ?? DEFAULT_LIMITS.maxDepth,
  };
  if (maxFileBytes !== undefined) {
    if (!/^[1-9][0-9]*$/.test(maxFileBytes)) throw new UsageError(`--max-file-bytes takes a whole number of bytes, not "${maxFileBytes}"`);
    limits.maxFileBytes = Number(maxFileBytes);
  }
  return { root, config, rules, limits };
}

export async function listing(dir: string | undefined, command: string): Promise<CaptureListing> {
  if (dir === undefined) throw new UsageError(`clear ${command} needs a capture directory`);
  return listCaptureDir(dir);
}

/** Reads entries one at a time, so memory holds one capture's bytes at once. */
export async function* entries(list: CaptureListing, limits: ReadLimits): AsyncGenerator<CaptureEntry> {
  for (const listed of list.entries) yield await readCaptureEntry(list.path, listed, limits);
}

export function writeJson(io: Io, value: object): void {
  io.stdout(`${JSON.stringify({ schemaVersion: 1, ...value }, null, 2)}\n`);
}

export function findingLine(f: Finding): string {
  const where = [f.file, f.pointer !== undefined && f.pointer !== "" ? f.pointer : f.pointer === "" ? "(whole document)" : undefined, f.line !== undefined ? `line ${f.line}, column ${f.column}` : undefined]
    .filter((x) => x !== undefined)
    .join(" ");
  return `${f.severity === "block" ? "BLOCK" : "note "} ${f.code.padEnd(16)} ${where ? `${where}: ` : ""}${f.message}`;
}

export function table(rows: string[][]): string {
  const widths: number[] = [];
  for (const r of rows) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, c.length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i] as number))).join("  ")).join("\n");
}

/**
 * Maps the errors that mean "could not read the input at all" to exit 2 with a clear line; under
 * --json, stdout still carries its one JSON object, saying the same.
 */
export async function guarded(io: Io, argv: string[], run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof UsageError || err instanceof CaptureDirError || err instanceof RulesError) {
      io.stderr(`clear: ${err.message}\n`);
      if (argv.includes("--json")) writeJson(io, { ok: false, error: err.message, findings: [] });
      return 2;
    }
    throw err;
  }
}
