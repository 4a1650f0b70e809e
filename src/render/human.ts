import { shortPointer } from "../display.js";
import { printable } from "../record/data.js";
import type { Finding } from "../findings.js";
import { describeCount } from "../passes/pair.js";
import type { Inventory, Pairing, ScanFinding, ScanResult, Selection, Substitution } from "../types.js";

// Human text: one line per capture plus findings. Pointers are already masked by the passes;
// here they are only shortened.

/** Human text, line by line, with every character that could move a terminal or hide text escaped. */
export function printableLines(lines: string[]): string {
  return `${lines.flatMap((l) => l.split("\n")).map(printable).join("\n")}\n`;
}

export function findingLine(f: Finding): string {
  const pointer = f.pointer === undefined ? undefined : f.pointer === "" ? "(whole document)" : shortPointer(f.pointer);
  const where = [f.file, pointer, f.line !== undefined ? `line ${f.line}, column ${f.column}` : undefined].filter((x) => x !== undefined).join(" ");
  return printable(`${f.severity === "block" ? "BLOCK" : "note "} ${f.code.padEnd(16)} ${where ? `${where}: ` : ""}${f.message}`);
}

export function table(rows: string[][]): string {
  rows = rows.map((r) => r.map(printable));
  const widths: number[] = [];
  for (const r of rows) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, c.length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i] as number))).join("  ")).join("\n");
}

function findingsBlock(findings: Finding[]): string[] {
  return findings.length === 0 ? [] : ["Findings:", ...findings.map((f) => `  ${findingLine(f)}`)];
}

export function renderInventory(inv: Inventory, dirShown: string, withFields: boolean): string {
  const lines = [`Inventory of ${dirShown}`, ""];
  const rows = [["capture", "harness", "event", "version", "n", "bytes", "sha256", "fields", "free text"]];
  for (const f of inv.files) {
    const freeText = f.fields.filter((x) => x.class === "free-text").length;
    rows.push([f.name, f.harness, f.event, f.version, String(f.n), String(f.bytes), f.sha256 ? f.sha256.slice(0, 12) : "-", f.valid ? String(f.fields.length) : "invalid", f.valid ? String(freeText) : "-"]);
  }
  if (inv.files.length > 0) lines.push(table(rows), "");
  if (withFields) {
    for (const f of inv.files.filter((x) => x.valid)) {
      lines.push(f.name);
      for (const field of f.fields) lines.push(`  ${shortPointer(field.pointer).padEnd(60)} ${field.class.padEnd(11)}${field.known ? "" : " (unknown field, guessed)"}`.trimEnd());
    }
    lines.push("");
  }
  if (inv.companions.length > 0) lines.push(`Companions: ${inv.companions.join(", ")}`);
  if (inv.missing.length > 0) lines.push("Missing events:", ...inv.missing.map((m) => `  ${m.harness} ${m.version} ${m.event} (recipe ${m.recipe})`));
  lines.push(...findingsBlock(inv.findings));
  const blocking = inv.findings.filter((f) => f.severity === "block").length;
  const valid = inv.files.filter((f) => f.valid).length;
  const verdict = blocking > 0 ? "BLOCKED" : "ready";
  lines.push("", `${inv.files.length} captures (${valid} valid), ${inv.missing.length} missing events, ${blocking} blocking findings, ${inv.findings.length - blocking} notes; recipes: ${inv.recipes.join(", ") || "none"}: ${verdict}`);
  return printableLines(lines);
}

export function renderPairing(p: Pairing): string {
  const lines: string[] = [];
  for (const harness of [...new Set(p.counts.map((c) => c.harness))]) {
    lines.push(`Pairing, by the host's own identifiers: ${harness}`);
    for (const c of p.counts.filter((x) => x.harness === harness)) lines.push(`  ${c.label} scope (${c.scope}): ${describeCount(c)}.`);
    lines.push("");
  }
  lines.push(p.pairs.length === 0 ? "Pairs: none" : "Pairs:", ...p.pairs.map((pair) => `  ${pair.scope} ${pair.id}: ${pair.files.join(", ")}`), "");
  lines.push(p.unpaired.length === 0 ? "Not paired: none" : "Not paired:", ...p.unpaired.map((u) => `  ${u.file}: ${u.reason}`));
  if (p.skipped.length > 0) lines.push("", "Skipped:", ...p.skipped.map((s) => `  ${s.file}: ${s.reason}`));
  lines.push("", `${p.pairs.length} pairs, ${p.unpaired.length} files not paired, ${p.skipped.length} skipped`);
  return printableLines(lines);
}

