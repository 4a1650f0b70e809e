import { pushAll } from "../collections.js";
import { sha256Hex } from "../digest.js";
import { dataSpan as d, proseText as p, readDataSpan } from "../record/data.js";
import { SHAPES } from "../record/grammar.js";
import { batchDigest } from "../record/parse.js";
import { evidence } from "./record-evidence.js";
import { byText, groupedLines, plural, section, type BatchInput } from "./record-text.js";
import type { Capture, ChangeExample, ClearedFile, FieldClass } from "../types.js";

export type { BatchInput } from "./record-text.js";

// The batch a person reads before deciding. It opens with what they need on one screen: what will
// be committed, what was changed in it and what is kept as the host sent it, what blocks, what a
// person asked for, how to accept. The evidence follows, compact: one table of digests, the pairs
// and the selection of what is committed, counts of the rest. Repeated findings are counted and
// grouped. Everything is sorted, and no clock is read. Every value taken from an input is written
// as data (an escaped code span), never as markup. The tool writes the acceptance heading and
// never ACCEPT.

/** A batch id from the raw captures alone: the same sitting gives the same id. */
export function batchId(captures: Capture[]): string {
  return `b-${listingDigest(captures).slice(0, 12)}`;
}

/** The digest of every capture's name and raw SHA-256, sorted: the sitting as the batch knows it. */
function listingDigest(captures: Capture[]): string {
  return sha256Hex(Buffer.from(captures.map((c) => `${c.name} ${c.sha256}`).sort().join("\n")));
}


function versions(b: BatchInput): string {
  const valid = b.inventory.files.filter((f) => f.valid);
  const all = [...new Set(valid.map((f) => `${d(f.harness)} ${d(f.version)}`))].sort(byText);
  if (all.length <= 4) return all.join(", ") || "no harness";
  const harnesses = [...new Set(valid.map((f) => f.harness))].sort(byText);
  return `${harnesses.map(d).join(", ")} in ${all.length} versions`;
}

/** The secret scan in one sentence: what it read, what it found, and that its control fired. */
function scanSaid(b: BatchInput): string {
  const waived = b.scan.waived.length > 0 ? ` (${plural(b.scan.waived.length, "finding", "findings")} waived, listed below)` : "";
  const control = b.scan.control.red ? "its reach control fired as expected" : "its reach control stayed SILENT";
  return `The secret scan read ${plural(b.scan.files, "file", "files")} to be committed: ${plural(b.scan.findings.length, "finding", "findings")}${waived}; ${control}.`;
}

function summary(b: BatchInput): string[] {
  const files = b.planned.length * 2;
  const from = `chosen from ${plural(b.inventory.files.length, "capture", "captures")} of ${versions(b)}`;
  if (b.blockers.length > 0) {
    const would = b.planned.length > 0 ? ` Once nothing blocks, it would commit ${plural(b.planned.length, "fixture", "fixtures")} ${from}.` : "";
    return [`**Blocked: ${plural(b.blockers.length, "finding blocks", "findings block")} this batch.** No fixture is written and the batch cannot be accepted; "What blocks" below says what to do, then run clear run again.${would}`];
  }
  return [
    `**Ready for acceptance.** This batch commits ${plural(b.planned.length, "fixture", "fixtures")} with ${plural(b.planned.length, "provenance sidecar", "provenance sidecars")} (${files} files), ${from}.`,
    scanSaid(b),
    "To accept it, read it through, then write ACCEPT alone on the line under its User acceptance heading, at its end. The tool never writes it; an edit to this batch after that undoes it.",
  ];
}

/** Up to this many fixtures are listed one per line on the first screen; more are counted by folder. */
const LISTED = 12;

function fixtureLines(b: BatchInput): string[] {
  const chosen = new Map(b.selection.selected.map((s) => [s.file, s]));
  return [...b.planned].sort((x, y) => byText(x.path, y.path)).map((f) => {
    const override = chosen.get(f.captureName)?.override ? ", chosen by hand" : "";
    return `- ${d(f.path)} (${d(f.event)}, ${f.provenance.cleared.bytes} bytes${override}) and its provenance sidecar`;
  });
}

