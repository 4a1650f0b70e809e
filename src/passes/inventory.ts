import { classifier, classifyDocument, type Classifier } from "../classify.js";
import { placeOf, stringAt } from "../json/scan.js";
import { isCompanion, nameGrammar, parseCaptureName, type NameGrammar } from "../names.js";
import { findRefusals, refusalFinding } from "../refusals.js";
import { displayPointer } from "../homes.js";
import type { CaptureEntry, FieldInfo, Finding, Inventory, InventoryFile, JsonDocument, MissingEvent, ReadProblem, Recipe, Rules } from "../types.js";

// Inventory: what a sitting holds, what its recipe expected, what is missing or broken.
// Per file first (so a large sitting streams through in constant memory), then the sitting.

export interface InventoryContext {
  rules: Rules;
  grammar: NameGrammar;
  classifiers: Map<string, Classifier>;
  /** Returns a message when a sitting.json value breaks its schema, else null. */
  checkSitting: (value: unknown) => string | null;
}

export function inventoryContext(rules: Rules, checkSitting: InventoryContext["checkSitting"]): InventoryContext {
  const classifiers = new Map<string, Classifier>();
  for (const h of rules.harnesses) classifiers.set(h.harness, classifier(rules.fields.find((f) => f.harness === h.harness)));
  return { rules, grammar: nameGrammar(rules.harnesses), classifiers, checkSitting };
}

export interface EntryInventory {
  file?: InventoryFile;
  findings: Finding[];
  companion?: string;
  /** The host version a sitting.json declares, per harness ("*" for all). */
  declaredVersions?: Map<string, { line: string; version: string | null }>;
}

/** A file the reader could not take whole, as a finding; `unreadable` is reported as `not-a-file`. */
function problemFinding(p: ReadProblem, file: string): Finding {
  const f: Finding = { code: p.code === "unreadable" ? "not-a-file" : p.code, severity: "block", file, message: p.message };
  if (p.pointer !== undefined) f.pointer = displayPointer(p.pointer);
  if (p.line !== undefined) f.line = p.line;
  if (p.column !== undefined) f.column = p.column;
  return f;
}

function versionIn(line: string): string | null {
  const m = /(\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?)/.exec(line);
  return m ? (m[1] as string) : null;
}

function inventoryCompanion(entry: CaptureEntry, ctx: InventoryContext): EntryInventory {
  const out: EntryInventory = { findings: [], companion: entry.name };
  if (entry.name !== "sitting.json" && entry.name !== "kit.json") return out;
  if (entry.entryKind !== "file") {
    out.findings.push({ code: entry.entryKind === "symlink" ? "symlink" : "not-a-file", severity: "block", file: entry.name, message: `${entry.name} is not a regular file; not read` });
    return out;
  }
  if (entry.problem) {
    out.findings.push(problemFinding(entry.problem, entry.name));
    return out;
  }
  if (entry.name === "sitting.json" && entry.doc) {
    const problem = ctx.checkSitting(entry.doc.value);
    if (problem) {
      out.findings.push({ code: "invalid-sitting", severity: "block", file: entry.name, message: problem });
      return out;
    }
    const sitting = entry.doc.value as { versionLine?: string; versionLines?: Record<string, string> };
    const declared = new Map<string, { line: string; version: string | null }>();
    if (sitting.versionLine !== undefined) declared.set("*", { line: sitting.versionLine, version: versionIn(sitting.versionLine) });
    for (const [harness, line] of Object.entries(sitting.versionLines ?? {})) declared.set(harness, { line, version: versionIn(line) });
    out.declaredVersions = declared;
  }
  return out;
}

/**
 * Inventories one directory entry. Pure: the entry carries its bytes and parse. With
 * `fields: false` it only names the capture and its problems, for passes that classify on their own.
 */
