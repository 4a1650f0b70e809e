import { lstatSync } from "node:fs";
import path from "node:path";
import { classifier } from "../classify.js";
import { parseFlags, UsageError } from "../cli-args.js";
import { guarded, type Command } from "../command.js";
import type { Display } from "../display.js";
import { finding, type Finding } from "../findings.js";
import { parseCaptureBytes } from "../io/read-capture-dir.js";
import { repoPaths } from "../io/repo-tree.js";
import { loadSetting, type Setting } from "../io/setting.js";
import { readFixtureFolder, type FixtureFolder } from "../lib/fixture-folder.js";
import { comparePass, ruleWords, shapeOf, type FixtureShape } from "../passes/compare.js";
import { comparisonJson, renderComparison, type ComparedSide } from "../render/compare.js";
import { writeJson } from "../render/json.js";
import type { Io, ReadProblem } from "../types.js";
import { sittingNames, type CompanionText, type Teacher } from "../passes/substitute/index.js";
import { checkedValue } from "./checked-output.js";

interface Side extends ComparedSide {
  base: string;
  rel: string;
  /** How a file of this side is named in findings. */
  fileOf: (name: string) => string;
}

function folderSide(given: string, io: Io, display: Display): Side {
  const abs = path.resolve(io.cwd, given);
  const shown = display.path(given);
  let stat;
  try {
    stat = lstatSync(abs);
  } catch {
    throw new UsageError(`clear compare: ${shown}: no such folder`);
  }
  if (stat.isSymbolicLink()) throw new UsageError(`clear compare: ${shown}: is a symbolic link; never followed (give the folder itself)`);
  if (!stat.isDirectory()) throw new UsageError(`clear compare: ${shown}: not a folder`);
  return { label: shown, folder: shown, harness: null, events: 0, base: abs, rel: "", fileOf: (name) => display.path(path.join(given, name)) };
}

function versionSides(positionals: string[], setting: Setting): [Side, Side] {
  const [named, ...versions] = positionals as [string, string, string];
  const harness = setting.rules.harnesses.find((h) => h.harness === named || h.aliases.includes(named));
  if (!harness) {
    const known = setting.rules.harnesses.map((h) => h.harness).join(", ");
    throw new UsageError(`clear compare: unknown harness ${JSON.stringify(named)}; one of ${known}, or give two folders`);
  }
  if (setting.root === null) throw new UsageError("clear compare <harness> <version-a> <version-b> works inside a git repository (or give --root DIR)");
  const root = setting.root;
  const fixtures = repoPaths(setting.config).fixtures;
  const side = (version: string): Side => {
    if (!/^[0-9A-Za-z][0-9A-Za-z.+-]*$/.test(version) || version.includes("..")) {
      throw new UsageError(`clear compare: ${JSON.stringify(version)} is not a dotted host version`);
    }
    const rel = `${fixtures}/${harness.harness}/${version}`;
    const label = `${harness.harness} ${version}`;
    return { label, folder: rel, harness: harness.harness, events: 0, base: root, rel, fileOf: (name) => `${rel}/${name}` };
  };
  return [side(versions[0] as string), side(versions[1] as string)];
}

function problemFinding(p: ReadProblem, file: string, display: Display): Finding {
  const where = { file, pointer: p.pointer === undefined ? undefined : display.pointer(p.pointer), line: p.line, column: p.column };
  if (p.code === "unreadable") return finding("not-a-file", where, { what: `${p.message}; not read` });
  if (p.code === "duplicate-key") return finding("duplicate-key", where);
  return finding(p.code, where, { detail: p.message });
}

/** The harness a folder's fixtures belong to: their sidecars' word, else the folder above it when that names a harness. */
function harnessOf(side: Side, folder: FixtureFolder, setting: Setting): string | null {
  if (side.harness !== null) return side.harness;
  const said = new Set<string>();
  for (const bytes of folder.sidecars.values()) {
    try {
      const h = (JSON.parse(bytes.toString("utf8")) as { harness?: unknown }).harness;
      if (typeof h === "string") said.add(h);
    } catch {
      // A sidecar that does not parse says nothing; the fixture is compared all the same.
    }
  }
  const above = path.basename(path.dirname(side.base));
  const names = said.size === 1 ? [...said] : said.size === 0 ? [above] : [];
  return setting.rules.harnesses.find((h) => names.includes(h.harness))?.harness ?? null;
}

