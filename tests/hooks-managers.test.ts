import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { PROJECT_ROOT, tempDir } from "./helpers.js";
import {
  clearTool, commitDocs, expectRefusedAtCommitAndPush, git, hookManagers, linkTool, PRE_COMMIT_PRESENT, PRE_COMMIT_SKIP_REASON, repoWithRemote, run, stageUnacceptedFixtures,
  type Managers, type Ran,
} from "./hooks-setup.js";

// husky 9, lefthook 2 and the pre-commit framework in temporary repositories, each wired in both
// orders (the manager's install before and after clear hooks install), the manager's own
// reinstall run afterwards, and the gate shown working through it.

let managers: Managers;
const PRE_COMMIT_HOME = tempDir("clear-pre-commit-home-");

const USER_HOOK = `echo user-hook >> "$(git rev-parse --git-dir)/user-hook.log"`;

interface ManagerCase {
  name: "husky" | "lefthook" | "pre-commit";
  /** The user's own configuration, with one hook of theirs, committed before the tool arrives. */
  configure: (root: string) => string;
  install: (root: string) => Ran;
  /** The manager's switch for skipping its hooks at one commit. */
  skipEnv: Record<string, string>;
}

const CASES: ManagerCase[] = [
  {
    name: "husky",
    configure: (root) => {
      mkdirSync(path.join(root, ".husky"));
      writeFileSync(path.join(root, ".husky", "pre-commit"), `${USER_HOOK}\n`);
      return ".husky/pre-commit";
    },
    install: (root) => run(root, managers.husky),
    skipEnv: { HUSKY: "0" },
  },
  {
    name: "lefthook",
    configure: (root) => {
      writeFileSync(path.join(root, "lefthook.yml"), `# the team's hooks\npre-commit:\n  commands:\n    user:\n      run: ${USER_HOOK}\n`);
      return "lefthook.yml";
    },
    install: (root) => run(root, [...managers.lefthook, "install"]),
    skipEnv: { LEFTHOOK: "0" },
  },
  {
    name: "pre-commit",
    configure: (root) => {
      const hook = ["- id: user-hook", "  name: user hook", `  entry: sh -c '${USER_HOOK}'`, "  language: system"];
      hook.push("  pass_filenames: false", "  always_run: true");
      const text = `repos:\n  - repo: local\n    hooks:\n${hook.map((l) => `      ${l}\n`).join("")}`;
      writeFileSync(path.join(root, ".pre-commit-config.yaml"), text);
      return ".pre-commit-config.yaml";
    },
    install: (root) => run(root, ["pre-commit", "install"], { PRE_COMMIT_HOME }),
    skipEnv: { SKIP: "clear-gate-pre-commit" },
  },
];

function env(root: string, ...args: string[]): Ran {
  return run(root, ["git", ...args], { PRE_COMMIT_HOME });
}

function userHookRuns(root: string): number {
  const log = path.join(root, ".git", "user-hook.log");
  return existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean).length : 0;
}

function wire(root: string, c: ManagerCase, order: "manager first" | "clear first"): string {
  const configFile = c.configure(root);
  git(root, "add", "-A");
  git(root, "commit", "-qm", "the team's hooks", "--no-verify");
  const original = readFileSync(path.join(root, configFile), "utf8");
  if (order === "manager first") expect(c.install(root).code).toBe(0);
  const shown = clearTool(root, "hooks", "install");
  expect(shown.code, shown.out).toBe(1);
  expect(shown.out).toContain("run again with --yes");
  expect(readFileSync(path.join(root, configFile), "utf8")).toBe(original);
  const wired = clearTool(root, "hooks", "install", "--yes");
  expect(wired.code, wired.out).toBe(0);
  expect(wired.out).toContain(`Hook manager: ${c.name}`);
  expect(c.install(root).code).toBe(0);
  expect(c.install(root).code).toBe(0); // the manager's own reinstall keeps the wiring
  git(root, "add", "-A");
  const staged = git(root, "diff", "--cached").out;
  expect(staged).toContain("# clear: managed hook");
  for (const machinePath of [PROJECT_ROOT, process.execPath, root, os.tmpdir()]) expect(staged).not.toContain(machinePath);
  const committed = env(root, "commit", "-qm", "wire the gate");
  expect(committed.code, committed.out).toBe(0);
  expect(env(root, "push", "-q", "origin", "main").code).toBe(0);
  expect(clearTool(root, "hooks", "install", "--yes").code).toBe(0); // a second install changes nothing
  expect(git(root, "status", "--porcelain").out).toBe("");
  return original;
}

function flows(root: string, c: ManagerCase): void {
  const status = clearTool(root, "hooks", "status");
  expect(status.code, status.out).toBe(0);
  expect(status.out).not.toContain("DOES NOT");
  const before = userHookRuns(root);
  expect(commitDocs(root, "documentation only\n").code).toBe(0);
  expect(userHookRuns(root)).toBeGreaterThan(before);
  stageUnacceptedFixtures(root);
  const refused = env(root, "commit", "-qm", "fixtures, not accepted");
  expect(refused.code, refused.out).not.toBe(0);
  expect(refused.out).toContain("clear gate");
  const remoteHead = git(root, "rev-parse", "origin/main").out.trim();
  const skipped = run(root, ["git", "commit", "-qm", "skipped the hooks"], { ...c.skipEnv, PRE_COMMIT_HOME });
  expect(skipped.code, skipped.out).toBe(0);
  const pushed = env(root, "push", "origin", "main");
  expect(pushed.code, pushed.out).not.toBe(0);
  expect(pushed.out).toContain("clear gate");
  expect(git(root, "ls-remote", "origin", "refs/heads/main").out.split("\t")[0]).toBe(remoteHead);
  // Pushed from another branch while HEAD equals what the remote has: lefthook's "push files"
  // come out empty then, and a command (not a script) would be skipped.
  git(root, "branch", "side");
  git(root, "reset", "-q", "--hard", remoteHead);
  const side = env(root, "push", "origin", "side");
  expect(side.code, side.out).not.toBe(0);
  expect(git(root, "ls-remote", "origin", "refs/heads/side").out).toBe("");
}

