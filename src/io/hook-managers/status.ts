import { accessSync, constants, existsSync } from "node:fs";
import path from "node:path";
import { BLOCK_MARK } from "./blocks.js";
import { HOOKS_PATH_EMPTY, huskyDirOf, huskyFolder, installedIn, LEFTHOOK_SIGN, PRE_COMMIT_SIGN, lefthookConfig, lefthookConfigs, lefthookLocalConfigs, PRE_COMMIT_CONFIG, preCommitConfigNamed, readText, type Repo } from "./detect.js";
import { INSTALL_YES, isIntact, isOurs, keptHooks, LEGACY_HOOK, legacyTakenAdvice, ownNameNote, readsOwnName } from "./plain.js";
import { lstatOrNull } from "../repo.js";
import { gateScript, HOOKS, recordedInstall, WRAPPER_DIR, type HookName } from "./shell.js";
import { callLine, callLineReach, preCommitInstall, wrapperFile } from "./wiring.js";
import { blockedWhy, GATE_ENVIRONMENT, HUSKY_HELPER } from "./reach.js";
import { LEFTHOOK_SCRIPT, lefthookEntry, yamlObject, preCommitHook, PRE_COMMIT_ID } from "./yaml-edit.js";
import { gateInputOff, huskyOff, lefthookOff, preCommitOff, type Env } from "./switches.js";

// What git will actually run for each hook, followed through the manager to the gate: the
// file git starts, what that file hands on to, and whether the gate is at the end of it.

export interface HookState {
  hook: HookName;
  reaches: boolean;
  says: string[];
  /**
   * Why the gate is not reached yet where nothing bypasses it: git runs no such hook until the
   * manager installs its own, or the package is not installed, so the gate's script refuses what it
   * cannot check.
   */
  waits?: "manager" | "package";
}

const AGAIN = "run clear hooks install";

function rel(repo: Repo, file: string): string {
  const r = path.relative(repo.root, file);
  return r.startsWith("..") || path.isAbsolute(r) ? file : r;
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

const yes = (hook: HookName, ...says: string[]): HookState => ({ hook, reaches: true, says });
const no = (hook: HookName, ...says: string[]): HookState => ({ hook, reaches: false, says });

/** The committed script at the end of the chain: there, as written, and the tool it runs installed. */
function wrapperState(repo: Repo, hook: HookName, file: string, via: string): HookState {
  const shown = rel(repo, file);
  const text = readText(file);
  if (text === null) return no(hook, `${via}, which runs ${shown}: it does not exist; ${AGAIN}`);
  if (text !== gateScript(hook)) return no(hook, `${via}, which runs ${shown}: it was changed since this tool wrote it; ${AGAIN}`);
  if (!existsSync(path.join(repo.root, "node_modules", ".bin", "fixture-clear"))) {
    const missing = "fixture-clear is not installed in this repository, so it refuses anything that could hold a capture unchecked";
    return { ...no(hook, `${via}, which runs ${shown}; ${missing} (npm install --save-dev fixture-clear)`), waits: "package" };
  }
  return yes(hook, `${via}, which runs ${shown}: the gate runs`);
}

/** A shell hook the user owns (husky's, a hand-set folder's): does it certainly reach the gate's line? `runsItself`: git starts the file, so its first line says what reads it. */
function shellFileState(repo: Repo, hook: HookName, file: string, via: string, runsItself: boolean): HookState {
  const reach = callLineReach(readText(file) ?? "", hook, runsItself);
  if (reach.kind === "absent") return no(hook, `${via}: it does not run the gate (no line "${callLine(hook)}" of its own); ${AGAIN}`);
  if (reach.kind === "not-shell") return no(hook, `${via}: its first line has another program than sh read it, and the gate's line is shell; run the gate from a shell hook`);
  if (reach.kind === "blocked") {
    const why = reach.changes ? `${blockedWhy(reach, "the gate's line")}, so it does not reliably reach the gate` : blockedWhy(reach, `the gate's line ${reach.gate}`);
    return no(hook, `${via}: its line ${reach.line} ${why}; move the gate's lines above line ${reach.line}`);
  }
  return wrapperState(repo, hook, path.join(repo.root, WRAPPER_DIR, hook), via);
}

/** A condition set (skip, only) that can keep lefthook from running what it is set on. */
const conditioned = (on: Record<string, unknown>): boolean => (on.skip !== undefined && on.skip !== false) || on.only !== undefined;

/** A config's list of words, as lefthook reads a list or a string of them (tags: [a, b], or "a b"). */
function wordsOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  return typeof value === "string" ? value.split(/[\s,]+/).filter(Boolean) : [];
}

