import { append, pushAll } from "../collections.js";
import { classifier, classifyDocument, type Classifier } from "../classify.js";
import { isCompanion, nameGrammar, parseCaptureName, type NameGrammar } from "../capture-name.js";
import type { Display } from "../display.js";
import { finding, type Finding } from "../findings.js";
import { placeOf, stringAt } from "../json/reader.js";
import { isUnder, judgeRefusals, type EnvDumpPolicy } from "../refusals.js";
import type { Capture, CaptureEntry, CaptureName, FieldInfo, HarnessCatalogue, Inventory, InventoryFile, JsonDocument, MissingEvent, ReadProblem, Recipe, Rules, Sitting } from "../types.js";

// Inventory: what a sitting holds, what its recipe expected, what is missing or broken.

export interface InventoryContext {
  rules: Rules;
  display: Display;
  grammar: NameGrammar;
  classifiers: Map<string, Classifier>;
  /** The env-dump-v1 policy in force, if clear.config.json opts into it. */
  policy: EnvDumpPolicy | null;
}

export function inventoryContext(rules: Rules, display: Display, policy: EnvDumpPolicy | null = null): InventoryContext {
  const classifiers = new Map<string, Classifier>();
  for (const h of rules.harnesses) classifiers.set(h.harness, classifier(rules.fields.find((f) => f.harness === h.harness), rules.overlaid.fieldRules));
  return { rules, display, grammar: nameGrammar(rules.harnesses), classifiers, policy };
}

export interface InventoryResult {
  inventory: Inventory;
  /** The valid captures, named and parsed, for the passes that follow. */
  captures: Capture[];
}

interface EntryResult {
  file?: InventoryFile;
  capture?: Capture;
  findings: Finding[];
}

/** A file the reader could not take whole, as a finding; `unreadable` is reported as `not-a-file`. */
function problemFinding(p: ReadProblem, file: string, display: Display): Finding {
  const where = { file, pointer: p.pointer === undefined ? undefined : display.pointer(p.pointer), line: p.line, column: p.column };
  switch (p.code) {
    case "unreadable":
      return finding("not-a-file", where, { what: `${p.message}; not read` });
    case "duplicate-key":
      return finding("duplicate-key", where);
    default:
      return finding(p.code, where, { detail: p.message });
  }
}

function notRegular(entry: Extract<CaptureEntry, { kind: "unreadable" }>, looksLikeCapture: boolean): Finding {
  const file = entry.name;
  if (entry.entryKind === "symlink") return finding("symlink", { file });
  const what = entry.entryKind === "directory" ? "a folder" : "not a regular file";
  if (looksLikeCapture) return finding("not-a-file", { file }, { what: `has a capture's name but is ${what}; not entered` });
  return finding("not-a-capture", { file }, { reason: `is ${what}, not a capture` });
}

function fieldFindings(capture: Capture, name: CaptureName, file: string, ctx: InventoryContext): { fields: FieldInfo[]; findings: Finding[] } {
  const { doc, refusals } = capture;
  // Inside an environment dump, admitted or refused, member names are variables, not fields.
  const dumps = refusals.envDumps;
  const leaves = capture.leaves.filter((l) => !dumps.some((d) => isUnder(l.pointer, d)));
  const findings: Finding[] = [];
  const fields = leaves.map((l): FieldInfo => ({ pointer: ctx.display.pointer(l.pointer), class: l.class, known: l.known }));
  for (const l of leaves) {
    if (!l.known) findings.push(finding("unknown-field", { file, pointer: ctx.display.pointer(l.pointer), ...placeOf(doc.text, l.start) }, { guess: l.class }));
  }
  pushAll(findings, refusals.refused);
  const mismatch = eventMismatch(doc, name, file, ctx);
  if (mismatch) findings.push(mismatch);
  return { fields, findings };
}

/**
 * A payload that names another event than its file name; where the host names every payload's
 * event (its catalogue's eventMember), also one that names none, or not in a string: such a file is
 * another host's payload, or not a payload of this host's as it sent it.
 */
function eventMismatch(doc: JsonDocument, name: CaptureName, file: string, ctx: InventoryContext): Finding | null {
  const harness = ctx.rules.harnesses.find((h) => h.harness === name.harness);
  if (harness?.eventNamedAt !== undefined && harness.eventMember === undefined) return namedAtMismatch(doc, name, file, harness);
  const pointer = harness?.eventMember ?? "/hook_event_name";
  const span = doc.spans.find((s) => s.pointer === pointer);
  const said = span?.kind === "string" ? stringAt(doc.text, span.start, span.end) : undefined;
  if (name.hostEvent === undefined || said === name.hostEvent) return null;
  // The payload's name is printed only when it is a catalogued event, never as raw text.
  if (said !== undefined) return finding("event-mismatch", { file, pointer }, { named: name.hostEvent, payload: harness?.events.some((e) => e.event === said) ? said : "an event the catalogue does not know" });
  if (harness?.eventMember === undefined) return null;
  return finding("event-mismatch", { file, pointer }, { named: name.hostEvent, payload: span === undefined ? "nothing (the member is missing)" : `a ${span.kind}, not an event's name` });
}

