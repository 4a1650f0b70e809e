import path from "node:path";
import { parseFlags, UsageError } from "../cli-args.js";
import { guarded, type Command } from "../command.js";
import { hashedOwners, homeGrammar, spanNames, tooLongName, tooLongOwner, userNamePattern } from "../homes.js";
import { listFiles } from "../io/list-files.js";
import { readRegularFile } from "../io/read-capture-dir.js";
import { loadSetting, type Setting } from "../io/setting.js";
import type { Io, ScanResult } from "../types.js";
import { writeAtomic } from "../io/write-atomic.js";
import { scanEngine, scanPass, type ScanEngine, type ScanInput } from "../passes/scan.js";
import { renderScan } from "../render/human.js";
import { jsonText, writeJson } from "../render/json.js";
import type { SarifPlace } from "../render/sarif.js";
import { toolVersion } from "../version.js";
import { sittingNames } from "../passes/substitute/index.js";
import { checkedValue } from "./checked-output.js";

interface Listed {
  inputs: ScanInput[];
  skipped: { file: string; reason: string }[];
  /** The printed names of files inside the repository (SARIF places them under %SRCROOT%). */
  inside: Set<string>;
}

async function inputsOf(paths: string[], io: Io, base: string, maxBytes: number, display: (p: string) => string): Promise<Listed> {
  const listed = await listFiles(paths, io.cwd, new Set(["node_modules", ".git"]));
  if (listed.missing.length > 0) throw new UsageError(`clear scan: no such file or folder: ${listed.missing.join(", ")}`);
  // A path given that cannot be read at all is no finding of a scan that ran: nothing is scanned, and each is named as printed.
  const said = listed.unreadable.map((u) => `${display(path.resolve(io.cwd, u.given))}: ${u.reason}`);
  if (said.length > 0) throw new UsageError(`clear scan: cannot be read at all: ${said.join("; ")}; nothing scanned`);
  const inside = new Set<string>();
  // Inside the repository a path is shown relative to it, outside it whole; either way as any printed path is.
  const where = (p: string): { file: string; repoPath?: string } => {
    const r = path.relative(base, p);
    if (r.startsWith("..") || path.isAbsolute(r)) return { file: display(p) };
    const repoPath = r.split(path.sep).join("/");
    // As printed: a user name in a path is the placeholder there too.
    const file = display(repoPath);
    inside.add(file);
    return { file, repoPath };
  };
  const skipped = [
    ...listed.links.map((l) => ({ file: where(l).file, reason: "a symbolic link; never followed" })),
    ...listed.unlisted.map((u) => ({ file: where(u.folder).file, reason: u.reason })),
    ...listed.others.map((o) => ({ file: where(o).file, reason: "not a regular file (a FIFO, a socket or a device); never read" })),
    ...listed.notUtf8.map((n) => ({ file: where(n).file, reason: "its name is not UTF-8 (shown with \ufffd), so it cannot be read by the name it is shown by; never read" })),
  ];
  const inputs: ScanInput[] = [];
  for (const file of listed.files) {
    const read = readRegularFile(file, { maxFileBytes: maxBytes, maxDepth: 0 });
    if (!read.bytes) skipped.push({ file: where(file).file, reason: read.problem?.message ?? "could not be read" });
    else inputs.push({ ...where(file), text: Buffer.from(read.bytes).toString("utf8") });
  }
  return { inputs, skipped, inside };
}

/**
 * The owners the scanned files' home paths name, as substitution learns a sitting's: each is looked
 * for in every file, and a folder named after one is never printed (a name of one letter is left,
 * as substitution leaves it).
 */