const record = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;

/** The jobs of a lefthook hook or group that take standard input (use_stdin: true), groups' own jobs too. */
function stdinJobs(jobs: unknown): string[] {
  if (!Array.isArray(jobs)) return [];
  return jobs.flatMap((job) => {
    const one = record(job);
    const own = one?.use_stdin === true ? [String(one.name ?? one.run ?? one.script ?? "a job")] : [];
    return [...own, ...stdinJobs(record(one?.group)?.jobs)];
  });
}

/**
 * At pre-push, the hook's other commands, scripts and jobs that take standard input: lefthook hands
 * it to one of them alone, which may not be the gate's script, in any config it merges.
 */
function stdinRivals(layers: Record<string, unknown>[], hook: HookName): string[] {
  const names = new Set<string>();
  for (const section of layers.map((l) => record(l[hook]))) {
    for (const kind of ["commands", "scripts"]) {
      for (const [name, step] of Object.entries(record(section?.[kind]) ?? {})) if (name !== LEFTHOOK_SCRIPT && record(step)?.use_stdin === true) names.add(name);
    }
    for (const name of stdinJobs(section?.jobs)) names.add(name);
  }
  return [...names];
}

/**
 * A lefthook setting, merged from every config, that keeps the gate's script from running or
 * changes what it runs: exclude_tags naming it or one of its tags, an `rc` file sourced first, a
 * `lefthook` that replaces the program the hooks run, or an `env` of its own setting a variable the gate depends on (GATE_ENVIRONMENT).
 */
function lefthookSettingInTheWay(layers: Record<string, unknown>[], section: Record<string, unknown>, entry: Record<string, unknown>): string | null {
  const excluded = wordsOf(section.exclude_tags);
  const tagged = [LEFTHOOK_SCRIPT, ...wordsOf(entry.tags)].filter((t) => excluded.includes(t));
  if (tagged.length > 0) return `exclude_tags names ${tagged.join(", ")}, so lefthook skips clear-gate.sh`;
  if (layers.some((l) => l.rc !== undefined)) return "an rc file, which lefthook sources before the gate and may change what it runs, is set";
  if (layers.some((l) => l.lefthook !== undefined)) return "a lefthook setting names another program for the hooks to run than lefthook";
  const own = entry.env !== null && typeof entry.env === "object" ? Object.keys(entry.env) : [];
  const changed = own.filter((name) => GATE_ENVIRONMENT.test(name));
  if (changed.length > 0) return `clear-gate.sh's env sets ${changed.join(", ")}, which changes what the gate runs or reads`;
  return null;
}

/** lefthook reads one main config and one local one, the first it finds of each, and ignores the rest: which one, its documentation leaves open. */
function lefthookUnsettled(repo: Repo): string | null {
  for (const found of [lefthookConfigs(repo.root), lefthookLocalConfigs(repo.root)]) {
    const shown = found.map((f) => rel(repo, f));
    if (shown.length > 1) return `lefthook reads only one of ${shown.join(", ")}, and which is not settled (lefthook 2 takes ${shown[0]}); keep one of them`;
  }
  return null;
}

