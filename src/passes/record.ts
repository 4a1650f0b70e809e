import { sha256Hex } from "../digest.js";
import type { Finding } from "../findings.js";
import { dataSpan as d, proseText as p } from "../record/data.js";
import { SHAPES } from "../record/grammar.js";
import { batchDigest } from "../record/parse.js";
import type { TransportState } from "./kit.js";
import { describeCount } from "./pair.js";
import type { Capture, FixtureOut, Inventory, Pairing, ScanResult, Selection, Sitting, Substitution } from "../types.js";

// The batch a person reads before deciding: every section in a fixed order, everything sorted,
// no clock but what sitting.json says. Every value taken from an input is written as data (an
// escaped code span), never as markup. The tool writes the acceptance heading and never ACCEPT.

export interface BatchInput {
  sitting: Sitting;
  sittingShown: string;
  captures: Capture[];
  inventory: Inventory;
  pairing: Pairing;
  substitution: Substitution;
  selection: Selection;
  scan: ScanResult;
  fixtures: FixtureOut[];
  blockers: Finding[];
  sidecarDigest: (f: FixtureOut) => string;
  /** The committed transports against the kit's, where a kit.json is present. */
  kitCheck: TransportState[] | null;
  /** Text from sitting.json as it may be written: homes and known names masked. */
  mask: (text: string) => string;
  /** What a person asked for on the command line (clear run --choose, --recipe): recorded as overrides. */
  overrides: { choose: string[]; recipes: string[] };
  /** The repository's rules laid over the bundled ones, with their digests. */
  overlay: { file: string; sha256: string }[];
}

/** A batch id from the raw captures alone: the same sitting gives the same id. */
export function batchId(captures: Capture[]): string {
  const listing = captures.map((c) => `${c.name} ${c.sha256}`).sort().join("\n");
  return `b-${sha256Hex(Buffer.from(listing)).slice(0, 12)}`;
}

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** A finding as one line of the record: its code, where, and its message, all as data or prose. */
function findingText(f: Finding): string {
  const where = [f.file !== undefined ? d(f.file) : "", f.pointer !== undefined ? d(f.pointer) : ""].filter(Boolean).join(" ");
  return `${f.severity} ${f.code}${where ? ` ${where}` : ""}: ${p(f.message)}`;
}

function kitLines(b: BatchInput): string[] {
  const kit = b.sitting.kit;
  if (!kit) return ["- Kit: no kit.json beside the captures; transport digests not recorded"];
  const lines = [SHAPES.kitHead.render({ head: kit.head }), ...kit.rootEdits.map((edit) => SHAPES.rootEdit.render({ edit: b.mask(edit) }))];
  lines.push(`- Binary: ${kit.binary ? `${d(kit.binary.path)} sha256 ${d(kit.binary.sha256)}, ${kit.binary.bytes} bytes` : "not recorded"}`);
  for (const t of b.kitCheck ?? []) {
    const how = t.versionStringsOnly === undefined ? "" : t.versionStringsOnly ? " (version strings only)" : " (beyond version strings)";
    const committed = t.committedSha256 === null ? "not committed" : t.state === "equal" ? "bytes equal" : `sha256 ${t.committedSha256} differs${how}`;
    lines.push(SHAPES.transportQuote.render({ path: t.path, kit: t.kitSha256 ?? "none (not in the kit)", committed }));
  }
  return lines;
}

function captureSection(b: BatchInput): string[] {
  const info = b.sitting.info;
  const shown = (text: string | undefined, absent: string): string => (text === undefined ? absent : d(b.mask(text)));
  const driven = `- Driven by: ${shown(info?.driver, "not stated (no sitting.json)")}; how: ${shown(info?.method, "not stated")}; started: ${shown(info?.startedAt, "not stated")}`;
  return ["### Capture", "", `- Capture folder: ${d(b.sittingShown)}`, driven, ...kitLines(b), ""];
}

function inventorySection(b: BatchInput): string[] {
  const inv = b.inventory;
  const lines = ["### Inventory", "", `${inv.files.length} captures (${inv.files.filter((f) => f.valid).length} valid), ${inv.missing.length} missing events; recipes: ${inv.recipes.map(d).join(", ") || "none"}.`, ""];
  lines.push(...[...inv.files].sort((x, y) => byText(x.name, y.name)).map((f) => `- ${d(f.name)}: ${f.bytes} bytes, raw sha256 ${d(f.sha256 ?? "unreadable")}${f.valid ? "" : " (invalid)"}`));
  lines.push(...inv.missing.map((m) => `- missing: ${d(m.harness)} ${d(m.version)} ${d(m.event)} (recipe ${d(m.recipe)})`));
  lines.push(...inv.findings.map((f) => `- ${findingText(f)}`));
  return [...lines, ""];
}

function pairingSection(pairing: Pairing): string[] {
  const lines = ["### Pairing", ""];
  lines.push(...pairing.counts.map((c) => `- ${d(c.harness)} ${p(c.label)} scope (${d(c.scope)}): ${p(describeCount(c))}.`));
  lines.push(...pairing.pairs.map((pair) => `- pair, ${d(pair.scope)} ${d(pair.id)}: ${pair.files.map(d).join(", ")}`));
  lines.push(...pairing.unpaired.map((u) => `- not paired: ${d(u.file)}: ${p(u.reason)}`));
  return [...lines, pairing.pairs.length === 0 ? "- no pairs" : "", ""].filter((l, i, a) => !(l === "" && a[i - 1] === ""));
}

