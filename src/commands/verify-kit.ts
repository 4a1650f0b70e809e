import { promises as fs } from "node:fs";
import path from "node:path";
import { parseFlags, UsageError } from "../cli-args.js";
import { guarded, type Command } from "../command.js";
import { blocks, finding, type Finding } from "../findings.js";
import { sha256Hex } from "../digest.js";
import { digestSafely, isRefusal, underSystemFolder } from "../io/safe-file.js";
import { committedTransports, readKit, textAt, type CommittedTransport } from "../io/kit.js";
import { readBelow, wayBelow } from "../lib/no-link.js";
import { loadSetting } from "../io/setting.js";
import type { Io } from "../types.js";
import { kitPass, lineDiff, versionStringsOnly, type Side, type TransportState } from "../passes/kit.js";
import { sittingNames, type CompanionText } from "../passes/substitute/index.js";
import { checkedValue } from "./checked-output.js";
import { findingsText, printableLines } from "../render/human.js";
import { writeJson } from "../render/json.js";
import type { Kit } from "../types.js";

/** What kept a kit's file from being read: nothing to say where it is missing, else a finding naming it. */
function refusalFinding(refused: { refused: string; at: string; detail: string }, rel: string): Finding | "missing" {
  if (refused.refused === "missing") return "missing";
  return refused.refused === "link" ? finding("kit-link", { file: rel }) : finding("kit-not-a-file", { file: rel }, { what: `${refused.at} ${refused.detail}` });
}

/**
 * What stands on the way from the kit's folder to one of its files: nothing (null), a folder
 * missing ("missing", the file is absent), or a finding: a folder that is a link (never followed,
 * or the kit would be read from elsewhere) or no folder.
 */
function wayFinding(kitDir: string, rel: string): Finding | "missing" | null {
  const way = wayBelow(kitDir, rel);
  return way === null ? null : refusalFinding(way, rel);
}

/** A transport is a small text file; a kit's copy larger than this is not one. */
const TRANSPORT_MAX_BYTES = 16 * 1024 * 1024;

/** The kit's own copies, by path: the text of each that is the bytes kit.json names (null for one that is not), whether it is executable, and which are absent. */
interface KitCopies {
  texts: Map<string, string | null>;
  executable: Map<string, boolean>;
  absent: Set<string>;
}

/**
 * The kit's own copies of its transports, beside kit.json, read without following a link on the
 * way or at the end, and checked to be the very file below the kit once open; refusals are findings.
 */
function kitCopies(kit: Kit, kitDir: string, findings: Finding[]): KitCopies {
  const copies: KitCopies = { texts: new Map(), executable: new Map(), absent: new Set() };
  const system = underSystemFolder(kitDir);
  for (const t of kit.transports) {
    const read = system ? { refused: "not-a-file", at: ".", detail: "lies under /proc, /sys or /dev" } : readBelow(kitDir, t.path, TRANSPORT_MAX_BYTES);
    const refused = "bytes" in read ? null : refusalFinding(read, t.path);
    if (refused !== null && refused !== "missing") findings.push(refused);
    if (refused === "missing") copies.absent.add(t.path);
    // A copy that is not the bytes kit.json names (a kit.json from another sitting, a copy edited since) speaks for nothing.
    const own = "bytes" in read && read.bytes.length === t.bytes && sha256Hex(read.bytes) === t.sha256;
    if ("bytes" in read && !own) findings.push(finding("kit-copy-differs", { file: t.path }));
    copies.texts.set(t.path, own ? read.bytes.toString("utf8") : null);
    if (own) copies.executable.set(t.path, read.executable);
  }
  return copies;
}

/**
 * Each transport committed with the kit's bytes but not the kit's mode: executable where the kit's
 * is not, or the other way. The kit's mode is its copy's beside kit.json and the one kit.json
 * records, each where it stands; the committed mode must match both. Where neither stands (an
 * older kit.json, no copy) the mode is unchecked, and said so.
 */
function modeFindings(kit: Kit, copies: KitCopies, committed: Map<string, CommittedTransport>, transports: TransportState[]): Finding[] {
  const recorded = new Map(kit.transports.map((t) => [t.path, t.executable]));
  return transports.flatMap((t) => {
    const side = committed.get(t.path);
    if (t.state !== "equal" || side === undefined) return [];
    const kitModes = [copies.executable.get(t.path), recorded.get(t.path)].filter((m): m is boolean => m !== undefined);
    if (kitModes.length === 0) return [finding("transport-mode-unchecked", { file: t.path })];
    const other = kitModes.find((m) => m !== side.executable);
    if (other === undefined) return [];
    return [finding("transport-mode-differs", { file: t.path }, { how: side.executable ? "committed executable, the kit's is not" : "the kit's is executable, the committed one is not" })];
  });
}

