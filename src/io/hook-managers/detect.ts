import { existsSync, readFileSync, statSync, type Stats } from "node:fs";
import path from "node:path";
import { UsageError } from "../../errors.js";
import { git } from "../git.js";
import { HOOKS } from "./shell.js";

// Which hook manager a repository uses: the one whose hooks git runs, else the one configured
// in the tree (a fresh clone, where its install has not run yet), else none.

export type ManagerKind = "husky" | "lefthook" | "pre-commit" | "hooks-path" | "plain";
export const MANAGER_KINDS: ManagerKind[] = ["husky", "lefthook", "pre-commit", "hooks-path", "plain"];

export interface Repo {
  root: string;
  /** The folder git runs hooks from (core.hooksPath, or the repository's own hooks folder). */
  hooksDir: string;
  /** The repository's own hooks folder, whatever core.hooksPath says. */
  ownHooksDir: string;
  hooksPath: string | null;
}

export interface Manager {
  kind: ManagerKind;
  /** husky: its folder; hooks-path: the folder; lefthook, pre-commit: the config file; plain: git's hooks folder. */
  place: string;
}

// lefthook also reads its config as TOML or JSON: such a repository uses lefthook all the same, though this tool edits only YAML.
// In the order lefthook 2 looks for them, each extension in turn; it reads the first it finds, and no other.
const LEFTHOOK_CONFIGS = ["yml", "yaml", "json", "jsonc", "toml"].flatMap((ext) => ["lefthook", ".lefthook", ".config/lefthook"].map((name) => `${name}.${ext}`));
export const PRE_COMMIT_CONFIG = ".pre-commit-config.yaml";

export const HOOKS_PATH_EMPTY = "core.hooksPath is set to an empty value, so git runs no hook of this repository; unset it (git config --unset core.hooksPath), then run clear hooks install";

export function repoOf(root: string): Repo {
  let hooksPath: string | null = null;
  try {
    // Set to an empty value, it is still set: git then runs no hook of this repository at all.
    hooksPath = git(["config", "core.hooksPath"], root).toString("utf8").trim();
  } catch {
    hooksPath = null;
  }
  const hooksDir = path.resolve(root, git(["rev-parse", "--git-path", "hooks"], root).toString("utf8").trim());
  const common = path.resolve(root, git(["rev-parse", "--git-common-dir"], root).toString("utf8").trim());
  const ownHooksDir = path.join(common, "hooks");
  // core.hooksPath naming the repository's own hooks folder (in any spelling) changes nothing git does: it reads as unset.
  if (hooksPath !== null && hooksPath !== "" && sameFolder(hooksDir, ownHooksDir)) hooksPath = null;
  return { root, hooksDir, ownHooksDir, hooksPath };
}

/** Whether two paths name one folder: the same file where both exist, else the same name in the same parent. */
function sameFolder(a: string, b: string): boolean {
  if (a === b) return true;
  const [sa, sb] = [statOrNull(a), statOrNull(b)];
  if (sa !== null || sb !== null) return sa !== null && sb !== null && sa.dev === sb.dev && sa.ino === sb.ino;
  return path.dirname(a) !== a && path.basename(a) === path.basename(b) && sameFolder(path.dirname(a), path.dirname(b));
}

function statOrNull(file: string): Stats | null {
  try {
    return statSync(file);
  } catch {
    return null;
  }
}

export function readText(file: string): string | null {
  try {
    return statSync(file).isFile() ? readFileSync(file, "utf8") : null;
  } catch {
    return null;
  }
}

/** lefthook's per-developer configs, the first of which it merges over the shared one, in the order it looks for them (it reads more formats than YAML). */
const LEFTHOOK_LOCAL_CONFIGS = ["yml", "yaml", "json", "jsonc", "toml"].flatMap((ext) => ["lefthook-local", ".lefthook-local", ".config/lefthook-local"].map((name) => `${name}.${ext}`));

export function lefthookLocalConfigs(root: string): string[] {
  return LEFTHOOK_LOCAL_CONFIGS.map((f) => path.join(root, f)).filter((f) => existsSync(f));
}

/** Every main lefthook config there, the one lefthook 2 reads first. */
export function lefthookConfigs(root: string): string[] {
  return LEFTHOOK_CONFIGS.map((f) => path.join(root, f)).filter((f) => existsSync(f));
}

export function lefthookConfig(root: string): string | null {
  return lefthookConfigs(root)[0] ?? null;
}

