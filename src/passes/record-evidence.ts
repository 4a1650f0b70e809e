import { pushAll } from "../collections.js";
import { dataSpan as d, proseText as p } from "../record/data.js";
import { SHAPES } from "../record/grammar.js";
import { describeCount } from "./pair.js";
import { byText, groupedLines, plural, section, SHOWN, type BatchInput } from "./record-text.js";
import type { Finding } from "../types.js";

// The evidence under the batch's first screen: where the captures came from, the digests of every
// file committed, the pairs and the selection of what is committed, and counts of all the rest,
// so a batch from a sitting of thousands stays a page a person can read.

/** The first few names of a list, and how many more. */
function firstNames(names: string[]): string {
  const shown = names.slice(0, SHOWN).map(d).join(", ");
  return names.length > SHOWN ? `${shown}, and ${names.length - SHOWN} more` : shown;
}

function kitLines(b: BatchInput): string[] {
  const kit = b.sitting.kit;
  if (!kit) return ["- Kit: no kit.json beside the captures; transport digests not recorded"];
  const lines = [SHAPES.kitHead.render({ head: kit.head }), ...kit.rootEdits.map((edit) => SHAPES.rootEdit.render({ edit: b.mask(edit) }))];
  lines.push(`- Binary: ${kit.binary ? `${d(b.mask(kit.binary.path))} sha256 ${d(kit.binary.sha256)}, ${kit.binary.bytes} bytes` : "not recorded"}`);
  for (const t of b.kitCheck ?? []) {
    const how = t.versionStringsOnly === undefined ? "" : t.versionStringsOnly ? " (version strings only)" : " (beyond version strings)";
    const committed = t.committedSha256 === null ? "not committed" : t.state === "equal" ? "bytes equal" : `sha256 ${t.committedSha256} differs${how}`;
    lines.push(SHAPES.transportQuote.render({ path: b.mask(t.path), kit: t.kitSha256 ?? "none (not in the kit)", committed }));
  }
  return lines;
}

/** The host binary and model sitting.json names (capture start and drive write them); nothing when it names none. */
function hostLines(b: BatchInput): string[] {
  const info = b.sitting.info;
  if (info?.hostBinary === undefined && info?.hostBinarySha256 === undefined && info?.model === undefined) return [];
  const sha = info.hostBinarySha256;
  const digest = sha === undefined ? "no SHA-256 stated" : /^[0-9a-f]{64}$/.test(sha) ? `sha256 ${d(sha)}` : d(b.mask(sha));
  const binary = `${info.hostBinary === undefined ? "not stated" : d(b.mask(info.hostBinary))}, ${digest}`;
  return [`- Host binary: ${binary}; model: ${info.model === undefined ? "not stated" : d(b.mask(info.model))}`];
}

function captureLines(b: BatchInput, listing: string): string[] {
  const info = b.sitting.info;
  const shown = (text: string | undefined, absent: string): string => (text === undefined ? absent : d(b.mask(text)));
  // Each line is masked on its own, as sitting.json holds it, so a refused one is recognised.
  const versionLines = info?.versionLines ? Object.entries(info.versionLines).map(([h, l]) => `${b.mask(h)}: ${b.mask(l)}`) : info?.versionLine ? [b.mask(info.versionLine)] : [];
  const time = info?.startedAt === undefined ? "not stated (no start time in sitting.json; no time is taken from the file system)" : d(b.mask(info.startedAt));
  return [
    `- Capture folder: ${d(b.mask(b.sittingShown))}; ${plural(b.captures.length, "valid capture", "valid captures")}, whose names and raw SHA-256 digest to ${d(listing)}`,
    `- Driven by: ${shown(info?.driver, "not stated (no sitting.json)")}; how: ${shown(info?.method, "not stated")}`,
    `- Captured at: ${time}; --version line: ${versionLines.map(d).join("; ") || "not recorded"}`,
    ...hostLines(b),
    ...kitLines(b),
  ];
}

function fixtureTable(b: BatchInput): string[] {
  if (b.fixtures.length === 0) return [];
  const rows = ["| file | what | raw sha256 | raw bytes | committed sha256 | committed bytes |", "| --- | --- | --- | --- | --- | --- |"];
  for (const f of [...b.fixtures].sort((x, y) => byText(x.path, y.path))) {
    const raw = { rawSha: f.provenance.raw.sha256, rawBytes: String(f.provenance.raw.bytes) };
    rows.push(SHAPES.fixtureRow.render({ path: f.path, what: `${f.event} from ${f.captureName}`, ...raw, sha: f.provenance.cleared.sha256, bytes: String(f.provenance.cleared.bytes) }));
    rows.push(SHAPES.fixtureRow.render({ path: f.sidecarPath, what: "its provenance", ...raw, sha: b.sidecarDigest(f), bytes: String(f.sidecar.length) }));
  }
  return rows;
}