function rulesSection(b: BatchInput): string[] {
  const lines = ["### Rules applied, in order", ""];
  for (const f of [...b.substitution.files].sort((x, y) => byText(x.report.name, y.report.name))) {
    const applied = f.report.rules.map((r) => `${d(r.rule)} (${r.pointers.map(d).join(", ")})`);
    lines.push(`- ${d(f.report.name)}: ${applied.join("; ") || "no rule applied"}${f.cleared === null ? " — REFUSED" : ""}`);
  }
  return [...lines, ""];
}

function selectionSection(s: Selection): string[] {
  const lines = ["### Selection", ""];
  for (const f of s.selected) {
    lines.push(`- ${d(f.harness)} ${d(f.version)} ${d(f.event)}: ${d(f.file)} (${f.bytes} bytes), ${p(f.why)}${f.override ? " [override]" : ""}`);
    lines.push(...f.notChosen.map((n) => `  - not chosen: ${d(n.file)} (${n.bytes} bytes), ${p(n.why)}`));
  }
  return [...lines, ...s.findings.map((f) => `- ${f.severity} ${f.code}: ${p(f.message)}`), ""];
}

function scanSection(scan: ScanResult): string[] {
  const control = scan.control.red ? `red as expected (${scan.control.rules.length} rules fired on the planted copy)` : `SILENT for ${scan.control.silent.map(d).join(", ")}`;
  const lines = ["### Secret scan", "", `- ${scan.files} cleared files scanned; ${scan.findings.length} findings; reach control: ${control}`];
  lines.push(...scan.findings.map((f) => `- ${d(f.rule)} ${d(f.file)} ${f.pointer !== undefined ? d(f.pointer) : ""} line ${f.line}, column ${f.column}: ${d(f.masked)}`));
  // Waivers in force are part of what a person accepts.
  lines.push(...scan.waived.map((w) => `- waived by clear.config.json: ${d(w.rule)} ${d(w.file)} ${w.pointer !== undefined ? d(w.pointer) : ""} value sha256 ${d(w.sha256)}: ${p(w.reason)}`));
  lines.push(...scan.unusedWaivers.map((w) => `- a waiver that matched nothing: ${d(w.rule)} ${d(w.fixture)} ${d(w.pointer)}`));
  return [...lines, ""];
}

function refusalSection(b: BatchInput): string[] {
  const lines = ["### Refused classes and policy exemptions", ""];
  for (const f of b.substitution.files) {
    lines.push(...f.report.refused.map((r) => `- refused ${d(f.report.name)} ${r.code}${r.pointer !== undefined ? ` ${d(r.pointer)}` : ""}: ${p(r.message)}`));
    lines.push(...f.report.exemptions.map((e) => `- exemption ${d(e.rule)} ${d(f.report.name)} ${d(e.pointer)}: ${p(e.reason)}; ${e.remainingCount} member names remain`));
  }
  lines.push(...b.substitution.declarations.map((x) => `- declaration, not a person: ${d(x.segment)} (clear.config.json): ${p(x.reason)}`));
  return [...lines, lines.length === 2 ? "- none" : "", ""].filter((l, i, a) => !(l === "" && a[i - 1] === ""));
}

function fixturesSection(b: BatchInput): string[] {
  if (b.fixtures.length === 0) return ["### Fixtures", "", "No fixture is written: this batch cannot be accepted.", ...b.blockers.map((f) => `- blocks: ${findingText(f).replace(/^block /, "")}`), ""];
  const lines = ["### Fixtures", "", "| fixture | event and capture | raw sha256 | raw bytes | committed sha256 | committed bytes |", "| --- | --- | --- | --- | --- | --- |"];
  for (const f of [...b.fixtures].sort((x, y) => byText(x.path, y.path))) {
    const raw = { rawSha: f.provenance.raw.sha256, rawBytes: String(f.provenance.raw.bytes) };
    lines.push(SHAPES.fixtureRow.render({ path: f.path, what: `${f.event} from ${f.captureName}`, ...raw, sha: f.provenance.cleared.sha256, bytes: String(f.provenance.cleared.bytes) }));
    lines.push(SHAPES.fixtureRow.render({ path: f.sidecarPath, what: `provenance of ${f.event}`, ...raw, sha: b.sidecarDigest(f), bytes: String(f.sidecar.length) }));
  }
  return [...lines, ""];
}

/** The batch's text, its marker carrying the digest of everything above the acceptance heading. */
export function recordBatch(b: BatchInput, id: string): string {
  const versions = [...new Set(b.inventory.files.map((f) => `${d(f.harness)} ${d(f.version)}`))].sort();
  const info = b.sitting.info;
  // Each line is masked on its own, as sitting.json holds it, so a refused one is recognised.
  const versionLines = (info?.versionLines ? Object.entries(info.versionLines).map(([h, l]) => `${h}: ${b.mask(l)}`) : info?.versionLine ? [b.mask(info.versionLine)] : []).map((l) => d(l));
  const body = [
    "",
    SHAPES.batchHeading.render({ id }),
    "",
    `- Harness and pinned version: ${versions.join(", ") || "none"}; --version line: ${versionLines.join("; ") || "not recorded"}`,
    `- Status: ${b.blockers.length === 0 ? "ready for acceptance" : `BLOCKED (${b.blockers.length} findings block); no fixture written`}`,
    "",
    ...captureSection(b),
    ...inventorySection(b),
    ...pairingSection(b.pairing),
    ...rulesSection(b),
    ...selectionSection(b.selection),
    ...scanSection(b.scan),
    ...refusalSection(b),
    ...fixturesSection(b),
  ];
  const tail = [SHAPES.acceptanceHeading.render({}), "", SHAPES.acceptanceNote.render({}), "", ""];
  return [SHAPES.marker.render({ id, digest: batchDigest(body) }), ...body, ...tail].join("\n");
}