function lefthookState(repo: Repo, hook: HookName, via: string, env: Env): HookState {
  const config = lefthookConfig(repo.root);
  const js = config === null ? null : yamlObject(readText(config) ?? "");
  // lefthook merges each developer's local config over the shared one: what it says wins.
  const locals = lefthookLocalConfigs(repo.root);
  const localJs = locals.map((file) => (/\.ya?ml$/.test(file) ? yamlObject(readText(file) ?? "") : null));
  const unread = locals.find((_, i) => localJs[i] === null);
  if (unread !== undefined) return no(hook, `${via} (lefthook): ${rel(repo, unread)} is merged over the shared config and could not be read here; make it YAML, or take it out`);
  const layers = [js, ...localJs].filter((l): l is Record<string, unknown> => l !== null);
  const entry: Record<string, unknown> = Object.assign({}, ...layers.map((l) => lefthookEntry(l, hook) ?? {}));
  const section: Record<string, unknown> = Object.assign({}, ...layers.map((l) => (typeof l[hook] === "object" && l[hook] !== null ? l[hook] : {})));
  const unsettled = lefthookUnsettled(repo);
  if (unsettled !== null) return no(hook, `${via} (lefthook): ${unsettled}`);
  if (config !== null && js === null) {
    return no(hook, `${via} (lefthook): ${rel(repo, config)} is not YAML this tool can read, so whether lefthook runs the gate is not known here; make it YAML, then ${AGAIN}`);
  }
  if (config === null || js === null || lefthookEntry(js, hook) === undefined || (entry.runner !== "sh" && entry.runner !== "bash")) {
    const where = config === null ? "no lefthook config" : rel(repo, config);
    return no(hook, `${via} (lefthook): ${where} has no ${hook} script clear-gate.sh run by sh; ${AGAIN}`);
  }
  const sources = [config, ...locals].map((f) => rel(repo, f)).join(", ");
  if (conditioned(entry) || conditioned(section)) return no(hook, `${via} (lefthook): a skip or only condition set on clear-gate.sh or on ${hook} in ${sources} can keep lefthook from running the gate; take it out`);
  const off = lefthookOff(env, [LEFTHOOK_SCRIPT, ...wordsOf(entry.tags)]);
  if (off !== null) return no(hook, `${via} (lefthook): ${off}`);
  const rivals = hook === "pre-push" ? stdinRivals(layers, hook) : [];
  if (rivals.length > 0) return no(hook, `${via} (lefthook): ${rivals.join(", ")} on ${hook} in ${sources} also take standard input (use_stdin: true), which lefthook hands to one of them alone, so the gate may get none of the refs pushed; take use_stdin out of them`);
  const inTheWay = lefthookSettingInTheWay(layers, section, entry);
  if (inTheWay !== null) return no(hook, `${via} (lefthook): ${inTheWay} in ${sources}; take it out`);
  if (layers.some((l, i) => l.extends !== undefined || l.remotes !== undefined || (i > 0 && l.source_dir !== undefined))) {
    return no(hook, `${via} (lefthook): ${sources} takes in other configs or moves the scripts' folder (extends, remotes, a local source_dir), which this tool does not follow`);
  }
  const state = wrapperState(repo, hook, wrapperFile(repo, { kind: "lefthook", place: config }, hook), `${via} (lefthook, ${rel(repo, config)})`);
  if (hook === "pre-push" && entry.use_stdin !== true) {
    state.says.push("  without use_stdin: true lefthook hands it no refs, so it checks every local ref");
  }
  return state;
}

