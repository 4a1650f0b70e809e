import { many, one, parseArgs, UsageError } from "../args.js";
import { validateAgainst, RulesError } from "../io/load-rules.js";
import { blocks, inventoryContext, inventoryEntry, inventorySitting, unknownRecipes, type EntryInventory } from "../passes/inventory.js";
import type { Inventory, Rules } from "../types.js";
import { entries, findingLine, guarded, listing, setting, table, writeJson, type Io } from "./common.js";

export const inventoryHelp = `clear inventory <capture-dir> [--recipe NAME]... [--json] [--root DIR] [--max-file-bytes N]

Lists what a capture sitting holds: every capture's name parts, size, SHA-256 and the class of
every JSON pointer in it (free text flagged), and every finding: missing recipe events, unknown
versions, version mismatches against sitting.json, refused classes and every bad file.
Never writes. Exit 0 when nothing blocks, 1 when a finding blocks, 2 when the folder cannot be read.
`;

export function checkSitting(value: unknown): string | null {
  try {
    validateAgainst("sitting", value, "sitting.json");
    return null;
  } catch (err) {
    if (err instanceof RulesError) return err.message;
    throw err;
  }
}

/** Runs the inventory pass over a folder; shared by the commands that start from it. */
export async function takeInventory(dir: string | undefined, command: string, rules: Rules, limits: Parameters<typeof entries>[1], recipes: string[]): Promise<Inventory> {
  const unknown = unknownRecipes(rules, recipes);
  if (unknown.length > 0) throw new UsageError(`no recipe named ${unknown.map((n) => `"${n}"`).join(", ")} (known: ${rules.recipes.map((r) => r.name).join(", ")})`);
  const list = await listing(dir, command);
  const ctx = inventoryContext(rules, checkSitting);
  const perEntry: EntryInventory[] = [];
  for await (const entry of entries(list, limits)) perEntry.push(inventoryEntry(entry, ctx));
  return inventorySitting(list.path, perEntry, rules, recipes);
}

export function renderInventory(inv: Inventory): string {
  const lines: string[] = [];
  lines.push(`Inventory of ${inv.dir}`);
  lines.push("");
  if (inv.files.length > 0) {
    const rows = [["capture", "harness", "event", "version", "n", "bytes", "sha256", "fields", "free text"]];
    for (const f of inv.files) {
      rows.push([
        f.name,
        f.harness,
        f.event,
        f.version,
        String(f.n),
        String(f.bytes),
        f.sha256 ? f.sha256.slice(0, 12) : "-",
        f.valid ? String(f.fields.length) : "invalid",
        f.valid ? String(f.fields.filter((x) => x.class === "free-text").length) : "-",
      ]);
    }
    lines.push(table(rows));
    lines.push("");
    for (const f of inv.files.filter((x) => x.valid)) {
      lines.push(f.name);
      for (const field of f.fields) {
        const flag = field.class === "free-text" ? "FREE TEXT: substitute with free-text-v1" : "";
        const unknown = field.known ? "" : " (unknown field, guessed)";
        lines.push(`  ${field.pointer.padEnd(60)} ${field.class.padEnd(11)} ${flag}${unknown}`.trimEnd());
      }
    }
    lines.push("");
  }
  if (inv.companions.length > 0) lines.push(`Companions: ${inv.companions.join(", ")}`);
  if (inv.missing.length > 0) {
    lines.push("Missing events:");
    for (const m of inv.missing) lines.push(`  ${m.harness} ${m.version} ${m.event} (recipe ${m.recipe})`);
  }
  if (inv.findings.length > 0) {
    lines.push("Findings:");
    for (const f of inv.findings) lines.push(`  ${findingLine(f)}`);
  }
  const blocking = inv.findings.filter((f) => f.severity === "block").length;
  const notes = inv.findings.length - blocking;
  const valid = inv.files.filter((f) => f.valid).length;
  lines.push("");
  lines.push(
    `${inv.files.length} captures (${valid} valid), ${inv.missing.length} missing events, ${blocking} blocking findings, ${notes} notes; recipes: ${inv.recipes.join(", ") || "none"}: ${blocking > 0 ? "BLOCKED" : "ready"}`,
  );
  return `${lines.join("\n")}\n`;
}

export async function inventoryCommand(argv: string[], io: Io): Promise<number> {
  return guarded(io, argv, async () => {
    const args = parseArgs(argv, { json: "bool", recipe: "strings", root: "string", "max-file-bytes": "string", help: "bool" });
    if (args.bools.has("help")) {
      io.stdout(inventoryHelp);
      return 0;
    }
    if (args.positionals.length > 1) throw new UsageError("clear inventory takes one capture directory");
    const s = setting(one(args, "root"), io.cwd, one(args, "max-file-bytes"));
    const inv = await takeInventory(args.positionals[0], "inventory", s.rules, s.limits, many(args, "recipe"));
    const blocked = blocks(inv.findings);
    if (args.bools.has("json")) {
      writeJson(io, {
        command: "inventory",
        ok: !blocked,
        dir: inv.dir,
        recipes: inv.recipes,
        files: inv.files,
        companions: inv.companions,
        missing: inv.missing,
        findings: inv.findings,
      });
    } else {
      io.stdout(renderInventory(inv));
    }
    return blocked ? 1 : 0;
  });
}