/** Many fixtures: each folder with its count and first few names; "Files and digests" lists them all. */
function folderLines(b: BatchInput): string[] {
  const folders = new Map<string, string[]>();
  for (const f of [...b.planned].sort((x, y) => byText(x.path, y.path))) {
    const at = f.path.lastIndexOf("/");
    const list = folders.get(f.path.slice(0, at + 1)) ?? [];
    list.push(f.path.slice(at + 1));
    folders.set(f.path.slice(0, at + 1), list);
  }
  if (folders.size <= LISTED) {
    return [...folders].map(([folder, names]) => `- ${d(folder)}: ${plural(names.length, "fixture", "fixtures")} (${firstFew(names)}), each with its provenance sidecar`);
  }
  const harnesses = new Map<string, { paths: string[]; versions: Set<string> }>();
  for (const f of [...b.planned].sort((x, y) => byText(x.path, y.path))) {
    const h = harnesses.get(f.provenance.harness) ?? { paths: [], versions: new Set<string>() };
    h.paths.push(f.path);
    h.versions.add(f.provenance.hostVersion);
    harnesses.set(f.provenance.harness, h);
  }
  return [...harnesses].map(([harness, h]) => `- ${d(harness)}: ${plural(h.paths.length, "fixture", "fixtures")} of ${plural(h.versions.size, "version", "versions")} (${firstFew(h.paths)}), each with its provenance sidecar`);
}

function firstFew(names: string[]): string {
  return `${names.slice(0, 3).map(d).join(", ")}${names.length > 3 ? `, and ${names.length - 3} more` : ""}`;
}

function committed(b: BatchInput): string[] {
  const heading = b.blockers.length > 0 ? "### What would be committed" : "### What will be committed";
  const lines = b.planned.length <= LISTED ? fixtureLines(b) : folderLines(b);
  const missing = b.inventory.missing;
  if (missing.length > 0) {
    const named = missing.slice(0, 5).map((m) => `${d(m.harness)} ${d(m.version)} ${d(m.event)}`).join(", ");
    lines.push(`- Not in this batch: ${plural(missing.length, "event", "events")} the recipe expects and no capture holds: ${named}${missing.length > 5 ? `, and ${missing.length - 5} more` : ""}`);
  }
  return section(heading, lines.length > 0 ? lines : ["- Nothing: no capture could stand for any event."]);
}

/** What each rule does, in a few words, for the person reading what it changed. */
const RULE_WORDS: Record<string, string> = {
  "home-path-v1": "the owner of a home folder became the placeholder",
  "free-text-v1": "prose (prompts, commands, messages, output) became placeholder text of the same length",
  "url-v1": "a URL's user, query values and fragment became placeholder text",
  "env-dump-v1": "every value of an environment dump became the placeholder",
};

/** Rules in the order they apply: homes, a config's literals, environment dumps, URLs, free text. */
const ruleRank = (rule: string): number => {
  const at = ["home-path-v1", "literal-v1:", "env-dump-v1", "url-v1", "free-text-v1"].findIndex((r) => rule === r || (r.endsWith(":") && rule.startsWith(r)));
  return at === -1 ? 99 : at;
};

const CLASS_WORDS: Record<FieldClass, [string, string]> = {
  identifier: ["identifier", "identifiers"],
  path: ["path", "paths"],
  "free-text": ["free text", "free texts"],
  enum: ["enum value", "enum values"],
  timestamp: ["timestamp", "timestamps"],
  url: ["URL", "URLs"],
  number: ["number", "numbers"],
  bool: ["boolean", "booleans"],
  null: ["null", "nulls"],
};

const classCounts = (counts: Map<FieldClass, number>): string =>
  [...counts].sort((x, y) => y[1] - x[1] || byText(x[0], y[0])).map(([cls, n]) => plural(n, ...CLASS_WORDS[cls])).join(", ");

interface RuleTally {
  values: number;
  fixtures: Set<string>;
  classes: Map<FieldClass, number>;
  places: Map<string, number>;
  example: ChangeExample | undefined;
}

/** A pointer with array positions as *, so one place in many items counts once. */
const place = (pointer: string): string => pointer.replace(/\/(0|[1-9][0-9]*)(?=\/|$)/g, "/*");

