import { pushAll } from "../../collections.js";
import { execFileSync } from "node:child_process";
import { UsageError } from "../../errors.js";
import { lstatOrNull } from "../repo.js";
import path from "node:path";
import { BLOCK_MARK, findBlocks, insertBlock, removeBlock } from "./blocks.js";
import { huskyDirOf, huskyFolder, LEFTHOOK_SIGN, lefthookConfig, lefthookConfigs, PRE_COMMIT_CONFIG, preCommitConfigOf, PRE_COMMIT_SIGN, readText, type Manager, type Repo } from "./detect.js";
import { emptyPlan, type Plan } from "./plan.js";
import { blockedWhy, gateLineReach, type Reach } from "./reach.js";
import { isOurs, LEGACY_HOOK, plainInstall, plainUnwrap, preCommitLegacy } from "./plain.js";
import { gateScript, HOOKS, WRAPPER_DIR, type HookName, type Installed } from "./shell.js";
import { LEFTHOOK_SCRIPT, lefthookAdd, lefthookHandLines, lefthookLanguage, yamlObject, preCommitAdd, removeMarked } from "./yaml-edit.js";

// The gate wired the way each manager expects, so that the manager's own reinstall keeps it:
// husky's .husky/<hook>, lefthook's scripts, a `repo: local` hook for the pre-commit framework, a
// hand-set hooks folder, or git's own hooks folder. Committed files call .clear/hooks/<hook>
// (lefthook: its own scripts folder) by a path relative to the repository root.

/** The line a shell hook (husky, a hand-set hooks folder) runs; its failure ends the hook. */
export function callLine(hook: HookName): string {
  return `sh ${WRAPPER_DIR}/${hook}${hook === "pre-push" ? ' "$@"' : ""} || exit $?`;
}

/** For a hooks folder shared by every repository: runs the gate only where it is installed. */
function guardedCallLine(hook: HookName): string {
  return `if [ -f ${WRAPPER_DIR}/${hook} ]; then ${callLine(hook)}; fi`;
}

/**
 * Where a shell hook runs the gate's line, and whether every line above passes on to it: the
 * plain line, or the guarded one install prints for a hooks folder shared by other repositories.
 */
export function callLineReach(text: string, hook: HookName, runsItself: boolean): Reach {
  const refsOnStdin = hook === "pre-push";
  const plain = gateLineReach(text, callLine(hook), runsItself, refsOnStdin);
  return plain.kind === "absent" ? gateLineReach(text, guardedCallLine(hook), runsItself, refsOnStdin) : plain;
}

export function lefthookSourceDir(root: string): string {
  const config = lefthookConfig(root);
  const js = config === null ? null : yamlObject(readText(config) ?? "");
  const dir = typeof js?.source_dir === "string" ? js.source_dir : ".lefthook";
  return path.resolve(root, dir);
}

/** The committed script a manager runs for `hook`. */
export function wrapperFile(repo: Repo, manager: Manager, hook: HookName): string {
  if (manager.kind === "lefthook") return path.join(lefthookSourceDir(repo.root), hook, LEFTHOOK_SCRIPT);
  return path.join(repo.root, WRAPPER_DIR, hook);
}

function inWorkTree(repo: Repo, dir: string): boolean {
  const r = path.relative(repo.root, dir);
  return r !== "" && !r.startsWith("..") && !path.isAbsolute(r) && r.split(path.sep)[0] !== ".git";
}

/** The first lines of a shell hook install created, which no file the user wrote holds: uninstall takes such a file out whole, and leaves any other. */
const CREATED_LINE = "# clear: created by clear hooks install, which takes this file out on uninstall";

function createdStub(shebang: boolean): string {
  return `${shebang ? "#!/bin/sh\n" : ""}${CREATED_LINE}\n`;
}

/** Adds the gate's line at the end of a shell hook; where nothing shows that line would run, the lines to add are printed instead. */
function addCallTo(file: string, hook: HookName, plan: Plan, shebang: boolean): void {
  const before = readText(file);
  const has = before !== null && before.split("\n").includes(callLine(hook));
  const base = before ?? createdStub(shebang);
  const after = has ? base : insertBlock(base, base.length, 0, [callLine(hook)]);
  const reach = gateLineReach(after, callLine(hook), shebang, hook === "pre-push");
  if (reach.kind === "not-shell") {
    plan.steps.push({ kind: "manual", file, reason: "its first line has another program than sh read it", lines: [`run the gate from it as "${callLine(hook)}" would in sh`] });
  } else if (reach.kind === "blocked") {
    const reason = `its line ${reach.line} ${blockedWhy(reach, "a line added below it")}`;
    plan.steps.push({ kind: "manual", file, reason: `${reason}; put them above line ${reach.line}`, lines: [BLOCK_MARK, callLine(hook)] });
  } else if (!has) plan.steps.push({ kind: "edit", file, before, after, executable: before === null && shebang });
}

