import path from "node:path";
import { parseFlags, UsageError } from "../cli-args.js";
import { clearIntoRepo } from "../line.js";
import { guarded, type Command } from "../command.js";
import { repoPaths } from "../io/repo-tree.js";
import { loadSetting, progressFor } from "../io/setting.js";
import type { Io } from "../types.js";
import { groupFindings, type Finding } from "../findings.js";
import { plural } from "../render/grouped.js";
import { findingsText, printableLines } from "../render/human.js";
import { writeJson } from "../render/json.js";
import { checkedValue } from "./checked-output.js";

const FLAGS = {
  json: { type: "boolean" },
  verbose: { type: "boolean" },
  root: { type: "string" },
  choose: { type: "string", multiple: true },
  recipe: { type: "string", multiple: true },
} as const;

/** A --choose given as a path to a file of the sitting names that capture; any other value is kept as written, to be refused by name. */
function captureNameOf(choice: string, sittingDir: string, cwd: string): string {
  if (!/[\\/]/.test(choice)) return choice;
  const file = path.resolve(cwd, choice);
  return path.dirname(file) === sittingDir ? path.basename(file) : choice;
}

/** "3 findings: secret-found ×2, no-clearable-capture ×1": the codes that block, counted. */
function blockersSaid(blockers: Finding[]): string {
  const codes = groupFindings(blockers, 0).map((g) => `${g.code} ×${g.count}`);
  return `${plural(blockers.length, "finding")}: ${codes.join(", ")}`;
}

async function run(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseFlags(argv, FLAGS, 1, "run");
  const setting = loadSetting(values.root, io.cwd);
  setting.progress = progressFor(io, values.json);
  if (setting.root === null) throw new UsageError("clear run works inside a git repository (or give --root DIR)");
  const sittingDir = path.resolve(io.cwd, positionals[0] ?? path.join(setting.root, repoPaths(setting.config).capturesInbox));
  const overrides = { choose: [...new Set((values.choose ?? []).map((c) => captureNameOf(c, sittingDir, io.cwd)))], recipes: [...new Set(values.recipe ?? [])] };
  const result = await clearIntoRepo(setting, setting.root, sittingDir, overrides);
  // File names, paths and what a person chose come from the sitting: what is printed of them is checked first.
  const { names, ...plain } = result;
  const r = await checkedValue({ ...plain, overrides }, setting, names);
  const ok = r.blockers.length === 0;
  const said = r.alreadyAccepted
    ? `batch ${r.batch} is already accepted in ${r.recordPath} with these very fixtures; ${r.restored.length > 0 ? `${r.restored.length} of its files were missing or changed and are written back with the accepted bytes` : "nothing written"}`
    : ok
      ? `batch ${r.batch}: ${plural(r.fixtures.length, "fixture")} written${r.replaced ? ` (it replaces the pending batch ${r.replaced}${unlistedSaid(r.unlisted)})` : ""}${r.missing > 0 ? `; ${plural(r.missing, "event")} the recipe expects ${r.missing === 1 ? "is" : "are"} not in it (the batch names them)` : ""}; read ${r.recordPath} and write ACCEPT under the batch's acceptance heading`
      : `batch ${r.batch}: BLOCKED, no fixture written (${blockersSaid(r.blockers)}; see ${r.recordPath})${r.replaced ? `; it replaces the pending batch ${r.replaced}${unlistedSaid(r.unlisted)}` : ""}`;
  const scan = { findings: r.scan.findings.length, control: r.scan.control };
  const { batch, alreadyAccepted, restored, replaced, unlisted, fixtures } = r;
  if (values.json) writeJson(io, { command: "run", ok, batch, alreadyAccepted, restored, replaced, unlisted, fixtures, findings: r.blockers, scan, overrides: r.overrides, overlay: setting.rules.overlay });
  else {
    // The verdict counts what blocks by code; --verbose lists every finding after it.
    const every = values.verbose === true ? findingsText(r.blockers, "run", true) : [];
    io.stdout(printableLines([said, ...every, ...(r.alreadyAccepted ? [] : overridesSaid(r.overrides))]));
  }
  return ok ? 0 : 1;
}

/** The files of a replaced batch no batch lists now, said with what to do. */
function unlistedSaid(unlisted: string[]): string {
  if (unlisted.length === 0) return "";
  const named = unlisted.length <= 3 ? `: ${unlisted.join(", ")}` : ` (run --json lists them)`;
  return `; ${plural(unlisted.length, "file")} it wrote ${unlisted.length === 1 ? "is" : "are"} listed by no batch now and left as ${unlisted.length === 1 ? "it stands" : "they stand"}${named}; verify refuses ${unlisted.length === 1 ? "it" : "them"} until taken out or cleared again`;
}

/** The overrides a person gave, said after the verdict; nothing when there are none. */
/** The line that names what a person chose, if they chose anything. */
function overridesSaid(overrides: { choose: string[]; recipes: string[] }): string[] {
  const parts = [...overrides.choose.map((c) => `--choose ${c}`), ...overrides.recipes.map((r) => `--recipe ${r}`)];
  return parts.length === 0 ? [] : [`overrides recorded in the batch: ${parts.join(", ")}`];
}

export const runCommand: Command = { run: (argv, io) => guarded(io, argv, () => run(argv, io)) };
