import { parseArgs, one, UsageError } from "../args.js";
import { inventoryContext, inventoryEntry } from "../passes/inventory.js";
import { describeCount, identifiersOf, pairSitting, type FileIds } from "../passes/pair.js";
import type { Pairing } from "../types.js";
import { checkSitting } from "./inventory.js";
import { entries, guarded, listing, setting, writeJson, type Io } from "./common.js";

export const pairHelp = `clear pair <capture-dir> [--json] [--root DIR]

States which captures belong to one host operation, by the host's own per-operation identifiers
(tool call, sub-agent, turn or prompt, session), finest first. An identifier every file shares pairs
nothing. Files that pair with nothing are listed with the reason; invalid files are skipped and named.
Never writes. Exit 0, or 2 when the folder cannot be read.
`;

export function renderPairing(p: Pairing): string {
  const lines: string[] = [];
  for (const harness of [...new Set(p.counts.map((c) => c.harness))]) {
    lines.push(`Pairing, by the host's own identifiers: ${harness}`);
    for (const c of p.counts.filter((x) => x.harness === harness)) lines.push(`  ${c.label} scope (${c.scope}): ${describeCount(c)}.`);
    lines.push("");
  }
  lines.push(p.pairs.length === 0 ? "Pairs: none" : "Pairs:");
  for (const pair of p.pairs) lines.push(`  ${pair.scope} ${pair.id}: ${pair.files.join(", ")}`);
  lines.push("");
  lines.push(p.unpaired.length === 0 ? "Not paired: none" : "Not paired:");
  for (const u of p.unpaired) lines.push(`  ${u.file}: ${u.reason}`);
  if (p.skipped.length > 0) {
    lines.push("");
    lines.push("Skipped:");
    for (const s of p.skipped) lines.push(`  ${s.file}: ${s.reason}`);
  }
  lines.push("");
  lines.push(`${p.pairs.length} pairs, ${p.unpaired.length} files not paired, ${p.skipped.length} skipped`);
  return `${lines.join("\n")}\n`;
}

export async function pairCommand(argv: string[], io: Io): Promise<number> {
  return guarded(io, argv, async () => {
    const args = parseArgs(argv, { json: "bool", root: "string", help: "bool" });
    if (args.bools.has("help")) {
      io.stdout(pairHelp);
      return 0;
    }
    if (args.positionals.length > 1) throw new UsageError("clear pair takes one capture directory");
    const s = setting(one(args, "root"), io.cwd);
    const list = await listing(args.positionals[0], "pair");
    const ctx = inventoryContext(s.rules, checkSitting);
    const files: FileIds[] = [];
    const skipped: { file: string; reason: string }[] = [];
    for await (const entry of entries(list, s.limits)) {
      const inv = inventoryEntry(entry, ctx);
      if (inv.companion) continue;
      if (!inv.file || !inv.file.valid || !entry.doc) {
        const why = inv.findings.find((f) => f.severity === "block");
        skipped.push({ file: entry.name, reason: why ? `${why.code}: ${why.message}` : "not a readable capture" });
        continue;
      }
      const ruleSet = s.rules.pairing.find((p) => p.harness === inv.file?.harness);
      files.push(identifiersOf(entry.name, inv.file.harness, inv.file.event, entry.doc.value, ruleSet));
    }
    const pairing = pairSitting(files, s.rules, skipped);
    if (args.bools.has("json")) {
      writeJson(io, { command: "pair", dir: list.path, ...pairing });
    } else {
      io.stdout(renderPairing(pairing));
    }
    return 0;
  });
}
