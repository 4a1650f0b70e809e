import { appendFileSync, chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, PROJECT_ROOT, tempDir } from "./helpers.js";
import { clearTool, commitDocs, expectRefusedAtCommitAndPush, git, repoWithRemote, run, stageUnacceptedFixtures, type Ran } from "./hooks-setup.js";

// clear hooks without a manager: git's own hooks folder, a hand-set core.hooksPath, kept foreign
// hooks, quoting, and what the committed scripts do where the tool is not installed.

function foreignHook(file: string, name: string, log: string): void {
  writeFileSync(file, `#!/bin/sh\necho ${name} >> '${log}'\n`);
  chmodSync(file, 0o755);
}


/** A repository whose core.hooksPath is a folder in the user's home, outside it, and what hooks install said there. */
function installedBesideSharedHooks(prefix: string): { root: string; home: string; shared: string; installed: Ran } {
  const root = repoWithRemote(prefix);
  const home = tempDir("clear-home-");
  const shared = path.join(home, ".githooks");
  mkdirSync(shared);
  git(root, "config", "core.hooksPath", shared);
  return { root, home, shared, installed: run(root, [process.execPath, CLI, "hooks", "install", "--yes"], { HOME: home }) };
}
describe("clear hooks prints git's settings as data", () => {
  it("a core.hooksPath holding a terminal escape or a line break is written escaped, on the status line it belongs to", () => {
    const root = repoWithRemote("clear-hooks-");
    git(root, "config", "core.hooksPath", "hooks\u001b[31mX\nFAKE: all hooks installed");
    for (const action of ["status", "install"]) {
      const r = clearTool(root, "hooks", action);
      expect(r.out, action).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
      expect(r.out, action).not.toMatch(/^FAKE/m);
    }
  });
});