/** The pairs a committed capture belongs to, and a count of the rest. */
function pairLines(b: BatchInput): string[] {
  const chosen = new Set(b.selection.selected.map((s) => s.file));
  const lines = b.pairing.counts.map((c) => `- ${d(c.harness)} ${p(c.label)} scope (${d(c.scope)}): ${p(describeCount(c))}.`);
  const kept = b.pairing.pairs.filter((pair) => pair.files.some((f) => chosen.has(f)));
  for (const pair of kept) {
    // The committed members of a pair by name; the others, however many, counted.
    const others = pair.files.filter((f) => !chosen.has(f));
    const named = [...pair.files.filter((f) => chosen.has(f)).map(d), ...others.slice(0, 1).map((f) => `${d(f)} (not chosen)`)];
    const more = others.length > 1 ? `, and ${others.length - 1} more not chosen` : "";
    // An id is an identifier's value, as the fixture keeps it; masked all the same, as every text from a capture is.
    lines.push(`- pair, ${d(pair.scope)} ${d(b.mask(pair.id))}: ${named.join(", ")}${more}`);
  }
  const rest = b.pairing.pairs.length - kept.length;
  if (rest > 0) lines.push(`- ${plural(rest, "other pair", "other pairs")} among captures not chosen`);
  const unpaired = b.pairing.unpaired.filter((u) => chosen.has(u.file));
  pushAll(lines, unpaired.map((u) => `- not paired: ${d(u.file)}: ${p(b.mask(u.reason))}`));
  return lines.length > 0 ? lines : ["- no pairing scope applies"];
}

function selectionLines(b: BatchInput): string[] {
  const lines: string[] = [];
  for (const f of b.selection.selected) {
    // A reason may quote an identifier from a capture: it is data, never prose a renderer could make a link of.
    const others = f.notChosen.length === 0 ? "" : `; not chosen: ${firstNames(f.notChosen.map((n) => n.file))} (${d(f.notChosen[0]?.why ?? "")})`;
    lines.push(`- ${d(f.harness)} ${d(f.version)} ${d(f.event)}: ${d(f.file)} (${f.bytes} bytes), ${d(b.mask(f.why))}${f.override ? ", chosen by hand" : ""}${others}`);
  }
  return lines;
}

/** The events the inventory counts one by one; the selection above names each committed one. */
const EVENTS_LISTED = 20;

/** The captures counted by harness, version and event: one line each, however many repeats. */
function inventoryLines(b: BatchInput): string[] {
  const inv = b.inventory;
  const groups = new Map<string, { valid: number; invalid: number }>();
  for (const f of inv.files) {
    const key = `${d(f.harness)} ${d(f.version)} ${d(f.event)}`;
    const g = groups.get(key) ?? { valid: 0, invalid: 0 };
    if (f.valid) g.valid++;
    else g.invalid++;
    groups.set(key, g);
  }
  const valid = inv.files.filter((f) => f.valid).length;
  const lines = [`- ${plural(inv.files.length, "file", "files")} (${valid} valid), ${plural(inv.missing.length, "missing event", "missing events")}; recipes: ${inv.recipes.map(d).join(", ") || "none"}`];
  const sorted = [...groups].sort((x, y) => byText(x[0], y[0]));
  for (const [key, g] of sorted.slice(0, EVENTS_LISTED)) lines.push(`- ${key}: ${plural(g.valid, "capture", "captures")}${g.invalid > 0 ? `, ${g.invalid} not readable as one` : ""}`);
  if (sorted.length > EVENTS_LISTED) lines.push(`- and ${sorted.length - EVENTS_LISTED} more events (clear inventory lists them)`);
  return lines;
}

function scanLines(b: BatchInput): string[] {
  const scan = b.scan;
  const control = scan.control.red ? `red as expected (${scan.control.rules.length} rules fired on the planted copy)` : `SILENT for ${scan.control.silent.map(d).join(", ")}`;
  const lines = [`- ${plural(scan.files, "cleared file", "cleared files")} scanned; ${plural(scan.findings.length, "finding", "findings")}; reach control: ${control}`];
  const shown = scan.findings.slice(0, 10);
  pushAll(lines, shown.map((f) => `- ${d(f.rule)} ${d(f.file)} ${f.pointer !== undefined ? d(f.pointer) : ""} line ${f.line}, column ${f.column}: ${d(f.masked)}`));
  if (scan.findings.length > shown.length) lines.push(`- and ${scan.findings.length - shown.length} more findings (clear scan lists them all)`);
  return lines;
}

/** Captures the tool refused to clear, counted by code: none of them is committed. */
function refusedLines(b: BatchInput): string[] {
  const refused: Finding[] = b.substitution.files.flatMap((f) => f.report.refused);
  return refused.length === 0 ? [] : groupedLines(refused, "refused");
}

export function evidence(b: BatchInput, listing: string): string[] {
  return [
    ...section("### The capture", captureLines(b, listing)),
    ...section("### Files and digests", fixtureTable(b)),
    ...section("### Pairs", pairLines(b)),
    ...section("### Selection", selectionLines(b)),
    ...section("### Inventory", inventoryLines(b)),
    ...section("### Secret scan", scanLines(b)),
    ...section("### Captures refused, none of them committed", refusedLines(b)),
  ];
}
