import { pushAll } from "../collections.js";
import { adviceFor, type AdviceCase } from "../advice.js";
import { shortPointer } from "../display.js";
import { printable } from "../record/data.js";
import type { Finding } from "../findings.js";
import { describeCount } from "../passes/pair.js";
import type { Inventory, Pair, Pairing, ScanFinding, ScanResult, SelectedFixture, Selection, Skipped, Substitution } from "../types.js";
import { examplesPerGroup, findingGroups, findingPlace, findingsSummary, groupLines, plural, type Group } from "./grouped.js";

// Human text. By default a short summary: counts, and findings grouped by code with their first
// few files and what to do; with --verbose (the *Lines functions below) one line per capture and
// per finding, as before. Pointers are already masked by the passes; here they are only shortened.

/** The line that closes a summary: where the rest is. */
const EVERY_LINE = "--verbose lists every line; --json gives every item.";

/** Groups of rows in a summary: beyond this many, the rest are counted in one line. */
const MAX_ROWS = 12;

/**
 * Human text, one line per item, with every character that could move a terminal or hide text
 * escaped: a line break inside an item (a file name that holds one) is written as \u000a, so no
 * name starts a line of its own.
 */
export function printableLines(lines: string[]): string {
  return `${lines.map(printable).join("\n")}\n`;
}

export function findingLine(f: Finding): string {
  const where = findingPlace(f);
  return printable(`${f.severity === "block" ? "BLOCK" : "note "} ${f.code.padEnd(16)} ${where ? `${where}: ` : ""}${f.message}`);
}

/** Rows as aligned lines, one a row. */
export function table(rows: string[][]): string[] {
  rows = rows.map((r) => r.map(printable));
  const widths: number[] = [];
  for (const r of rows) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, c.length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i] as number))).join("  "));
}

function findingsBlock(findings: Finding[]): string[] {
  return findings.length === 0 ? [] : ["Findings:", ...findings.map((f) => `  ${findingLine(f)}`)];
}

/** The line that closes a summary of findings: where the rest is. */
export const EVERY_FINDING = "--verbose lists every finding.";

/**
 * A command's findings as it prints them: grouped by code with a count, the first files and what
 * to do, or with --verbose a line each. Nothing where there is none: the verdict says so.
 */
export function findingsText(findings: Finding[], where: AdviceCase, verbose: boolean): string[] {
  if (verbose) return findings.map(findingLine);
  return findings.length === 0 ? [] : [...findingsSummary(findings, where), EVERY_FINDING];
}

/** At most MAX_ROWS rows; past that, the first ones and a line counting the rest. */
function capped(rows: string[][], rest: (hidden: string[][]) => string[]): string[][] {
  if (rows.length <= MAX_ROWS) return rows;
  return [...rows.slice(0, MAX_ROWS - 1), rest(rows.slice(MAX_ROWS - 1))];
}

function inventoryVerdict(inv: Inventory): string {
  const blocking = inv.findings.filter((f) => f.severity === "block").length;
  const valid = inv.files.filter((f) => f.valid).length;
  const verdict = blocking > 0 ? "BLOCKED" : "ready";
  const recipes = inv.recipes.join(", ") || "none";
  const counts = `${plural(inv.files.length, "capture")} (${valid} valid), ${plural(inv.missing.length, "missing event")}`;
  return `${counts}, ${plural(blocking, "blocking finding")}, ${plural(inv.findings.length - blocking, "note")}; recipes: ${recipes}: ${verdict}`;
}

function fieldLines(inv: Inventory): string[] {
  const lines: string[] = [];
  for (const f of inv.files.filter((x) => x.valid)) {
    lines.push(f.name);
    for (const field of f.fields) lines.push(`  ${shortPointer(field.pointer).padEnd(60)} ${field.class.padEnd(11)}${field.known ? "" : " (unknown field, guessed)"}`.trimEnd());
  }
  lines.push("");
  return lines;
}

