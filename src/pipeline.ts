import { UsageError } from "./cli-args.js";
import { finding, type Finding } from "./findings.js";
import { RulesError, validateAgainst } from "./io/load-rules.js";
import { listCaptureDir, readCaptureEntries } from "./io/read-capture-dir.js";
import type { Setting } from "./io/setting.js";
import { inventoryContext, inventoryPass, unknownRecipes, type InventoryResult } from "./passes/inventory.js";
import { identifiersOf, pairPass, placeholderTest } from "./passes/pair.js";
import { substitutePass } from "./passes/substitute/index.js";
import type { CaptureEntry, Inventory, Kit, Pairing, Sitting, SittingInfo, Substitution, Capture } from "./types.js";

/** Progress is said only on sittings larger than this. */
const PROGRESS_FROM = 300;

// The one pipeline: a sitting is read once, at the edge, into typed values, and the passes run in
// order over it. Every command, `clear run` and the benches come through here.

function companion<T>(entry: CaptureEntry | undefined, kind: "sitting" | "kit"): { value: T | null; findings: Finding[] } {
  if (!entry) return { value: null, findings: [] };
  const file = entry.name;
  if (entry.kind === "unreadable") {
    if (entry.entryKind === "symlink") return { value: null, findings: [finding("symlink", { file })] };
    const detail = entry.problem ? entry.problem.message : "is not a regular file";
    return { value: null, findings: [finding(kind === "sitting" ? "invalid-sitting" : "invalid-kit", { file }, { detail })] };
  }
  try {
    validateAgainst(kind, entry.doc.value, file);
    return { value: entry.doc.value as T, findings: [] };
  } catch (err) {
    if (!(err instanceof RulesError)) throw err;
    const detail = err.message.replace(/^[^:]*: /, "");
    return { value: null, findings: [finding(kind === "sitting" ? "invalid-sitting" : "invalid-kit", { file, pointer: /at (\/[^\s:]*)/.exec(detail)?.[1] }, { detail })] };
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

export function inventoryOf(sitting: Sitting, setting: Setting, recipes: string[] = [], withFields = true): InventoryResult {
  say(setting, sitting.entries.length, `inventory of ${sitting.entries.length} entries`);
  return inventoryPass(sitting, inventoryContext(setting.rules, setting.display), recipes, withFields);
}

function skippedOf(inventory: Inventory): { file: string; reason: string }[] {
  return inventory.files
    .filter((f) => !f.valid)
    .map((f) => {
      const why = inventory.findings.find((x) => x.file === f.name && x.severity === "block");
      return { file: f.name, reason: why ? `${why.code}: ${why.message}` : "not a readable capture" };
    });
}

export function pairingOf(captures: Capture[], inventory: Inventory, setting: Setting): Pairing {
  say(setting, captures.length, `pairing ${captures.length} captures`);
  const isPlaceholder = placeholderTest(setting.rules);
  const files = captures.map((c) => identifiersOf(c, setting.rules.pairing.find((p) => p.harness === c.harness), isPlaceholder));
  return pairPass(files, setting.rules, skippedOf(inventory), setting.display.id);
}

export function substitutionOf(captures: Capture[], inventory: Inventory, setting: Setting): Substitution {
  say(setting, captures.length, `substituting ${captures.length} captures`);
  const policy = setting.config.policies?.["env-dump-v1"];
  const options = { users: setting.users, literals: setting.config.literals ?? [], envDump: policy ? { ...policy } : null };
  const substitution = substitutePass(captures, setting.rules, options, setting.display);
  return { ...substitution, skipped: skippedOf(inventory) };
}

export interface Cleared {
  sitting: Sitting;
  inventory: Inventory;
  captures: Capture[];
  pairing: Pairing;
  substitution: Substitution;
}

/** Inventory, pairing and substitution over one sitting. */
export function clearSitting(sitting: Sitting, setting: Setting, recipes: string[] = []): Cleared {
  const { inventory, captures } = inventoryOf(sitting, setting, recipes);
  return { sitting, inventory, captures, pairing: pairingOf(captures, inventory, setting), substitution: substitutionOf(captures, inventory, setting) };
}

/** Says a pass on a long run, where the command asked for progress. */
function say(setting: Setting, count: number, line: string): void {
  if (count > PROGRESS_FROM) setting.progress?.(line);
}