/** Stage names as the installed pre-commit spells them: `commit`/`push` before 3.2. */
function preCommitStages(): Record<HookName, string> {
  let version = "";
  try {
    version = execFileSync("pre-commit", ["--version"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  } catch {
    version = "";
  }
  const m = /(\d+)\.(\d+)/.exec(version);
  const modern = m !== null && (Number(m[1]) > 3 || (Number(m[1]) === 3 && Number(m[2]) >= 2));
  return modern ? { "pre-commit": "pre-commit", "pre-push": "pre-push" } : { "pre-commit": "commit", "pre-push": "push" };
}

function configEdit(file: string, plan: Plan, edit: (text: string) => ReturnType<typeof lefthookAdd>): void {
  const before = readText(file) ?? "";
  const result = edit(before);
  if (!result.ok) plan.steps.push({ kind: "manual", file, reason: result.reason, lines: result.lines });
  else if (result.text !== before) plan.steps.push({ kind: "edit", file, before, after: result.text });
}

function wireManager(repo: Repo, manager: Manager, plan: Plan): void {
  if (manager.kind === "husky") for (const hook of HOOKS) addCallTo(path.join(manager.place, hook), hook, plan, false);
  if (manager.kind === "hooks-path") {
    if (inWorkTree(repo, manager.place)) for (const hook of HOOKS) addCallTo(path.join(manager.place, hook), hook, plan, true);
    else {
      const reason = "that hooks folder is outside this repository and may serve others";
      for (const hook of HOOKS) {
        const file = path.join(manager.place, hook);
        // Lines added by hand at an earlier install are not asked for again.
        if (callLineReach(readText(file) ?? "", hook, true).kind === "reached") plan.notes.push(`${file}: runs the gate already`);
        else plan.steps.push({ kind: "manual", file, reason, lines: [guardedCallLine(hook)] });
      }
    }
  }
  const language = manager.kind === "lefthook" ? lefthookLanguage(manager.place) : "yaml";
  if (language !== "yaml") {
    // A TOML or JSON config is not edited here: its lines are printed in its own language.
    const reason = `it is ${language.toUpperCase()}, which this tool does not edit`;
    plan.steps.push({ kind: "manual", file: manager.place, reason, lines: HOOKS.flatMap((hook) => lefthookHandLines(hook, language)) });
  } else if (manager.kind === "lefthook") configEdit(manager.place, plan, (text) => {
    const first = lefthookAdd(text, "pre-commit");
    if (first.ok) return lefthookAdd(first.text, "pre-push");
    // Nothing is written then: pre-push's lines are asked for too, unless the file has them.
    const second = lefthookAdd(text, "pre-push");
    return second.ok && second.text === text ? first : { ...first, lines: [...first.lines, ...lefthookHandLines("pre-push")] };
  });
  if (manager.kind === "pre-commit") configEdit(manager.place, plan, (text) => preCommitAdd(text, preCommitStages()));
}

/** The pre-commit framework's install of the given hook types, whatever the config's default_install_hook_types says. */
export function preCommitInstall(hooks: readonly HookName[]): string {
  return `pre-commit install ${hooks.map((h) => `--hook-type ${h}`).join(" ")}`;
}

/** What the manager itself must still do before git runs the gate through it. */
function managerToDo(repo: Repo, manager: Manager): string[] {
  const own = (hook: HookName): string => readText(path.join(repo.ownHooksDir, hook)) ?? "";
  const missing = (test: RegExp): HookName[] => HOOKS.filter((h) => !test.test(own(h)));
  if (manager.kind === "husky" && huskyDirOf(repo.hooksDir) === null) {
    return ["husky's hooks are not installed yet: npx husky (npm install runs it through prepare)"];
  }
  const lefthook = manager.kind === "lefthook" ? missing(LEFTHOOK_SIGN) : [];
  if (lefthook.length > 0) return [`lefthook has not installed its ${lefthook.join(" and ")} hook yet: npx lefthook install`];
  const preCommit = manager.kind === "pre-commit" ? missing(PRE_COMMIT_SIGN) : [];
  // Named hook types, since a plain `pre-commit install` installs only those the config's default_install_hook_types names.
  if (preCommit.length > 0) return [`the pre-commit framework has not installed its ${preCommit.join(" and ")} hook yet: ${preCommitInstall(preCommit)}`];
  return [];
}

/** The committed script for `hook`, refused (nothing written) where it would stand outside the repository or over a file this tool did not write. */
function ownWrapper(repo: Repo, manager: Manager, hook: HookName): string {
  const file = wrapperFile(repo, manager, hook);
  if (!inWorkTree(repo, file)) {
    const why = manager.kind === "lefthook" ? `${path.basename(manager.place)}'s source_dir puts lefthook's scripts outside this repository` : "it is outside this repository";
    throw new UsageError(`${why}, where ${file} would be written and never committed; point source_dir inside the repository, then run clear hooks install again`);
  }
  const text = readText(file);
  if ((text !== null || lstatOrNull(file) !== null) && !isOurs(text)) {
    throw new UsageError(`${path.relative(repo.root, file)} is there and this tool did not write it; move it away, then run clear hooks install again`);
  }
  return file;
}

export function installPlan(repo: Repo, manager: Manager, installed: Installed): Plan {
  const plan = emptyPlan();
  if (manager.kind === "plain") {
    const shown = path.relative(repo.root, manager.place);
    plainInstall(manager.place, installed, plan, shown.startsWith("..") || path.isAbsolute(shown) ? manager.place : shown);
    return plan;
  }
  // A copy of this tool's hook that the manager moved aside would run the gate a second time; but the pre-commit framework's pre-push.legacy is the gate's.
  const legacy = manager.kind === "pre-commit" ? path.join(repo.ownHooksDir, `${LEGACY_HOOK}.legacy`) : undefined;
  plainUnwrap(repo.ownHooksDir, plan, repo.hooksPath === null, legacy);
  if (manager.kind === "pre-commit") preCommitLegacy(repo.ownHooksDir, installed, plan);
  for (const hook of HOOKS) plan.steps.push({ kind: "write", file: ownWrapper(repo, manager, hook), text: gateScript(hook), executable: true });
  wireManager(repo, manager, plan);
  pushAll(plan.notes, managerToDo(repo, manager));
  return plan;
}

function lineFilesOf(repo: Repo): string[] {
  const dirs = [path.join(repo.root, ".husky"), path.resolve(repo.root, huskyFolder(repo.root)), huskyDirOf(repo.hooksDir), repo.hooksPath !== null && inWorkTree(repo, repo.hooksDir) ? repo.hooksDir : null];
  return [...new Set(dirs.filter((d): d is string => d !== null))].flatMap((d) => HOOKS.map((h) => path.join(d, h)));
}

function unwireLineFile(file: string, plan: Plan): void {
  const before = readText(file);
  if (before === null || !before.includes(BLOCK_MARK)) return;
  const ours = findBlocks(before).filter((b) => HOOKS.some((h) => b.lines.join("\n") === callLine(h)));
  let after = before;
  for (const block of ours.reverse()) after = removeBlock(after, block);
  if (after === before) return;
  // Only a file install created goes; one the user wrote stays, with its bytes as they were (a bare "#!/bin/sh" too).
  const created = after === createdStub(false) || after === createdStub(true);
  plan.steps.push({ kind: "edit", file, before, after: created ? null : after });
}

export function uninstallPlan(repo: Repo): Plan {
  const plan = emptyPlan();
  plainUnwrap(repo.ownHooksDir, plan);
  const wrappers = [path.join(repo.root, WRAPPER_DIR), ...new Set([path.join(repo.root, ".lefthook"), lefthookSourceDir(repo.root)])];
  for (const dir of wrappers) {
    for (const hook of HOOKS) {
      const file = dir.endsWith(WRAPPER_DIR) ? path.join(dir, hook) : path.join(dir, hook, LEFTHOOK_SCRIPT);
      if (isOurs(readText(file))) plan.steps.push({ kind: "remove", file, prune: repo.root });
    }
  }
  for (const file of lineFilesOf(repo)) unwireLineFile(file, plan);
  // Every lefthook config there: one an install wired may no longer be the one lefthook reads first.
  const configs: [string | null, "lefthook" | "pre-commit"][] = [
    ...lefthookConfigs(repo.root).map((file): [string, "lefthook"] => [file, "lefthook"]),
    [path.join(repo.root, PRE_COMMIT_CONFIG), "pre-commit"],
  ];
  const named = preCommitConfigOf(repo);
  if (named !== path.join(repo.root, PRE_COMMIT_CONFIG)) configs.push([named, "pre-commit"]);
  for (const [file, kind] of configs) {
    const text = file === null ? null : readText(file);
    if (file === null || text === null || !text.includes(BLOCK_MARK)) continue;
    const result = removeMarked(text, kind);
    if (!result.ok) plan.steps.push({ kind: "manual", file, reason: result.reason, lines: [`take out the lines below each "${BLOCK_MARK}"`] });
    else if (result.text !== text) plan.steps.push({ kind: "edit", file, before: text, after: result.text });
  }
  return plan;
}
