import path from "node:path";
import { fileURLToPath } from "node:url";
import { detectManager, repoOf, type ManagerKind } from "./hook-managers/detect.js";
import { applyPlan, describePlan, needsHand, pendingEdits } from "./hook-managers/plan.js";
import { HOOKS, type Installed } from "./hook-managers/shell.js";
import { hookState, idleManagers } from "./hook-managers/status.js";
import { installPlan, uninstallPlan } from "./hook-managers/wiring.js";

// The git hooks that run the gate: wired through the hook manager the repository uses, so that
// its own reinstall keeps them, or written into git's hooks folder where none is used.

/** This installation of clear: the last resort of a hook in .git/hooks, never committed. */
const INSTALLED: Installed = {
  node: process.execPath,
  cli: path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "cli.js"),
};

export interface HooksResult {
  ok: boolean;
  lines: string[];
}

export interface HooksOptions {
  yes?: boolean;
  manager?: ManagerKind;
}

function carryOut(root: string, plan: ReturnType<typeof installPlan>, yes: boolean, done: string): HooksResult {
  if (pendingEdits(plan) && !yes) {
    const shown = describePlan(root, plan, false);
    return { ok: false, lines: [...shown, "Nothing was written: the changes above touch files you own; run again with --yes to make them."] };
  }
  applyPlan(plan);
  const lines = describePlan(root, plan, true);
  if (needsHand(plan)) return { ok: false, lines: [...lines, "The rest was written; the lines above must be added by hand."] };
  return { ok: true, lines: lines.length > 0 ? [...lines, done] : [done] };
}

export function installHooks(root: string, options: HooksOptions = {}): HooksResult {
  const repo = repoOf(root);
  const manager = detectManager(repo, options.manager);
  const plan = installPlan(repo, manager, INSTALLED);
  const name = manager.kind === "plain" ? "git's hooks folder" : manager.kind === "hooks-path" ? `the hooks folder ${manager.place}` : manager.kind;
  const result = carryOut(root, plan, options.yes === true, `The gate is wired through ${name}.`);
  return { ok: result.ok, lines: [`Hook manager: ${name}`, ...result.lines] };
}

export function uninstallHooks(root: string, options: HooksOptions = {}): HooksResult {
  const plan = uninstallPlan(repoOf(root));
  if (plan.steps.length === 0) return { ok: true, lines: ["no hook of this tool was installed", ...plan.notes] };
  return carryOut(root, plan, options.yes === true, "This tool's hooks are out; every other hook is as it was.");
}

export function hookStatus(root: string): HooksResult {
  const repo = repoOf(root);
  const states = HOOKS.map((hook) => hookState(repo, hook));
  const lines = states.flatMap((s) => [`${s.hook}: ${s.reaches ? "reaches the gate" : "DOES NOT reach the gate"}`, ...s.says.map((l) => `  ${l}`)]);
  return { ok: states.every((s) => s.reaches), lines: [...lines, ...idleManagers(repo, states)] };
}