function taughtNames(inputs: ScanInput[], setting: Setting): string[] {
  const grammar = homeGrammar(setting.rules.homes);
  const taught = new Set<string>();
  for (const { file, text } of inputs) {
    if (!grammar.mayHold(text)) continue;
    const names = grammar.realOwners(text).flatMap((o) => (o.unlearned ? [] : [...spanNames(o), ...hashedOwners(text, o)]));
    const tooLong = tooLongName(names);
    if (tooLong) throw tooLongOwner(setting.display.path(file), tooLong.chars);
    // The placeholder and the accounts that are nobody are no name, however an owner spelt them ("user\\u001b[0m").
    for (const name of names) if (name.length >= 2 && grammar.isOwner(name)) taught.add(name);
  }
  return [...taught];
}

/** A file's name may carry what the scan looks for: each name as printed (and placed in SARIF) is checked first, secret shapes and names starred. */
async function withCheckedNames(listed: Listed, setting: Setting, names: string[]): Promise<Listed> {
  const shown = [...new Set([...listed.inputs.map((i) => i.file), ...listed.skipped.map((s) => s.file)])];
  const checked = await checkedValue(shown, setting, sittingNames([], setting.rules, names, setting.display));
  const as = new Map(shown.map((name, i) => [name, checked[i] as string]));
  const shownAs = (name: string): string => as.get(name) ?? name;
  return {
    inputs: listed.inputs.map((i) => ({ ...i, file: shownAs(i.file) })),
    skipped: listed.skipped.map((x) => ({ ...x, file: shownAs(x.file) })),
    inside: new Set([...listed.inside].map(shownAs)),
  };
}

/**
 * Where SARIF places each file, by its checked name: inside the repository under %SRCROOT%,
 * outside it relative to the runner's home (shown as ~) or to the file system's root. The SARIF
 * builder (42 modules) loads only when --sarif asks for it.
 */
async function sarifOf(scan: ScanResult, engine: ScanEngine, listed: Listed): Promise<string> {
  const { relativeUri, sarifLog, SRCROOT } = await import("../render/sarif.js");
  const placeOf = (file: string): SarifPlace => {
    if (listed.inside.has(file)) return { uri: relativeUri(file), uriBaseId: SRCROOT };
    if (file.startsWith("~/")) return { uri: relativeUri(file.slice(2)), uriBaseId: "HOME" };
    return { uri: relativeUri(file.replace(/^\/+/, "")), uriBaseId: "FILESYSTEM_ROOT" };
  };
  return `${jsonText(sarifLog(scan, engine.catalogue, toolVersion(), placeOf, listed.skipped))}\n`;
}

const FLAGS = {
  json: { type: "boolean" },
  verbose: { type: "boolean" },
  sarif: { type: "string" },
  user: { type: "string", multiple: true },
  root: { type: "string" },
} as const;

async function run(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseFlags(argv, FLAGS, Number.MAX_SAFE_INTEGER, "scan");
  if (positionals.length === 0) throw new UsageError("clear scan needs at least one file or folder");
  const setting = loadSetting(values.root, io.cwd, { users: values.user ?? [] });
  const listed = await inputsOf(positionals, io, setting.root ?? io.cwd, setting.limits.maxFileBytes, setting.display.path);
  // A file whose home names an owner is a finding already; the name is then looked for in every file, as substitution does.
  const names = [...setting.users, ...taughtNames(listed.inputs, setting)];
  const checked = await withCheckedNames(listed, setting, names);
  const { inputs, skipped } = checked;
  const engine = scanEngine(setting.rules.secrets, homeGrammar(setting.rules.homes, names), userNamePattern(names));
  const scan = await scanPass(inputs, engine, setting.display, setting.config.waivers ?? []);
  if (values.sarif !== undefined) await writeAtomic(path.resolve(io.cwd, values.sarif), Buffer.from(await sarifOf(scan, engine, checked)));
  const ok = scan.findings.length === 0 && skipped.length === 0 && scan.control.red;
  if (values.json) writeJson(io, { command: "scan", ok, ...scan, skipped });
  else io.stdout(renderScan(scan, skipped, values.verbose === true));
  return ok ? 0 : 1;
}

export const scanCommand: Command = { run: (argv, io) => guarded(io, argv, () => run(argv, io)) };
