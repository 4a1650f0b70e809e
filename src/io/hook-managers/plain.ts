import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import type { Plan } from "./plan.js";
import { lstatOrNull } from "../repo.js";
import { PRE_COMMIT_SIGN, readText } from "./detect.js";
import { gateScript, HOOKS, MARK, recordedInstall, type HookName, type Installed } from "./shell.js";

// The gate written straight into git's hooks folder, where no manager is used. A hook that was
// there is kept beside it as <hook>.pre-clear (then .pre-clear.2, ...) and run first; nothing
// kept is ever overwritten.

/** Where a manager moved a hook it found: lefthook to .old, the pre-commit framework to .legacy. */
const MOVED_BY_MANAGER = [".old", ".legacy"];

/**
 * A hook that reads its own path ($0, BASH_SOURCE, a script language's own): kept as <hook>.pre-clear,
 * its name is another, and one that runs by its name (husky 4, overcommit) may do nothing.
 */
const READS_OWN_NAME = /\$\{?0(?![0-9])|BASH_SOURCE|__FILE__|__file__|__filename|\$PROGRAM_NAME|sys\.argv\[0\]|process\.argv\[1\]/;

export function readsOwnName(text: string | null): boolean {
  return text !== null && READS_OWN_NAME.test(text);
}

/** What to say of a kept hook that reads its own path, whose name is now `name`. */
export function ownNameNote(name: string): string {
  return `reads its own path ($0 or the like), whose name is now ${name}: where it goes by its name, as husky 4's and overcommit's hooks do, it now does nothing; check it still does what it did, or install that manager again instead`;
}

export function isOurs(text: string | null): boolean {
  return text !== null && text.includes(MARK);
}

/** This tool's hook in a hooks folder as this version writes it: every byte what it writes for the installation it records and the hooks kept beside it. */
export function isIntact(text: string, hook: HookName, dir: string): boolean {
  const installed = recordedInstall(text);
  return installed !== undefined && text === gateScript(hook, { installed, kept: keptHooks(dir, hook) });
}

/** A free name beside `hook` for this tool's hook that was changed since it was written: none there, and none the plan moves a file to already. */
function changedName(dir: string, hook: HookName, plan: Plan): string {
  const planned = new Set(plan.steps.flatMap((s) => (s.kind === "rename" || s.kind === "write" ? [s.kind === "rename" ? s.to : s.file] : [])));
  for (let n = 1; ; n++) {
    const name = n === 1 ? `${hook}.clear-changed` : `${hook}.clear-changed.${n}`;
    const file = path.join(dir, name);
    if (lstatOrNull(file) === null && !planned.has(file)) return name;
  }
}

/**
 * This tool's hook that was changed since it was written (lines of a person's own, or an older
 * version's text) is never overwritten nor removed: it is moved aside, not run, and said so.
 */
function setAsideIfChanged(dir: string, file: string, hook: HookName, plan: Plan): boolean {
  const text = readText(file);
  if (text === null || !isOurs(text) || isIntact(text, hook, dir) || lstatOrNull(file)?.isSymbolicLink() === true) return false;
  const name = changedName(dir, hook, plan);
  plan.steps.push({ kind: "rename", from: file, to: path.join(dir, name) });
  plan.notes.push(`${path.basename(file)}: this tool's hook was changed since it was written (by hand, or by an older version of this tool); it is kept as ${name}, which nothing runs: bring any line of your own from it into a hook of your own`);
  return true;
}

/** The hooks kept beside `hook` in `dir`, oldest first. */
export function keptHooks(dir: string, hook: HookName): string[] {
  if (!existsSync(dir)) return [];
  const rank = (name: string): number => (name === `${hook}.pre-clear` ? 1 : Number(name.slice(`${hook}.pre-clear.`.length)));
  return readdirSync(dir)
    .filter((n) => n === `${hook}.pre-clear` || (n.startsWith(`${hook}.pre-clear.`) && /^\d+$/.test(n.slice(`${hook}.pre-clear.`.length))))
    .sort((a, b) => rank(a) - rank(b));
}

function nextKeptName(kept: string[], hook: HookName): string {
  if (kept.length === 0) return `${hook}.pre-clear`;
  const last = kept[kept.length - 1]!;
  const n = last === `${hook}.pre-clear` ? 1 : Number(last.slice(`${hook}.pre-clear.`.length));
  return `${hook}.pre-clear.${n + 1}`;
}

export function plainInstall(dir: string, installed: Installed, plan: Plan, shownDir: string): void {
  for (const hook of HOOKS) {
    const file = path.join(dir, hook);
    const kept = keptHooks(dir, hook);
    const text = readText(file);
    const link = lstatOrNull(file)?.isSymbolicLink() === true;
    setAsideIfChanged(dir, file, hook, plan);
    // A hook that is a link (one to nowhere too) is kept as it is, and the gate's hook written beside it, never through it.
    if (link && isOurs(text)) plan.steps.push({ kind: "remove", file });
    if ((link || existsSync(file)) && !isOurs(text)) {
      const name = nextKeptName(kept, hook);
      plan.steps.push({ kind: "rename", from: file, to: path.join(dir, name) });
      plan.notes.push(`${hook}: the hook that was there is kept as ${name} and runs first; its failure fails the ${hook === "pre-push" ? "push" : "commit"}`);
      if (readsOwnName(text)) plan.notes.push(`${hook}: the hook that was there ${ownNameNote(name)}`);
      kept.push(name);
    }
    // A copy of this tool's hook that a manager moved aside would run twice, or chain in a loop.
    for (const suffix of MOVED_BY_MANAGER) {
      if (!setAsideIfChanged(dir, `${file}${suffix}`, hook, plan) && isOurs(readText(`${file}${suffix}`))) plan.steps.push({ kind: "remove", file: `${file}${suffix}` });
    }
    plan.steps.push({ kind: "write", file, text: gateScript(hook, { installed, kept }), executable: true });
    plan.notes.push(`${hook}: installed in ${shownDir}`);
  }
}

/**
 * Takes this tool's hook out of git's hooks folder wherever it stands (also where a manager moved
 * it), and puts back the hook it kept last in its place. With `keepRunning`, a hook git still runs
 * stays: it guards until the manager installs its own, which then moves it aside.
 */
export function plainUnwrap(dir: string, plan: Plan, keepRunning = false, spare?: string): void {
  for (const hook of HOOKS) {
    const kept = keptHooks(dir, hook);
    for (const suffix of keepRunning ? MOVED_BY_MANAGER : ["", ...MOVED_BY_MANAGER]) {
      const file = path.join(dir, `${hook}${suffix}`);
      // The gate's own pre-push.legacy, which the pre-commit framework runs first, stays (preCommitLegacy), and so do the hooks it runs.
      if (file === spare) {
        kept.length = 0;
        continue;
      }
      if (!isOurs(readText(file))) continue;
      if (!setAsideIfChanged(dir, file, hook, plan)) plan.steps.push({ kind: "remove", file });
      const back = suffix === "" || suffix === ".legacy" ? kept.pop() : undefined;
      if (back !== undefined) {
        plan.steps.push({ kind: "rename", from: path.join(dir, back), to: file });
        plan.notes.push(`${hook}: the hook kept as ${back} is back as ${hook}${suffix}`);
      }
    }
    for (const name of kept) {
      plan.notes.push(`${hook}: ${name}, kept at an earlier install, is left in git's hooks folder; it ran only through this tool's hook`);
    }
  }
}

/** The hook the pre-commit framework runs as <hook>.legacy before its own: at a push, with git's stdin and arguments. */
export const LEGACY_HOOK: HookName = "pre-push";

export const INSTALL_YES = "run npx fixture-clear hooks install --yes";

/** What to do where git's hooks folder holds a pre-push.legacy this tool did not write. */
export function legacyTakenAdvice(): string {
  return `rename it to ${LEGACY_HOOK}.pre-clear (the gate's ${LEGACY_HOOK}.legacy runs it first, with git's refs), then ${INSTALL_YES}`;
}

/**
 * The gate as the pre-commit framework's pre-push.legacy, which it runs first with git's stdin and
 * arguments: at a push whose commits every remote-tracking ref holds (a tag, notes) it runs no hook
 * of its own, and names only the first ref to those it runs. A file there this tool did not write is left, and said.
 */
export function preCommitLegacy(dir: string, installed: Installed, plan: Plan): void {
  const file = path.join(dir, `${LEGACY_HOOK}.legacy`);
  const there = lstatOrNull(file);
  if (there !== null && (there.isSymbolicLink() || !isOurs(readText(file)))) {
    plan.notes.push(`${LEGACY_HOOK}.legacy: a hook this tool did not write is there, which the pre-commit framework runs first; the gate's was not written, so a push of a tag or notes goes unchecked: ${legacyTakenAdvice()}`);
    return;
  }
  const own = readText(path.join(dir, LEGACY_HOOK));
  // pre-commit install moves a hook it finds onto pre-push.legacy, over the gate's.
  if (own !== null && !isOurs(own) && !PRE_COMMIT_SIGN.test(own)) {
    plan.notes.push(`${LEGACY_HOOK}: a hook of yours is there, which pre-commit install will move onto ${LEGACY_HOOK}.legacy, over the gate's; after it, ${legacyTakenAdvice()}`);
  }
  setAsideIfChanged(dir, file, LEGACY_HOOK, plan);
  plan.steps.push({ kind: "write", file, text: gateScript(LEGACY_HOOK, { installed, kept: keptHooks(dir, LEGACY_HOOK) }), executable: true });
  plan.notes.push(`${LEGACY_HOOK}.legacy: the gate, in git's hooks folder, which the pre-commit framework runs first at every push (a tag's or notes' too)`);
}
