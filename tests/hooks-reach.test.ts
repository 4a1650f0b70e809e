import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { CLI, tempDir } from "./helpers.js";
import { clearTool, git, hookManagers, repoWithRemote, run, stageUnacceptedFixtures, type Managers, type Ran } from "./hooks-setup.js";

// Whether the gate is in force where a hook it shares runs other lines first: at pre-push, a line
// that may read the refs git hands the gate on standard input; and the switches a hook manager
// reads from the environment, or from a file of the user's it sources first, that keep it from the gate.

const PUSH_GATE = 'sh .clear/hooks/pre-push "$@" || exit $?';

/** A repository whose core.hooksPath is a folder of its own, with the gate installed there. */
function handSetFolder(prefix: string): string {
  const root = repoWithRemote(prefix);
  mkdirSync(path.join(root, ".githooks"));
  git(root, "config", "core.hooksPath", ".githooks");
  const installed = clearTool(root, "hooks", "install", "--yes");
  expect(installed.code, installed.out).toBe(0);
  return root;
}

/** status, with `lines` standing above the gate's line in the pre-push hook. */
function statusWithAbove(root: string, lines: string, env: Record<string, string> = {}): Ran {
  const hook = path.join(root, ".githooks", "pre-push");
  writeFileSync(hook, `#!/bin/sh\n${lines}\n${PUSH_GATE}\n`);
  chmodSync(hook, 0o755);
  return statusIn(root, env);
}

/** clear hooks status, run in the environment given over the tests' own. */
const statusIn = (root: string, env: Record<string, string> = {}): Ran => run(root, [process.execPath, CLI, "hooks", "status"], env);

describe("a pre-push hook's lines above the gate's line that may read the refs on standard input", () => {
  it("any command that may read standard input and is not given its own counts: status says the gate is not reached, naming the line", () => {
    const root = handSetFolder("clear-reach-stdin-");
    const readers = [
      "head -n1 >/dev/null", "sed 1q >/dev/null", "sed -n 1p", "cat > /tmp/refs-copy", "cat >/dev/null", "tee /dev/null >/dev/null", "awk 'NR == 1'",
      "grep -q refs/heads", "dd bs=1 count=4 2>/dev/null", "xargs echo", "tail -n 1", "cut -c1-4", "sort >/dev/null", "wc -l", "python3 -", "node -",
      "exec 0</dev/null", "exec <&-", "refs=$(cat)", 'echo "$(head -n1)"', "echo `sed 1q`", 'git lfs pre-push "$@"', "npx lint-staged",
      "echo start; cat", "true && head -c 10", "/bin/cat", '"$tool" check', "cat </dev/stdin", "cat < /dev/fd/0", "cat <&3", "read -r line </proc/self/fd/0",
      "echo x | cat; tail -n1", "git rev-list --stdin", "git config -f /dev/stdin --list", "git diff --stat", "git -C . rev-parse HEAD", "NAME=x read -r line", 'refs="$(</dev/stdin)"', "exec 3<&0 0</dev/null",
    ];
    for (const reader of readers) {
      const status = statusWithAbove(root, reader);
      expect(status.code, `${reader}: ${status.out}`).toBe(1);
      expect(status.out, reader).toContain("pre-push: DOES NOT reach the gate");
      expect(status.out, reader).toContain("its line 2 reads standard input");
    }
    // Lines that read only with more lines of shell (a loop, a function called later) are not read at all.
    for (const reader of ["while read -r a b c d; do\n  echo \"$a\"\ndone", "take() {\n  head -n1\n}\ntake"]) {
      const status = statusWithAbove(root, reader);
      expect(status.code, reader).toBe(1);
      expect(status.out, reader).toContain("pre-push: DOES NOT reach the gate");
      expect(status.out, reader).toContain("its line 2 ");
    }
  });

  it("a command known to read no standard input, or given its own, passes on to the gate's line", () => {
    const root = handSetFolder("clear-reach-stdin-none-");
    const quiet = [
      'echo "pushing to $1"', 'printf "%s\\n" "$2" >&2', "cat </dev/null", "read -r x < /dev/null", "head -n1 < README.md", "git rev-parse --abbrev-ref HEAD >/dev/null",
      "echo refs | cat >/dev/null", '[ -n "$1" ]', 'notes="$(<README.md)"', "exec 3<&0", "exec 1>&2", "set -eu", "sleep 0", ": nothing", "# cat", "export CI_LABEL=push",
    ];
    const status = statusWithAbove(root, quiet.join("\n"));
    expect(status.code, status.out).toBe(0);
    expect(status.out).toContain("pre-push: reaches the gate");
  });

  it("install adds no gate line below one that reads the refs (git lfs pre-push): it prints the lines to put above it, and writes nothing", () => {
    const root = repoWithRemote("clear-reach-lfs-");
    mkdirSync(path.join(root, ".githooks"));
    git(root, "config", "core.hooksPath", ".githooks");
    const hook = path.join(root, ".githooks", "pre-push");
    const lfs = '#!/bin/sh\ncommand -v git-lfs >/dev/null 2>&1 || exit 0\ngit lfs pre-push "$@"\n';
    writeFileSync(hook, lfs.replace("command -v git-lfs >/dev/null 2>&1 || exit 0\n", ""));
    chmodSync(hook, 0o755);
    const installed = clearTool(root, "hooks", "install", "--yes");
    expect(installed.code, installed.out).toBe(1);
    expect(installed.out).toContain("its line 2 reads standard input, where git hands the gate the refs pushed");
    expect(readFileSync(hook, "utf8")).not.toContain(".clear/hooks/pre-push");
  });
});

