import { append, pushAll } from "./collections.js";
import { promises as fs } from "node:fs";
import path from "node:path";
import { sha256Hex } from "./digest.js";
import { OutputError, UsageError } from "./errors.js";
import { finding, type Finding } from "./findings.js";
import { nameReadings, userNamePattern, type HomeGrammar, type NamePattern } from "./homes.js";
import { offsetOf } from "./json/reader.js";
import { HOME_OWNER_RULE } from "./scan-rules/home-owner.js";
import { RulesError, validateAgainst } from "./io/load-rules.js";
import { isCompanion } from "./capture-name.js";
import { listCaptureDir, readCaptureEntries } from "./io/read-capture-dir.js";
import { sittingShownFrom } from "./io/repo.js";
import { isInside } from "./io/write-atomic.js";
import { CONFIG_FILE, placesOf, repoPaths } from "./io/repo-tree.js";
import { runnerHome, type Setting } from "./io/setting.js";
import { makeDisplay } from "./display.js";
import { inventoryContext, inventoryPass, unknownRecipes } from "./passes/inventory.js";
import { identifiersOf, pairPass, placeholderTest } from "./passes/pair.js";
import { holdsContact, nameSpelt, withoutContacts } from "./passes/substitute/final-check.js";
import { sittingNames, substitutePass, type CompanionText, type SittingNames, type Teacher } from "./passes/substitute/index.js";
import type { ListedFixture } from "./record/parse.js";
import type { Capture, CaptureEntry, FixtureOut, Inventory, JsonDocument, Kit, Pairing, ScanResult, Selection, Sitting, SittingInfo, Skipped, Substitution } from "./types.js";
import { withDocument } from "./json/with-document.js";

// The one line: a sitting read once, at the edge, into parsed captures; then inventory (each
// capture classified and judged for refused classes once), pairing, substitution, selection,
// provenance, the scan and the record, each pass adding its result to what the earlier ones
// found; then the fixtures and the batch written into the repository, all or nothing. A command
// runs the line as far as it needs.

/** Progress is said only on sittings larger than this. */
const PROGRESS_FROM = 300;

export type Stage = "inventory" | "pair" | "substitute" | "select" | "record";

export interface LineOptions {
  recipes?: string[];
  /** Capture names a person chose with --choose. */
  choose?: string[];
  /** Inventory lists every pointer with its class (clear inventory's output). */
  fields?: boolean;
  /** Keep every capture's parsed document after substitution (the review page reveals raw values from them). */
  keepDocuments?: boolean;
}

export interface Line {
  sitting: Sitting;
  inventory: Inventory;
  captures: Capture[];
  pairing: Pairing;
  names: SittingNames;
  substitution: Substitution;
  selection: Selection;
  fixtures: FixtureOut[];
  scan: ScanResult;
  /** The batch as it would be written: its text, id, digest, what blocks it, and the fixtures it lists, read back from its text. */
  batch: { id: string; digest: string; text: string; blockers: Finding[]; listed: ListedFixture[] };
}

function companion<T>(entry: CaptureEntry | undefined, kind: "sitting" | "kit"): { value: T | null; findings: Finding[] } {
  if (!entry) return { value: null, findings: [] };
  const file = entry.name;
  const code = kind === "sitting" ? "invalid-sitting" : "invalid-kit";
  if (entry.kind === "unreadable") {
    if (entry.entryKind === "symlink") return { value: null, findings: [finding("symlink", { file })] };
    const at = entry.problem ? { pointer: entry.problem.pointer, line: entry.problem.line, column: entry.problem.column } : {};
    return { value: null, findings: [finding(code, { file, ...at }, { detail: entry.problem ? entry.problem.message : "is not a regular file" })] };
  }
  try {
    validateAgainst(kind, entry.doc.value, file, true);
    return { value: entry.doc.value as T, findings: [] };
  } catch (err) {
    if (!(err instanceof RulesError)) throw err;
    const detail = err.message.replace(/^[^:]*: /, "");
    return { value: null, findings: [finding(code, { file, pointer: /at (\/[^\s:]*)/.exec(detail)?.[1] }, { detail })] };
  }
}

/** Reads a sitting whole: every entry through the safe reader, and its companions validated. */
export async function readSitting(dir: string, setting: Setting): Promise<Sitting> {
  const list = await listCaptureDir(dir, setting.display.path(dir));
  say(setting, list.entries.length, `reading ${list.entries.length} entries`);
  const entries = readCaptureEntries(list, setting.limits);
  const sitting = companion<SittingInfo>(entries.find((e) => e.name === "sitting.json"), "sitting");
  const kit = companion<Kit>(entries.find((e) => e.name === "kit.json"), "kit");
  return { dir: list.path, entries, info: sitting.value, kit: kit.value, findings: [...sitting.findings, ...kit.findings] };
}