function ruleTallies(files: ClearedFile[], exampleFrom: ClearedFile[]): Map<string, RuleTally> {
  const tallies = new Map<string, RuleTally>();
  const tally = (rule: string): RuleTally => {
    const t = tallies.get(rule) ?? { values: 0, fixtures: new Set<string>(), classes: new Map(), places: new Map(), example: undefined };
    tallies.set(rule, t);
    return t;
  };
  for (const f of files) {
    for (const span of f.report.spans) {
      for (const rule of span.rules) {
        const t = tally(rule);
        t.values++;
        t.fixtures.add(f.report.name);
        t.classes.set(span.class, (t.classes.get(span.class) ?? 0) + 1);
      }
    }
    for (const r of f.report.rules) for (const ptr of r.changed) tally(r.rule).places.set(place(ptr), (tally(r.rule).places.get(place(ptr)) ?? 0) + 1);
  }
  for (const f of exampleFrom) for (const e of f.report.examples) if ((tally(e.rule).example?.length ?? Infinity) > e.length) tally(e.rule).example = e;
  return tallies;
}

function selectedFiles(b: BatchInput): ClearedFile[] {
  const chosen = new Set(b.selection.selected.map((s) => s.file));
  return b.substitution.files.filter((f) => chosen.has(f.report.name) && f.cleared !== null).sort((x, y) => byText(x.report.name, y.report.name));
}

/**
 * The files an example may be taken from: a fixture the scan flagged, or holds a waived finding in,
 * gives none, since a shortened value could show part of what the scan found.
 */
function exampleFiles(b: BatchInput): ClearedFile[] {
  const path = new Map(b.planned.map((f) => [f.path, f.captureName]));
  const flagged = new Set([...b.scan.findings, ...b.scan.waived].map((f) => path.get(f.file) ?? f.file));
  return selectedFiles(b).filter((f) => !flagged.has(f.report.name));
}

function changed(b: BatchInput): string[] {
  const tallies = [...ruleTallies(selectedFiles(b), exampleFiles(b))].sort((x, y) => ruleRank(x[0]) - ruleRank(y[0]) || byText(x[0], y[0]));
  const lines = tallies.map(([rule, t]) => {
    const places = [...t.places].sort((x, y) => y[1] - x[1] || byText(x[0], y[0]));
    const at = places.slice(0, 4).map(([ptr, n]) => `${d(ptr)} ×${n}`).join(", ") + (places.length > 4 ? `, and ${plural(places.length - 4, "more place", "more places")}` : "");
    const example = t.example ? `; for example ${d(t.example.before)} (what changed masked) became ${d(t.example.after)}` : "";
    const what = RULE_WORDS[rule] ?? (rule.startsWith("literal-v1:") ? "a value named in clear.config.json became its placeholder" : "changed by this rule");
    return `- ${d(rule)}: ${p(what)}. ${plural(t.values, "value", "values")} (${classCounts(t.classes)}) in ${plural(t.fixtures.size, "fixture", "fixtures")}, at ${at}${example}`;
  });
  if (b.planned.length > 0 && lines.length === 0) lines.push("- No value was changed: no rule found a home, prose, a URL's private parts or a named value.");
  return section("### What was changed", lines);
}

function kept(b: BatchInput): string[] {
  if (b.planned.length === 0) return [];
  const counts = new Map<FieldClass, number>();
  for (const f of selectedFiles(b)) for (const [cls, n] of Object.entries(f.report.kept)) counts.set(cls as FieldClass, (counts.get(cls as FieldClass) ?? 0) + (n ?? 0));
  return section("### What is kept as the host sent it", [
    `- ${classCounts(counts) || "no other value"}: values no rule changed, byte for byte.`,
    "- Every member name, the nesting, the order of members, the whitespace and every byte outside the changed values.",
  ]);
}

/** Each field rule and fixed endpoint a repository's overlay added, and how many values in the fixtures its field rules kept. */
function overlaidLines(b: BatchInput): string[] {
  const lines = [...b.overlaid.fieldRules].map(([r, file]) => {
    const events = r.events ? ` on ${r.events.map(d).join(", ")}` : "";
    return `- Field rule of the overlay (${d(file)}): ${d(r.pointer)}${events} classed ${d(r.class)}`;
  });
  pushAll(lines, b.overlaid.endpoints.map((e) => `- Fixed endpoint of the overlay (${d(e.file)}): a URL starting ${d(e.endpoint)} is kept whole, query and fragment too, but for a value there that looks like a secret`));
  const kept = selectedFiles(b).reduce((n, f) => n + f.report.keptByOverlay, 0);
  if (b.overlaid.fieldRules.size > 0) lines.push(`- ${plural(kept, "value", "values")} in the fixtures kept as the host sent them under the overlay's field rules`);
  return lines;
}