/** husky's generated folder (`<dir>/_`, whose helper `h` runs `<dir>/<hook>`). */
export function huskyDirOf(hooksDir: string): string | null {
  return path.basename(hooksDir) === "_" && existsSync(path.join(hooksDir, "h")) ? path.dirname(hooksDir) : null;
}

/**
 * husky's folder where core.hooksPath names its generated `<dir>/_` and that is not there (a new
 * worktree, a git clean -X): git runs no hook until husky makes it again, and writes nothing into it.
 */
function huskyUngenerated(hooksDir: string): string | null {
  const dir = path.dirname(hooksDir);
  if (path.basename(hooksDir) !== "_" || existsSync(hooksDir) || !existsSync(dir)) return null;
  return path.basename(dir) === ".husky" || HOOKS.some((h) => existsSync(path.join(dir, h))) ? dir : null;
}

function huskyConfigured(root: string): boolean {
  if (existsSync(path.join(root, ".husky"))) return true;
  const pkg = readText(path.join(root, "package.json"));
  return pkg !== null && /"prepare"\s*:\s*"[^"]*\bhusky\b/.test(pkg);
}

/** The words of package.json's prepare script, or null where there is none to read. */
function prepareScript(root: string): string | null {
  try {
    const pkg = JSON.parse(readText(path.join(root, "package.json")) ?? "null") as { scripts?: { prepare?: unknown } } | null;
    return typeof pkg?.scripts?.prepare === "string" ? pkg.scripts.prepare : null;
  } catch {
    return null;
  }
}

/**
 * The folder husky keeps its hooks in, relative to the root: the one its command in `prepare` names
 * (husky 9: `husky [dir]`; `husky install` takes none), else `.husky`, the one it makes by default.
 */
export function huskyFolder(root: string): string {
  for (const command of (prepareScript(root) ?? "").split(/&&|\|\||;|\||(?<![<>])&/)) {
    // A redirection (>/dev/null, 2>&1, "> log") is the shell's, not an argument of husky's.
    const words = command.trim().replace(/\d*[<>]+&?\s*\S+/g, " ").split(/\s+/).filter(Boolean);
    const at = words.findIndex((w) => w === "husky" || w.endsWith("/husky"));
    if (at === -1) continue;
    // husky 9 takes the folder first (husky .config/husky); husky 8 after install (husky install .config/husky).
    const dir = words[at + 1] === "install" ? words[at + 2] : words[at + 1] === "init" ? undefined : words[at + 1];
    return dir === undefined ? ".husky" : inRepositoryFolder(dir);
  }
  return ".husky";
}

/**
 * A folder package.json's prepare script names for husky, as written: one below the repository,
 * never one that climbs out of it or starts at the root (a committed package.json would have
 * install write hooks elsewhere on the machine), nor one built of quotes or variables.
 */
function inRepositoryFolder(dir: string): string {
  const plain = dir.replace(/\/+$/, "");
  const parts = plain.split("/");
  if (plain === "" || path.isAbsolute(plain) || parts.some((p) => p === ".." || p === "") || !/^[A-Za-z0-9._/-]+$/.test(plain) || plain.startsWith("-")) {
    throw new UsageError("package.json's prepare script names a folder for husky that is not a plain folder below the repository; name one below it (husky .husky)");
  }
  return parts.filter((p) => p !== ".").join("/") || ".husky";
}

/** What a hook script lefthook or the pre-commit framework installed holds. */
export const LEFTHOOK_SIGN = /call_lefthook/;
export const PRE_COMMIT_SIGN = /File generated by pre-commit|hook-impl/;
const SIGNS: Partial<Record<ManagerKind, RegExp>> = { lefthook: LEFTHOOK_SIGN, "pre-commit": PRE_COMMIT_SIGN };