export function checkRecipes(setting: Setting, recipes: string[]): void {
  const unknown = unknownRecipes(setting.rules, recipes);
  if (unknown.length > 0) throw new UsageError(`no recipe named ${unknown.map((n) => `"${n}"`).join(", ")} (known: ${setting.rules.recipes.map((r) => r.name).join(", ")})`);
}

// The findings that keep a file out of every pass: it could not be entered or read as a capture.
const NOT_READ = new Set<string>(["symlink", "not-a-file", "not-a-capture", "unknown-harness", "oversize", "not-utf8", "invalid-json", "not-an-object", "duplicate-key", "too-deep"]);

/**
 * Every file of the folder, its companions aside, that inventory did not take as a capture (a link,
 * a pipe, a folder, a file named as no capture, one unreadable or not whole JSON), with the finding
 * that kept it out and its place: a pass that reads captures cannot speak for it.
 */
function skippedOf(inventory: Inventory): Skipped[] {
  const valid = new Set(inventory.files.filter((f) => f.valid).map((f) => f.name));
  const why = new Map<string, Finding>();
  for (const f of inventory.findings) {
    if (f.file === undefined || f.severity !== "block" || valid.has(f.file) || isCompanion(f.file)) continue;
    const held = why.get(f.file);
    if (held === undefined || (!NOT_READ.has(held.code) && NOT_READ.has(f.code))) why.set(f.file, f);
  }
  const skipped = [...why.values()].map((f) => ({ file: f.file as string, code: f.code, reason: `${f.code}: ${f.message}`, ...placeIn(f) }));
  return skipped.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

function placeIn(f: Finding): Pick<Skipped, "pointer" | "line" | "column"> {
  return { ...(f.pointer === undefined ? {} : { pointer: f.pointer }), ...(f.line === undefined ? {} : { line: f.line }), ...(f.column === undefined ? {} : { column: f.column }) };
}

/** Says a pass on a long run, where the command asked for progress. */
function say(setting: Setting, count: number, line: string): void {
  if (count > PROGRESS_FROM) setting.progress?.(line);
}

function inventoried(sitting: Sitting, setting: Setting, options: LineOptions): Pick<Line, "inventory" | "captures"> {
  say(setting, sitting.entries.length, `inventory of ${sitting.entries.length} entries`);
  const policy = setting.config.policies?.["env-dump-v1"] ?? null;
  const result = inventoryPass(sitting, inventoryContext(setting.rules, setting.display, policy), options.recipes ?? [], options.fields === true);
  // Each entry's document now lives on its capture; the listing is not held twice. A file read as
  // JSON that is no capture stays: the names it teaches are looked for too (teachersOf).
  const taken = new Set(result.captures.map((c) => c.name));
  // A file that did not parse keeps its text: it teaches names (teachingTexts).
  sitting.entries = sitting.entries.filter((e) => (e.kind === "readable" ? !taken.has(e.name) && !isCompanion(e.name) : e.text !== undefined));
  return result;
}

function paired(captures: Capture[], inventory: Inventory, setting: Setting, names: SittingNames): { pairing: Pairing; pairIds: Map<string, string[]> } {
  say(setting, captures.length, `pairing ${captures.length} captures`);
  const isPlaceholder = placeholderTest(setting.rules);
  const files = captures.map((c) => identifiersOf(c, setting.rules.pairing.find((p) => p.harness === c.harness), isPlaceholder));
  const pairIds = new Map(files.map((f) => [f.name, [...f.ids.values()].flat()]));
  // A masked id shows its first characters, which could begin a name the sitting teaches: it is masked by a display that knows
  // its names. An id shown whole is checked with the rest of the output, where a name in it is starred.
  const knowing = makeDisplay(setting.rules, names.checked, runnerHome().home);
  const shown = (id: string): string => (setting.display.id(id) === id ? id : knowing.id(id));
  return { pairing: pairPass(files, setting.rules, skippedOf(inventory), shown), pairIds };
}

/** What later passes need of a capture once it is cleared: its name, size and digest, not its document. */
function release(capture: Capture): void {
  capture.doc = RELEASED;
  capture.leaves = [];
  capture.homeHints = undefined;
}

const RELEASED = { text: "", value: null, spans: [], keys: [] };

function substituted(captures: Capture[], inventory: Inventory, names: SittingNames, setting: Setting, keep: boolean): Substitution {
  say(setting, captures.length, `substituting ${captures.length} captures`);
  const options = { users: setting.users, literals: setting.config.literals ?? [] };
  const substitution = substitutePass(captures, setting.rules, options, setting.display, names, keep ? undefined : release);
  return { ...substitution, skipped: skippedOf(inventory) };
}

function blockersOf(line: Pick<Line, "inventory" | "selection" | "scan">): Finding[] {
  // A missing event is recorded in the batch; what is there is still cleared.
  const out = line.inventory.findings.filter((f) => f.severity === "block" && f.code !== "missing-event");
  pushAll(out, line.selection.findings.filter((f) => f.severity === "block"));
  pushAll(out, line.scan.findings.map((f) => finding("secret-found", { file: f.file, pointer: f.pointer, line: f.line, column: f.column }, { rule: f.rule, masked: f.masked })));
  if (!line.scan.control.red) out.push(finding("control-silent", {}, { rules: line.scan.control.silent.join(", ") }));
  return out;
}

/** Every text sitting.json and kit.json give the record and the sidecars, with where it stands. */
export function companionTexts(sitting: Sitting): CompanionText[] {
  const out: CompanionText[] = [];
  const info = sitting.info ?? {};
  for (const k of ["driver", "method", "versionLine", "startedAt", "endedAt", "hostBinary", "hostBinarySha256", "model"] as const) if (typeof info[k] === "string") out.push({ file: "sitting.json", pointer: `/${k}`, value: info[k] as string });
  // A member name of versionLines is written beside its line: it is a text of sitting.json too.
  for (const [h, l] of Object.entries(info.versionLines ?? {})) out.push({ file: "sitting.json", pointer: "/versionLines", value: h }, { file: "sitting.json", pointer: `/versionLines/${h}`, value: l });
  const kit = sitting.kit;
  if (kit) {
    out.push({ file: "kit.json", pointer: "/head", value: kit.head });
    kit.rootEdits.forEach((value, i) => out.push({ file: "kit.json", pointer: `/rootEdits/${i}`, value }));
    kit.transports.forEach((t, i) => out.push({ file: "kit.json", pointer: `/transports/${i}/path`, value: t.path }));
    if (kit.binary) out.push({ file: "kit.json", pointer: "/binary/path", value: kit.binary.path });
  }
  return out;
}

/** What teaches a sitting's names besides its documents: the texts of sitting.json and kit.json, and of every file read whole that did not parse (a capture cut short names its home too). */
export function teachingTexts(sitting: Sitting): CompanionText[] {
  const unparsed = sitting.entries.flatMap((e) => (e.kind === "unreadable" && e.text !== undefined ? [{ file: e.name, pointer: "", value: e.text }] : []));
  return [...companionTexts(sitting), ...unparsed];
}

/** The sitting's captures, and every other file of it read as JSON but its companions: a name any of them teaches is looked for and masked everywhere. */
export function teachersOf(sitting: Sitting, captures: Capture[]): Teacher[] {
  const taken = new Set(captures.map((c) => c.name));
  const strays = sitting.entries.flatMap((e) => (e.kind === "readable" && !taken.has(e.name) && !isCompanion(e.name) ? [{ name: e.name, doc: e.doc }] : []));
  return strays.length === 0 ? captures : [...captures, ...strays];
}

/**
 * The texts of sitting.json and kit.json that clear run refuses (a secret shape, a mailbox, a phone
 * number), for the commands that stop before the record: what blocks run blocks them too. The
 * scanner loads only where a companion holds a text.
 */
export async function companionRefusals(line: Pick<Line, "sitting" | "names">, setting: Setting): Promise<Finding[]> {
  if (companionTexts(line.sitting).length === 0) return [];
  const { scanPass, sittingEngine } = await import("./passes/scan.js");
  const engine = sittingEngine(setting.rules, line.names);
  return (await refusedCompanionTexts(line.sitting, (inputs) => scanPass(inputs, engine, setting.display))).findings;
}

async function refusedCompanionTexts(sitting: Sitting, scanOf: (inputs: { file: string; text: string }[]) => Promise<ScanResult>): Promise<{ values: Set<string>; findings: Finding[] }> {
  const texts = companionTexts(sitting);
  const scan = await scanOf(texts.map((t, i) => ({ file: `${i}`, text: JSON.stringify({ value: t.value }) })));
  const values = new Set<string>();
  // A home or a name is masked where the text is written (companionMask); a secret shape, a mailbox and a phone number are refused.
  const findings = scan.findings.filter((f) => f.rule !== HOME_OWNER_RULE).map((f) => {
    const t = texts[Number(f.file)] as { file: string; pointer: string; value: string };
    values.add(t.value);
    return finding(t.file === "kit.json" ? "invalid-kit" : "invalid-sitting", { file: t.file, pointer: t.pointer }, { detail: `holds a secret shape (${f.rule}); it is written nowhere` });
  });
  for (const t of texts.filter((x) => !values.has(x.value) && holdsContact(x.value))) {
    values.add(t.value);
    findings.push(finding(t.file === "kit.json" ? "invalid-kit" : "invalid-sitting", { file: t.file, pointer: t.pointer }, { detail: "holds a mailbox or a phone number; it is written nowhere" }));
  }
  return { values, findings };
}

/**
 * How a text from sitting.json or kit.json is written: homes and names masked, a refused one not
 * at all, nor words that name a user the sitting taught beside other words (a driver's full name,
 * a note): the rest may be the person too. A path or an id (no space) has the name masked in place.
 */
export function companionMask(line: Pick<Line, "names">, setting: Setting, refused: ReadonlySet<string> = new Set()): (text: string) => string {
  const names = userNamePattern(line.names.checked);
  const grammar = line.names.grammar;
  return (given) => {
    if (refused.has(given)) return "[not written: it holds a secret shape or a contact]";
    // A name or a path the record quotes (a capture folder, a stray file, an event a capture's name gives) may hold a mailbox or a phone number.
    const text = withoutContacts(given);
    if (names !== null && namedBesideWords(withoutHomes(text, grammar), names)) return "[not written: it names a user the sitting taught]";
    const out = withoutHomes(setting.display.path(text), grammar);
    if (names === null) return out;
    const replaced = names.replace(out, grammar.placeholder);
    // What still spells a name once those written were replaced (escaped, encoded, a letter at a time) is not written at all.
    return nameSpelt([replaced], names) === undefined ? replaced : "[not written: it names a user the sitting taught]";
  };
}

function withoutHomes(text: string, grammar: HomeGrammar): string {
  let out = text;
  for (const o of [...grammar.realOwners(out)].reverse()) out = out.slice(0, o.start) + grammar.placeholder + out.slice(o.end);
  return out;
}

/** Whether a text of words (a space in it: a path or an id has none) names a user beside other words, as written or as its letters read. */
function namedBesideWords(text: string, names: NamePattern): boolean {
  if (!/\s/.test(text.trim())) return false;
  return [text, ...nameReadings(text)].some((r) => names.test(r) && names.replace(r, "").trim() !== "");
}

async function recorded(line: Omit<Line, "fixtures" | "scan" | "batch">, fixtures: FixtureOut[], setting: Setting, options: LineOptions): Promise<Pick<Line, "fixtures" | "scan" | "batch">> {
  say(setting, line.captures.length, `scanning ${fixtures.length} fixtures`);
  // The scanner, the kit's edge and the record's passes load for the record: the line's earlier stages start without them.
  const { scanEngine, scanPass, sittingEngine } = await import("./passes/scan.js");
  const [{ committedTransports }, { kitPass }, { batchId, recordBatch }, { parseRecord }] = await Promise.all([import("./io/kit.js"), import("./passes/kit.js"), import("./passes/record.js"), import("./record/parse.js")]);
  const engine = sittingEngine(setting.rules, line.names);
  const scanOf = (inputs: { file: string; text: string }[]): Promise<ScanResult> => scanPass(inputs, engine, setting.display);
  // Waivers a person wrote in clear.config.json apply to the fixtures only, and the batch lists them.
  const fixtureTexts = fixtures.map((f) => {
    const input: { file: string; text: string; readonly document?: JsonDocument } = { file: f.path, text: Buffer.from(f.bytes).toString("utf8") };
    return f.document ? withDocument(input, f.document) : input;
  });
  const scan = await scanPass(fixtureTexts, engine, setting.display, setting.config.waivers ?? []);
  const companions = await refusedCompanionTexts(line.sitting, scanOf);
  const blockers = [...blockersOf({ ...line, scan }), ...companions.findings];
  const written = blockers.length === 0 ? fixtures : [];
  const kit = line.sitting.kit;
  const kitCheck = kit && setting.root ? kitPass(kit, (await committedTransports(setting.root, setting.rules.transports, false)).files, new Map(), setting.rules.transports.versionPattern).transports : null;
  const id = batchId(line.captures);
  const mask = companionMask(line, setting, companions.values);
  const sidecarDigests = new Map(fixtures.map((f) => [f, sha256Hex(f.sidecar)]));
  const input = { ...line, sittingShown: sittingShownFrom(setting.root, line.sitting.dir, setting.display.path), scan, fixtures: written, planned: fixtures, blockers, kitCheck, mask, sidecarDigest: (f: FixtureOut) => sidecarDigests.get(f) ?? sha256Hex(f.sidecar), overrides: { choose: [...new Set(options.choose ?? [])], recipes: [...new Set(options.recipes ?? [])] }, overlay: setting.rules.overlay, overlaid: setting.rules.overlaid, policies: policiesOf(setting) };
  // The record's own words and the rules' member names may spell a name the sitting taught ("name"):
  // the guard looks for homes and secret shapes; names are masked where each text is written.
  const guard = scanEngine(setting.rules.secrets, line.names.grammar, null, setting.rules.knownMembers);
  const own = new Set([...fixtures.flatMap((f) => [f.provenance.raw.sha256, f.provenance.cleared.sha256]), ...sidecarDigests.values()]);
  const guardScan = (inputs: { file: string; text: string }[]): Promise<ScanResult> => scanPass(inputs.map((i) => ({ ...i, text: withOwnDigestsBlanked(i.text, own) })), guard, setting.display);
  // Only a blocked batch has its values starred; in one that would land, a secret shape stops everything.
  const render = (m: (text: string) => string): string => recordBatch({ ...input, mask: m }, id);
  const blocked = blockers.length > 0 ? await withoutSecretValues(render, mask, guardScan) : null;
  const text = blocked?.text ?? render(mask);
  // A blocked batch the guard just read clean, with no sidecar to write, is not read a second time.
  if (blocked?.clean !== true || written.length > 0) await guardWritten(text, written, guardScan, scanOf);
  // The batch is read back once, by the record's own reader: its digest, and the fixtures it lists.
  const read = parseRecord(text).batches[0];
  return { fixtures: written, scan, batch: { id, digest: read?.digestClaimed ?? "", text, blockers, listed: read?.fixtures ?? [] } };
}

/**
 * A written text as the guard reads it: each digest the tool made of a capture's or a fixture's
 * bytes written over with x's of its length. SHA-256 output spells nothing, and reading thousands
 * of them as base64 and hex from every offset is most of what scanning a batch of 2,000 fixtures
 * costs. Only a digest standing alone is written over: where a letter, a digit, `+`, `/`, `=`, `-`
 * or `_` stands beside it, it is part of a longer run, read as written. Offsets do not move, so a
 * finding's place is the written text's.
 */
export function withOwnDigestsBlanked(text: string, own: ReadonlySet<string>): string {
  if (own.size === 0) return text;
  return text.replace(STANDALONE_DIGEST, (d) => (own.has(d) ? "x".repeat(d.length) : d));
}

const STANDALONE_DIGEST = /(?<![A-Za-z0-9+/=_-])[0-9a-f]{64}(?![A-Za-z0-9+/=_-])/g;

function policiesOf(setting: Setting): { name: string; reason: string }[] {
  return Object.entries(setting.config.policies ?? {}).map(([name, p]) => ({ name, reason: p.reason }));
}

/**
 * A blocked batch, with every value the guard finds a secret shape in (an id or a reason quoting a
 * token the fixtures hold, and so already a blocker) written as a note instead: what blocks is said by
 * the findings that name the file and pointer, never by quoting it.
 */
async function withoutSecretValues(render: (mask: (text: string) => string) => string, mask: (text: string) => string, guardScan: (inputs: { file: string; text: string }[]) => Promise<ScanResult>): Promise<{ text: string; clean: boolean }> {
  const first = render(mask);
  const found = (await guardScan([{ file: "the batch", text: first }])).findings;
  if (found.length === 0) return { text: first, clean: true };
  // A finding may end past its line's end (an encoded run read to the end of its line): the value is written within one line.
  const values = found.map((f) => first.slice(offsetOf(first, f.line, f.column), offsetOf(first, f.endLine, f.endColumn)).replace(/^[\r\n]+|[\r\n]+$/g, "")).filter((v) => v.length > 0);
  return { text: render((text) => values.reduce((out, v) => out.split(v).join("[a secret shape, not written]"), mask(text))), clean: false };
}

/** Every byte written is checked like a fixture: the batch text and the sidecars pass the scan, or nothing is written. */
async function guardWritten(batch: string, fixtures: FixtureOut[], scanOf: (inputs: { file: string; text: string }[]) => Promise<ScanResult>, withNames: (inputs: { file: string; text: string }[]) => Promise<ScanResult>): Promise<void> {
  const scan = await scanOf([{ file: "the batch", text: batch }, ...fixtures.map((f) => ({ file: f.sidecarPath, text: Buffer.from(f.sidecar).toString("utf8") }))]);
  const first = scan.findings[0];
  if (first) throw new OutputError(`${first.file} would hold a secret shape or a name (${first.rule}) at line ${first.line}; nothing written`);
  // What a sidecar takes from the sitting (the capture's name and version, pair ids, the kit) is read
  // for the names it taught too; its pointers are the hosts' member names ("root"), not a person's.
  // One text, a sidecar's part on each line: one scan, and a finding's line tells its sidecar.
  const taken = fixtures.map((f) => JSON.stringify({ captureName: f.provenance.captureName, hostVersion: f.provenance.hostVersion, pairs: f.provenance.pairs.map((p) => p.id), kit: f.provenance.kit }));
  const named = taken.length === 0 ? undefined : (await withNames([{ file: "sidecars", text: taken.join("\n") }])).findings[0];
  // The sidecar is named by what the catalogues spell (harness, event), never by its path: the path holds the version that spells the name.
  if (!named) return;
  const which = fixtures[named.line - 1]?.provenance;
  throw new OutputError(`the sidecar of ${which ? `${which.harness}'s ${which.event} fixture` : "a fixture"} would hold a name the sitting taught (${named.rule}) in what it takes from the sitting (its capture's name and version, pair ids, the kit); nothing written`);
}

/**
 * What `clear substitute` writes is checked as a fixture is, before it is written: a cleared file in
 * which the scan finds a secret shape or a name is refused (its text dropped, each finding naming
 * the file and pointer), and so is one whose name (the capture's, its version free text) spells
 * one; a scan whose control stays silent refuses every file.
 */
export async function refuseUncleared(substitution: Substitution, names: SittingNames, setting: Setting): Promise<void> {
  const cleared = substitution.files.filter((f) => f.cleared !== null);
  if (cleared.length === 0) return;
  const { scanPass, sittingEngine } = await import("./passes/scan.js");
  const engine = sittingEngine(setting.rules, names);
  const texts = cleared.map((f, i) => ({ file: `${i}`, text: f.cleared as string }));
  const fileNames = cleared.map((f, i) => ({ file: `name ${i}`, text: f.report.name }));
  const scan = await scanPass([...texts, ...fileNames], engine, setting.display);
  const found = new Map<string, Finding[]>();
  for (const s of scan.findings) {
    const named = s.file.startsWith("name ");
    const at = named ? s.file.slice("name ".length) : s.file;
    const file = (cleared[Number(at)] as (typeof cleared)[number]).report.name;
    const why = named
      ? finding("refused-class", { file }, { detail: `its name spells what the scan refuses (${s.rule}), and a cleared file is written under its capture's name; rename the capture with the host's own version` })
      : finding("secret-found", { file, pointer: s.pointer, line: s.line, column: s.column }, { rule: s.rule, masked: s.masked });
    append(found, at, why);
  }
  if (!scan.control.red) substitution.findings.push(finding("control-silent", {}, { rules: scan.control.silent.join(", ") }));
  cleared.forEach((f, i) => {
    const mine = found.get(`${i}`) ?? [];
    if (scan.control.red && mine.length === 0) return;
    f.cleared = null;
    Object.assign(f.report, { clearedBytes: null, examples: [] });
    pushAll(f.report.refused, mine);
    pushAll(substitution.findings, mine);
  });
}

/** Runs the line on a sitting up to and including `until`; later stages are left empty. */
export async function runLine(setting: Setting, dir: string, until: Stage, options: LineOptions = {}): Promise<Line> {
  checkRecipes(setting, options.recipes ?? []);
  const sitting = await readSitting(dir, setting);
  const { inventory, captures } = inventoried(sitting, setting, options);
  const empty = { pairing: pairPass([], setting.rules), substitution: { userNames: 0, declarations: [], files: [], skipped: [], findings: [] }, selection: { selected: [], findings: [] } };
  const line: Line = { sitting, inventory, captures, ...empty, names: sittingNames([], setting.rules, [], setting.display), fixtures: [], scan: { files: 0, findings: [], waived: [], unusedWaivers: [], control: { red: false, rules: [], silent: [] } }, batch: { id: "", digest: "", text: "", blockers: [], listed: [] } };
  if (until === "inventory") return line;
  line.names = sittingNames(teachersOf(sitting, captures), setting.rules, setting.users, setting.display, teachingTexts(sitting));
  const { pairing, pairIds } = paired(captures, inventory, setting, line.names);
  line.pairing = pairing;
  if (until === "pair") return line;
  pushAll(line.inventory.findings, namedVersions(captures, line.names.checked));
  line.substitution = substituted(captures, inventory, line.names, setting, options.keepDocuments === true);
  if (until === "substitute") return line;
  const unknown = (options.choose ?? []).filter((name) => !captures.some((c) => c.name === name));
  if (unknown.length > 0) throw new UsageError(`--choose: not a valid capture in this sitting: ${unknown.join(", ")}`);
  chosenOncePerEvent(captures, options.choose ?? []);
  // A capture chosen by hand that substitution refused cannot stand for its event: said, never dropped in silence.
  const refused = line.substitution.files.filter((f) => f.cleared === null && (options.choose ?? []).includes(f.report.name));
  if (refused.length > 0) {
    const why = refused.map((f) => `${f.report.name} (${[...new Set(f.report.refused.map((x) => x.code))].join(", ")})`);
    throw new UsageError(`--choose: refused, so it cannot be a fixture: ${why.join(", ")}; choose another capture of its event`);
  }
  // Selection and the record load only for the commands that run the line that far.
  const [{ pairingAsKept }, { selectPass }] = await Promise.all([import("./passes/kept-ids.js"), import("./passes/select.js")]);
  // From here on, what is written of the pairs says only the ids a committed fixture keeps.
  Object.assign(line, pairingAsKept(line.pairing, selectPass(captures, line.substitution, line.pairing, setting.rules, options.choose ?? []), line.substitution, pairIds));
  if (until === "select") return line;
  const paths = repoPaths(setting.config);
  const [{ provenancePass }, { batchId }] = await Promise.all([import("./passes/provenance.js"), import("./passes/record.js")]);
  // A secret shape in a kit's text is refused with its field before anything is written (recorded); homes and names are masked here already.
  const fixtures = provenancePass(sitting, captures, line.substitution, line.pairing, line.selection, paths.fixtures, batchId(captures), companionMask(line, setting));
  Object.assign(line, await recorded(line, fixtures, setting, options));
  setting.progress?.("");
  return line;
}

export interface RunResult {
  batch: string;
  /** Set when an accepted batch already holds exactly this sitting's fixtures: the record is not written. */
  alreadyAccepted: boolean;
  /** Files of that accepted batch that were missing or changed on disk, written back with the bytes it lists. */
  restored: string[];
  /** The pending batch this one replaced, if any. */
  replaced: string | null;
  /** Files that replaced batch wrote, still as it wrote them, that this one does not write and no accepted batch lists: no batch lists them now. */
  unlisted: string[];
  fixtures: string[];
  blockers: Finding[];
  scan: ScanResult;
  recordPath: string;
  /** Events the recipe expects that no capture holds: the batch says which. */
  missing: number;
  /** The names the sitting taught and the names given: what is printed of the result is checked for them. */
  names: SittingNames;
}

/**
 * No command but clear capture writes inside a capture folder: a run whose repository (its record,
 * its lock) lies in the capture folder, or whose fixtures folder holds it or lies in it, is refused
 * before anything is read or written. Real paths are compared, so a link or `..` hides nothing.
 */
async function refuseWritingInside(captureDir: string, root: string, layout: ReturnType<typeof repoPaths>, setting: Setting): Promise<void> {
  const fixtures = path.join(root, layout.fixtures);
  const within = async (inner: string, outer: string): Promise<boolean> => (await isInside(inner, outer)) || (await sameFolderAbove(inner, outer));
  const clash = (await within(root, captureDir))
    ? "the repository (its record and its lock) lies inside it"
    : (await within(captureDir, fixtures)) || (await within(fixtures, captureDir))
      ? `it and the fixtures folder (${layout.fixtures}) overlap`
      : null;
  if (clash !== null) throw new UsageError(`${setting.display.path(captureDir)}: ${clash}, and clear run would write there; no command writes inside a capture folder: name one outside the repository's fixtures, or a --root outside it`);
}

/**
 * Whether `outer` is `inner` or a folder above it as the file system knows folders (device and
 * inode): a bind mount shows one folder at two paths that no real path tells apart.
 */
async function sameFolderAbove(inner: string, outer: string): Promise<boolean> {
  const target = await fs.stat(outer).catch(() => null);
  if (target === null) return false;
  for (let dir = path.resolve(inner); ; dir = path.dirname(dir)) {
    const here = await fs.stat(dir).catch(() => null);
    if (here !== null && here.dev === target.dev && here.ino === target.ino) return true;
    if (path.dirname(dir) === dir) return false;
  }
}

/** A link where the tool's own files stand, on disk, is refused before anything is read or written. */
async function refuseLinks(root: string, layout: ReturnType<typeof repoPaths>): Promise<void> {
  const { places, above } = placesOf(layout);
  for (const p of [...above, ...places, CONFIG_FILE]) {
    if ((await fs.lstat(path.join(root, p)).catch(() => null))?.isSymbolicLink()) {
      throw new OutputError(`${p}: is a symbolic link where the tool's own files stand; the tool never reads or writes through one (replace it with the real folder or file)`);
    }
  }
}

/**
 * A host version is written into fixture paths, sidecars and the record as it stands in a
 * capture's name: one that spells a name the sitting taught, in any spelling the final check
 * reads ("2.1.261-ana", or the name back to front or in base64), blocks the run, naming the file,
 * before anything is written.
 */
function namedVersions(captures: Capture[], names: string[]): Finding[] {
  const pattern = userNamePattern(names);
  if (pattern === null) return [];
  return captures
    .filter((c) => nameSpelt([c.version], pattern) !== undefined)
    .map((c) => finding("refused-class", { file: c.name }, { detail: "its host version spells a user name the sitting taught, and a version is written into fixture paths, sidecars and the record; rename the capture with the host's own version" }));
}

/** One capture stands for an event: two chosen for one event is a usage error naming both, never a silent pick. */
function chosenOncePerEvent(captures: Capture[], choose: string[]): void {
  const byEvent = new Map<string, string[]>();
  for (const name of new Set(choose)) {
    const c = captures.find((x) => x.name === name) as Capture;
    append(byEvent, `${c.harness} ${c.version} ${c.event}`, name);
  }
  const twice = [...byEvent].filter(([, names]) => names.length > 1).map(([event, names]) => `${event}: ${names.join(" and ")}`);
  if (twice.length > 0) throw new UsageError(`--choose: one capture per event, but ${twice.join("; ")}`);
}

/** `clear run`: the whole line, then the fixtures, their sidecars and the batch written, all or nothing, one run at a time. */
export async function clearIntoRepo(setting: Setting, root: string, captureDir: string | undefined, options: LineOptions = {}): Promise<RunResult> {
  const paths = repoPaths(setting.config);
  const [{ withRunLock }, { readRepoFile, stillAsWritten, writeRepoFiles }, { alreadyAccepted, leftByReplaced, withBatch, readsBack }, { recordText }] = await Promise.all([import("./io/run-lock.js"), import("./io/write-repo.js"), import("./record/write.js"), import("./record/parse.js")]);
  await refuseWritingInside(captureDir ?? path.join(root, paths.capturesInbox), root, paths, setting);
  return withRunLock(root, async () => {
    await refuseLinks(root, paths);
    const line = await runLine(setting, captureDir ?? path.join(root, paths.capturesInbox), "record", options);
    const b = line.batch;
    const held = readRepoFile(root, paths.clearance);
    const existing = held === null ? null : recordText(held, paths.clearance);
    const listed = b.listed;
    const result = { batch: b.id, fixtures: line.fixtures.map((f) => f.path), blockers: b.blockers, scan: line.scan, recordPath: paths.clearance, missing: line.inventory.missing.length, names: line.names };
    const files = line.fixtures.flatMap((f) => [{ path: f.path, bytes: f.bytes }, { path: f.sidecarPath, bytes: f.sidecar }]);
    if (b.blockers.length === 0 && alreadyAccepted(existing, b.id, listed, paths.clearance)) {
      // The accepted bytes are the ones this run made: a fixture deleted or edited since is written back, the record is not touched.
      const restore: typeof files = [];
      for (const f of files) if (!readRepoFile(root, f.path)?.equals(f.bytes)) restore.push(f);
      if (restore.length > 0) await writeRepoFiles(root, restore);
      return { ...result, alreadyAccepted: true, restored: restore.map((f) => f.path), replaced: null, unlisted: [] };
    }
    const next = withBatch(existing, b.text, paths.clearance);
    readsBack(next.text, b.id, paths.clearance);
    await writeRepoFiles(root, [...files, { path: paths.clearance, bytes: Buffer.from(next.text) }]);
    // What the replaced batch wrote and this one does not is listed by none now: named, and left where it stands (another sitting's fixtures, say, that a compare still reads).
    const left = existing === null || next.replaced === null ? [] : leftByReplaced(existing, next.replaced, new Set(files.map((f) => f.path)), paths.clearance, paths.fixtures);
    return { ...result, alreadyAccepted: false, restored: [], replaced: next.replaced, unlisted: stillAsWritten(root, left) };
  });
}