function uninstalls(root: string, configFile: string, original: string): void {
  const out = clearTool(root, "hooks", "uninstall", "--yes");
  expect(out.code, out.out).toBe(0);
  expect(readFileSync(path.join(root, configFile), "utf8")).toBe(original);
  expect(existsSync(path.join(root, ".clear"))).toBe(false);
  expect(existsSync(path.join(root, ".lefthook"))).toBe(false);
  expect(clearTool(root, "hooks", "status").code).toBe(1);
  git(root, "add", "-A");
  const before = userHookRuns(root);
  expect(env(root, "commit", "-qm", "the gate taken out").code).toBe(0);
  expect(userHookRuns(root)).toBeGreaterThan(before); // the manager still runs the team's hook
}

/** A repository with a remote, lefthook configured and installed, and the gate wired through it (status says so). */
function wiredLefthook(prefix: string): string {
  const root = repoWithRemote(prefix);
  CASES[1]!.configure(root);
  expect(CASES[1]!.install(root).code).toBe(0);
  expect(clearTool(root, "hooks", "install", "--yes").code).toBe(0);
  expect(CASES[1]!.install(root).code).toBe(0); // its pre-push hook, now that the config has one
  expect(clearTool(root, "hooks", "status").code).toBe(0);
  return root;
}

describe("clear hooks with hook managers", () => {
  beforeAll(() => {
    managers = hookManagers();
  }, 300_000);

  for (const c of CASES) {
    for (const order of ["manager first", "clear first"] as const) {
      const skip = c.name === "pre-commit" && !PRE_COMMIT_PRESENT;
      const title = `${c.name}, ${order}: refused at commit and at push, docs allowed, status right, uninstall clean`;
      it.skipIf(skip)(`${title}${skip ? ` (skipped: ${PRE_COMMIT_SKIP_REASON})` : ""}`, () => {
        const root = repoWithRemote(`clear-${c.name}-`);
        const original = wire(root, c, order);
        flows(root, c);
        const configFile = c.name === "husky" ? ".husky/pre-commit" : c.name === "lefthook" ? "lefthook.yml" : ".pre-commit-config.yaml";
        uninstalls(root, configFile, original);
      });
    }
  }
});