function overrides(b: BatchInput): string[] {
  const lines = [
    ...b.overrides.choose.map((name) => `- Chosen by hand (--choose): ${d(name)}`),
    ...b.overrides.recipes.map((name) => `- Recipe named (--recipe): ${d(name)}`),
    ...b.overlay.map((o) => `- Rules overlay: ${d(o.file)} sha256 ${d(o.sha256)}`),
    ...overlaidLines(b),
    ...b.policies.map((x) => `- Policy in force (clear.config.json): ${d(x.name)}: ${d(b.mask(x.reason))}`),
    ...b.substitution.declarations.map((x) => `- Declared not a person (clear.config.json): ${d(x.segment)}: ${p(b.mask(x.reason))}`),
    ...b.scan.waived.map((w) => `- Waived (clear.config.json): ${d(w.rule)} ${d(w.file)} ${w.pointer !== undefined ? d(w.pointer) : ""} value sha256 ${d(w.sha256)}: ${p(b.mask(w.reason))}`),
    ...b.scan.unusedWaivers.map((w) => `- A waiver that matched nothing: ${d(w.rule)} ${d(w.fixture)} ${d(w.pointer)}`),
  ];
  for (const f of selectedFiles(b)) {
    pushAll(lines, f.report.exemptions.map((e) => `- Policy ${d(e.rule)} admits ${d(f.report.name)} ${d(e.pointer)}: ${p(b.mask(e.reason))}; ${e.remainingCount} member names remain`));
  }
  return section("### What a person asked for or declared", lines);
}

/** The notes about what is committed, and about the sitting: counted by code. */
function notes(b: BatchInput): string[] {
  const chosen = new Set(b.selection.selected.map((s) => s.file));
  const all = [
    ...b.inventory.findings.filter((f) => f.severity === "note"),
    ...b.selection.findings.filter((f) => f.severity === "note"),
    ...b.substitution.findings.filter((f) => f.severity === "note" && f.file !== undefined && chosen.has(f.file)),
  ];
  return section("### Notes", groupedLines(all));
}

/** The batch's text, its marker carrying the digest of everything above the acceptance heading. */
export function recordBatch(b: BatchInput, id: string): string {
  const body = [
    "",
    SHAPES.batchHeading.render({ id }),
    "",
    ...summary(b),
    "",
    ...committed(b),
    ...section("### What blocks", groupedLines(b.blockers)),
    ...changed(b),
    ...kept(b),
    ...overrides(b),
    ...notes(b),
    ...evidence(b, listingDigest(b.captures)),
  ];
  const tail = [SHAPES.acceptanceHeading.render({}), "", SHAPES.acceptanceNote.render({}), "", ""];
  const shown = b.blockers.length > 0 ? body.map((line) => maskedSpans(line, b.mask)) : body;
  return [SHAPES.marker.render({ id, digest: batchDigest(shown) }), ...shown, ...tail].join("\n");
}

/**
 * A blocked batch writes no fixture, and what blocks it may be a name in a capture's own name (its
 * host version, an event the catalogue does not know): every value it quotes, and its prose, is
 * masked as the companions' texts are. An accepted batch
 * lists exact paths, and nothing that would put a name in them lets a batch through unblocked.
 */
function maskedSpans(line: string, mask: (text: string) => string): string {
  // Code spans are values, masked as values; what stands between them is the tool's prose, which
  // may quote a capture's own name (an event the catalogue does not know): masked as text.
  return line
    .split(/(`[^`\n]*`)/)
    .map((part, i) => {
      if (i % 2 === 0) return part === "" ? part : mask(part);
      const value = readDataSpan(part);
      if (value === null) return part;
      const masked = mask(value);
      return masked === value ? part : d(masked);
    })
    .join("");
}