describe("a hook manager switched off where status runs", () => {
  let managers: Managers;
  beforeAll(() => {
    managers = hookManagers();
  }, 300_000);

  it("husky 9: HUSKY=0, and an init.sh it sources first whose line may end the hook, change what the gate runs or (at pre-push) read the refs: not in force, exit 1", () => {
    const root = repoWithRemote("clear-reach-husky-");
    mkdirSync(path.join(root, ".husky"));
    expect(run(root, managers.husky).code).toBe(0);
    expect(clearTool(root, "hooks", "install", "--yes").code).toBe(0);
    const home = tempDir("clear-reach-home-");
    const at = (env: Record<string, string>): Ran => statusIn(root, { HOME: home, XDG_CONFIG_HOME: "", ...env });
    expect(at({}).code, at({}).out).toBe(0);
    const off = at({ HUSKY: "0" });
    expect(off.code).toBe(1);
    expect(off.out).toContain("pre-commit: DOES NOT reach the gate");
    expect(off.out).toContain("HUSKY=0 is set in this environment");
    mkdirSync(path.join(home, ".config", "husky"), { recursive: true });
    const init = path.join(home, ".config", "husky", "init.sh");
    for (const line of ["exit 0", "export HUSKY=0", 'export PATH="$HOME/bin:$PATH"', "return"]) {
      writeFileSync(init, `# the developer's own\n${line}\n`);
      const status = at({});
      expect(status.code, line).toBe(1);
      expect(status.out, line).toContain("~/.config/husky/init.sh, which husky sources before every hook's own lines: its line 2");
    }
    writeFileSync(init, "head -n1 >/dev/null\n");
    const reads = at({});
    expect(reads.code).toBe(1);
    expect(reads.out).toContain("pre-commit: reaches the gate");
    expect(reads.out).toContain("pre-push: DOES NOT reach the gate");
    writeFileSync(init, 'echo "husky: $0" >&2\n');
    expect(at({}).code, at({}).out).toBe(0);
    // Under $XDG_CONFIG_HOME where that is set, and not under ~/.config.
    const xdg = tempDir("clear-reach-xdg-");
    mkdirSync(path.join(xdg, "husky"));
    writeFileSync(path.join(xdg, "husky", "init.sh"), "exit 0\n");
    const elsewhere = at({ XDG_CONFIG_HOME: xdg });
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.out).toContain("$XDG_CONFIG_HOME/husky/init.sh");
  });

  it("husky 5 to 8 (its helper sourced on the hook's first line): HUSKY=0 and a ~/.huskyrc that may end the hook: not in force", () => {
    const root = handSetFolder("clear-reach-husky8-");
    const home = tempDir("clear-reach-home8-");
    const helper = '. "$(dirname -- "$0")/_/husky.sh"';
    for (const hook of ["pre-commit", "pre-push"]) {
      const file = path.join(root, ".githooks", hook);
      writeFileSync(file, `#!/usr/bin/env sh\n${helper}\n\n${readFileSync(file, "utf8").split("\n").slice(1).join("\n")}`);
    }
    const at = (env: Record<string, string>): Ran => statusIn(root, { HOME: home, ...env });
    expect(at({}).code, at({}).out).toBe(0);
    expect(at({ HUSKY: "0" }).out).toContain("HUSKY=0 is set in this environment");
    expect(at({ HUSKY: "0" }).code).toBe(1);
    writeFileSync(path.join(home, ".huskyrc"), "exit 0\n");
    const rc = at({});
    expect(rc.code).toBe(1);
    expect(rc.out).toContain("~/.huskyrc, which husky sources before every hook's own lines: its line 1");
  });

  it("lefthook: LEFTHOOK=0 or false, LEFTHOOK_EXCLUDE naming the gate's script (or a pattern), LEFTHOOK_BIN, LEFTHOOK_CONFIG: not in force, exit 1", () => {
    const root = repoWithRemote("clear-reach-lefthook-");
    writeFileSync(path.join(root, "lefthook.yml"), "pre-commit:\n  commands:\n    lint:\n      run: echo lint\n");
    expect(run(root, [...managers.lefthook, "install"]).code).toBe(0);
    expect(clearTool(root, "hooks", "install", "--yes").code).toBe(0);
    expect(run(root, [...managers.lefthook, "install"]).code).toBe(0);
    const at = (env: Record<string, string>): Ran => statusIn(root, env);
    expect(at({}).code, at({}).out).toBe(0);
    expect(at({ LEFTHOOK_EXCLUDE: "lint,rubocop" }).code).toBe(0);
    const switches: Array<[Record<string, string>, string]> = [
      [{ LEFTHOOK: "0" }, "LEFTHOOK=0 is set"], [{ LEFTHOOK: "false" }, "LEFTHOOK=false is set"], [{ LEFTHOOK: "FALSE" }, "LEFTHOOK=FALSE is set"],
      [{ LEFTHOOK_EXCLUDE: "lint,clear-gate.sh" }, "LEFTHOOK_EXCLUDE in this environment names clear-gate.sh"],
      [{ LEFTHOOK_EXCLUDE: "clear-gate" }, "names clear-gate"], [{ LEFTHOOK_EXCLUDE: "*" }, "names *"], [{ LEFTHOOK_SKIP: "clear-gate.sh" }, "LEFTHOOK_SKIP"],
      [{ LEFTHOOK_BIN: "/nowhere/lefthook" }, "LEFTHOOK_BIN is set"], [{ LEFTHOOK_CONFIG: "other.yml" }, "LEFTHOOK_CONFIG is set"],
    ];
    for (const [env, says] of switches) {
      const status = at(env);
      expect(status.code, JSON.stringify(env)).toBe(1);
      expect(status.out, JSON.stringify(env)).toContain("pre-commit: DOES NOT reach the gate");
      expect(status.out, JSON.stringify(env)).toContain(says);
    }
    // At pre-push, another command, script or job taking standard input: lefthook hands it to one of them alone.
    const local = path.join(root, "lefthook-local.yml");
    const rivals = ['pre-push:\n  commands:\n    lfs:\n      run: git lfs pre-push "$@"\n      use_stdin: true\n', "pre-push:\n  jobs:\n    - name: refs\n      run: cat\n      use_stdin: true\n"];
    for (const rival of rivals) {
      writeFileSync(local, rival);
      const status = at({});
      expect(status.code, rival).toBe(1);
      expect(status.out, rival).toContain("pre-push: DOES NOT reach the gate");
      expect(status.out, rival).toContain("also take standard input (use_stdin: true)");
    }
    writeFileSync(local, "pre-commit:\n  commands:\n    notes:\n      run: cat\n      use_stdin: true\n");
    expect(at({}).code, at({}).out).toBe(0);
  });

  it("the pre-commit framework: SKIP listing the gate's id keeps it from that hook, exit 1; SKIP of another id does not", () => {
    const root = repoWithRemote("clear-reach-precommit-");
    const userHook = ["- id: user-hook", "  name: user hook", "  entry: 'true'", "  language: system"].map((l) => `      ${l}\n`).join("");
    writeFileSync(path.join(root, ".pre-commit-config.yaml"), `repos:\n  - repo: local\n    hooks:\n${userHook}`);
    const installed = clearTool(root, "hooks", "install", "--yes", "--manager", "pre-commit");
    expect(installed.code, installed.out).toBe(0);
    // The pre-commit framework's own hook, as its install writes it, where the framework itself is not needed to read it.
    const hook = path.join(root, ".git", "hooks", "pre-commit");
    writeFileSync(hook, "#!/usr/bin/env bash\n# File generated by pre-commit: https://pre-commit.com\nARGS=(hook-impl --config=.pre-commit-config.yaml --hook-type=pre-commit)\n");
    chmodSync(hook, 0o755);
    const at = (env: Record<string, string>): Ran => statusIn(root, env);
    expect(at({ SKIP: "flake8" }).out).toContain("pre-commit: reaches the gate");
    const skipped = at({ SKIP: "flake8, clear-gate-pre-commit" });
    expect(skipped.code).toBe(1);
    expect(skipped.out).toContain("pre-commit: DOES NOT reach the gate");
    expect(skipped.out).toContain("SKIP in this environment lists clear-gate-pre-commit");
  });

  it("PRE_COMMIT set outside the pre-commit framework: the gate's pre-push leaves git's refs unread, and a commit pushed by its name alone goes through; status says so, exit 1", () => {
    const root = repoWithRemote("clear-reach-pre-commit-env-");
    expect(clearTool(root, "hooks", "install", "--yes").code).toBe(0);
    stageUnacceptedFixtures(root);
    expect(git(root, "commit", "-qm", "fixtures, not accepted", "--no-verify").code).toBe(0);
    const sha = git(root, "rev-parse", "HEAD").out.trim();
    git(root, "reset", "-q", "--hard", "HEAD~1");
    git(root, "reflog", "expire", "--expire=now", "--all");
    expect(git(root, "push", "origin", `${sha}:refs/heads/named`).code).not.toBe(0);
    const status = statusIn(root, { PRE_COMMIT: "1" });
    expect(status.code, status.out).toBe(1);
    expect(status.out).toContain("pre-commit: reaches the gate");
    expect(status.out).toContain("pre-push: DOES NOT reach the gate");
    expect(status.out).toContain("PRE_COMMIT is set in this environment");
    // Why: the same push, from that environment.
    expect(run(root, ["git", "push", "origin", `${sha}:refs/heads/named`], { PRE_COMMIT: "1" }).code).toBe(0);
    expect(statusIn(root).code).toBe(0);
  });
});