/** Every capture a row, every finding a line (--verbose). */
function inventoryLines(inv: Inventory, dirShown: string, withFields: boolean): string[] {
  const lines = [`Inventory of ${dirShown}`, ""];
  const rows = [["capture", "harness", "event", "version", "n", "bytes", "sha256", "fields", "free text"]];
  for (const f of inv.files) {
    const freeText = f.fields.filter((x) => x.class === "free-text").length;
    rows.push([f.name, f.harness, f.event, f.version, String(f.n), String(f.bytes), f.sha256 ? f.sha256.slice(0, 12) : "-", f.valid ? String(f.fields.length) : "invalid", f.valid ? String(freeText) : "-"]);
  }
  if (inv.files.length > 0) {
    pushAll(lines, table(rows));
    lines.push("");
  }
  if (withFields) pushAll(lines, fieldLines(inv));
  if (inv.companions.length > 0) lines.push(`Companions: ${inv.companions.join(", ")}`);
  if (inv.missing.length > 0) pushAll(lines, ["Missing events:", ...inv.missing.map((m) => `  ${m.harness} ${m.version} ${m.event} (recipe ${m.recipe})`)]);
  pushAll(lines, findingsBlock(inv.findings));
  lines.push("", inventoryVerdict(inv));
  return lines;
}

/** Captures counted by harness, version and event; an event a recipe expects and no capture has is a row of zero. */
function inventoryCounts(inv: Inventory): string[] {
  const counts = new Map<string, { key: string[]; captures: number; valid: number; missing?: string }>();
  const at = (key: string[]): { key: string[]; captures: number; valid: number; missing?: string } => {
    const id = key.join("\u0000");
    const row = counts.get(id) ?? { key, captures: 0, valid: 0 };
    counts.set(id, row);
    return row;
  };
  for (const f of inv.files) {
    const row = at([f.harness, f.version, f.event]);
    row.captures++;
    if (f.valid) row.valid++;
  }
  for (const m of inv.missing) at([m.harness, m.version, m.event]).missing = `missing (recipe ${m.recipe})`;
  const sorted = [...counts.values()].sort((a, b) => (a.key.join("\u0000") < b.key.join("\u0000") ? -1 : 1));
  const rows = sorted.map((r) => [...r.key, String(r.captures), String(r.valid), r.missing ?? ""]);
  const shown = capped(rows, (hidden) => {
    const sum = (i: number): string => String(hidden.reduce((n, r) => n + Number(r[i]), 0));
    return ["", "", `... and ${hidden.length} more`, sum(3), sum(4), ""];
  });
  return table([["harness", "version", "event", "captures", "valid", ""], ...shown]).map((l) => l.replace(/ +$/, ""));
}

export function renderInventory(inv: Inventory, dirShown: string, withFields: boolean, verbose = false): string {
  if (verbose) return printableLines(inventoryLines(inv, dirShown, withFields));
  const lines = [`Inventory of ${dirShown}`, ""];
  if (inv.files.length + inv.missing.length > 0) pushAll(lines, [...inventoryCounts(inv), ""]);
  if (withFields) pushAll(lines, fieldLines(inv));
  lines.push(`Companions: ${inv.companions.join(", ") || "none"}`);
  pushAll(lines, findingsSummary(inv.findings, "sitting"));
  lines.push("", EVERY_LINE, inventoryVerdict(inv));
  return printableLines(lines);
}

function pairingCounts(p: Pairing): string[] {
  const lines: string[] = [];
  for (const harness of [...new Set(p.counts.map((c) => c.harness))]) {
    lines.push(`Pairing, by the host's own identifiers: ${harness}`);
    for (const c of p.counts.filter((x) => x.harness === harness)) lines.push(`  ${c.label} scope (${c.scope}): ${describeCount(c)}.`);
    lines.push("");
  }
  return lines;
}

const pairingVerdict = (p: Pairing): string => `${p.pairs.length} pairs, ${p.unpaired.length} files not paired, ${p.skipped.length} skipped${p.skipped.length > 0 ? ": BLOCKED (a skipped file's pairs are not known)" : ""}`;

/** A skipped file as a line: the file, the place in it where one applies, and why. */
const skippedItem = (s: Skipped): string => `${findingPlace(s)}: ${s.reason}`;