/** A word of the ARGS line pre-commit writes: bare, or in single quotes (Python's shlex.quote), in pieces. */
const SHLEX_WORD = /(?:[^\s'"\\$`()]+|'[^']*')+/g;

/**
 * The config a hook script of the pre-commit framework reads (`pre-commit install -c FILE` writes
 * `--config=FILE` in its ARGS line), relative to the root; null where that cannot be read from it.
 */
export function preCommitConfigNamed(script: string): string | null {
  const args = /^ARGS=\((.*)\)$/m.exec(script)?.[1];
  if (args === undefined || args.replace(SHLEX_WORD, "").trim() !== "") return null;
  const configs = (args.match(SHLEX_WORD) ?? []).map((w) => w.replace(/'([^']*)'/g, "$1")).filter((w) => w.startsWith("--config="));
  return configs.length === 1 ? configs[0]!.slice("--config=".length) : null;
}

/** The config the pre-commit framework's installed hooks read, where one is installed and names one; else the default. */
export function preCommitConfigOf(repo: Repo): string {
  for (const hook of HOOKS) {
    const script = readText(path.join(repo.hooksDir, hook)) ?? "";
    const named = PRE_COMMIT_SIGN.test(script) ? preCommitConfigNamed(script) : null;
    if (named !== null) return path.resolve(repo.root, named);
  }
  return path.join(repo.root, PRE_COMMIT_CONFIG);
}

/** Whether some hook script in a folder bears a manager's sign. */
export function installedIn(dir: string, sign: RegExp): boolean {
  return HOOKS.some((h) => sign.test(readText(path.join(dir, h)) ?? ""));
}

/** The manager whose script git runs for some hook in the repository's own hooks folder. */
function installedInOwnDir(repo: Repo): ManagerKind | null {
  for (const hook of HOOKS) {
    const text = readText(path.join(repo.ownHooksDir, hook)) ?? "";
    if (LEFTHOOK_SIGN.test(text)) return "lefthook";
    if (PRE_COMMIT_SIGN.test(text)) return "pre-commit";
  }
  return null;
}

function managerOf(repo: Repo, kind: ManagerKind): Manager {
  const { root } = repo;
  if (kind === "lefthook") return { kind, place: lefthookConfig(root) ?? path.join(root, "lefthook.yml") };
  if (kind === "pre-commit") return { kind, place: preCommitConfigOf(repo) };
  if (kind === "husky") return { kind, place: huskyDirOf(repo.hooksDir) ?? huskyUngenerated(repo.hooksDir) ?? path.resolve(root, huskyFolder(root)) };
  if (kind === "hooks-path") return { kind, place: repo.hooksDir };
  return { kind, place: repo.ownHooksDir };
}

/** The manager to wire the gate into; `chosen` (from --manager) wins. */
export function detectManager(repo: Repo, chosen?: ManagerKind): Manager {
  if (repo.hooksPath === "") throw new UsageError(HOOKS_PATH_EMPTY);
  if (chosen !== undefined) return managerOf(repo, chosen);
  if (repo.hooksPath !== null) {
    const husky = huskyDirOf(repo.hooksDir) ?? huskyUngenerated(repo.hooksDir);
    return managerOf(repo, husky !== null ? "husky" : "hooks-path");
  }
  const configured: ManagerKind[] = [];
  if (lefthookConfig(repo.root) !== null) configured.push("lefthook");
  if (existsSync(preCommitConfigOf(repo))) configured.push("pre-commit");
  if (huskyConfigured(repo.root)) configured.push("husky");
  if (configured.length === 0) return managerOf(repo, "plain");
  if (configured.length === 1) return managerOf(repo, configured[0]!);
  const running = installedInOwnDir(repo);
  if (running !== null && configured.includes(running)) return managerOf(repo, running);
  const names = configured.join(" and ");
  throw new UsageError(`this repository configures ${names}, and git runs none of them yet: say which with --manager ${configured.join("|")}`);
}

/**
 * Why git will not run what install wires for `manager` (chosen with --manager): core.hooksPath
 * sends git to another folder than the one that manager's hooks are in. Null where git may run it.
 */
export function bypassedBy(repo: Repo, manager: Manager): string | null {
  if (repo.hooksPath === null || repo.hooksPath === "" || manager.kind === "hooks-path") return null;
  if (manager.kind === "husky" && path.dirname(repo.hooksDir) === manager.place) return null;
  const sign = SIGNS[manager.kind];
  if (sign !== undefined && installedIn(repo.hooksDir, sign)) return null;
  const shown = path.relative(repo.root, repo.hooksDir);
  const dir = shown.startsWith("..") || path.isAbsolute(shown) ? repo.hooksDir : shown;
  const what = manager.kind === "plain" ? "the hooks in git's own folder" : `${manager.kind}'s hooks`;
  return `NOT RUN: core.hooksPath makes git run the hooks in ${dir}, so ${what} never run; unset it (git config --unset core.hooksPath), or run clear hooks install without --manager`;
}