export function inventoryEntry(entry: CaptureEntry, ctx: InventoryContext, { fields = true }: { fields?: boolean } = {}): EntryInventory {
  if (isCompanion(entry.name)) return inventoryCompanion(entry, ctx);
  const parsed = parseCaptureName(entry.name, ctx.grammar);
  const findings: Finding[] = [];
  const file = entry.name;
  if (entry.entryKind === "symlink") {
    findings.push({ code: "symlink", severity: "block", file, message: "is a symbolic link; never followed (copy the real file into the sitting)" });
    return { findings };
  }
  if (entry.entryKind !== "file") {
    const what = entry.entryKind === "directory" ? "a folder" : "not a regular file";
    if (parsed.kind === "capture" || parsed.kind === "unknown-event") {
      findings.push({ code: "not-a-file", severity: "block", file, message: `has a capture's name but is ${what}; not entered` });
    } else {
      findings.push({ code: "not-a-capture", severity: "block", file, message: `is ${what}, not a capture; not entered` });
    }
    return { findings };
  }
  if (parsed.kind === "not-a-capture") {
    findings.push({ code: "not-a-capture", severity: "block", file, message: `${parsed.reason}; move it out of the sitting` });
    return { findings };
  }
  if (parsed.kind === "unknown-harness") {
    findings.push({ code: "unknown-harness", severity: "block", file, message: `harness "${parsed.harness}" has no catalogue in rules/harnesses` });
    return { findings };
  }
  const name =
    parsed.kind === "capture"
      ? parsed.name
      : { harness: parsed.harness, event: parsed.stem, version: parsed.version, n: parsed.n, hostEvent: undefined };
  if (parsed.kind === "unknown-event") {
    findings.push({ code: "unknown-event", severity: "block", file, message: `event "${parsed.stem}" is not in the ${parsed.harness} catalogue (rules/harnesses/${parsed.harness}.json)` });
  }
  if (name.version === "unknown") {
    findings.push({ code: "unknown-version", severity: "block", file, message: "the transport was not told the host version (export it in the capture shell and capture again)" });
  }
  const inv: InventoryFile = {
    name: file,
    harness: name.harness,
    event: name.event,
    version: name.version,
    n: name.n,
    bytes: entry.size,
    sha256: entry.sha256 ?? null,
    valid: false,
    fields: [],
  };
  if (entry.problem) {
    findings.push(problemFinding(entry.problem, file));
    return { file: inv, findings };
  }
  const doc = entry.doc as JsonDocument;
  inv.valid = true;
  if (!fields) return { file: inv, findings };
  const c = ctx.classifiers.get(name.harness) as Classifier;
  const leaves = classifyDocument(doc, name.event, c);
  inv.fields = leaves.map((l): FieldInfo => ({ pointer: displayPointer(l.pointer), class: l.class, known: l.known }));
  for (const l of leaves) {
    if (!l.known) {
      findings.push({
        code: "unknown-field",
        severity: "note",
        file,
        pointer: displayPointer(l.pointer),
        ...placeOf(doc.text, l.start),
        message: `no field rule for this pointer; guessed ${l.class}${l.class === "free-text" ? " (will be substituted)" : ""}`,
      });
    }
  }
  findings.push(...findRefusals(doc, ctx.rules).map((r) => refusalFinding(r, doc, file)));
  const eventSpan = doc.spans.find((s) => s.pointer === "/hook_event_name" && s.kind === "string");
  const hookEventName = eventSpan ? stringAt(doc.text, eventSpan.start, eventSpan.end) : undefined;
  if (hookEventName !== undefined && name.hostEvent !== undefined && hookEventName !== name.hostEvent) {
    findings.push({
      code: "event-mismatch",
      severity: "block",
      file,
      pointer: "/hook_event_name",
      message: `the file name says ${name.hostEvent} but the payload says ${hookEventName}`,
    });
  }
  return { file: inv, findings };
}

/** The recipes named (the command refuses unknown names first), or each harness's default. */
function recipesFor(rules: Rules, recipeNames: string[]): Recipe[] {
  if (recipeNames.length === 0) return rules.recipes.filter((r) => r.default);
  return recipeNames.flatMap((n) => rules.recipes.filter((r) => r.name === n));
}