export function renderSubstitution(s: Substitution, outShown: string): string {
  const rows = [["capture", "raw bytes", "cleared bytes", "rules"]];
  for (const { report: f } of s.files) rows.push([f.name, String(f.rawBytes), f.clearedBytes === null ? "REFUSED" : String(f.clearedBytes), f.rules.map((r) => `${r.rule} (${r.pointers.length})`).join(", ") || "none"]);
  const lines = [table(rows), ""];
  for (const { report: f } of s.files) {
    if (f.rules.length + f.refused.length + f.review.length + f.exemptions.length === 0) continue;
    lines.push(f.name, ...f.rules.map((r) => `  ${r.rule}: ${r.pointers.map((p) => shortPointer(p)).join(", ")}`));
    lines.push(...f.review.map((p) => `  review: ${shortPointer(p)} had no field rule and looked like free text; substituted`));
    lines.push(...f.undocumented.map((p) => `  note: ${shortPointer(p)} held a value outside its enum's documented values; substituted as free text`));
    for (const e of f.exemptions) {
      const shown = e.remaining.length > 0 ? ` (common ones: ${e.remaining.join(", ")})` : "";
      lines.push(`  exemption ${e.rule} at ${e.pointer}: ${e.reason}; every value is the placeholder, what remains is ${e.remainingCount} member names${shown}`);
    }
    lines.push(...f.refused.map((x) => `  ${findingLine(x)}`));
  }
  if (s.skipped.length > 0) lines.push("Not cleared (unreadable or not a capture):", ...s.skipped.map((x) => `  ${x.file}: ${x.reason}`));
  const refused = s.files.filter((f) => f.cleared === null).length;
  lines.push("", `${s.files.length - refused} cleared into ${outShown}, ${refused} refused, ${s.skipped.length} skipped; ${s.userNames} user name(s) substituted`);
  return printableLines(lines);
}

export function renderScan(scan: ScanResult, skipped: { file: string; reason: string }[]): string {
  const at = (f: ScanFinding): string => `${f.rule} ${f.file}${f.pointer !== undefined ? ` ${shortPointer(f.pointer)}` : ""} line ${f.line}, column ${f.column}`;
  const lines = scan.findings.map((f) => `SECRET ${at(f)}: ${f.masked}${f.sha256 ? ` (sha256 ${f.sha256})` : ""}`);
  lines.push(...skipped.map((s) => `NOT SCANNED ${s.file}: ${s.reason}`));
  lines.push(...scan.waived.map((f) => `WAIVED ${at(f)}: ${f.masked}, waived in clear.config.json: ${f.reason}`));
  lines.push(...scan.unusedWaivers.map((w) => `UNUSED WAIVER ${w.rule} ${w.fixture} ${shortPointer(w.pointer)} sha256 ${w.sha256}: matches nothing there`));
  const control = scan.control.red ? "control: red as expected" : `control: SILENT for ${scan.control.silent.join(", ")}; the scan does not reach what it should`;
  const waivers = scan.waived.length + scan.unusedWaivers.length;
  const waived = waivers > 0 ? `, ${scan.waived.length} waived, ${scan.unusedWaivers.length} unused waivers` : "";
  lines.push("", `${scan.files} files scanned, ${scan.findings.length} findings${waived}, ${skipped.length} not scanned; ${control}`);
  return printableLines(lines);
}

export function renderSelection(s: Selection): string {
  const lines: string[] = [];
  for (const f of s.selected) {
    lines.push(`${f.harness} ${f.version} ${f.event}: ${f.file} (${f.bytes} bytes), ${f.why}${f.override ? " [override]" : ""}`);
    lines.push(...f.notChosen.map((n) => `  not chosen: ${n.file} (${n.bytes} bytes), ${n.why}`));
  }
  lines.push(...findingsBlock(s.findings), "", `${s.selected.length} events selected, ${s.selected.reduce((n, f) => n + f.notChosen.length, 0)} captures not chosen`);
  return printableLines(lines);
}

/** What a person does about each kind of refusal at commit or push. */
const GATE_ADVICE: Partial<Record<Finding["code"], string>> = {
  "raw-capture-committed": "take it out of the commit (git rm --cached -- <file>); raw sittings stay in the git-ignored inbox or outside the repository, and only clear run's fixtures are committed",
  "fixture-not-accepted": "run clear run, read CLEARANCE.md and write ACCEPT under the new batch, then commit again",
  "fixture-changed": "restore the accepted bytes (git checkout -- <file>), or clear the sitting again and accept the new batch",
  "fixture-missing": "restore the fixture, or clear again and accept a batch that no longer lists it",
  "batch-edited": "restore the batch as the tool wrote it, or run clear run again and accept the new batch",
  "symlink-in-repo": "replace the link with the real folder or file",
  "record-unreadable": "restore CLEARANCE.md to the shape the tool wrote (git diff shows the edit)",
  "kit-not-quoted": "run clear run again so the batch quotes the committed transports",
};

/** The gate's refusal: for each commit, its findings grouped by code, a few files each, and what to do. */
export function gateReport(refusals: { where: string; findings: Finding[] }[], note?: string): string {
  const lines: string[] = [];
  for (const r of refusals) {
    lines.push(`clear gate: ${r.where} is refused:`);
    const codes = [...new Set(r.findings.filter((f) => f.severity === "block").map((f) => f.code))];
    for (const code of codes) {
      const of = r.findings.filter((f) => f.code === code);
      lines.push(...of.slice(0, 5).map((f) => `  ${findingLine(f)}`));
      if (of.length > 5) lines.push(`  ... and ${of.length - 5} more ${code}`);
      const advice = GATE_ADVICE[code];
      if (advice) lines.push(`  What to do: ${advice}.`);
    }
  }
  if (note) lines.push(`(${printable(note)})`);
  return printableLines(lines);
}