describe("a hook manager arriving after clear hooks install wrote git's own hooks", () => {
  beforeAll(() => {
    managers = hookManagers();
  }, 300_000);

  it("lefthook renames the gate's hook to .old: status says the gate does not run, install again wires it into lefthook", () => {
    const root = repoWithRemote("clear-late-lefthook-");
    expect(clearTool(root, "hooks", "install").code).toBe(0);
    CASES[1]!.configure(root);
    expect(CASES[1]!.install(root).code).toBe(0);
    expect(existsSync(path.join(root, ".git", "hooks", "pre-commit.old"))).toBe(true);
    const status = clearTool(root, "hooks", "status");
    expect(status.code).toBe(1);
    expect(status.out).toContain("(lefthook)");
    expect(clearTool(root, "hooks", "install", "--yes").code).toBe(0);
    expect(existsSync(path.join(root, ".git", "hooks", "pre-commit.old"))).toBe(false);
    expect(clearTool(root, "hooks", "status").code).toBe(0);
    stageUnacceptedFixtures(root);
    expect(git(root, "commit", "-qm", "fixtures").code).not.toBe(0);
  });

  it("husky whose prepare script names its folder (husky .config/husky), before husky has run: install writes the gate into that folder, not .husky/; once husky runs, the gate does; uninstall gives the folder's hook back byte for byte", () => {
    const root = repoWithRemote("clear-husky-folder-");
    writeFileSync(path.join(root, "package.json"), `${JSON.stringify({ name: "app", scripts: { prepare: "husky .config/husky" } }, null, 2)}\n`);
    mkdirSync(path.join(root, ".config", "husky"), { recursive: true });
    const userHook = path.join(root, ".config", "husky", "pre-commit");
    writeFileSync(userHook, `${USER_HOOK}\n`);
    git(root, "add", "-A");
    git(root, "commit", "-qm", "the team's hooks", "--no-verify");
    const wired = clearTool(root, "hooks", "install", "--yes");
    expect(wired.code, wired.out).toBe(0);
    expect(wired.out).toContain(".config/husky/pre-commit: changed");
    expect(existsSync(path.join(root, ".husky"))).toBe(false);
    expect(run(root, [...managers.husky, ".config/husky"]).code).toBe(0);
    const status = clearTool(root, "hooks", "status");
    expect(status.code, status.out).toBe(0);
    git(root, "add", "-A");
    expect(git(root, "commit", "-qm", "the gate").code).toBe(0);
    expect(userHookRuns(root)).toBeGreaterThan(0);
    expectRefusedAtCommitAndPush(root);
    git(root, "reset", "-q", "--hard", "HEAD~1");
    expect(clearTool(root, "hooks", "uninstall", "--yes").code).toBe(0);
    expect(readFileSync(userHook, "utf8")).toBe(`${USER_HOOK}\n`);
  });

  it("husky whose prepare script names a folder outside the repository (../x, /etc) is refused, exit 2, nothing written; husky 8's husky install <folder> is read as that folder", () => {
    for (const prepare of ["husky ../victim/.husky", "husky /etc", "husky install ../victim/.husky", "husky $HOOKS"]) {
      const base = tempDir("clear-husky-outside-");
      const root = path.join(base, "repo");
      mkdirSync(root);
      git(root, "init", "-q");
      writeFileSync(path.join(root, "package.json"), JSON.stringify({ name: "app", scripts: { prepare } }));
      const r = clearTool(root, "hooks", "install", "--yes");
      expect(r.code, prepare).toBe(2);
      expect(r.out, prepare).toContain("not a plain folder below the repository");
      expect(readdirSync(base), prepare).toEqual(["repo"]);
    }
    // A redirection in the prepare script is the shell's, not a folder.
    for (const prepare of ["husky >/dev/null", "husky install 2>/dev/null || true", "husky 1>&2"]) {
      const quiet = repoWithRemote("clear-husky-quiet-");
      writeFileSync(path.join(quiet, "package.json"), JSON.stringify({ name: "app", scripts: { prepare } }));
      const r = clearTool(quiet, "hooks", "install", "--yes");
      expect(r.code, `${prepare}: ${r.out}`).toBe(0);
      expect(existsSync(path.join(quiet, ".husky", "pre-commit")), prepare).toBe(true);
    }
    const root = repoWithRemote("clear-husky8-folder-");
    writeFileSync(path.join(root, "package.json"), JSON.stringify({ name: "app", scripts: { prepare: "husky install .config/husky" } }));
    const wired = clearTool(root, "hooks", "install", "--yes");
    expect(wired.code, wired.out).toBe(0);
    expect(existsSync(path.join(root, ".config", "husky", "pre-commit"))).toBe(true);
    expect(existsSync(path.join(root, ".husky"))).toBe(false);
  });

  it("husky whose hook sets a variable the gate depends on above the gate's line (PATH to a committed tools/bin/sh that exits 0, another index, NODE_OPTIONS, BASH_ENV, HOME): status says the gate is not reliably reached, exit 1; a line that only reads or names one passes", () => {
    const root = repoWithRemote("clear-husky-env-");
    CASES[0]!.configure(root);
    mkdirSync(path.join(root, "tools", "bin"), { recursive: true });
    writeFileSync(path.join(root, "tools", "bin", "sh"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
    expect(CASES[0]!.install(root).code).toBe(0);
    expect(clearTool(root, "hooks", "install", "--yes").code).toBe(0);
    git(root, "add", "-A");
    expect(git(root, "commit", "-qm", "the gate").code).toBe(0);
    const hook = path.join(root, ".husky", "pre-commit");
    const wired = readFileSync(hook, "utf8");
    // Reading them, naming them in words, a name that only ends in PATH, or a variable set for one command alone changes nothing.
    writeFileSync(hook, `MYPATH=1 echo "$PATH" "\${GIT_DIR:-.git}" >/dev/null\nprintf "Running checks in PATH order\\n"\nexport NODE_ENV="test"\nNODE_OPTIONS=--max-old-space-size=4096 true # GIT_DIR\nset -eu\nexec 1>&2\n${wired}`);
    const kept = clearTool(root, "hooks", "status");
    expect(kept.code, kept.out).toBe(0);
    const lines = ['export PATH="$PWD/tools/bin:$PATH"', "export GIT_INDEX_FILE=.git/other-index", "GIT_DIR=/elsewhere", "unset GIT_INDEX_FILE", ": ${PATH:=/tmp}", "declare -x PATH=/tmp", 'v=PA""TH\nexport "$v=/tmp"', "export NODE_OPTIONS=--require=./x.js", "export BASH_ENV=./x.sh", "HOME=/tmp/h", "export LD_PRELOAD=/tmp/x.so", "printf -v PATH /tmp", "export GIT_INDEX_FILE+=.x", "declare -n p=PATH", "let x=GIT_INDEX_FILE=0", ": $[GIT_INDEX_FILE=0]", "a[GIT_DIR=1]=2", "export HUSKY=0", "shift", "set -n", "exec sh"];
    for (const line of lines) {
      writeFileSync(hook, `${line}\n${wired}`);
      const status = clearTool(root, "hooks", "status");
      expect(status.code, line).toBe(1);
      expect(status.out, line).toContain("pre-commit: DOES NOT reach the gate");
    }
    // Why: with the committed sh first on PATH, the gate's line runs it and the commit goes through.
    writeFileSync(hook, `${lines[0]}\n${wired}`);
    expect(clearTool(root, "hooks", "status").out).toContain("its line 1 sets a variable the gate depends on");
    stageUnacceptedFixtures(root);
    expect(git(root, "commit", "-qm", "fixtures").code).toBe(0);
  });

  it("husky in a new worktree, where its generated .husky/_ is not there yet: install names husky and writes nothing into .husky/_; once husky runs there, the gate does", () => {
    const root = repoWithRemote("clear-husky-worktree-");
    CASES[0]!.configure(root);
    expect(CASES[0]!.install(root).code).toBe(0);
    expect(clearTool(root, "hooks", "install", "--yes").code).toBe(0);
    git(root, "add", "-A");
    expect(git(root, "commit", "-qm", "the gate", "--no-verify").code).toBe(0);
    const tree = tempDir("clear-husky-worktree-tree-");
    expect(git(root, "worktree", "add", "-q", tree, "-b", "side").code).toBe(0);
    linkTool(tree);
    expect(existsSync(path.join(tree, ".husky", "_"))).toBe(false);
    const wired = clearTool(tree, "hooks", "install", "--yes");
    expect(wired.code, wired.out).toBe(0);
    expect(wired.out).toContain("Hook manager: husky");
    expect(wired.out).toContain("husky's hooks are not installed yet: npx husky");
    expect(existsSync(path.join(tree, ".husky", "_"))).toBe(false);
    expect(git(tree, "status", "--porcelain").out).toBe("");
    expect(clearTool(tree, "hooks", "status").code).toBe(1);
    expect(CASES[0]!.install(tree).code).toBe(0);
    const status = clearTool(tree, "hooks", "status");
    expect(status.code, status.out).toBe(0);
    expect(commitDocs(tree, "documentation only\n").code).toBe(0);
    stageUnacceptedFixtures(tree);
    const refused = git(tree, "commit", "-qm", "fixtures");
    expect(refused.code, refused.out).not.toBe(0);
    expect(refused.out).toContain("clear gate");
  });

  it.skipIf(!PRE_COMMIT_PRESENT)(`the pre-commit framework whose config installs only pre-commit: install and status name the command that installs pre-push, and after it the push is checked${PRE_COMMIT_PRESENT ? "" : ` (skipped: ${PRE_COMMIT_SKIP_REASON})`}`, () => {
    const root = repoWithRemote("clear-pre-commit-types-");
    CASES[2]!.configure(root);
    const config = path.join(root, ".pre-commit-config.yaml");
    writeFileSync(config, `default_install_hook_types: [pre-commit]\n${readFileSync(config, "utf8")}`);
    git(root, "add", "-A");
    git(root, "commit", "-qm", "the team's hooks", "--no-verify");
    expect(CASES[2]!.install(root).code).toBe(0);
    const wired = clearTool(root, "hooks", "install", "--yes");
    expect(wired.code, wired.out).toBe(0);
    const advice = /not installed its pre-push hook yet: (pre-commit install [^\n]*)/.exec(wired.out);
    expect(advice?.[1], wired.out).toBe("pre-commit install --hook-type pre-push");
    expect(CASES[2]!.install(root).code).toBe(0); // the plain reinstall the config allows installs no pre-push hook
    const before = clearTool(root, "hooks", "status");
    expect(before.code, before.out).toBe(1);
    expect(before.out).toContain("pre-commit install --hook-type pre-push");
    expect(run(root, advice![1]!.split(" "), { PRE_COMMIT_HOME }).code).toBe(0);
    git(root, "add", "-A");
    expect(env(root, "commit", "-qm", "the gate").code).toBe(0);
    const after = clearTool(root, "hooks", "status");
    expect(after.code, after.out).toBe(0);
    expect(commitDocs(root, "documentation only\n").code).toBe(0);
    stageUnacceptedFixtures(root);
    expect(env(root, "commit", "-qm", "fixtures").code).not.toBe(0);
    expect(run(root, ["git", "commit", "-qm", "skipped"], { SKIP: "clear-gate-pre-commit", PRE_COMMIT_HOME }).code).toBe(0);
    const pushed = env(root, "push", "origin", "main");
    expect(pushed.code, pushed.out).not.toBe(0);
    expect(pushed.out).toContain("clear gate");
  });

  const pushTitle = "the pre-commit framework at push: a raw capture the remote already holds stops no later push, and a branch pushed beside the one it names is still checked";
  it.skipIf(!PRE_COMMIT_PRESENT)(`${pushTitle}${PRE_COMMIT_PRESENT ? "" : ` (skipped: ${PRE_COMMIT_SKIP_REASON})`}`, () => {
    const root = repoWithRemote("clear-pre-commit-push-");
    CASES[2]!.configure(root);
    git(root, "add", "-A");
    git(root, "commit", "-qm", "the team's hooks", "--no-verify");
    expect(clearTool(root, "hooks", "install", "--yes").code).toBe(0);
    expect(CASES[2]!.install(root).code).toBe(0);
    git(root, "add", "-A");
    expect(env(root, "commit", "-qm", "the gate").code).toBe(0);
    // A raw capture that reached the remote before the gate did, taken out since.
    copyFileSync(path.join(PROJECT_ROOT, "examples", "sitting", "claude-code_pre_tool_use_2.1.261.1.json"), path.join(root, "payload.json"));
    git(root, "add", "payload.json");
    git(root, "commit", "-qm", "a raw capture", "--no-verify");
    git(root, "rm", "-q", "payload.json");
    git(root, "commit", "-qm", "taken out", "--no-verify");
    expect(git(root, "push", "-q", "--no-verify", "origin", "main").code).toBe(0);
    expect(commitDocs(root, "documentation only\n").code).toBe(0);
    const pushed = env(root, "push", "origin", "main");
    expect(pushed.code, pushed.out).toBe(0);
    git(root, "checkout", "-q", "-b", "side");
    stageUnacceptedFixtures(root);
    expect(run(root, ["git", "commit", "-qm", "skipped"], { SKIP: "clear-gate-pre-commit", PRE_COMMIT_HOME }).code).toBe(0);
    git(root, "checkout", "-q", "main");
    expect(commitDocs(root, "more documentation\n").code).toBe(0);
    const both = env(root, "push", "origin", "main", "side");
    expect(both.code, both.out).not.toBe(0);
    expect(both.out).toContain("fixture-not-accepted");
    expect(git(root, "ls-remote", "origin", "refs/heads/side").out).toBe("");
  });

  it("lefthook merges a developer's local config over the shared one: where it skips the gate, changes its runner or moves its scripts, status says the gate does not run, and install fails saying so", () => {
    const locals: Record<string, string> = {
      "lefthook-local.yml": "pre-commit:\n  scripts:\n    clear-gate.sh:\n      skip: true\n",
      ".lefthook-local.yaml": "pre-commit:\n  skip: true\n",
      ".config/lefthook-local.yml": "pre-commit:\n  scripts:\n    clear-gate.sh:\n      runner: 'true'\n",
      "lefthook-local.toml": "[pre-commit]\nskip = true\n",
      ".lefthook-local.yml": "source_dir: elsewhere/\n",
    };
    const root = wiredLefthook("clear-lefthook-local-");
    writeFileSync(path.join(root, "lefthook-local.yml"), "pre-commit:\n  commands:\n    mine:\n      run: 'true'\n");
    expect(clearTool(root, "hooks", "status").code).toBe(0);
    stageUnacceptedFixtures(root);
    for (const [file, text] of Object.entries(locals)) {
      rmSync(path.join(root, "lefthook-local.yml"), { force: true });
      mkdirSync(path.join(root, path.dirname(file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
      const status = clearTool(root, "hooks", "status");
      expect(status.code, file).toBe(1);
      expect(status.out, file).toContain("pre-commit: DOES NOT reach the gate");
      // Install follows what it wrote as git will run it: a skip it cannot undo fails it, saying why.
      if (text.includes("skip")) {
        const installed = clearTool(root, "hooks", "install", "--yes");
        expect(installed.code, file).toBe(1);
        expect(installed.out, file).toContain("pre-commit: DOES NOT reach the gate");
        expect(installed.out, file).not.toContain("The gate is wired through");
      }
      rmSync(path.join(root, file));
    }
    // lefthook itself does skip the gate under such a file: what status says is what happens.
    writeFileSync(path.join(root, "lefthook-local.yml"), locals["lefthook-local.yml"]!);
    expect(git(root, "commit", "-qm", "skipped by a local config").code).toBe(0);
  });

  it("lefthook settings that skip the gate's script or change what it runs (exclude_tags naming one of its tags, an rc file, a lefthook program, an env setting PATH): status says the gate does not run, in the local or the shared config", () => {
    const settings: Record<string, string> = {
      "excluded by a tag": "pre-commit:\n  exclude_tags: [slow]\n  scripts:\n    clear-gate.sh:\n      tags: [slow]\n",
      "excluded by a tag in a string": "pre-commit:\n  exclude_tags: slow\n  scripts:\n    clear-gate.sh:\n      tags: fast slow\n",
      "an rc file": "rc: .lefthookrc\n",
      "another program than lefthook": 'lefthook: "true"\n',
      "an env of its own": "pre-commit:\n  scripts:\n    clear-gate.sh:\n      env:\n        PATH: tools/bin\n",
      "an env running code first": "pre-commit:\n  scripts:\n    clear-gate.sh:\n      runner: bash\n      env:\n        BASH_ENV: ./x.sh\n",
      "an env of node's": "pre-commit:\n  scripts:\n    clear-gate.sh:\n      env:\n        NODE_OPTIONS: --require=./x.js\n",
    };
    const root = wiredLefthook("clear-lefthook-settings-");
    const shared = path.join(root, "lefthook.yml");
    const wired = readFileSync(shared, "utf8");
    const local = path.join(root, "lefthook-local.yml");
    for (const [what, text] of Object.entries(settings)) {
      writeFileSync(local, text);
      const status = clearTool(root, "hooks", "status");
      expect(status.code, what).toBe(1);
      expect(status.out, what).toContain("pre-commit: DOES NOT reach the gate");
      rmSync(local);
    }
    writeFileSync(shared, `rc: .lefthookrc\n${wired}`);
    expect(clearTool(root, "hooks", "status").code).toBe(1);
    writeFileSync(shared, wired);
    writeFileSync(local, "pre-commit:\n  exclude_tags: [fast]\n  scripts:\n    clear-gate.sh:\n      tags: [slow]\n");
    expect(clearTool(root, "hooks", "status").code).toBe(0); // a tag the gate's script does not carry
    // lefthook does skip the gate under the first: what status says is what happens.
    writeFileSync(local, settings["excluded by a tag"]!);
    stageUnacceptedFixtures(root);
    expect(git(root, "commit", "-qm", "skipped by a tag").code).toBe(0);
  });

  it("lefthook settings brought in by a YAML merge key (<<: *anchor), which lefthook reads as written there: a skip on the hook or on the gate's script is seen, and status says the gate does not run", () => {
    const root = wiredLefthook("clear-lefthook-merge-key-");
    const local = path.join(root, "lefthook-local.yml");
    const merged: Record<string, string> = {
      "on the hook": "x-common: &common\n  skip: true\npre-commit:\n  <<: *common\n",
      "on the gate's script": "x-common: &common\n  skip: true\npre-commit:\n  scripts:\n    clear-gate.sh:\n      <<: *common\n",
      "an env of its own": "x-env: &env\n  env:\n    PATH: tools/bin\npre-commit:\n  scripts:\n    clear-gate.sh:\n      <<: *env\n",
    };
    for (const [what, text] of Object.entries(merged)) {
      writeFileSync(local, text);
      const status = clearTool(root, "hooks", "status");
      expect(status.code, `${what}: ${status.out}`).toBe(1);
      expect(status.out, what).toContain("pre-commit: DOES NOT reach the gate");
    }
    // lefthook does skip the gate so: what status says is what happens.
    writeFileSync(local, merged["on the hook"]!);
    stageUnacceptedFixtures(root);
    expect(git(root, "commit", "-qm", "skipped through a merge key").code).toBe(0);
  });

  it("lefthook with two main configs reads only one of them: install wires the one lefthook 2 reads (.config/lefthook.yml before lefthook.yaml), and status says which one runs is not settled", () => {
    const root = repoWithRemote("clear-lefthook-two-configs-");
    mkdirSync(path.join(root, ".config"));
    writeFileSync(path.join(root, ".config", "lefthook.yml"), `pre-commit:\n  commands:\n    user:\n      run: ${USER_HOOK}\n`);
    writeFileSync(path.join(root, "lefthook.yaml"), "pre-commit:\n  commands:\n    other:\n      run: echo other\n");
    expect(CASES[1]!.install(root).code).toBe(0);
    const installed = clearTool(root, "hooks", "install", "--yes");
    expect(readFileSync(path.join(root, ".config", "lefthook.yml"), "utf8")).toContain("clear-gate.sh");
    expect(readFileSync(path.join(root, "lefthook.yaml"), "utf8")).not.toContain("clear-gate.sh");
    expect(CASES[1]!.install(root).code).toBe(0);
    const status = clearTool(root, "hooks", "status");
    expect(status.code, status.out).toBe(1);
    expect(status.out).toContain("pre-commit: DOES NOT reach the gate");
    expect(status.out).toContain("lefthook reads only one of .config/lefthook.yml, lefthook.yaml");
    expect(installed.out).toContain("lefthook reads only one of");
    // The gate's lines where an earlier version wrote them, in the other config: uninstall takes them out of each.
    const before = readFileSync(path.join(root, "lefthook.yaml"), "utf8");
    writeFileSync(path.join(root, "lefthook.yaml"), readFileSync(path.join(root, ".config", "lefthook.yml"), "utf8"));
    expect(clearTool(root, "hooks", "uninstall", "--yes").code).toBe(0);
    for (const file of [".config/lefthook.yml", "lefthook.yaml"]) expect(readFileSync(path.join(root, file), "utf8"), file).not.toContain("clear-gate.sh");
    writeFileSync(path.join(root, "lefthook.yaml"), before);
    expect(clearTool(root, "hooks", "install", "--yes").code).toBe(1);
    // Once the other is gone, the one install wired is lefthook's, and the gate runs.
    rmSync(path.join(root, "lefthook.yaml"));
    expect(clearTool(root, "hooks", "status").code).toBe(0);
    // So with its local configs: lefthook merges one, the first it finds, and this one skips the gate.
    writeFileSync(path.join(root, "lefthook-local.yml"), "pre-commit:\n  scripts:\n    clear-gate.sh:\n      skip: true\n");
    writeFileSync(path.join(root, ".lefthook-local.yml"), "pre-commit:\n  scripts:\n    clear-gate.sh:\n      skip: false\n");
    const locals = clearTool(root, "hooks", "status");
    expect(locals.code, locals.out).toBe(1);
    expect(locals.out).toContain("lefthook reads only one of lefthook-local.yml, .lefthook-local.yml");
    rmSync(path.join(root, "lefthook-local.yml"));
    rmSync(path.join(root, ".lefthook-local.yml"));
    stageUnacceptedFixtures(root);
    expect(git(root, "commit", "-qm", "fixtures, not accepted").code).toBe(1);
  });

  it("lefthook whose config is TOML or JSON is lefthook all the same: install never writes the gate into git's hooks folder, where lefthook's next install moves it aside; it asks for the lines by hand", () => {
    const root = repoWithRemote("clear-lefthook-toml-");
    writeFileSync(path.join(root, "lefthook.toml"), `[pre-commit.commands.user]\nrun = '${USER_HOOK}'\n`);
    git(root, "add", "-A");
    git(root, "commit", "-qm", "the team's hooks", "--no-verify");
    expect(CASES[1]!.install(root).code).toBe(0);
    const lefthooks = readFileSync(path.join(root, ".git", "hooks", "pre-commit"), "utf8");
    const installed = clearTool(root, "hooks", "install", "--yes");
    expect(installed.code, installed.out).toBe(1);
    expect(installed.out).toContain("Hook manager: lefthook");
    expect(installed.out).toContain("lefthook.toml: not changed, since it is TOML, which this tool does not edit");
    for (const line of ['[pre-commit.scripts."clear-gate.sh"]', '[pre-push.scripts."clear-gate.sh"]', "use_stdin = true"]) expect(installed.out).toContain(line);
    expect(readFileSync(path.join(root, ".git", "hooks", "pre-commit"), "utf8")).toBe(lefthooks);
    expect(existsSync(path.join(root, ".git", "hooks", "pre-commit.pre-clear"))).toBe(false);
    const status = clearTool(root, "hooks", "status");
    expect(status.code, status.out).toBe(1);
    expect(status.out).toContain("lefthook.toml is not YAML this tool can read");
    // The same lines said in JSON, which lefthook reads too: once lefthook installs them, the gate runs.
    rmSync(path.join(root, "lefthook.toml"));
    const scripts = (hook: string): object => ({ scripts: { "clear-gate.sh": { runner: "sh", ...(hook === "pre-push" ? { use_stdin: true } : {}) } } });
    const json = { "pre-commit": { commands: { user: { run: USER_HOOK } }, ...scripts("pre-commit") }, "pre-push": scripts("pre-push") };
    writeFileSync(path.join(root, "lefthook.json"), `${JSON.stringify(json, null, 2)}\n`);
    expect(CASES[1]!.install(root).code).toBe(0);
    const wired = clearTool(root, "hooks", "status");
    expect(wired.code, wired.out).toBe(0);
    expect(wired.out).toContain("(lefthook, lefthook.json)");
    git(root, "add", "-A");
    expect(commitDocs(root, "documentation only\n").code).toBe(0);
    expect(userHookRuns(root)).toBeGreaterThan(0);
    expectRefusedAtCommitAndPush(root);
  });

  const title = "the pre-commit framework runs the gate's hook as .legacy: status says so, uninstall takes it out";
  it.skipIf(!PRE_COMMIT_PRESENT)(`${title}${PRE_COMMIT_PRESENT ? "" : ` (skipped: ${PRE_COMMIT_SKIP_REASON})`}`, () => {
    const root = repoWithRemote("clear-late-pre-commit-");
    expect(clearTool(root, "hooks", "install").code).toBe(0);
    CASES[2]!.configure(root);
    git(root, "add", "-A");
    expect(CASES[2]!.install(root).code).toBe(0);
    const status = clearTool(root, "hooks", "status");
    expect(status.code, status.out).toBe(0);
    expect(status.out).toContain("migration mode");
    const docs = env(root, "commit", "-qm", "the team's hooks");
    expect(docs.code, docs.out).toBe(0);
    stageUnacceptedFixtures(root);
    expect(env(root, "commit", "-qm", "fixtures").code).not.toBe(0);
    git(root, "reset", "-q", "--hard");
    const out = clearTool(root, "hooks", "uninstall");
    expect(out.out).toContain("pre-commit.legacy: removed");
    expect(existsSync(path.join(root, ".git", "hooks", "pre-commit.legacy"))).toBe(false);
    expect(clearTool(root, "hooks", "status").code).toBe(1);
    const before = userHookRuns(root);
    expect(commitDocs(root, "after\n").code).toBe(0);
    expect(userHookRuns(root)).toBeGreaterThan(before);
  });

  const legacyTitle = "the pre-commit framework at a push of a tag or of notes, which its own code lets through unrun: the gate's pre-push.legacy refuses it, in both install orders; status fails without it; uninstall takes only it out";
  it.skipIf(!PRE_COMMIT_PRESENT)(`${legacyTitle}${PRE_COMMIT_PRESENT ? "" : ` (skipped: ${PRE_COMMIT_SKIP_REASON})`}`, () => {
    const capture = path.join(PROJECT_ROOT, "examples", "sitting", "claude-code_pre_tool_use_2.1.261.1.json");
    for (const order of ["clear first", "manager first"] as const) {
      const root = repoWithRemote("clear-pre-commit-legacy-");
      CASES[2]!.configure(root);
      git(root, "add", "-A");
      git(root, "commit", "-qm", "the team's hooks", "--no-verify");
      if (order === "manager first") expect(run(root, ["pre-commit", "install", "-t", "pre-commit", "-t", "pre-push"], { PRE_COMMIT_HOME }).code).toBe(0);
      expect(clearTool(root, "hooks", "install", "--yes").code).toBe(0);
      if (order === "clear first") expect(run(root, ["pre-commit", "install", "-t", "pre-commit", "-t", "pre-push"], { PRE_COMMIT_HOME }).code).toBe(0);
      git(root, "add", "-A");
      expect(env(root, "commit", "-qm", "the gate").code).toBe(0);
      expect(env(root, "push", "-q", "origin", "main").code).toBe(0);
      git(root, "tag", "-a", "v1", "-F", capture);
      const tag = env(root, "push", "origin", "v1");
      expect(tag.code, `${order}: ${tag.out}`).not.toBe(0);
      expect(tag.out).toContain("clear gate: this push is refused");
      git(root, "notes", "add", "-F", capture, "HEAD");
      const notes = env(root, "push", "origin", "refs/notes/commits");
      expect(notes.code, notes.out).not.toBe(0);
      expect(git(root, "ls-remote", "origin").out).not.toMatch(/refs\/(tags|notes)\//);
      const legacy = path.join(root, ".git", "hooks", "pre-push.legacy");
      rmSync(legacy);
      const status = clearTool(root, "hooks", "status");
      expect(status.code, status.out).toBe(1);
      expect(status.out).toContain("pre-push.legacy, which the pre-commit framework runs first, is not there");
      expect(status.out).toContain("npx fixture-clear hooks install --yes");
      expect(clearTool(root, "hooks", "install", "--yes").code).toBe(0);
      expect(clearTool(root, "hooks", "uninstall", "--yes").code).toBe(0);
      expect(existsSync(legacy)).toBe(false);
      expect(existsSync(path.join(root, ".git", "hooks", "pre-push"))).toBe(true); // the framework's own hook stays
    }
  });

  const takenTitle = "the pre-commit framework's pre-push.legacy that is the user's own hook (moved there by pre-commit install) is never overwritten: install and status say to keep it as pre-push.pre-clear, after which the gate's runs it first and uninstall gives it back";
  it.skipIf(!PRE_COMMIT_PRESENT)(`${takenTitle}${PRE_COMMIT_PRESENT ? "" : ` (skipped: ${PRE_COMMIT_SKIP_REASON})`}`, () => {
    const root = repoWithRemote("clear-pre-commit-taken-");
    CASES[2]!.configure(root);
    git(root, "add", "-A");
    git(root, "commit", "-qm", "the team's hooks", "--no-verify");
    const own = path.join(root, ".git", "hooks", "pre-push");
    const ownText = `#!/bin/sh\necho own >> "$(git rev-parse --git-dir)/own-pre-push.log"\n`;
    writeFileSync(own, ownText, { mode: 0o755 });
    expect(run(root, ["pre-commit", "install", "-t", "pre-commit", "-t", "pre-push"], { PRE_COMMIT_HOME }).code).toBe(0);
    const legacy = `${own}.legacy`;
    expect(readFileSync(legacy, "utf8")).toBe(ownText);
    const refused = clearTool(root, "hooks", "install", "--yes");
    expect(refused.code, refused.out).toBe(1);
    expect(refused.out).toContain("rename it to pre-push.pre-clear");
    expect(readFileSync(legacy, "utf8")).toBe(ownText);
    expect(clearTool(root, "hooks", "status").code).toBe(1);
    renameSync(legacy, `${own}.pre-clear`);
    expect(clearTool(root, "hooks", "install", "--yes").code).toBe(0);
    expect(clearTool(root, "hooks", "status").code).toBe(0);
    git(root, "add", "-A");
    expect(env(root, "commit", "-qm", "the gate").code).toBe(0);
    git(root, "tag", "-a", "v1", "-F", path.join(PROJECT_ROOT, "examples", "sitting", "claude-code_pre_tool_use_2.1.261.1.json"));
    expect(env(root, "push", "origin", "main", "v1").code).not.toBe(0);
    expect(readFileSync(path.join(root, ".git", "own-pre-push.log"), "utf8")).toBe("own\n"); // run once, by the gate's pre-push.legacy
    expect(clearTool(root, "hooks", "uninstall", "--yes").code).toBe(0);
    expect(readFileSync(legacy, "utf8")).toBe(ownText);
  });

  const namedTitle = "the pre-commit framework installed with another config (pre-commit install -c): status reads the config the installed hook names, says where it cannot tell, and install wires the gate into that config";
  it.skipIf(!PRE_COMMIT_PRESENT)(`${namedTitle}${PRE_COMMIT_PRESENT ? "" : ` (skipped: ${PRE_COMMIT_SKIP_REASON})`}`, () => {
    const root = repoWithRemote("clear-pre-commit-named-");
    const team = readFileSync(path.join(root, CASES[2]!.configure(root)), "utf8");
    git(root, "add", "-A");
    git(root, "commit", "-qm", "the team's hooks", "--no-verify");
    expect(clearTool(root, "hooks", "install", "--yes").code).toBe(0);
    expect(CASES[2]!.install(root).code).toBe(0);
    expect(clearTool(root, "hooks", "status").code).toBe(0);
    writeFileSync(path.join(root, ".pre-commit-ci.yaml"), team);
    const installCi = ["pre-commit", "install", "-f", "-c", ".pre-commit-ci.yaml", "-t", "pre-commit", "-t", "pre-push"];
    expect(run(root, installCi, { PRE_COMMIT_HOME }).code).toBe(0);
    const other = clearTool(root, "hooks", "status");
    expect(other.code, other.out).toBe(1);
    expect(other.out).toContain(".pre-commit-ci.yaml has no pre-commit stage hook");
    const hook = path.join(root, ".git", "hooks", "pre-commit");
    writeFileSync(hook, readFileSync(hook, "utf8").replace(/^ARGS=.*$/m, "ARGS=(hook-impl --hook-type=pre-commit)"));
    const unknown = clearTool(root, "hooks", "status");
    expect(unknown.code, unknown.out).toBe(1);
    expect(unknown.out).toContain("which config it reads cannot be told");
    expect(run(root, installCi, { PRE_COMMIT_HOME }).code).toBe(0);
    const wired = clearTool(root, "hooks", "install", "--yes");
    expect(wired.code, wired.out).toBe(0);
    expect(wired.out).toContain(".pre-commit-ci.yaml: changed");
    expect(clearTool(root, "hooks", "status").code).toBe(0);
    git(root, "add", "-A");
    expect(env(root, "commit", "-qm", "the gate").code).toBe(0);
    stageUnacceptedFixtures(root);
    expect(env(root, "commit", "-qm", "fixtures").code).not.toBe(0);
  });
});
