import { ACCEPTANCE_HEADING, batchDigest } from "../clearance/parse.js";
import { sha256Hex } from "../digest.js";
import type { TransportState } from "./kit.js";
import { describeCount } from "./pair.js";
import type { Capture, Finding, FixtureOut, Inventory, Pairing, ScanResult, Selection, Sitting, Substitution } from "../types.js";

// The batch a person reads before deciding: every section in a fixed order, everything sorted,
// no clock but what sitting.json says. The tool writes the acceptance heading and never ACCEPT.

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
}

/** A batch id from the raw captures alone: the same sitting gives the same id. */
export function batchId(captures: Capture[]): string {
  const listing = captures.map((c) => `${c.name} ${c.sha256}`).sort().join("\n");
  return `b-${sha256Hex(Buffer.from(listing)).slice(0, 12)}`;
}

const code = (s: string): string => `\`${s}\``;

function captureSection(b: BatchInput): string[] {
  const info = b.sitting.info;
  const shown = (text: string | undefined, absent: string): string => (text === undefined ? absent : b.mask(text));
  const lines = ["### Capture", "", `- Capture folder: ${code(b.sittingShown)}`, `- Driven by: ${shown(info?.driver, "not stated (no sitting.json)")}; how: ${shown(info?.method, "not stated")}; started: ${shown(info?.startedAt, "not stated")}`];
  const kit = b.sitting.kit;
  if (!kit) return [...lines, "- Kit: no kit.json beside the captures; transport digests not recorded", ""];
  lines.push(`- Kit head: ${code(kit.head)}; root edits: ${kit.rootEdits.length === 0 ? "none" : kit.rootEdits.join("; ")}`, `- Binary: ${kit.binary ? `${code(kit.binary.path)} sha256 ${code(kit.binary.sha256)}, ${kit.binary.bytes} bytes` : "not recorded"}`);
  for (const t of b.kitCheck ?? []) {
    const committed = t.committedSha256 === null ? "not committed" : t.state === "equal" ? "committed bytes equal" : `committed sha256 ${code(t.committedSha256)} differs${t.versionStringsOnly === undefined ? "" : t.versionStringsOnly ? " (version strings only)" : " (beyond version strings)"}`;
    lines.push(`- Transport ${code(t.path)}: kit sha256 ${t.kitSha256 === null ? "none (not in the kit)" : code(t.kitSha256)}; ${committed}`);
  }
  return [...lines, ""];
}

function inventorySection(b: BatchInput): string[] {
  const inv = b.inventory;
  const lines = ["### Inventory", "", `${inv.files.length} captures (${inv.files.filter((f) => f.valid).length} valid), ${inv.missing.length} missing events; recipes: ${inv.recipes.join(", ") || "none"}.`, ""];
  lines.push(...[...inv.files].sort((x, y) => (x.name < y.name ? -1 : 1)).map((f) => `- ${code(f.name)}: ${f.bytes} bytes, raw sha256 ${code(f.sha256 ?? "unreadable")}${f.valid ? "" : " (invalid)"}`));
  lines.push(...inv.missing.map((m) => `- missing: ${m.harness} ${m.version} ${m.event} (recipe ${m.recipe})`));
  lines.push(...inv.findings.map((f) => `- ${f.severity} ${f.code}${f.file ? ` ${code(f.file)}` : ""}${f.pointer !== undefined ? ` ${code(f.pointer)}` : ""}: ${f.message}`));
  return [...lines, ""];
}

function pairingSection(p: Pairing): string[] {
  const lines = ["### Pairing", ""];
  lines.push(...p.counts.map((c) => `- ${c.harness} ${c.label} scope (${c.scope}): ${describeCount(c)}.`));
  lines.push(...p.pairs.map((pair) => `- pair, ${pair.scope} ${code(pair.id)}: ${pair.files.map(code).join(", ")}`));
  lines.push(...p.unpaired.map((u) => `- not paired: ${code(u.file)}: ${u.reason}`));
  return [...lines, p.pairs.length === 0 ? "- no pairs" : "", ""].filter((l, i, a) => !(l === "" && a[i - 1] === ""));
}

function rulesSection(b: BatchInput): string[] {
  const lines = ["### Rules applied, in order", ""];
  for (const f of [...b.substitution.files].sort((x, y) => (x.report.name < y.report.name ? -1 : 1))) {
    const applied = f.report.rules.map((r) => `${r.rule} (${r.pointers.map(code).join(", ")})`);
    lines.push(`- ${code(f.report.name)}: ${applied.join("; ") || "no rule applied"}${f.cleared === null ? " — REFUSED" : ""}`);
  }
  return [...lines, ""];
}