/** Checks that every recipe names a known recipe; returns the unknown names. */
export function unknownRecipes(rules: Rules, recipeNames: string[]): string[] {
  return recipeNames.filter((n) => !rules.recipes.some((r) => r.name === n));
}

/** Joins per-entry results into the sitting's inventory: missing events, versions, extras. */
export function inventorySitting(dir: string, perEntry: EntryInventory[], rules: Rules, recipeNames: string[]): Inventory {
  const files = perEntry.flatMap((e) => (e.file ? [e.file] : []));
  const findings = perEntry.flatMap((e) => e.findings);
  const companions = perEntry.flatMap((e) => (e.companion ? [e.companion] : []));
  const recipes = recipesFor(rules, recipeNames);
  const missing: MissingEvent[] = [];

  const groups = new Map<string, { harness: string; version: string }>();
  for (const f of files) groups.set(`${f.harness}\u0000${f.version}`, { harness: f.harness, version: f.version });
  for (const { harness, version } of groups.values()) {
    for (const recipe of recipes.filter((r) => r.harness === harness)) {
      for (const event of recipe.events) {
        if (!files.some((f) => f.harness === harness && f.version === version && f.event === event)) {
          missing.push({ harness, event, version, recipe: recipe.name });
          findings.push({
            code: "missing-event",
            severity: "block",
            message: `${harness} ${version}: the recipe ${recipe.name} expects ${event}, and no capture of it is here`,
          });
        }
      }
    }
  }

  const byEvent = new Map<string, InventoryFile[]>();
  for (const f of files) {
    const key = `${f.harness}\u0000${f.version}\u0000${f.event}`;
    byEvent.set(key, [...(byEvent.get(key) ?? []), f]);
  }
  for (const group of byEvent.values()) {
    const ns = group.map((f) => f.n).sort((a, b) => a - b);
    for (const f of group.filter((x) => x.n > 1)) {
      findings.push({ code: "extra-capture", severity: "note", file: f.name, message: `repeat .${f.n} of ${f.event}; selection chooses among repeats` });
    }
    const max = ns[ns.length - 1] as number;
    const missingCount = max - new Set(ns).size;
    if (missingCount > 0) {
      const first = group[0] as InventoryFile;
      const present = new Set(ns);
      // Named one by one only when there are few; a counter like .999999999 is not walked.
      const gaps = missingCount <= 20 ? Array.from({ length: max }, (_, k) => k + 1).filter((k) => !present.has(k)) : [];
      findings.push({
        code: "counter-gap",
        severity: "note",
        file: first.name,
        message: `${first.harness} ${first.version} ${first.event}: ${gaps.length > 0 ? `counters ${gaps.map((g) => `.${g}`).join(", ")} are` : `${missingCount} counters below .${max} are`} absent; a sink never skips a number, so a file may have been removed`,
      });
    }
  }

  const declared = perEntry.find((e) => e.declaredVersions)?.declaredVersions;
  if (declared) {
    for (const { harness, version } of groups.values()) {
      const catalogue = rules.harnesses.find((h) => h.harness === harness);
      const names = [harness, ...(catalogue?.aliases ?? [])];
      const line = names.map((n) => declared.get(n)).find((x) => x) ?? declared.get("*");
      if (!line || version === "unknown") continue;
      if (line.version === null || line.version !== version) {
        const first = files.find((f) => f.harness === harness && f.version === version) as InventoryFile;
        findings.push({
          code: "version-mismatch",
          severity: "block",
          file: first.name,
          message: `${harness} captures say ${version} but sitting.json's --version line says "${line.line}"`,
        });
      }
    }
  }

  if (files.length === 0) {
    findings.push({ code: "no-captures", severity: "block", message: "the folder holds no capture file" });
  }
  const present = new Set(files.map((f) => f.harness));
  const applied = recipes.filter((r) => recipeNames.length > 0 || present.has(r.harness)).map((r) => r.name);
  return { dir, files, companions, findings, missing, recipes: applied };
}

export function blocks(findings: Finding[]): boolean {
  return findings.some((f) => f.severity === "block");
}