/** Where a host names the event of some payloads only (eventNamedAt): one that names another event than its file there. */
function namedAtMismatch(doc: JsonDocument, name: CaptureName, file: string, harness: HarnessCatalogue): Finding | null {
  for (const pointer of harness.eventNamedAt ?? []) {
    const span = doc.spans.find((s) => s.pointer === pointer);
    if (span?.kind !== "string") continue;
    const said = stringAt(doc.text, span.start, span.end);
    if (name.hostEvent === undefined || said === name.hostEvent) continue;
    return finding("event-mismatch", { file, pointer }, { named: name.hostEvent, payload: harness.events.some((e) => e.event === said) ? said : "an event the catalogue does not know" });
  }
  return null;
}

/** Inventories one capture entry (companions are handled by the pipeline). */
export function inventoryEntry(entry: CaptureEntry, ctx: InventoryContext, withFields = true): EntryResult {
  const parsed = parseCaptureName(entry.name, ctx.grammar);
  const file = entry.name;
  if (entry.kind === "unreadable" && entry.entryKind !== "file") return { findings: [notRegular(entry, parsed.kind === "capture" || parsed.kind === "unknown-event")] };
  if (parsed.kind === "not-a-capture") return { findings: [finding("not-a-capture", { file }, { reason: parsed.reason })] };
  if (parsed.kind === "unknown-harness") return { findings: [finding("unknown-harness", { file })] };
  const name: CaptureName =
    parsed.kind === "capture" ? parsed.name : { harness: parsed.harness, harnessAsWritten: parsed.harness, event: parsed.stem, version: parsed.version, versionAsWritten: parsed.version, n: parsed.n };
  const findings: Finding[] = [];
  if (parsed.kind === "unknown-event") findings.push(finding("unknown-event", { file }, { harness: parsed.harness, stem: parsed.stem }));
  if (name.version === "unknown") findings.push(finding("unknown-version", { file }));
  const inv: InventoryFile = { name: file, harness: name.harness, event: name.event, version: name.version, n: name.n, bytes: entry.size, sha256: entry.sha256, valid: false, fields: [] };
  if (entry.kind === "unreadable") {
    findings.push(problemFinding(entry.problem ?? { code: "unreadable", message: "could not be read" }, file, ctx.display));
    return { file: inv, findings };
  }
  inv.valid = true;
  const fields = ctx.classifiers.get(name.harness) as Classifier;
  const leaves = classifyDocument(entry.doc, name.event, fields);
  const refusals = judgeRefusals(entry.doc, { file, harness: name.harness, event: name.event }, ctx.rules.refusals, fields, ctx.policy, ctx.display);
  const capture: Capture = { name: file, harness: name.harness, event: name.event, hostEvent: name.hostEvent, version: name.version, n: name.n, size: entry.size, sha256: entry.sha256, doc: entry.doc, leaves, refusals };
  const checked = fieldFindings(capture, name, file, ctx);
  if (!withFields) checked.fields = [];
  inv.fields = checked.fields;
  return { file: inv, capture, findings: [...findings, ...checked.findings] };
}

/**
 * The recipes named (the command refuses unknown names first); else the recipe sitting.json says
 * the sitting followed, for its harness, and each other harness's default.
 */
function recipesFor(rules: Rules, recipeNames: string[], followed: string | undefined): Recipe[] {
  if (recipeNames.length > 0) return [...new Set(recipeNames)].flatMap((n) => rules.recipes.filter((r) => r.name === n));
  const named = followed === undefined ? undefined : rules.recipes.find((r) => r.name === followed);
  return [...(named ? [named] : []), ...rules.recipes.filter((r) => r.default && r.harness !== named?.harness)];
}

export function unknownRecipes(rules: Rules, recipeNames: string[]): string[] {
  return recipeNames.filter((n) => !rules.recipes.some((r) => r.name === n));
}

function missingEvents(files: InventoryFile[], recipes: Recipe[]): MissingEvent[] {
  const missing: MissingEvent[] = [];
  const groups = new Map<string, { harness: string; version: string }>();
  const present = new Set<string>();
  for (const f of files) {
    groups.set(`${f.harness}\u0000${f.version}`, { harness: f.harness, version: f.version });
    present.add(`${f.harness}\u0000${f.version}\u0000${f.event}`);
  }
  for (const { harness, version } of groups.values()) {
    for (const recipe of recipes.filter((r) => r.harness === harness)) {
      for (const event of recipe.events) {
        if (!present.has(`${harness}\u0000${version}\u0000${event}`)) missing.push({ harness, event, version, recipe: recipe.name });
      }
    }
  }
  return missing;
}