/** What teaches the names the printed words are checked for: each fixture read, and the text of each that does not parse. */
interface Teaching {
  docs: Teacher[];
  texts: CompanionText[];
}

/** The shapes of a side's fixtures; each one read is added to `teaching`, whose homes teach the names its printed words are checked for. */
function shapesOf(side: Side, setting: Setting, findings: Finding[], teaching: Teaching): { shapes: Map<string, FixtureShape>; ignored: number } {
  const folder = readFixtureFolder(side.base, side.rel, setting.limits.maxFileBytes);
  if ("refused" in folder) {
    const where = folder.at === side.rel ? "" : `${folder.at} `;
    throw new UsageError(`clear compare: ${side.folder}: ${where}${folder.detail}; nothing compared`);
  }
  if (folder.fixtures.length + folder.problems.length === 0) {
    // Nothing to compare is not "unchanged": a harness's folder or the fixtures folder was given for a version's.
    const version = side.harness === null ? "a version's folder (fixtures/<harness>/<version>)" : "a version that has fixtures";
    throw new UsageError(`clear compare: ${side.folder}: holds no fixture (<event>.json); give ${version}`);
  }
  for (const p of folder.problems) {
    const file = side.fileOf(p.name);
    if (p.refused === "link") findings.push(finding("symlink-in-repo", { file }));
    else if (p.refused === "oversize") findings.push(finding("oversize", { file }, { detail: `${p.detail} bytes; not read` }));
    else findings.push(finding("not-a-file", { file }, { what: `${p.detail}; not read` }));
  }
  side.harness = harnessOf(side, folder, setting);
  const c = classifier(setting.rules.fields.find((f) => f.harness === side.harness));
  const words = ruleWords(setting.rules.fields);
  const shapes = new Map<string, FixtureShape>();
  for (const f of folder.fixtures) {
    const parsed = parseCaptureBytes(f.bytes, setting.limits);
    if (parsed.doc) {
      teaching.docs.push({ name: side.fileOf(f.name), doc: parsed.doc });
      shapes.set(f.event, shapeOf(parsed.doc, f.event, c, words));
    } else {
      // A fixture cut short names its home all the same, and the file named after its owner is printed.
      teaching.texts.push({ file: side.fileOf(f.name), pointer: "", value: f.bytes.toString("utf8") });
      findings.push(problemFinding(parsed.problem as ReadProblem, side.fileOf(f.name), setting.display));
    }
  }
  side.events = shapes.size;
  return { shapes, ignored: folder.ignored };
}

async function run(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseFlags(argv, { json: { type: "boolean" }, verbose: { type: "boolean" }, root: { type: "string" } }, 3, "compare");
  if (positionals.length < 2) throw new UsageError("clear compare takes two fixture folders, or a harness and two versions");
  const setting = loadSetting(values.root, io.cwd);
  const sides = positionals.length === 2 ? positionals.map((p) => folderSide(p, io, setting.display)) : versionSides(positionals, setting);
  const [a, b] = sides as [Side, Side];
  const findings: Finding[] = [];
  const teaching: Teaching = { docs: [], texts: [] };
  const before = shapesOf(a, setting, findings, teaching);
  const after = shapesOf(b, setting, findings, teaching);
  const comparison = comparePass(before.shapes, after.shapes);
  const strip = ({ label, folder, harness, events }: Side): ComparedSide => ({ label, folder, harness, events });
  // Enum values and event names are the folders' words, and a folder compared may be one no scan has read: checked before they are printed.
  const report = await checkedValue({ a: strip(a), b: strip(b), comparison, ignored: before.ignored + after.ignored, findings }, setting, sittingNames(teaching.docs, setting.rules, setting.users, setting.display, teaching.texts));
  if (values.json) writeJson(io, comparisonJson(report, setting.display));
  else io.stdout(renderComparison(report, setting.display, values.verbose === true));
  return findings.some((f) => f.severity === "block") ? 1 : 0;
}

export const compareCommand: Command = { run: (argv, io) => guarded(io, argv, () => run(argv, io)) };