function pairingLines(p: Pairing): string[] {
  const lines = pairingCounts(p);
  pushAll(lines, [p.pairs.length === 0 ? "Pairs: none" : "Pairs:", ...p.pairs.map((pair) => `  ${pair.scope} ${pair.id}: ${pair.files.join(", ")}`), ""]);
  pushAll(lines, [p.unpaired.length === 0 ? "Not paired: none" : "Not paired:", ...p.unpaired.map((u) => `  ${u.file}: ${u.reason}`)]);
  if (p.skipped.length > 0) pushAll(lines, ["", "Skipped:", ...p.skipped.map((s) => `  ${skippedItem(s)}`)]);
  lines.push("", pairingVerdict(p));
  return lines;
}

/** Items grouped by a key, in first-seen order. */
function groupBy<T>(items: T[], keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const of = groups.get(key);
    if (of) of.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

/** Files not read or not cleared, as one group. */
function skippedGroup(what: string, skipped: Skipped[]): Group[] {
  if (skipped.length === 0) return [];
  return [{ title: `${what}: ${plural(skipped.length, "file")}`, count: skipped.length, items: skipped.map(skippedItem) }];
}

/** A pair on one line; a pair of many files names its first few. */
function pairItem(pair: Pair): string {
  const more = pair.files.length > 3 ? `, and ${pair.files.length - 3} more` : "";
  return `${pair.scope} ${pair.id}: ${pair.files.slice(0, 3).join(", ")}${more}`;
}

function pairingGroups(p: Pairing): { pairs: Group[]; unpaired: Group[]; skipped: Group[] } {
  const pairs = [...groupBy(p.pairs, (x) => `${x.harness} ${x.scope}`)].map(([key, of]): Group => ({
    title: `${key}: ${plural(of.length, "pair")} of ${plural(of.reduce((n, x) => n + x.files.length, 0), "file")}`,
    count: of.length,
    items: of.map(pairItem),
  }));
  const unpaired = [...groupBy(p.unpaired, (u) => u.scope ?? "no identifier")].map(([scope, of]): Group => ({
    title: `${scope}: ${plural(of.length, "file")}`,
    count: of.length,
    items: of.map((u) => `${u.file}: ${u.reason}`),
  }));
  const skipped = skippedGroup("not a valid capture", p.skipped);
  return { pairs, unpaired, skipped };
}

export function renderPairing(p: Pairing, verbose = false): string {
  if (verbose) return printableLines(pairingLines(p));
  const groups = pairingGroups(p);
  const shown = examplesPerGroup(groups.pairs.length + groups.unpaired.length + groups.skipped.length);
  const lines = pairingCounts(p);
  pushAll(lines, [`Pairs, by scope: ${p.pairs.length}`, ...groupLines(groups.pairs, "  ", shown)]);
  pushAll(lines, [`Not paired, by the scope of their finest identifier: ${p.unpaired.length}`, ...groupLines(groups.unpaired, "  ", shown)]);
  pushAll(lines, [`Skipped: ${p.skipped.length}`, ...groupLines(groups.skipped, "  ", shown)]);
  lines.push("", EVERY_LINE, pairingVerdict(p));
  return printableLines(lines);
}

function substitutionFileLines(f: Substitution["files"][number]["report"]): string[] {
  const lines = [f.name, ...f.rules.map((r) => `  ${r.rule}: ${r.pointers.map((p) => shortPointer(p)).join(", ")}`)];
  pushAll(lines, f.review.map((p) => `  review: ${shortPointer(p)} had no field rule and looked like free text; substituted`));
  pushAll(lines, f.undocumented.map((p) => `  note: ${shortPointer(p)} held a value outside what its field rule documents (an enum's values, a shape); substituted as free text`));
  for (const e of f.exemptions) {
    const shown = e.remaining.length > 0 ? ` (common ones: ${e.remaining.join(", ")})` : "";
    lines.push(`  exemption ${e.rule} at ${e.pointer}: ${e.reason}; every value is the placeholder, what remains is ${e.remainingCount} member names${shown}`);
  }
  pushAll(lines, f.refused.map((x) => `  ${findingLine(x)}`));
  return lines;
}

function substitutionVerdict(s: Substitution, outShown: string): string {
  const refused = s.files.filter((f) => f.cleared === null).length;
  return `${s.files.length - refused} cleared into ${outShown}, ${refused} refused, ${s.skipped.length} skipped; ${s.userNames} user name(s) substituted`;
}

function substitutionLines(s: Substitution, outShown: string): string[] {
  const rows = [["capture", "raw bytes", "cleared bytes", "rules"]];
  for (const { report: f } of s.files) rows.push([f.name, String(f.rawBytes), f.clearedBytes === null ? "REFUSED" : String(f.clearedBytes), f.rules.map((r) => `${r.rule} (${r.pointers.length})`).join(", ") || "none"]);
  const lines = [...table(rows), ""];
  for (const { report: f } of s.files) {
    if (f.rules.length + f.refused.length + f.review.length + f.exemptions.length === 0) continue;
    pushAll(lines, substitutionFileLines(f));
  }
  if (s.skipped.length > 0) pushAll(lines, ["Not cleared (unreadable or not a capture):", ...s.skipped.map((x) => `  ${skippedItem(x)}`)]);
  lines.push("", substitutionVerdict(s, outShown));
  return lines;
}

/** What each rule changed, and what was substituted without a rule, counted over every file. */
function substitutionGroups(s: Substitution): Group[] {
  const reports = s.files.map((f) => f.report);
  const byRule = groupBy(reports.flatMap((r) => r.rules.map((a) => ({ file: r.name, rule: a.rule, pointers: a.pointers }))), (a) => a.rule);
  const groups = [...byRule].map(([rule, of]): Group => ({
    title: `${rule}: ${plural(of.reduce((n, a) => n + a.pointers.length, 0), "value")} in ${plural(of.length, "file")}`,
    count: of.length,
    items: of.map((a) => `${a.file} ${a.pointers.slice(0, 3).map((p) => shortPointer(p)).join(", ")}${a.pointers.length > 3 ? ", ..." : ""}`),
  }));
  const placed = (what: string, pick: (r: (typeof reports)[number]) => string[], advice: string | null): Group[] => {
    const items = reports.flatMap((r) => pick(r).map((p) => `${r.name} ${shortPointer(p)}`));
    return items.length === 0 ? [] : [{ title: `${what}: ${plural(items.length, "value")}`, count: items.length, items, advice }];
  };
  pushAll(groups, placed("substituted as free text with no field rule (review)", (r) => r.review, adviceFor("review-free-text", "sitting")));
  pushAll(groups, placed("a value its field rule does not document, substituted as free text", (r) => r.undocumented, adviceFor("undocumented-value", "sitting")));
  pushAll(groups, placed("admitted by an opt-in policy (exemption)", (r) => r.exemptions.map((e) => e.pointer), null));
  return groups;
}

export function renderSubstitution(s: Substitution, outShown: string, verbose = false): string {
  if (verbose) return printableLines(substitutionLines(s, outShown));
  const rules = substitutionGroups(s);
  const lines = [`Substituted, by rule: ${plural(s.files.length, "capture")} read`, ...groupLines(rules), ""];
  // A scan that could not prove its reach refuses every file: said beside the files' own findings.
  pushAll(lines, findingsSummary([...s.files.flatMap((f) => f.report.refused), ...s.findings.filter((f) => f.code === "control-silent")], "sitting"));
  pushAll(lines, [`Not cleared: ${s.skipped.length}`, ...groupLines(skippedGroup("unreadable or not a capture", s.skipped))]);
  lines.push("", EVERY_LINE, substitutionVerdict(s, outShown));
  return printableLines(lines);
}

const scanAt = (f: ScanFinding): string => `${f.rule} ${f.file}${f.pointer !== undefined ? ` ${shortPointer(f.pointer)}` : ""} line ${f.line}, column ${f.column}`;

function scanVerdict(scan: ScanResult, skipped: { file: string; reason: string }[]): string {
  const control = scan.control.red ? "control: red as expected" : `control: SILENT for ${scan.control.silent.join(", ")}; the scan does not reach what it should`;
  const waivers = scan.waived.length + scan.unusedWaivers.length;
  const waived = waivers > 0 ? `, ${scan.waived.length} waived, ${scan.unusedWaivers.length} unused waivers` : "";
  return `${plural(scan.files, "file")} scanned, ${plural(scan.findings.length, "finding")}${waived}, ${skipped.length} not scanned; ${control}`;
}

type ScanItems = { secrets: string[]; skipped: string[]; waived: string[]; unused: string[] };

function scanItems(scan: ScanResult, skipped: { file: string; reason: string }[]): ScanItems {
  return {
    secrets: scan.findings.map((f) => `SECRET ${scanAt(f)}: ${f.masked}${f.sha256 ? ` (sha256 ${f.sha256})` : ""}`),
    skipped: skipped.map((s) => `NOT SCANNED ${s.file}: ${s.reason}`),
    waived: scan.waived.map((f) => `WAIVED ${scanAt(f)}: ${f.masked}, waived in clear.config.json: ${f.reason}`),
    unused: scan.unusedWaivers.map((w) => `UNUSED WAIVER ${w.rule} ${w.fixture} ${shortPointer(w.pointer)} sha256 ${w.sha256}: matches nothing there`),
  };
}

export function renderScan(scan: ScanResult, skipped: { file: string; reason: string }[], verbose = false): string {
  const items = scanItems(scan, skipped);
  if (verbose) return printableLines([...items.secrets, ...items.skipped, ...items.waived, ...items.unused, "", scanVerdict(scan, skipped)]);
  // A long value's stars say nothing a few of them do not.
  const short = (line: string): string => line.replace(/\*{17,}/g, `${"*".repeat(16)}…`);
  const byRule = [...groupBy(scan.findings.map((f, i) => ({ f, line: short(items.secrets[i] as string) })), (x) => x.f.rule)];
  const secrets = byRule.map(([rule, of]): Group => ({
    title: `${rule}: ${plural(of.length, "finding")} in ${plural(new Set(of.map((x) => x.f.file)).size, "file")}`,
    count: of.length,
    items: of.map((x) => x.line),
  }));
  const one = (title: string, lines: string[], advice: string | null = null): Group[] =>
    lines.length === 0 ? [] : [{ title, count: lines.length, items: lines, advice }];
  const rest = [
    ...one("not scanned", items.skipped, "give the file as a regular file the scan can read whole (a link is never followed)"),
    ...one("waived in clear.config.json", items.waived.map(short)),
    ...one("unused waivers", items.unused, "remove the waiver, or correct its fixture, pointer, rule or digest"),
  ];
  const shown = examplesPerGroup(secrets.length + rest.length);
  const lines = [`Secrets, by rule: ${scan.findings.length}`, ...groupLines(secrets, "  ", shown)];
  if (secrets.length > 0) lines.push(`  What to do: ${adviceFor("secret-found", "sitting")}.`);
  pushAll(lines, [`Not scanned: ${skipped.length}; waived: ${scan.waived.length}; unused waivers: ${scan.unusedWaivers.length}`, ...groupLines(rest, "  ", shown)]);
  lines.push("", EVERY_LINE, scanVerdict(scan, skipped));
  return printableLines(lines);
}

const notChosenCount = (s: Selection): number => s.selected.reduce((n, f) => n + f.notChosen.length, 0);
const selectionVerdict = (s: Selection): string => `${s.selected.length} events selected, ${notChosenCount(s)} captures not chosen`;
const chosenLine = (f: SelectedFixture): string =>
  `${f.harness} ${f.version} ${f.event}: ${f.file} (${f.bytes} bytes), ${f.why}${f.override ? " [override]" : ""}`;

function selectionLines(s: Selection): string[] {
  const lines: string[] = [];
  for (const f of s.selected) {
    lines.push(chosenLine(f));
    pushAll(lines, f.notChosen.map((n) => `  not chosen: ${n.file} (${n.bytes} bytes), ${n.why}`));
  }
  pushAll(lines, [...findingsBlock(s.findings), "", selectionVerdict(s)]);
  return lines;
}

/** The captures not chosen for one event: counted, with the first as an example. */
function notChosenLine(f: SelectedFixture): string[] {
  const first = f.notChosen[0];
  if (first === undefined) return [];
  if (f.notChosen.length === 1) return [`  not chosen: ${first.file} (${first.bytes} bytes), ${first.why}`];
  const sizes = f.notChosen.map((n) => n.bytes);
  const range = `${sizes.reduce((a, b) => Math.min(a, b))} to ${sizes.reduce((a, b) => Math.max(a, b))} bytes`;
  return [`  not chosen: ${f.notChosen.length} captures (${range}), among them ${first.file} (${first.bytes} bytes), ${first.why}`];
}

export function renderSelection(s: Selection, verbose = false): string {
  if (verbose) return printableLines(selectionLines(s));
  const max = MAX_ROWS - 4;
  const lines = [`Selected: ${plural(s.selected.length, "event")}, one capture each; ${notChosenCount(s)} captures not chosen`];
  for (const f of s.selected.slice(0, max)) lines.push(chosenLine(f), ...notChosenLine(f));
  if (s.selected.length > max) lines.push(`... and ${s.selected.length - max} more events`);
  pushAll(lines, [...findingsSummary(s.findings, "sitting"), "", EVERY_LINE, selectionVerdict(s)]);
  return printableLines(lines);
}

/** A refusal of the gate or of verify: the findings of one commit, or of what is staged or checked. */
export interface Refusal {
  /** The commit, or null for the index or the working tree. */
  commit: string | null;
  findings: Finding[];
  /** What the findings are about where it is no one commit (a range of commits as a whole), said before each. */
  about?: string;
}

/** Findings of every refusal as one list of groups by code; where several commits are refused, each place names its commit. */
export function refusalGroups(refusals: Refusal[], where: AdviceCase, blockingOnly: boolean): Group[] {
  const commitOf = new Map<Finding, string>();
  const several = refusals.filter((r) => r.commit !== null).length > 1;
  for (const r of refusals) {
    for (const f of r.findings) {
      if (r.about !== undefined) commitOf.set(f, r.about);
      else if (several && r.commit !== null) commitOf.set(f, `commit ${r.commit.slice(0, 12)}`);
    }
  }
  const all = refusals.flatMap((r) => r.findings).filter((f) => !blockingOnly || f.severity === "block");
  const placeOf = (f: Finding): string => [commitOf.get(f) ?? "", findingPlace(f)].filter((x) => x !== "").join(" ");
  return findingGroups(all, where, placeOf);
}

/**
 * The gate's refusal: one group per code over every refused commit, its count, its first files
 * and what to do at a commit or at a push; --verbose lists every finding of every commit.
 */
export function gateReport(refusals: Refusal[], where: "commit" | "push", options: { note?: string; verbose?: boolean } = {}): string {
  const commits = refusals.filter((r) => r.commit !== null).map((r) => (r.commit as string).slice(0, 12));
  const named = `${commits.slice(0, 5).join(", ")}${commits.length > 5 ? ", ..." : ""}`;
  // A push refused for what it does as a whole, no commit of it refused, names none.
  const what = where === "commit" ? "this commit is refused" : commits.length === 0 ? "this push is refused" : `${plural(commits.length, "commit")} to push refused (${named})`;
  const blocking = refusals.flatMap((r) => r.findings).filter((f) => f.severity === "block");
  const lines = [`clear gate: ${what}: ${plural(blocking.length, "blocking finding")}`];
  if (options.verbose) {
    for (const r of refusals) {
      if (r.commit !== null) lines.push(`commit ${r.commit.slice(0, 12)}:`);
      pushAll(lines, r.findings.filter((f) => f.severity === "block").map((f) => `  ${findingLine(f)}`));
    }
  } else pushAll(lines, groupLines(refusalGroups(refusals, where, true)));
  if (options.note) lines.push(`(${options.note})`);
  return printableLines(lines);
}