function repeatFindings(files: InventoryFile[]): Finding[] {
  const findings: Finding[] = [];
  const byEvent = new Map<string, InventoryFile[]>();
  for (const f of files) {
    const key = `${f.harness}\u0000${f.version}\u0000${f.event}`;
    append(byEvent, key, f);
  }
  for (const group of byEvent.values()) {
    for (const f of group.filter((x) => x.n > 1)) findings.push(finding("extra-capture", { file: f.name }, { n: f.n, event: f.event }));
    const ns = new Set(group.map((f) => f.n));
    const max = [...ns].reduce((a, b) => Math.max(a, b));
    const absent = max - ns.size;
    if (absent === 0) continue;
    const first = group[0] as InventoryFile;
    // Named one by one only when there are few; a counter like .999999999 is not walked.
    const gaps = absent <= 20 ? Array.from({ length: max }, (_, k) => k + 1).filter((k) => !ns.has(k)) : [];
    const which = gaps.length > 0 ? `counters ${gaps.map((g) => `.${g}`).join(", ")} are` : `${absent} counters below .${max} are`;
    findings.push(finding("counter-gap", { file: first.name }, { detail: `${first.harness} ${first.version} ${first.event}: ${which} absent` }));
  }
  return findings;
}

/**
 * Versions of one host that differ only in letter case (2.1.261-beta, 2.1.261-BETA): their fixtures
 * would stand in folders a checkout on macOS or Windows takes for one, each overwriting the other.
 * Every file of a spelling but the first is refused, naming the first.
 */
function caseFindings(files: InventoryFile[]): Finding[] {
  const first = new Map<string, InventoryFile>();
  const findings: Finding[] = [];
  for (const f of [...files].sort((a, b) => (a.version < b.version ? -1 : a.version > b.version ? 1 : 0))) {
    const key = `${f.harness}\u0000${f.version.toLowerCase()}`;
    const seen = first.get(key);
    if (seen === undefined) first.set(key, f);
    else if (seen.version !== f.version) findings.push(finding("refused-class", { file: f.name }, { detail: `its version differs from ${seen.name}'s only in letter case: their fixtures would share one folder in a checkout on macOS or Windows; keep one spelling of the version` }));
  }
  return findings;
}

function versionIn(line: string): string | null {
  return /(\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?)/.exec(line)?.[1] ?? null;
}

function versionFindings(files: InventoryFile[], sitting: Sitting, rules: Rules): Finding[] {
  const info = sitting.info;
  if (!info) return [];
  const findings: Finding[] = [];
  const seen = new Set<string>();
  for (const f of files) {
    const key = `${f.harness}\u0000${f.version}`;
    if (seen.has(key) || f.version === "unknown") continue;
    seen.add(key);
    const names = [f.harness, ...(rules.harnesses.find((h) => h.harness === f.harness)?.aliases ?? [])];
    const line = names.map((n) => info.versionLines?.[n]).find((x) => x !== undefined) ?? info.versionLine;
    if (line === undefined) continue;
    const declared = versionIn(line);
    if (declared !== f.version) findings.push(finding("version-mismatch", { file: f.name }, { harness: f.harness, version: f.version, declared: declared ?? "no version" }));
  }
  return findings;
}

/** The inventory pass over a sitting read once at the edge. Pure. */
export function inventoryPass(sitting: Sitting, ctx: InventoryContext, recipeNames: string[], withFields = true): InventoryResult {
  const captures: Capture[] = [];
  const files: InventoryFile[] = [];
  const findings: Finding[] = [...sitting.findings];
  const companions: string[] = [];
  for (const entry of sitting.entries) {
    if (isCompanion(entry.name)) {
      companions.push(entry.name);
      continue;
    }
    const r = inventoryEntry(entry, ctx, withFields);
    if (r.file) files.push(r.file);
    if (r.capture) captures.push(r.capture);
    pushAll(findings, r.findings);
  }
  const followed = sitting.info?.recipe;
  const recipes = recipesFor(ctx.rules, recipeNames, followed);
  // A recipe the rules do not hold (renamed, or of a newer version) is said, not passed over for a looser default.
  if (recipeNames.length === 0 && followed !== undefined && !ctx.rules.recipes.some((r) => r.name === followed))
    findings.push(finding("invalid-sitting", { file: "sitting.json", pointer: "/recipe" }, { detail: "it names a recipe these rules do not hold (pass --recipe to choose one)" }));
  const missing = missingEvents(files, recipes);
  for (const m of missing) findings.push(finding("missing-event", {}, m));
  // A recipe a person named (--recipe, sitting.json) for a host the sitting holds nothing of: no version to say its events missing at, so it is said.
  const named = new Set(recipeNames.length > 0 ? recipeNames : followed === undefined ? [] : [followed]);
  for (const r of recipes.filter((x) => named.has(x.name) && !files.some((f) => f.harness === x.harness))) findings.push(finding("recipe-unmatched", {}, { recipe: r.name, harness: r.harness }));
  pushAll(findings, repeatFindings(files));
  pushAll(findings, caseFindings(files));
  pushAll(findings, versionFindings(files, sitting, ctx.rules));
  if (files.length === 0) findings.push(finding("no-captures", {}));
  const present = new Set(files.map((f) => f.harness));
  const applied = recipes.filter((r) => recipeNames.length > 0 || present.has(r.harness)).map((r) => r.name);
  return { inventory: { dir: sitting.dir, files, companions, findings, missing, recipes: applied }, captures };
}