async function binaryFindings(kit: Kit, kitDir: string): Promise<Finding[]> {
  if (!kit.binary) return [];
  const way = wayFinding(kitDir, kit.binary.path);
  if (way !== null) return way === "missing" ? [] : [way];
  const file = path.join(kitDir, kit.binary.path);
  if ((await fs.lstat(file).catch(() => null)) === null) return [];
  const d = await digestSafely(file);
  if (isRefusal(d)) return [d.kind === "link" ? finding("kit-link", { file: kit.binary.path }) : finding("kit-not-a-file", { file: kit.binary.path }, { what: d.what })];
  return d.sha256 === kit.binary.sha256 && d.bytes === kit.binary.bytes ? [] : [finding("binary-differs", { file: kit.binary.path })];
}

/**
 * Where the kit's head is a commit of the repository, each transport the kit holds against the
 * head's: they differ in version strings only. The kit's own copy is its text; where no copy is
 * beside kit.json, the committed bytes stand for it when they are the ones kit.json names (a kit.json
 * edited to name other bytes is then held against its head all the same).
 */
function headFindings(kit: Kit, copies: KitCopies, committed: Map<string, CommittedTransport>, root: string, versionPattern: string): Finding[] {
  return kit.transports.flatMap((t) => {
    const atHead = textAt(root, kit.head, t.path);
    const side = committed.get(t.path);
    const standIn = copies.absent.has(t.path) && side !== undefined && side.sha256 === t.sha256 && side.bytes === t.bytes ? side.text : null;
    const copy = copies.texts.get(t.path) ?? standIn;
    const absent = copies.absent.has(t.path) ? [finding("kit-copy-absent", { file: t.path })] : [];
    if (atHead === null || copy === null || versionStringsOnly(atHead, copy, versionPattern)) return absent;
    return [...absent, finding("kit-not-from-head", { file: t.path }, { how: lineDiff(atHead, copy, 4).join(" | ") })];
  });
}

/** The texts verify-kit quotes from, whole (each transport as the kit and the repository hold it, each finding's message), for the homes they name: their owners are looked for in what is printed. */
function quotedTexts(copies: Map<string, string | null>, committed: Map<string, Side>, atHead: { file: string; text: string | null }[], findings: Finding[]): CompanionText[] {
  const texts = [...[...copies].map(([file, text]) => ({ file, text })), ...[...committed].map(([file, side]) => ({ file, text: side.text })), ...atHead];
  return [...texts.flatMap(({ file, text }) => (text === null ? [] : [{ file, pointer: "", value: text }])), ...findings.map((f) => ({ file: f.file ?? "", pointer: "", value: f.message }))];
}

async function run(argv: string[], io: Io): Promise<number> {
  const { values } = parseFlags(argv, { kit: { type: "string" }, root: { type: "string" }, json: { type: "boolean" }, verbose: { type: "boolean" }, "working-tree": { type: "boolean" } }, 0, "verify-kit");
  if (values.kit === undefined) throw new UsageError("clear verify-kit needs --kit <kit.json>");
  const setting = loadSetting(values.root, io.cwd);
  if (setting.root === null) throw new UsageError("clear verify-kit works inside a git repository (or give --root DIR)");
  const kitFile = path.resolve(io.cwd, values.kit);
  const kit = await readKit(kitFile);
  const kitDir = path.dirname(kitFile);
  const refusals: Finding[] = [];
  const copies = kitCopies(kit, kitDir, refusals);
  const versions = setting.rules.transports.versionPattern;
  const { files: committed, findings: notFiles } = await committedTransports(setting.root, setting.rules.transports, values["working-tree"] === true);
  const result = kitPass(kit, committed, copies.texts, versions);
  const found = [...refusals, ...notFiles, ...result.findings, ...modeFindings(kit, copies, committed, result.transports), ...headFindings(kit, copies, committed, setting.root, versions), ...(await binaryFindings(kit, kitDir))];
  const ok = !blocks(found);
  // The diffs quote the transports' lines (a hook's command, its environment): what is printed of them is checked first.
  const root = setting.root;
  const atHead = kit.transports.map((t) => ({ file: t.path, text: textAt(root, kit.head, t.path) }));
  const names = sittingNames([], setting.rules, setting.users, setting.display, quotedTexts(copies.texts, committed, atHead, found));
  const { transports, findings } = await checkedValue({ transports: result.transports, findings: found }, setting, names);
  if (values.json) writeJson(io, { command: "verify-kit", ok, transports, findings });
  else {
    // A committed path is the repository's data: written escaped, on its own line, as every printed name is.
    const lines = transports.flatMap((t) => [`${t.state.padEnd(8)} ${t.path}${t.versionStringsOnly === true ? " (version strings only)" : ""}`, ...(t.diff ?? []).map((d) => `           ${d}`)]);
    io.stdout(printableLines([...lines, ...findingsText(findings, "verify", values.verbose === true), ok ? "the committed transports are the kit's bytes" : "the committed transports are NOT the kit's bytes"]));
  }
  return ok ? 0 : 1;
}

export const verifyKitCommand: Command = { run: (argv, io) => guarded(io, argv, () => run(argv, io)) };
