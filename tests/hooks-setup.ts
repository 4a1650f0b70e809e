import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { CLI, PROJECT_ROOT, tempDir } from "./helpers.js";
import { installedOnce } from "./npm-cache.js";

// What the hooks tests share: temporary repositories with a bare remote, the tool linked where
// an installed package puts it, and the hook managers from npm in a cache folder (installed with
// their install scripts held back, never as a dependency of this project).

const MANAGERS_SPEC = path.join(PROJECT_ROOT, "tests", "hook-managers");
const MANAGERS_CACHE = path.join(PROJECT_ROOT, "node_modules", ".cache", "clear-hook-managers");

export interface Managers {
  husky: string[];
  lefthook: string[];
}

/** husky and lefthook at the exact versions tests/hook-managers names, installed once. */
export function hookManagers(): Managers {
  // npm ci cannot take a lock file here: some of these name an optional package the registry lacks.
  installedOnce(path.join(MANAGERS_SPEC, "package.json"), MANAGERS_CACHE);
  const modules = path.join(MANAGERS_CACHE, "node_modules");
  return { husky: [process.execPath, path.join(modules, "husky", "bin.js")], lefthook: [process.execPath, path.join(modules, "lefthook", "bin", "index.js")] };
}

export const PRE_COMMIT_PRESENT = spawnSync("pre-commit", ["--version"], { encoding: "utf8" }).status === 0;
export const PRE_COMMIT_SKIP_REASON = "the pre-commit framework is not installed (apt-get install pre-commit; .ci/run installs it where it can)";

export interface Ran {
  code: number;
  out: string;
}

export function run(cwd: string, argv: string[], env: Record<string, string> = {}): Ran {
  const r = spawnSync(argv[0]!, argv.slice(1), { cwd, encoding: "utf8", env: { ...process.env, ...env } });
  return { code: r.status ?? -1, out: `${r.stdout}${r.stderr}` };
}

export const git = (cwd: string, ...args: string[]): Ran => run(cwd, ["git", ...args]);

/** The tool where `npm i -D fixture-clear` puts it, so the committed hooks find it. */
export function linkTool(root: string): void {
  mkdirSync(path.join(root, "node_modules", ".bin"), { recursive: true });
  symlinkSync(CLI, path.join(root, "node_modules", ".bin", "fixture-clear"));
}

/** A repository with one commit on main, pushed to a bare remote `origin` that tracks it. */
export function repoWithRemote(prefix: string, options: { tool?: boolean } = {}): string {
  const root = tempDir(prefix);
  const remote = tempDir(`${prefix}remote-`);
  execFileSync("git", ["init", "-q", "--bare", "-b", "main"], { cwd: remote });
  execFileSync("git", ["init", "-q", "-b", "main"], { cwd: root });
  git(root, "config", "user.email", "t@example.invalid");
  git(root, "config", "user.name", "t");
  writeFileSync(path.join(root, ".gitignore"), "node_modules/\n/captures-inbox/*\n");
  writeFileSync(path.join(root, "README.md"), "a repository\n");
  git(root, "add", ".");
  git(root, "commit", "-qm", "init", "--no-verify");
  git(root, "remote", "add", "origin", remote);
  git(root, "push", "-q", "--no-verify", "-u", "origin", "main");
  if (options.tool !== false) linkTool(root);
  return root;
}

/** Clears the example sitting into fixtures and a batch awaiting ACCEPT, staged. */
export function stageUnacceptedFixtures(root: string): void {
  cpSync(path.join(PROJECT_ROOT, "examples", "sitting"), path.join(root, "captures-inbox"), { recursive: true });
  const r = run(root, [process.execPath, CLI, "run"]);
  if (r.code !== 0) throw new Error(`clear run failed:\n${r.out}`);
  git(root, "add", "fixtures", "CLEARANCE.md");
}

/** An unaccepted fixture staged: the commit refused by the gate; committed past it, the push refused. */
export function expectRefusedAtCommitAndPush(root: string): void {
  stageUnacceptedFixtures(root);
  const refused = git(root, "commit", "-qm", "fixtures");
  expect(refused.code, refused.out).toBe(1);
  expect(refused.out).toContain("clear gate: this commit is refused");
  expect(git(root, "commit", "-qm", "skipped", "--no-verify").code).toBe(0);
  const pushed = git(root, "push", "origin", "main");
  expect(pushed.code, pushed.out).not.toBe(0);
  expect(pushed.out).toContain("clear gate: 1 commit to push refused");
}

export function commitDocs(root: string, text: string): Ran {
  writeFileSync(path.join(root, "NOTES.md"), text);
  git(root, "add", "NOTES.md");
  return git(root, "commit", "-qm", "notes");
}

export function clearTool(root: string, ...args: string[]): Ran {
  return run(root, [process.execPath, CLI, ...args]);
}