function preCommitState(repo: Repo, hook: HookName, file: string, via: string, env: Env): HookState {
  // The config the installed hook names (pre-commit install -c), which need not be the default one.
  const named = preCommitConfigNamed(readText(file) ?? "");
  if (named === null) return no(hook, `${via} (the pre-commit framework): which config it reads cannot be told from it (no one --config= in its ARGS line); reinstall it: ${preCommitInstall([hook])}`);
  const config = path.resolve(repo.root, named);
  const shownConfig = rel(repo, config);
  const js = yamlObject(readText(config) ?? "");
  const entry = js === null ? undefined : preCommitHook(js, hook);
  const stages = Array.isArray(entry?.stages) ? (entry!.stages as unknown[]).map(String) : [];
  const stageOk = stages.includes(hook) || stages.includes(hook.slice(4));
  const legacy = readText(`${file}.legacy`);
  if (entry === undefined && isOurs(legacy)) {
    const state = plainState(repo, hook, `${file}.legacy`, legacy!, `${via} (the pre-commit framework), which runs ${hook}.legacy in migration mode`);
    state.says.push(`  ${AGAIN} to wire the gate into ${shownConfig} instead`);
    return state;
  }
  if (entry === undefined || !stageOk || entry.entry !== `sh ${WRAPPER_DIR}/${hook}` || entry.always_run !== true || entry.pass_filenames !== false) {
    return no(hook, `${via} (the pre-commit framework): ${shownConfig} has no ${hook} stage hook that runs ${WRAPPER_DIR}/${hook} always; ${AGAIN}`);
  }
  const skipped = preCommitOff(env, PRE_COMMIT_ID[hook]);
  if (skipped !== null) return no(hook, `${via} (the pre-commit framework, ${shownConfig}): ${skipped}`);
  const state = wrapperState(repo, hook, path.join(repo.root, WRAPPER_DIR, hook), `${via} (the pre-commit framework, ${shownConfig})`);
  if (hook === LEGACY_HOOK) return withLegacyGate(repo, state, `${file}.legacy`, legacy);
  if (isOurs(legacy)) state.says.push(`  it also runs ${hook}.legacy, this tool's earlier hook, a second time; ${AGAIN} to take it out`);
  return state;
}

/**
 * pre-push under the pre-commit framework: its own code runs no hook at a push whose commits every
 * remote-tracking ref holds (a tag, notes), but runs <hook>.legacy first, always. Only with the gate there is every push checked.
 */
function withLegacyGate(repo: Repo, state: HookState, file: string, text: string | null): HookState {
  const shown = rel(repo, file);
  const unchecked = "without the gate there, a push of a tag or of notes runs no hook of the pre-commit framework and goes unchecked";
  if (lstatOrNull(file) === null) return no(state.hook, ...state.says, `  ${shown}, which the pre-commit framework runs first, is not there: ${unchecked}; ${INSTALL_YES}`);
  if (!isOurs(text) || lstatOrNull(file)!.isSymbolicLink()) {
    return no(state.hook, ...state.says, `  ${shown}, which the pre-commit framework runs first, is a hook this tool did not write: ${unchecked}; ${legacyTakenAdvice()}`);
  }
  if (!executable(file)) return no(state.hook, ...state.says, `  the pre-commit framework skips ${shown}: it is not executable; ${unchecked}; ${INSTALL_YES}`);
  const legacy = plainState(repo, state.hook, file, text!, `  the pre-commit framework runs ${shown} first`);
  if (!legacy.reaches) return no(state.hook, ...state.says, ...legacy.says);
  return { ...state, says: [...state.says, ...legacy.says] };
}

function plainState(repo: Repo, hook: HookName, file: string, text: string, via: string): HookState {
  const kept = keptHooks(path.dirname(file), hook);
  const recorded = recordedInstall(text);
  if (recorded === undefined || !isIntact(text, hook, path.dirname(file))) {
    return no(hook, `${via}, this tool's hook changed since it was written (by hand, or by an older version of this tool); ${AGAIN}, which keeps it as ${hook}.clear-changed and writes the gate again`);
  }
  if (!existsSync(path.join(repo.root, "node_modules", ".bin", "fixture-clear")) && !existsSync(recorded.cli)) {
    return no(hook, `${via}, this tool's hook; neither this repository's fixture-clear nor the one that wrote it is there; ${AGAIN}`);
  }
  const keptSays = (k: string): string => `  it runs ${k} first, the hook that was there before${readsOwnName(readText(path.join(path.dirname(file), k))) ? `; it ${ownNameNote(k)}` : ""}`;
  const says = [`${via}, this tool's hook: the gate runs`, ...kept.map(keptSays)];
  return yes(hook, ...says);
}

