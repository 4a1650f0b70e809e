import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { clear, folderDigest, tempDir } from "./helpers.js";

// Every command on hostile folders ends with a clear message and the right exit code, never a
// stack trace, and the capture folder is byte-identical afterwards.

function hostileSitting(root: string): string {
  const dir = path.join(root, "a sitting with spaces and é");
  mkdirSync(dir, { recursive: true });
  const w = (name: string, body: string | Buffer): void => writeFileSync(path.join(dir, name), body);
  w("codex_session_start_0_153_0.1.json", JSON.stringify({ session_id: "s", cwd: "/home/ana/p" }));
  w("codex_pre_tool_use_0_153_0.1.json", "{ not json");
  w("codex_stop_0_153_0.1.json", Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]));
  w("codex_stop_0_153_0.2.json", Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d]));
  w("codex_stop_0_153_0.3.json", "[]");
  w("codex_stop_0_153_0.4.json", '{"a":1,"a":2}');
  w("codex_stop_0_153_0.5.json", `${"[".repeat(100_000)}${"]".repeat(100_000)}`);
  w("codex_stop_0_153_0.6.json", "");
  w("codex_stop_unknown.1.json", "{}");
  w("codex_made_up_0_153_0.1.json", "{}");
  w("gemini_session_start_1_0_0.1.json", "{}");
  w("notes.txt", "stray");
  w("sitting.json", '{"driver": 5}');
  mkdirSync(path.join(dir, "codex_stop_0_153_0.7.json"));
  symlinkSync("/etc/hostname", path.join(dir, "codex_stop_0_153_0.8.json"));
  execFileSync("mkfifo", [path.join(dir, "codex_stop_0_153_0.9.json")]);
  return dir;
}

const root = tempDir("clear-robust-");
execFileSync("git", ["init", "-q"], { cwd: root });
const dir = hostileSitting(root);

describe("every command on a hostile sitting", () => {
  const commands: [string[], number[]][] = [
    [["inventory", dir], [1]],
    [["inventory", dir, "--json"], [1]],
    [["pair", dir, "--json"], [1]],
    [["substitute", dir, "--out", path.join(root, "out-sub"), "--json"], [1]],
    [["select", dir, "--json"], [0, 1]],
    [["scan", dir, "--json"], [1]],
    [["run", dir, "--json"], [1]],
    [["verify", "--json"], [0, 1]],
  ];
  for (const [args, codes] of commands) {
    it(`clear ${args.join(" ").replace(root, "<tmp>")}: the right exit code, no stack trace, the folder untouched`, () => {
      const before = folderDigest(dir);
      const r = clear(args, { cwd: root });
      expect(codes).toContain(r.code);
      expect(r.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
      expect(r.stderr).not.toContain("internal error");
      if (args.includes("--json")) expect(JSON.parse(r.stdout).schemaVersion).toBe(1);
      expect(folderDigest(dir)).toBe(before);
    });
  }

  it("a capture folder that is a link, a missing folder, a file: exit 2 with one line", () => {
    const link = path.join(root, "linked");
    symlinkSync(dir, link);
    for (const target of [link, path.join(root, "nope"), path.join(dir, "notes.txt")]) {
      const r = clear(["inventory", target, "--json"]);
      expect(r.code).toBe(2);
      expect(JSON.parse(r.stdout)).toMatchObject({ schemaVersion: 1, ok: false });
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
    }
  });
});

describe("a command line the tool cannot follow", () => {
  it("an unknown command under --json is one JSON object on stdout; only a word is said back", () => {
    for (const argv of [["frob", "--json"], ["--json"]]) {
      const r = clear(argv);
      expect(r.code).toBe(2);
      expect(JSON.parse(r.stdout)).toMatchObject({ schemaVersion: 1, ok: false, findings: [] });
    }
    expect(clear(["frob"]).stderr).toContain('unknown command "frob"');
    const pasted = clear(["\u001b[2J/home/ana/ghp_x", "--json"]);
    expect(pasted.stderr + pasted.stdout).not.toMatch(/ana|ghp_|\u001b/);
    expect(pasted.stderr).toContain("unknown command (not a command's name)");
  });

  it("a file-system failure names the file the person gave, never a temporary one", () => {
    const missing = path.join(root, "no-folder", "out.sarif");
    const sarif = clear(["scan", dir, "--sarif", missing]);
    expect(sarif.code).toBe(2);
    expect(sarif.stderr).toBe(`clear: ${missing}: does not exist (ENOENT); nothing was left half-written\n`);
    const folder = clear(["scan", dir, "--sarif", root]);
    expect(folder.stderr).toBe(`clear: ${root}: is a folder, not a file (EISDIR); nothing was left half-written\n`);
    const kit = clear(["verify-kit", "--kit", path.join(root, "no-kit.json"), "--root", root, "--json"]);
    expect(kit.code).toBe(2);
    expect(JSON.parse(kit.stdout).error).toBe(`${path.join(root, "no-kit.json")}: does not exist (ENOENT); nothing was left half-written`);
  });
});

const FULL = path.join(tempDir("clear-full-"), "disk");
mkdirSync(FULL);
const mounted = spawnSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", FULL]).status === 0;
afterAll(() => {
  if (mounted) spawnSync("umount", [FULL]);
  rmSync(FULL, { recursive: true, force: true });
});

describe.skipIf(!mounted)(`a full disk${mounted ? "" : " (skipped: a small tmpfs cannot be mounted here)"}`, () => {
  it("substitute into a full disk leaves no partial output, says so, and exits 2 with one JSON object", () => {
    const sitting = tempDir();
    for (let i = 1; i <= 40; i++) writeFileSync(path.join(sitting, `codex_stop_0_153_0.${i}.json`), JSON.stringify({ session_id: "s", turn_id: `t${i}`, last_assistant_message: "y".repeat(4000) }));
    const out = path.join(FULL, "out");
    const r = clear(["substitute", sitting, "--out", out, "--json"]);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: false, error: expect.stringContaining("ENOSPC") });
    expect(spawnSync("ls", ["-A", FULL], { encoding: "utf8" }).stdout.trim()).toBe("");
  });
});