describe("clear hooks in git's own hooks folder", () => {
  it("creates a missing hooks folder and refuses an unaccepted fixture there", () => {
    const root = repoWithRemote("clear-hooks-");
    rmSync(path.join(root, ".git", "hooks"), { recursive: true, force: true });
    const r = clearTool(root, "hooks", "install");
    expect(r.code, r.out).toBe(0);
    expect(existsSync(path.join(root, ".git", "hooks", "pre-commit"))).toBe(true);
    expect(clearTool(root, "hooks", "status").code).toBe(0);
    stageUnacceptedFixtures(root);
    expect(git(root, "commit", "-qm", "fixtures").code).not.toBe(0);
  });

  it("keeps every foreign hook over two installs, runs each first, and gives the last back on uninstall", () => {
    const root = repoWithRemote("clear-hooks-");
    const log = path.join(root, ".git", "ran.log");
    const hook = path.join(root, ".git", "hooks", "pre-commit");
    foreignHook(hook, "first", log);
    expect(clearTool(root, "hooks", "install").code).toBe(0);
    foreignHook(hook, "second", log); // another tool writes over the hook
    expect(clearTool(root, "hooks", "status").code).toBe(1);
    const again = clearTool(root, "hooks", "install");
    expect(again.out).toContain("pre-commit.pre-clear.2");
    expect(commitDocs(root, "docs\n").code).toBe(0);
    expect(readFileSync(log, "utf8")).toBe("first\nsecond\n");
    stageUnacceptedFixtures(root);
    expect(git(root, "commit", "-qm", "fixtures").code).not.toBe(0);
    git(root, "reset", "-q", "--hard");
    const out = clearTool(root, "hooks", "uninstall");
    expect(out.code).toBe(0);
    expect(readFileSync(hook, "utf8")).toContain("second");
    expect(out.out).toContain("pre-commit.pre-clear, kept at an earlier install, is left");
    expect(readFileSync(path.join(root, ".git", "hooks", "pre-commit.pre-clear"), "utf8")).toContain("first");
  });

  it("says where a hook it keeps reads its own path ($0), whose name changes once it is kept as <hook>.pre-clear (husky 4 and overcommit run by their name): at install and in status", () => {
    const root = repoWithRemote("clear-hooks-own-name-");
    const log = path.join(root, ".git", "ran.log");
    const hook = path.join(root, ".git", "hooks", "pre-commit");
    writeFileSync(hook, `#!/bin/sh\nhook_name=$(basename "$0")\necho "$hook_name" >> '${log}'\n`);
    chmodSync(hook, 0o755);
    foreignHook(path.join(root, ".git", "hooks", "pre-push"), "pushed", log);
    const installed = clearTool(root, "hooks", "install");
    expect(installed.code, installed.out).toBe(0);
    expect(installed.out).toContain("pre-commit: the hook that was there reads its own path ($0 or the like), whose name is now pre-commit.pre-clear");
    expect(installed.out).not.toContain("pre-push: the hook that was there reads");
    expect(commitDocs(root, "docs\n").code).toBe(0);
    expect(readFileSync(log, "utf8")).toBe("pre-commit.pre-clear\n");
    const status = clearTool(root, "hooks", "status");
    expect(status.code, status.out).toBe(0);
    expect(status.out).toContain("it runs pre-commit.pre-clear first, the hook that was there before; it reads its own path");
    expect(status.out).not.toContain("pre-push.pre-clear first, the hook that was there before; it reads");
  });

  it("never writes through a link: a hook linked to a file not there yet is kept, and a linked .clear folder is refused with nothing written", () => {
    const root = repoWithRemote("clear-hook-link-");
    mkdirSync(path.join(root, "scripts"));
    const hook = path.join(root, ".git", "hooks", "pre-commit");
    symlinkSync("../../scripts/pre-commit", hook);
    const r = clearTool(root, "hooks", "install");
    expect(r.code, r.out).toBe(0);
    expect(readdirSync(path.join(root, "scripts"))).toEqual([]);
    expect(readFileSync(hook, "utf8")).toContain("clear: managed hook");
    expect(clearTool(root, "hooks", "status").code).toBe(0);

    const other = repoWithRemote("clear-hook-link-");
    const elsewhere = tempDir("clear-elsewhere-");
    writeFileSync(path.join(elsewhere, "pre-commit"), "kept\n");
    mkdirSync(path.join(other, ".githooks"));
    git(other, "config", "core.hooksPath", ".githooks");
    symlinkSync(elsewhere, path.join(other, ".clear"));
    const linked = clearTool(other, "hooks", "install", "--yes");
    expect(linked.code, linked.out).toBe(2);
    expect(linked.out).toContain(".clear is a symbolic link");
    expect(readdirSync(elsewhere)).toEqual(["pre-commit"]);
    expect(readFileSync(path.join(elsewhere, "pre-commit"), "utf8")).toBe("kept\n");
    expect(readdirSync(path.join(other, ".githooks"))).toEqual([]);
  });

  it("quotes the installation's path: no part of $(...), backticks, quotes, spaces or a newline in it is run", () => {
    const base = tempDir("clear-quoting-");
    const evil = path.join(base, `tool $(touch ran-dollar) \`touch ran-tick\` 'q' "dq" ;touch ran-semi\nnext`);
    mkdirSync(evil);
    for (const part of ["dist", "rules", "examples"]) cpSync(path.join(PROJECT_ROOT, part), path.join(evil, part), { recursive: true });
    cpSync(path.join(PROJECT_ROOT, "package.json"), path.join(evil, "package.json"));
    symlinkSync(path.join(PROJECT_ROOT, "node_modules"), path.join(evil, "node_modules"));
    const root = repoWithRemote("clear-quoting-repo $(touch ran-repo) `x` ", { tool: false });
    const installed = run(root, [process.execPath, path.join(evil, "dist", "cli.js"), "hooks", "install"]);
    expect(installed.code, installed.out).toBe(0);
    expect(run(root, [process.execPath, path.join(evil, "dist", "cli.js"), "hooks", "status"]).code).toBe(0);
    expect(commitDocs(root, "docs\n").code).toBe(0);
    stageUnacceptedFixtures(root);
    const refused = git(root, "commit", "-qm", "fixtures");
    expect(refused.code).not.toBe(0);
    expect(refused.out).toContain("clear gate: this commit is refused");
    for (const dir of [root, base, evil, path.dirname(root)]) expect(readdirSync(dir).filter((n) => n.startsWith("ran-"))).toEqual([]);
  });

  it("writes lefthook's scripts only inside the repository, and never over a script it did not write: exit 2, nothing written", () => {
    const root = repoWithRemote("clear-lefthook-source-");
    const outside = path.join(tempDir("clear-lefthook-outside-"), "scripts");
    const config = `source_dir: ${JSON.stringify(outside)}\npre-commit:\n  commands:\n    user:\n      run: echo user\n`;
    writeFileSync(path.join(root, "lefthook.yml"), config);
    const away = clearTool(root, "hooks", "install", "--yes");
    expect(away.code, away.out).toBe(2);
    expect(away.out).toContain("source_dir puts lefthook's scripts outside this repository");
    expect(existsSync(outside)).toBe(false);
    expect(readFileSync(path.join(root, "lefthook.yml"), "utf8")).toBe(config);
    writeFileSync(path.join(root, "lefthook.yml"), config.split("\n").slice(1).join("\n"));
    mkdirSync(path.join(root, ".lefthook", "pre-push"), { recursive: true });
    writeFileSync(path.join(root, ".lefthook", "pre-push", "clear-gate.sh"), "echo the team's own script\n");
    const taken = clearTool(root, "hooks", "install", "--yes");
    expect(taken.code, taken.out).toBe(2);
    expect(taken.out).toContain(".lefthook/pre-push/clear-gate.sh is there and this tool did not write it");
    expect(readFileSync(path.join(root, ".lefthook", "pre-push", "clear-gate.sh"), "utf8")).toBe("echo the team's own script\n");
    expect(existsSync(path.join(root, ".lefthook", "pre-commit"))).toBe(false);
  });

  it("says the gate will not run where --manager picks hooks core.hooksPath keeps git from running: exit 1, and the commit shows it", () => {
    const root = repoWithRemote("clear-bypassed-");
    mkdirSync(path.join(root, ".githooks"));
    git(root, "config", "core.hooksPath", ".githooks");
    const chosen = clearTool(root, "hooks", "install", "--manager", "plain");
    expect(chosen.code, chosen.out).toBe(1);
    expect(chosen.out).toContain("NOT RUN: core.hooksPath makes git run the hooks in .githooks, so the hooks in git's own folder never run");
    expect(chosen.out).not.toContain("The gate is wired");
    expect(clearTool(root, "hooks", "status").code).toBe(1);
    stageUnacceptedFixtures(root);
    expect(git(root, "commit", "-qm", "fixtures").code).toBe(0); // what install's exit 1 warned of: git ran no gate
    git(root, "reset", "-q", "--soft", "HEAD~1");
    const wired = clearTool(root, "hooks", "install", "--yes");
    expect(wired.code, wired.out).toBe(0);
    expect(wired.out).not.toContain("NOT RUN");
    const refused = git(root, "commit", "-qm", "fixtures");
    expect(refused.code, refused.out).toBe(1);
    expect(refused.out).toContain("clear gate: this commit is refused");
  });

  it("finds a repository whose path ends in a newline: documentation goes through, an unaccepted fixture is refused at commit and at push", () => {
    const root = path.join(tempDir("clear-trailing-"), "repo\n");
    renameSync(repoWithRemote("clear-trailing-repo-"), root);
    const installed = clearTool(root, "hooks", "install");
    expect(installed.code, installed.out).toBe(0);
    const docs = commitDocs(root, "docs\n");
    expect(docs.code, docs.out).toBe(0);
    expectRefusedAtCommitAndPush(root);
  });

  it("survives moving the repository", () => {
    const root = repoWithRemote("clear-hooks-");
    expect(clearTool(root, "hooks", "install").code).toBe(0);
    const moved = `${root}-moved`;
    renameSync(root, moved);
    expect(commitDocs(moved, "docs\n").code).toBe(0);
    stageUnacceptedFixtures(moved);
    expect(git(moved, "commit", "-qm", "fixtures").code).not.toBe(0);
  });

  it("never overwrites nor removes its own hook once a person changed it: install and uninstall keep it aside, not run, and say so", () => {
    const root = repoWithRemote("clear-hooks-changed-");
    const hooks = path.join(root, ".git", "hooks");
    expect(clearTool(root, "hooks", "install").code).toBe(0);
    appendFileSync(path.join(hooks, "pre-commit"), "npm test # a line of my own\n");
    const status = clearTool(root, "hooks", "status");
    expect(status.code).toBe(1);
    expect(status.out).toContain("changed since it was written");
    const again = clearTool(root, "hooks", "install");
    expect(again.code, again.out).toBe(0);
    expect(again.out).toContain("kept as pre-commit.clear-changed");
    expect(readFileSync(path.join(hooks, "pre-commit.clear-changed"), "utf8")).toContain("a line of my own");
    expect(readFileSync(path.join(hooks, "pre-commit"), "utf8")).not.toContain("a line of my own");
    expect(clearTool(root, "hooks", "status").code).toBe(0);
    appendFileSync(path.join(hooks, "pre-push"), "echo mine\n");
    const out = clearTool(root, "hooks", "uninstall");
    expect(out.code).toBe(0);
    expect(out.out).toContain("kept as pre-push.clear-changed");
    expect(readFileSync(path.join(hooks, "pre-push.clear-changed"), "utf8")).toContain("echo mine");
    expect(existsSync(path.join(hooks, "pre-push"))).toBe(false);
    expect(existsSync(path.join(hooks, "pre-commit"))).toBe(false);
    expect(readFileSync(path.join(hooks, "pre-commit.clear-changed"), "utf8")).toContain("a line of my own");
    // Two changed copies at once (the hook, and the copy a manager moved aside): each kept, under a name of its own.
    expect(clearTool(root, "hooks", "install").code).toBe(0);
    const ours = readFileSync(path.join(hooks, "pre-commit"), "utf8");
    writeFileSync(path.join(hooks, "pre-commit.old"), `${ours}echo in-the-old-copy\n`);
    appendFileSync(path.join(hooks, "pre-commit"), "echo in-the-hook\n");
    const both = clearTool(root, "hooks", "uninstall");
    expect(both.code, both.out).toBe(0);
    const kept = readdirSync(hooks).filter((n) => n.startsWith("pre-commit.clear-changed")).map((n) => readFileSync(path.join(hooks, n), "utf8"));
    expect(kept.filter((t) => t.includes("in-the-hook"))).toHaveLength(1);
    expect(kept.filter((t) => t.includes("in-the-old-copy"))).toHaveLength(1);
    expect(kept.filter((t) => t.includes("a line of my own"))).toHaveLength(1);
  });

  it("uninstall leaves a hook file the user wrote, with its bytes as they were (a bare shebang, an empty file), and takes out only a file install created", () => {
    const root = repoWithRemote("clear-hooks-user-file-");
    mkdirSync(path.join(root, ".husky"));
    const bare = path.join(root, ".husky", "pre-commit");
    writeFileSync(bare, "#!/bin/sh\n");
    git(root, "add", "-A");
    git(root, "commit", "-qm", "the team's hooks", "--no-verify");
    expect(clearTool(root, "hooks", "install", "--yes").code).toBe(0);
    const created = path.join(root, ".husky", "pre-push");
    expect(readFileSync(created, "utf8")).toContain("sh .clear/hooks/pre-push");
    expect(clearTool(root, "hooks", "uninstall", "--yes").code).toBe(0);
    expect(readFileSync(bare, "utf8")).toBe("#!/bin/sh\n");
    expect(existsSync(created)).toBe(false);
    writeFileSync(created, "");
    expect(clearTool(root, "hooks", "install", "--yes").code).toBe(0);
    expect(clearTool(root, "hooks", "uninstall", "--yes").code).toBe(0);
    expect(readFileSync(created, "utf8")).toBe("");
    expect(readFileSync(bare, "utf8")).toBe("#!/bin/sh\n");
  });

  it("says when nothing of this tool is installed", () => {
    const root = repoWithRemote("clear-hooks-");
    const r = clearTool(root, "hooks", "uninstall");
    expect(r.code).toBe(0);
    expect(r.out).toContain("no hook of this tool was installed");
  });
});