/** What installs a hook git has none of: the pre-commit framework's install of that hook type where it runs the other. */
function missingHookToDo(repo: Repo, hook: HookName): string {
  if (installedIn(repo.hooksDir, PRE_COMMIT_SIGN) && existsSync(path.join(repo.root, PRE_COMMIT_CONFIG))) return `the pre-commit framework installs it with: ${preCommitInstall([hook])}`;
  return `install the hook manager's hooks, or ${AGAIN}`;
}

/** A manager's switch, set where status runs, that keeps it from the gate: the hook does not reach it, whatever else is said of it. */
function switchedOff(state: HookState, via: string, off: string | null): HookState {
  return off === null ? state : no(state.hook, `${via}: ${off}`, ...(state.reaches ? [] : state.says));
}

/** `env`: the environment a commit or push would run in, as far as status can tell: its own. */
export function hookState(repo: Repo, hook: HookName, env: Env = process.env): HookState {
  const state = managedState(repo, hook, env);
  const file = path.join(repo.hooksDir, hook);
  // Under the pre-commit framework it sets PRE_COMMIT itself; anywhere else, set, it keeps the gate from git's refs.
  if (PRE_COMMIT_SIGN.test(readText(file) ?? "")) return state;
  return switchedOff(state, `git runs ${rel(repo, file)}`, gateInputOff(env, hook));
}

function managedState(repo: Repo, hook: HookName, env: Env): HookState {
  if (repo.hooksPath === "") return no(hook, HOOKS_PATH_EMPTY);
  const file = path.join(repo.hooksDir, hook);
  const via = `git runs ${rel(repo, file)}`;
  const text = readText(file);
  if (text === null) return { ...no(hook, `git runs no ${hook} hook: ${rel(repo, file)} does not exist (${missingHookToDo(repo, hook)})`), waits: "manager" };
  if (!executable(file)) return no(hook, `git skips ${rel(repo, file)}: it is not executable (chmod +x it, if it is to run)`);
  if (isOurs(text)) return plainState(repo, hook, file, text, via);
  const husky = huskyDirOf(repo.hooksDir);
  if (husky !== null) {
    const own = shellFileState(repo, hook, path.join(husky, hook), `${via} (husky), which runs ${rel(repo, path.join(husky, hook))}`, false);
    return switchedOff(own, `${via} (husky)`, huskyOff(env, hook, "h"));
  }
  if (LEFTHOOK_SIGN.test(text)) return lefthookState(repo, hook, via, env);
  if (PRE_COMMIT_SIGN.test(text)) return preCommitState(repo, hook, file, via, env);
  const own = shellFileState(repo, hook, file, `${via}, a hook this tool did not write`, true);
  // husky 5 to 8: the hook's first line sources husky's helper, which reads HUSKY and ~/.huskyrc.
  return text.split("\n").some((l) => HUSKY_HELPER.test(l)) ? switchedOff(own, via, huskyOff(env, hook, "husky.sh")) : own;
}

/** Managers configured in the tree whose hooks git does not run (yet). */
export function idleManagers(repo: Repo, states: HookState[]): string[] {
  const said = states.flatMap((s) => s.says).join("\n");
  const notes: string[] = [];
  const lefthook = lefthookConfig(repo.root);
  if (lefthook !== null && !said.includes("(lefthook")) notes.push(`${rel(repo, lefthook)} is here, but git does not run lefthook: npx lefthook install`);
  if (existsSync(path.join(repo.root, PRE_COMMIT_CONFIG)) && !said.includes("pre-commit framework")) {
    notes.push(`${PRE_COMMIT_CONFIG} is here, but git does not run it: pre-commit install`);
  }
  const husky = huskyFolder(repo.root);
  if (existsSync(path.join(repo.root, husky)) && !said.includes("(husky)")) {
    notes.push(`${husky}/ is here, but git does not run husky: npx husky${husky === ".husky" ? "" : ` ${husky}`} (npm install runs it through prepare)`);
  }
  const marked = HOOKS.some((h) => (readText(path.join(repo.root, husky, h)) ?? "").includes(BLOCK_MARK));
  if (marked && !said.includes("(husky)")) notes.push(`  the gate's lines in ${husky}/ run once husky is installed`);
  return notes;
}
