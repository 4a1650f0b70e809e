import path from "node:path";
import { parseFlags, UsageError } from "../cli-args.js";
import { guarded, type Command } from "../command.js";
import { homeGrammar, userNamePattern } from "../homes.js";
import { listFiles } from "../io/list-files.js";
import { readRegularFile } from "../io/read-capture-dir.js";
import { loadSetting } from "../io/setting.js";
import type { Io } from "../types.js";
import { writeAtomic } from "../io/write-atomic.js";
import { scanEngine, scanPass, type ScanInput } from "../passes/scan.js";
import { renderScan } from "../render/human.js";
import { writeJson } from "../render/json.js";
import { sarifLog } from "../render/sarif.js";
import { toolVersion } from "../version.js";

const help = `clear scan <path>... [--json] [--sarif FILE] [--user NAME]... [--root DIR]

Scans files (folders are walked; links are reported, never followed) for secret shapes with
secretlint's recommended preset and this project's rules (rules/secrets/), and for a home
directory's owner or a known user name. Findings give the file, rule, line, column, JSON pointer
and a masked value. Every scan also scans a planted control and fails unless every rule fires on
it. Exit 0 when clean, 1 on a finding, a file not scanned, or a silent control; 2 on usage errors.
`;

async function inputsOf(paths: string[], io: Io, base: string, maxBytes: number, display: (p: string) => string): Promise<{ inputs: ScanInput[]; skipped: { file: string; reason: string }[] }> {
  const listed = await listFiles(paths, io.cwd, ["**/node_modules/**", "**/.git/**"]);
  if (listed.missing.length > 0) throw new UsageError(`clear scan: no such file or folder: ${listed.missing.join(", ")}`);
  // Inside the repository a path is shown relative to it, outside it whole; either way as any printed path is.
  const rel = (p: string): string => {
    const r = path.relative(base, p);
    return display(r.startsWith("..") || path.isAbsolute(r) ? p : r.split(path.sep).join("/"));
  };
  const skipped = listed.links.map((l) => ({ file: rel(l), reason: "a symbolic link; never followed" }));
  const inputs: ScanInput[] = [];
  for (const file of listed.files) {
    const read = readRegularFile(file, { maxFileBytes: maxBytes, maxDepth: 0 });
    if (!read.bytes) skipped.push({ file: rel(file), reason: read.problem?.message ?? "could not be read" });
    else inputs.push({ file: rel(file), text: Buffer.from(read.bytes).toString("utf8") });
  }
  return { inputs, skipped };
}

async function run(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseFlags(argv, { json: { type: "boolean" }, sarif: { type: "string" }, user: { type: "string", multiple: true }, root: { type: "string" } }, Number.MAX_SAFE_INTEGER, "scan");
  if (positionals.length === 0) throw new UsageError("clear scan needs at least one file or folder");
  const setting = loadSetting(values.root, io.cwd, { users: values.user ?? [] });
  const { inputs, skipped } = await inputsOf(positionals, io, setting.root ?? io.cwd, setting.limits.maxFileBytes, setting.display.path);
  const engine = scanEngine(setting.rules.secrets, homeGrammar(setting.rules.homes, setting.users), userNamePattern(setting.users));
  const scan = await scanPass(inputs, engine, setting.display);
  if (values.sarif !== undefined) await writeAtomic(path.resolve(io.cwd, values.sarif), Buffer.from(`${JSON.stringify(sarifLog(scan, setting.rules.secrets, toolVersion()), null, 2)}\n`));
  const ok = scan.findings.length === 0 && skipped.length === 0 && scan.control.red;
  if (values.json) writeJson(io, { command: "scan", ok, ...scan, skipped });
  else io.stdout(renderScan(scan, skipped));
  return ok ? 0 : 1;
}

export const scanCommand: Command = { help, run: (argv, io) => guarded(io, argv, () => run(argv, io)) };