describe("clear hooks install and the captures inbox", () => {
  const probe = (root: string): number => git(root, "check-ignore", "-q", "--", "captures-inbox/s1/claude-code_stop_2.1.1.1.json").code;

  it("makes an inbox git does not ignore ignored, with a file of its own, and says so in status", () => {
    const root = repoWithRemote("clear-inbox-");
    writeFileSync(path.join(root, ".gitignore"), "node_modules/\n");
    expect(probe(root)).not.toBe(0);
    expect(clearTool(root, "hooks", "status").out).toContain("captures-inbox/: NOT git-ignored");
    const r = clearTool(root, "hooks", "install");
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain("captures-inbox/.gitignore: written (this tool's own file)");
    expect(probe(root)).toBe(0);
    expect(git(root, "check-ignore", "-q", "--", "captures-inbox/README.md").code).not.toBe(0);
    expect(clearTool(root, "hooks", "status").out).toContain("captures-inbox/: git-ignored");
    // A sitting dropped there stays out of `git add -A`; the tool's file itself commits through the gate.
    mkdirSync(path.join(root, "captures-inbox", "s1"), { recursive: true });
    writeFileSync(path.join(root, "captures-inbox", "s1", "claude-code_stop_2.1.1.1.json"), "{}\n");
    git(root, "add", "-A");
    expect(git(root, "diff", "--cached", "--name-only").out.trim().split("\n")).toEqual([".gitignore", "captures-inbox/.gitignore"]);
    expect(git(root, "commit", "-qm", "inbox").code).toBe(0);
  });

  it("leaves an inbox git ignores already, a .gitignore the user owns and a link alone", () => {
    const ignored = repoWithRemote("clear-inbox-");
    expect(clearTool(ignored, "hooks", "install").out).not.toContain("captures-inbox");
    expect(existsSync(path.join(ignored, "captures-inbox", ".gitignore"))).toBe(false);

    const owned = repoWithRemote("clear-inbox-");
    writeFileSync(path.join(owned, ".gitignore"), "node_modules/\n");
    mkdirSync(path.join(owned, "captures-inbox"));
    writeFileSync(path.join(owned, "captures-inbox", ".gitignore"), "# mine\n");
    const r = clearTool(owned, "hooks", "install");
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain("captures-inbox/: NOT git-ignored and captures-inbox/.gitignore is a file you own");
    expect(readFileSync(path.join(owned, "captures-inbox", ".gitignore"), "utf8")).toBe("# mine\n");

    const linked = repoWithRemote("clear-inbox-");
    writeFileSync(path.join(linked, ".gitignore"), "node_modules/\n");
    const elsewhere = tempDir("clear-inbox-elsewhere-");
    symlinkSync(elsewhere, path.join(linked, "captures-inbox"));
    expect(clearTool(linked, "hooks", "install").out).toContain("captures-inbox is a symbolic link");
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});

describe("clear hooks with core.hooksPath set by hand", () => {
  it("shows the change to a hook the user owns, makes it with --yes, and takes only its line out again", () => {
    const root = repoWithRemote("clear-hookspath-");
    const log = path.join(root, ".git", "ran.log");
    mkdirSync(path.join(root, ".githooks"));
    foreignHook(path.join(root, ".githooks", "pre-commit"), "team", log);
    const original = readFileSync(path.join(root, ".githooks", "pre-commit"), "utf8");
    git(root, "config", "core.hooksPath", ".githooks");
    const shown = clearTool(root, "hooks", "install");
    expect(shown.code).toBe(1);
    expect(shown.out).toContain("+sh .clear/hooks/pre-commit || exit $?");
    expect(readFileSync(path.join(root, ".githooks", "pre-commit"), "utf8")).toBe(original);
    expect(clearTool(root, "hooks", "status").code).toBe(1);
    expect(clearTool(root, "hooks", "install", "--yes").code).toBe(0);
    const status = clearTool(root, "hooks", "status");
    expect(status.code, status.out).toBe(0);
    expect(commitDocs(root, "docs\n").code).toBe(0);
    expect(readFileSync(log, "utf8")).toBe("team\n");
    stageUnacceptedFixtures(root);
    expect(git(root, "commit", "-qm", "fixtures").code).not.toBe(0);
    git(root, "reset", "-q", "--hard");
    expect(clearTool(root, "hooks", "uninstall", "--yes").code).toBe(0);
    expect(readFileSync(path.join(root, ".githooks", "pre-commit"), "utf8")).toBe(original);
    expect(existsSync(path.join(root, ".githooks", "pre-push"))).toBe(false);
    expect(existsSync(path.join(root, ".clear"))).toBe(false);
  });

  it("a pre-push hook that reads a line of standard input above the gate's line takes the first ref git hands the gate: install prints the lines to put above it, and status says the gate is not reached", () => {
    const root = repoWithRemote("clear-hookspath-read-");
    mkdirSync(path.join(root, ".githooks"));
    git(root, "config", "core.hooksPath", ".githooks");
    const pushHook = path.join(root, ".githooks", "pre-push");
    for (const reader of ["read local_ref local_sha remote_ref remote_sha", "IFS= read -r line", "mapfile -n 1 refs", "x=1; /usr/bin/read y"]) {
      writeFileSync(pushHook, `#!/bin/sh\n${reader}\necho "pushing"\n`);
      chmodSync(pushHook, 0o755);
      const installed = clearTool(root, "hooks", "install", "--yes");
      expect(installed.code, `${reader}: ${installed.out}`).toBe(1);
      expect(installed.out, reader).toContain("reads standard input, where git hands the gate the refs pushed");
      expect(readFileSync(pushHook, "utf8"), reader).not.toContain(".clear/hooks/pre-push");
      // Added below it by hand, the gate's line would check only the refs left.
      appendFileSync(pushHook, `sh .clear/hooks/pre-push "$@" || exit $?\n`);
      const status = clearTool(root, "hooks", "status");
      expect(status.code, reader).toBe(1);
      expect(status.out, reader).toContain("pre-push: DOES NOT reach the gate");
      expect(status.out, reader).toContain("its line 2 reads standard input");
    }
    // At pre-commit, git hands the hook nothing on standard input: a read there takes nothing from the gate.
    writeFileSync(pushHook, `#!/bin/sh\nsh .clear/hooks/pre-push "$@" || exit $?\nread line\n`);
    writeFileSync(path.join(root, ".githooks", "pre-commit"), "#!/bin/sh\nread line\n");
    chmodSync(path.join(root, ".githooks", "pre-commit"), 0o755);
    expect(clearTool(root, "hooks", "install", "--yes").code).toBe(0);
    expect(clearTool(root, "hooks", "status").code).toBe(0);
  });

  it("fails an install whose hook git would skip: a hook of the folder that is not executable, named with what to do", () => {
    const root = repoWithRemote("clear-hookspath-");
    mkdirSync(path.join(root, ".githooks"));
    writeFileSync(path.join(root, ".githooks", "pre-commit"), "#!/bin/sh\necho lint\n");
    git(root, "config", "core.hooksPath", ".githooks");
    const r = clearTool(root, "hooks", "install", "--yes");
    expect(r.code, r.out).toBe(1);
    expect(r.out).toContain("pre-commit: DOES NOT reach the gate");
    expect(r.out).toContain("git skips .githooks/pre-commit: it is not executable (chmod +x it");
    expect(r.out).not.toContain("The gate is wired through");
    chmodSync(path.join(root, ".githooks", "pre-commit"), 0o755);
    expect(clearTool(root, "hooks", "status").code).toBe(0);
    stageUnacceptedFixtures(root);
    expect(git(root, "commit", "-qm", "fixtures").code).not.toBe(0);
  });

  it("prints the lines for a hooks folder outside the repository and writes nothing there", () => {
    const { home, shared, installed: r } = installedBesideSharedHooks("clear-hookspath-");
    expect(r.code).toBe(1);
    expect(r.out).toContain("if [ -f .clear/hooks/pre-commit ]; then sh .clear/hooks/pre-commit || exit $?; fi");
    expect(r.out).toContain("~/.githooks/pre-commit: not changed");
    expect(r.out).not.toContain(home);
    expect(readdirSync(shared)).toEqual([]);
  });

  it("takes the lines it printed for a hooks folder outside the repository, once added by hand, as running the gate: status exit 0, install asks no more", () => {
    const { root, home, shared, installed: printed } = installedBesideSharedHooks("clear-hookspath-added-");
    expect(printed.code, printed.out).toBe(1);
    for (const hook of ["pre-commit", "pre-push"]) {
      const line = printed.out.split("\n").map((l) => l.trim()).find((l) => l.startsWith(`if [ -f .clear/hooks/${hook} ]`));
      expect(line, printed.out).toBeDefined();
      writeFileSync(path.join(shared, hook), `#!/bin/sh\necho shared >/dev/null\n${line}\n`);
      chmodSync(path.join(shared, hook), 0o755);
    }
    const status = run(root, [process.execPath, CLI, "hooks", "status"], { HOME: home });
    expect(status.code, status.out).toBe(0);
    expect(status.out).toContain("pre-commit: reaches the gate");
    expect(status.out).toContain("pre-push: reaches the gate");
    const again = run(root, [process.execPath, CLI, "hooks", "install", "--yes"], { HOME: home });
    expect(again.code, again.out).toBe(0);
    expect(again.out).toContain("~/.githooks/pre-commit: runs the gate already");
    expect(again.out).not.toContain("add these lines by hand");
    expect(commitDocs(root, "docs\n").code).toBe(0);
    expectRefusedAtCommitAndPush(root);
  });

  it("status says the gate runs only where the hook certainly reaches its line: a mention, a comment, a branch, an exit (however spelt) or another interpreter is not enough", () => {
    const line = "sh .clear/hooks/pre-commit || exit $?";
    const shapes: Record<string, string> = {
      "the line commented out": `#!/bin/sh\n# ${line}\n`,
      "an exit after a command": `#!/bin/sh\ntrue; exit 0\n${line}\n`,
      "an exit after &&": `#!/bin/sh\ntrue && exit 0\n${line}\n`,
      "an indented exit": `#!/bin/sh\n  exit 0\n${line}\n`,
      "a branch never taken": `#!/bin/sh\nif false; then\n${line}\nfi\n`,
      "a heredoc": `#!/bin/sh\ncat <<EOF\n${line}\nEOF\n`,
      "a line carried on": `#!/bin/sh\necho \\\n${line}\n`,
      "a quote left open": `#!/bin/sh\necho 'a\n${line}\n'\n`,
      "a script of another interpreter": `#!/usr/bin/env python3\nimport sys\nsys.exit(0)\n${line}\n`,
      "the gate's path only echoed": "#!/bin/sh\necho 'run .clear/hooks/pre-commit'\n",
      "its failure not passed on": "#!/bin/sh\nsh .clear/hooks/pre-commit || true\n",
      "an exit spelt with quotes": `#!/bin/sh\nex""it 0\n${line}\n`,
      "an exit held in a variable": `#!/bin/sh\nc=exit\n$c 0\n${line}\n`,
      "an exit behind a pattern": `#!/bin/sh\ne?it 0\n${line}\n`,
      "kill named by its path": `#!/bin/sh\n/bin/kill -9 $$\n${line}\n`,
    };
    const root = repoWithRemote("clear-hookspath-");
    mkdirSync(path.join(root, ".githooks"));
    git(root, "config", "core.hooksPath", ".githooks");
    expect(clearTool(root, "hooks", "install", "--yes").code).toBe(0);
    const hook = path.join(root, ".githooks", "pre-commit");
    writeFileSync(hook, `#!/bin/sh\nFOO=1 echo "a $HOME" >> '${path.join(root, ".git", "ran.log")}' 2>&1 | cat && true\n${line}\n`);
    expect(clearTool(root, "hooks", "status").code).toBe(0);
    // husky 4 to 8: its helper, sourced first, ends the hook only under its own skip switch.
    writeFileSync(hook, `#!/usr/bin/env sh\n. "$(dirname -- "$0")/_/husky.sh"\n\nnpx --version\n${line}\n`);
    expect(clearTool(root, "hooks", "status").code).toBe(0);
    for (const [shape, text] of Object.entries(shapes)) {
      writeFileSync(hook, text);
      const status = clearTool(root, "hooks", "status");
      expect(status.code, shape).toBe(1);
      expect(status.out, shape).toContain("pre-commit: DOES NOT reach the gate");
    }
  });

  it("a core.hooksPath set to an empty value, under which git runs no hook: install refuses and says so, status says the gate does not run", () => {
    const root = repoWithRemote("clear-hookspath-");
    git(root, "config", "core.hooksPath", "");
    const r = clearTool(root, "hooks", "install");
    expect(r.code, r.out).toBe(2);
    expect(r.out).toContain("core.hooksPath is set to an empty value");
    expect(readdirSync(root)).not.toContain("pre-commit");
    const status = clearTool(root, "hooks", "status");
    expect(status.code).toBe(1);
    expect(status.out).toContain("core.hooksPath is set to an empty value");
  });

  it("--root naming a folder below the top of the working tree, or the .git folder, is refused for install, status and uninstall: exit 2, nothing written; hooks run at the top, where scripts written below it are never found", () => {
    const root = repoWithRemote("clear-hooks-subroot-");
    mkdirSync(path.join(root, "sub", "node_modules", ".bin"), { recursive: true });
    symlinkSync(CLI, path.join(root, "sub", "node_modules", ".bin", "fixture-clear"));
    mkdirSync(path.join(root, ".githooks"));
    git(root, "config", "core.hooksPath", ".githooks");
    for (const hook of ["pre-commit", "pre-push"]) {
      writeFileSync(path.join(root, ".githooks", hook), `#!/bin/sh\nsh .clear/hooks/${hook}${hook === "pre-push" ? ' "$@"' : ""} || exit $?\n`);
      chmodSync(path.join(root, ".githooks", hook), 0o755);
    }
    for (const [at, action] of [["sub", "install"], ["sub", "status"], ["sub", "uninstall"], [".git", "install"], [".git", "status"]]) {
      const r = clearTool(root, "hooks", action!, "--yes", "--root", at!);
      expect(r.code, `${at} ${action}: ${r.out}`).toBe(2);
      expect(r.out).toContain(`--root ${at} is not the top of its repository's working tree`);
      expect(r.out).not.toContain("reaches the gate");
    }
    expect(existsSync(path.join(root, "sub", ".clear"))).toBe(false);
    expect(existsSync(path.join(root, ".git", ".clear"))).toBe(false);
    expect(clearTool(root, "hooks", "status", "--root", ".").code).toBe(1);
    expect(clearTool(path.join(root, "sub"), "hooks", "install", "--yes").code).toBe(0);
    expect(clearTool(root, "hooks", "status", "--root", root).code).toBe(0);
  });

  it("a core.hooksPath naming the repository's own hooks folder, in any spelling, is as if unset: the gate's hook goes into .git/hooks and status follows it", () => {
    const spellings = (root: string): string[] => [".git/hooks", "./.git//hooks/", path.join(root, ".git", "hooks"), path.join(root, ".git", "hooks", "..", "hooks")];
    for (const [i, missing] of [[0, false], [1, true], [2, false], [3, true]] as const) {
      const root = repoWithRemote("clear-hookspath-own-");
      const spelling = spellings(root)[i]!;
      if (missing) rmSync(path.join(root, ".git", "hooks"), { recursive: true, force: true });
      git(root, "config", "core.hooksPath", spelling);
      const installed = clearTool(root, "hooks", "install");
      expect(installed.code, `${spelling}\n${installed.out}`).toBe(0);
      expect(installed.out, spelling).toContain("Hook manager: git's hooks folder");
      expect(installed.out, spelling).not.toContain("add these lines by hand");
      expect(readFileSync(path.join(root, ".git", "hooks", "pre-commit"), "utf8"), spelling).toContain("clear: managed hook");
      const status = clearTool(root, "hooks", "status");
      expect(status.code, `${spelling}\n${status.out}`).toBe(0);
      expect(status.out, spelling).toContain("pre-push: reaches the gate");
      expect(status.out, spelling).toContain("this tool's hook: the gate runs");
      stageUnacceptedFixtures(root);
      const refused = git(root, "commit", "-qm", "fixtures");
      expect(refused.code, spelling).not.toBe(0);
      expect(refused.out, spelling).toContain("clear gate: this commit is refused");
      git(root, "reset", "-q", "--hard");
      expect(clearTool(root, "hooks", "uninstall").code, spelling).toBe(0);
      expect(existsSync(path.join(root, ".git", "hooks", "pre-commit")), spelling).toBe(false);
    }
  });

  it("install never adds the gate's line where the hook may end before it, or is read by another program: it prints the lines instead", () => {
    const root = repoWithRemote("clear-hookspath-");
    mkdirSync(path.join(root, ".githooks"));
    git(root, "config", "core.hooksPath", ".githooks");
    for (const text of ["#!/bin/sh\nnpm --version >/dev/null\nexit 0\n", "#!/bin/sh\nexec true\n", "#!/usr/bin/env node\nprocess.exit(0)\n"]) {
      writeFileSync(path.join(root, ".githooks", "pre-commit"), text);
      const r = clearTool(root, "hooks", "install", "--yes");
      expect(r.code, text).toBe(1);
      expect(r.out, text).toContain(".githooks/pre-commit: not changed");
      expect(readFileSync(path.join(root, ".githooks", "pre-commit"), "utf8")).toBe(text);
      expect(clearTool(root, "hooks", "status").code, text).toBe(1);
    }
  });

  it("asks which manager where two are configured and git runs neither", () => {
    const root = repoWithRemote("clear-two-");
    writeFileSync(path.join(root, "lefthook.yml"), "pre-commit:\n  commands: {}\n");
    writeFileSync(path.join(root, ".pre-commit-config.yaml"), "repos: []\n");
    const r = clearTool(root, "hooks", "install");
    expect(r.code).toBe(2);
    expect(r.out).toContain("--manager lefthook|pre-commit");
  });
});

/** A repository whose committed hooks (core.hooksPath .githooks) were installed and pushed, and whose tool is then taken away. */
function wiredWithoutTool(prefix = "clear-missing-"): string {
  const root = repoWithRemote(prefix);
  mkdirSync(path.join(root, ".githooks"));
  git(root, "config", "core.hooksPath", ".githooks");
  expect(clearTool(root, "hooks", "install", "--yes").code).toBe(0);
  git(root, "add", "-A");
  expect(git(root, "commit", "-qm", "the gate's hooks").code).toBe(0);
  expect(git(root, "push", "-q", "origin", "main").code).toBe(0);
  rmSync(path.join(root, "node_modules"), { recursive: true });
  return root;
}

describe("the committed hooks where fixture-clear is not installed", () => {

  it("lets a commit through that touches nothing that could hold a capture, and refuses the rest in one line", () => {
    const root = wiredWithoutTool();
    const docs = commitDocs(root, "docs\n");
    expect(docs.code, docs.out).toBe(0);
    expect(docs.out).toContain("fixture-clear is not installed in this repository; no staged name is a capture's or the tool's, so this commit goes through with its files' content unread");
    for (const ok of ["src/app.ts", "docs/guide.md", "fixtures.md", "a.json.d/readme.txt"]) {
      mkdirSync(path.join(root, path.dirname(ok)), { recursive: true });
      writeFileSync(path.join(root, ok), "x\n");
      git(root, "add", "--", ok);
      expect(git(root, "commit", "-qm", ok).code, ok).toBe(0);
    }
    const risky = ["notes/data.json", "LOG.JSONL", "x.ndjson", "old.json.bak", "dump.json~", "fixtures/README.md", "captures-inbox/README.md"];
    risky.push("CLEARANCE.md", "clear.config.json", "deep/codex_session_start_0.153.0.1.json");
    for (const bad of risky) {
      mkdirSync(path.join(root, path.dirname(bad)), { recursive: true });
      writeFileSync(path.join(root, bad), "{}\n");
      git(root, "add", "-f", "--", bad);
      const r = git(root, "commit", "-qm", bad);
      expect(r.code, bad).not.toBe(0);
      expect(r.out.trim().split("\n"), bad).toHaveLength(1);
      expect(r.out).toContain("npm install --save-dev fixture-clear");
      git(root, "reset", "-q", "--hard", "HEAD");
    }
  });

  it("refuses to push a skipped commit holding a JSON file, and lets documentation through", () => {
    const root = wiredWithoutTool();
    expect(commitDocs(root, "docs\n").code).toBe(0);
    expect(git(root, "push", "-q", "origin", "main").code).toBe(0);
    writeFileSync(path.join(root, "payload.json"), "{}\n");
    git(root, "add", "payload.json");
    expect(git(root, "commit", "-qm", "payload", "--no-verify").code).toBe(0);
    const pushed = git(root, "push", "origin", "main");
    expect(pushed.code).not.toBe(0);
    expect(pushed.out).toContain("npm install --save-dev fixture-clear");
    expect(git(root, "push", "origin", "main:side").code).not.toBe(0);
  });
});

describe("the committed pre-push hook where fixture-clear is not installed, after a branch was deleted on the remote", () => {
  it("refuses to push onto a branch the remote has a commit of the deleted branch, whose remote-tracking ref still names it, as the whole gate does", () => {
    const root = wiredWithoutTool();
    const origin = git(root, "remote", "get-url", "origin").out.trim();
    git(root, "checkout", "-qb", "side");
    writeFileSync(path.join(root, "payload.json"), "{}\n");
    git(root, "add", "payload.json");
    expect(git(root, "commit", "-qm", "payload", "--no-verify").code).toBe(0);
    expect(git(root, "push", "-q", "--no-verify", "origin", "side").code).toBe(0);
    git(origin, "update-ref", "-d", "refs/heads/side");
    git(root, "checkout", "-q", "main");
    git(root, "merge", "-q", "--ff-only", "side");
    const pushed = git(root, "push", "origin", "main");
    expect(pushed.code, pushed.out).not.toBe(0);
    expect(pushed.out).toContain("and this push touches");
  });
});

describe("the committed pre-push hook where fixture-clear is not installed, in a fork", () => {
  /** A repository wired without the tool, with a second remote `upstream` whose branch `work` holds a commit with a JSON file that origin lacks. */
  function forkWithUpstreamCommit(): { root: string; upstream: string } {
    const root = wiredWithoutTool("clear-fork-");
    const upstream = tempDir("clear-fork-upstream-");
    git(upstream, "init", "-q", "--bare", "-b", "main");
    git(root, "remote", "add", "upstream", upstream);
    git(root, "checkout", "-qb", "work");
    writeFileSync(path.join(root, "claude-code_stop_2.1.1.1.json"), JSON.stringify({ hook_event_name: "Stop", session_id: "s" }));
    git(root, "add", "claude-code_stop_2.1.1.1.json");
    expect(git(root, "commit", "-qm", "a capture", "--no-verify").code).toBe(0);
    expect(git(root, "push", "-q", "--no-verify", "upstream", "work").code).toBe(0);
    git(root, "fetch", "-q", "upstream");
    expect(git(root, "rev-parse", "-q", "--verify", "refs/remotes/upstream/work").code).toBe(0);
    return { root, upstream };
  }

  it("refuses a new branch to origin whose commit only upstream's remote-tracking refs hold, as the whole gate does", () => {
    const { root } = forkWithUpstreamCommit();
    const pushed = git(root, "push", "origin", "work:feature");
    expect(pushed.code, pushed.out).not.toBe(0);
    expect(pushed.out).toContain("fixture-clear is not installed in this repository, and this push touches");
    expect(git(root, "ls-remote", "origin", "refs/heads/feature").out).toBe("");
    // Pushed to upstream, which has it, nothing new goes: the fallback lets it through.
    const toUpstream = git(root, "push", "upstream", "work:copy");
    expect(toUpstream.code, toUpstream.out).toBe(0);
    expect(toUpstream.out).toContain("no pushed name is a capture's or the tool's, so this push goes through with its files' content unread");
  });

  it("refuses a push to a remote whose pushurl is another repository: what upstream's refs hold, origin lacks", () => {
    const { root } = forkWithUpstreamCommit();
    const origin = git(root, "remote", "get-url", "origin").out.trim();
    git(root, "config", "remote.upstream.pushurl", origin);
    const pushed = git(root, "push", "upstream", "work:feature");
    expect(pushed.code, pushed.out).not.toBe(0);
    expect(pushed.out).toContain("and this push touches");
    expect(git(root, "ls-remote", "origin", "refs/heads/feature").out).toBe("");
  });

  it("under the pre-commit framework takes the remote from PRE_COMMIT_REMOTE_NAME, and with no remote named checks every commit", () => {
    const { root } = forkWithUpstreamCommit();
    const tip = git(root, "rev-parse", "HEAD").out.trim();
    const hook = (env: Record<string, string>): Ran => run(root, ["sh", ".clear/hooks/pre-push"], { PRE_COMMIT: "1", PRE_COMMIT_TO_REF: tip, PRE_COMMIT_FROM_REF: "0".repeat(40), ...env });
    const toOrigin = hook({ PRE_COMMIT_REMOTE_NAME: "origin" });
    expect(toOrigin.code, toOrigin.out).toBe(1);
    expect(toOrigin.out).toContain("and this push touches");
    expect(hook({ PRE_COMMIT_REMOTE_NAME: "upstream" }).code).toBe(0);
    const unnamed = hook({});
    expect(unnamed.code, unnamed.out).toBe(1);
    expect(unnamed.out).toContain("and this push touches");
    // A remote named origin/fork writes under refs/remotes/origin/ too: what it fetched is not origin's.
    expect(git(root, "remote", "rename", "upstream", "origin/fork").code).toBe(0);
    expect(git(root, "rev-parse", "-q", "--verify", "refs/remotes/origin/fork/work").code).toBe(0);
    expect(hook({ PRE_COMMIT_REMOTE_NAME: "origin" }).code).toBe(1);
  });
});

describe("clear hooks uninstall gives a file the user owns back byte for byte", () => {
  it("a husky hook and a lefthook.yml whose last line has no line break: install adds the gate's lines, uninstall takes them out with the line break put before them", () => {
    const root = repoWithRemote("clear-hooks-unbroken-");
    const owned: [string, string, string][] = [
      [".husky/pre-commit", "husky", "npm test"],
      ["lefthook.yml", "lefthook", "pre-commit:\n  commands:\n    user:\n      run: npm test"],
    ];
    mkdirSync(path.join(root, ".husky"));
    for (const [file, manager, text] of owned) {
      writeFileSync(path.join(root, file), text);
      const installed = clearTool(root, "hooks", "install", "--manager", manager, "--yes");
      expect(installed.code, installed.out).toBe(0);
      expect(readFileSync(path.join(root, file), "utf8")).toContain("# clear: the gate (clear hooks install)");
      const out = clearTool(root, "hooks", "uninstall", "--yes");
      expect(out.code, out.out).toBe(0);
      expect(readFileSync(path.join(root, file), "utf8"), manager).toBe(text);
    }
  });
});

describe("clear hooks install under lefthook whose config is TOML or JSON", () => {
  it("prints the lines to add by hand in the config's own language, and writes nothing into it", () => {
    const root = repoWithRemote("clear-hooks-lefthook-languages-");
    const configs: [string, string][] = [
      ["lefthook.toml", "[pre-commit.commands.user]\nrun = 'npm test'\n"],
      ["lefthook.json", '{ "pre-commit": { "commands": { "user": { "run": "npm test" } } } }\n'],
    ];
    for (const [file, text] of configs) {
      writeFileSync(path.join(root, file), text);
      const r = clearTool(root, "hooks", "install", "--yes");
      expect(r.code, r.out).toBe(1);
      expect(readFileSync(path.join(root, file), "utf8")).toBe(text);
      const lines = r.out.split("\n").filter((l) => l.startsWith("    ")).map((l) => l.slice(4));
      // No line of YAML: no key ends its line with a colon.
      expect(lines.filter((l) => /^\s*[\w.-]+:$/.test(l)), r.out).toEqual([]);
      const scripts = (hook: string): object => ({ scripts: { "clear-gate.sh": { runner: "sh", ...(hook === "pre-push" ? { use_stdin: true } : {}) } } });
      if (file.endsWith(".json")) expect(JSON.parse(`{${lines.join("\n")}}`)).toEqual({ "pre-commit": scripts("pre-commit"), "pre-push": scripts("pre-push") });
      else expect(lines).toEqual(['[pre-commit.scripts."clear-gate.sh"]', 'runner = "sh"', '[pre-push.scripts."clear-gate.sh"]', 'runner = "sh"', "use_stdin = true"]);
      rmSync(path.join(root, file));
    }
  });
});