function selectionSection(s: Selection): string[] {
  const lines = ["### Selection", ""];
  for (const f of s.selected) {
    lines.push(`- ${f.harness} ${f.version} ${f.event}: ${code(f.file)} (${f.bytes} bytes), ${f.why}${f.override ? " [override]" : ""}`);
    lines.push(...f.notChosen.map((n) => `  - not chosen: ${code(n.file)} (${n.bytes} bytes), ${n.why}`));
  }
  return [...lines, ...s.findings.map((f) => `- ${f.severity} ${f.code}: ${f.message}`), ""];
}

function scanSection(scan: ScanResult): string[] {
  const control = scan.control.red ? `red as expected (${scan.control.rules.length} rules fired on the planted copy)` : `SILENT for ${scan.control.silent.join(", ")}`;
  const lines = ["### Secret scan", "", `- ${scan.files} cleared files scanned; ${scan.findings.length} findings; reach control: ${control}`];
  lines.push(...scan.findings.map((f) => `- ${f.rule} ${code(f.file)} ${f.pointer !== undefined ? code(f.pointer) : ""} line ${f.line}, column ${f.column}: ${code(f.masked)}`));
  return [...lines, ""];
}

function refusalSection(b: BatchInput): string[] {
  const lines = ["### Refused classes and policy exemptions", ""];
  for (const f of b.substitution.files) {
    lines.push(...f.report.refused.map((r) => `- refused ${code(f.report.name)} ${r.code}${r.pointer !== undefined ? ` ${code(r.pointer)}` : ""}: ${r.message}`));
    lines.push(...f.report.exemptions.map((e) => `- exemption ${e.rule} ${code(f.report.name)} ${code(e.pointer)}: ${e.reason}; ${e.remainingCount} member names remain`));
  }
  lines.push(...b.substitution.declarations.map((d) => `- declaration, not a person: ${code(d.segment)} (clear.config.json): ${d.reason}`));
  return [...lines, lines.length === 2 ? "- none" : "", ""].filter((l, i, a) => !(l === "" && a[i - 1] === ""));
}

function fixturesSection(b: BatchInput): string[] {
  if (b.fixtures.length === 0) return ["### Fixtures", "", "No fixture is written: this batch cannot be accepted.", ...b.blockers.map((f) => `- blocks: ${f.code}${f.file ? ` ${code(f.file)}` : ""}: ${f.message}`), ""];
  const lines = ["### Fixtures", "", "| fixture | event and capture | raw sha256 | raw bytes | committed sha256 | committed bytes |", "| --- | --- | --- | --- | --- | --- |"];
  for (const f of [...b.fixtures].sort((x, y) => (x.path < y.path ? -1 : 1))) {
    const p = f.provenance;
    lines.push(`| ${code(f.path)} | ${f.event} from ${f.captureName} | ${code(p.raw.sha256)} | ${p.raw.bytes} | ${code(p.cleared.sha256)} | ${p.cleared.bytes} |`);
    lines.push(`| ${code(f.sidecarPath)} | provenance of ${f.event} | ${code(p.raw.sha256)} | ${p.raw.bytes} | ${code(b.sidecarDigest(f))} | ${f.sidecar.length} |`);
  }
  return [...lines, ""];
}

/** The batch's text, its marker carrying the digest of everything above the acceptance heading. */
export function recordBatch(b: BatchInput, id: string): string {
  const versions = [...new Set(b.inventory.files.map((f) => `${f.harness} ${f.version}`))].sort();
  const versionLines = (b.sitting.info?.versionLines ? Object.entries(b.sitting.info.versionLines).map(([h, l]) => `${h}: ${l}`) : b.sitting.info?.versionLine ? [b.sitting.info.versionLine] : []).map(b.mask);
  const body = [
    "",
    `## Batch ${id}`,
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
  const tail = [ACCEPTANCE_HEADING, "", "<!-- A person writes ACCEPT alone on the line below this comment after reading this batch. The tool never does. -->", "", "", "## Pull request", "", ""];
  return [`<!-- clear:batch ${id} sha256:${batchDigest(body)} -->`, ...body, ...tail].join("\n");
}
