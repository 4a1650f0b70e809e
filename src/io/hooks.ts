import path from "node:path";
import { fileURLToPath } from "node:url";
import { gitMaybe } from "./git.js";
import { loadConfig, lstatOrNull } from "./repo.js";
import { repoPaths } from "./repo-tree.js";
import { bypassedBy, detectManager, repoOf, type ManagerKind } from "./hook-managers/detect.js";
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
  applyPlan(plan, root);
  const lines = describePlan(root, plan, true);
  if (needsHand(plan)) return { ok: false, lines: [...lines, "The rest was written; the lines above must be added by hand."] };
  return { ok: true, lines: lines.length > 0 ? [...lines, done] : [done] };
}

/** Why the tool cannot write the inbox's .gitignore itself: a link or a file on the way, or one there already. */
function inboxTaken(root: string, inbox: string): string | null {
  let at = root;
  for (const part of inbox.split("/")) {
    at = path.join(at, part);
    const stat = lstatOrNull(at);
    if (stat === null) return null;
    if (stat.isSymbolicLink()) return `${path.relative(root, at)} is a symbolic link`;
    if (!stat.isDirectory()) return `${path.relative(root, at)} is not a folder`;
  }
  return lstatOrNull(path.join(at, ".gitignore")) === null ? null : `${inbox}/.gitignore is a file you own`;
}

/** The inbox, where raw sittings land, as git sees it: ignored, or why not and what to do. */
function inboxIgnore(root: string): { inbox: string; ignored: boolean; file: string | null; says: string } {
  let inbox: string;
  try {
    inbox = repoPaths(loadConfig(root)).capturesInbox;
  } catch (err) {
    return { inbox: "the captures inbox", ignored: false, file: null, says: `the captures inbox was not looked at: ${(err as Error).message}` };
  }
  // A probe, never a real file: would git leave a capture there out of `git add -A`?
  // check-ignore takes no pathspec magic, not even "literal": its argument is a path, "./" first.
  if (gitMaybe(["--no-literal-pathspecs", "check-ignore", "-q", "--no-index", "--", `./${inbox}/sitting/claude-code_session_start_0.0.0.1.json`], root) !== null) {
    return { inbox, ignored: true, file: null, says: `${inbox}/: git-ignored, so a sitting there stays out of a commit` };
  }
  const file = path.join(root, inbox, ".gitignore");
  const taken = inboxTaken(root, inbox);
  if (taken !== null) return { inbox, ignored: false, file: null, says: `${inbox}/: NOT git-ignored and ${taken}; add "/${inbox}/*" and "!/${inbox}/README.md" to .gitignore by hand` };
  return { inbox, ignored: false, file, says: `${inbox}/: NOT git-ignored; clear hooks install writes ${inbox}/.gitignore` };
}

// Everything in the inbox but its README and this file stays out of a commit.
const INBOX_IGNORE = "# Raw sittings land here and are never committed.\n*\n!.gitignore\n!README.md\n";

export function installHooks(root: string, options: HooksOptions = {}): HooksResult {
  const repo = repoOf(root);
  const manager = detectManager(repo, options.manager);
  const plan = installPlan(repo, manager, INSTALLED);
  const inbox = inboxIgnore(root);
  if (inbox.file !== null) plan.steps.push({ kind: "write", file: inbox.file, text: INBOX_IGNORE, executable: false });
  else if (!inbox.ignored) plan.notes.push(inbox.says);
  // Chosen with --manager against core.hooksPath, the wiring would sit where git never looks.
  const bypassed = bypassedBy(repo, manager);
  if (bypassed !== null) plan.notes.push(bypassed);
  const name = manager.kind === "plain" ? "git's hooks folder" : manager.kind === "hooks-path" ? `the hooks folder ${manager.place}` : manager.kind;
  const done = bypassed === null ? `The gate is wired through ${name}.` : `The gate is written for ${name}, where git does not run it.`;
  const result = carryOut(root, plan, options.yes === true, done);
  const head = `Hook manager: ${name}`;
  if (!result.ok || bypassed !== null) return { ok: false, lines: [head, ...result.lines] };
  // What was written is followed as git will run it: a hook git skips, or a manager's setting that keeps it from the gate, fails the install.
  const states = HOOKS.map((hook) => hookState(repo, hook));
  const bypassing = states.filter((s) => !s.reaches && s.waits === undefined);
  // Not reached yet, with nothing bypassing it: the manager's own install, or the package's, is still to come; said, not failed.
  const waiting = states.filter((s) => !s.reaches && s.waits !== undefined).flatMap((s) => [`${s.hook}: not reached yet`, ...s.says.map((l) => `  ${l}`)]);
  if (bypassing.length === 0) return { ok: true, lines: [head, ...result.lines, ...waiting] };
  const why = bypassing.flatMap((s) => [`${s.hook}: DOES NOT reach the gate`, ...s.says.map((l) => `  ${l}`)]);
  return { ok: false, lines: [head, ...result.lines.filter((l) => l !== done), ...why, `The gate is written for ${name}, but git does not run it: mend what is said above, then run clear hooks status.`] };
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
  return { ok: states.every((s) => s.reaches), lines: [...lines, ...idleManagers(repo, states), inboxIgnore(root).says] };
}
