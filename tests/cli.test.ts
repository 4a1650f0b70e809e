import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeRealisticSitting } from "../bench/realistic.mjs";
import { clear, clearJson, CLI, folderDigest, PROJECT_ROOT, tempDir } from "./helpers.js";

describe("the clear command line", () => {
  it("prints help and its version, and exits 0", () => {
    const help = clear(["--help"]);
    expect(help.code).toBe(0);
    for (const c of ["inventory", "pair", "substitute", "demo"]) expect(help.stdout).toContain(`clear ${c}`);
    for (const c of ["inventory", "pair", "substitute", "demo"]) {
      const r = clear([c, "--help"]);
      expect(r.code, c).toBe(0);
      expect(r.stdout).toContain(`clear ${c}`);
    }
    // Every flag the contract lists for a command stands in the top-level help, and --verbose wherever a command takes it.
    for (const usage of [
      "clear verify     [--root DIR] [--rev REV | --range BASE..HEAD] [--json] [--verbose]",
      "clear run        [<capture-dir>] [--root DIR] [--choose FILE]... [--recipe NAME]... [--json] [--verbose]",
      "clear verify-kit --kit <kit.json> [--root DIR] [--json] [--verbose]",
      "clear compare    <dir-a> <dir-b> | <harness> <version-a> <version-b> [--json] [--verbose]",
      "clear capture    hook <harness> <Event> [--host-version V]",
      "clear capture    setup <harness> --project DIR",
      "clear capture    start <harness> --into DIR [--driver TEXT] [--method TEXT]",
      "clear capture    status DIR [--recipe NAME] [--json] [--verbose]",
      "clear capture    dry-run <harness>",
    ]) expect(help.stdout).toContain(`  ${usage}\n`);
    for (const [command, usage] of [["run", "[--json] [--verbose]"], ["compare", "[--json] [--verbose]"], ["verify-kit", "[--json] [--verbose]"], ["kit", "[--verbose]"], ["capture", "status DIR [--recipe NAME] [--host-bin BIN] [--json] [--verbose]"]] as const) {
      expect(clear([command, "--help"]).stdout, command).toContain(usage);
    }
    const version = clear(["--version"]);
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(path.join(PROJECT_ROOT, "package.json"), "utf8")).version);
  });

  it("runs to its own exit code, printing no stack trace, when its reader stops reading (| head)", async () => {
    const dir = tempDir("clear-epipe-");
    makeRealisticSitting(dir, 400, 3);
    const whole = clear(["inventory", dir, "--json", "--fields"]);
    expect(whole.stdout.length).toBeGreaterThan(200_000);
    const child = spawn(process.execPath, [CLI, "inventory", dir, "--json", "--fields"], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
    // The reader takes the first bytes and goes away, as head does.
    child.stdout.once("data", () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
    expect(stderr).toBe(whole.stderr);
    expect(stderr).not.toMatch(/EPIPE|internal error|\n\s+at /);
    expect(code).toBe(whole.code);
  });

  it("exits 2 on an unknown command or option, naming it", () => {
    const unknown = clear(["frobnicate"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown command "frobnicate"');
    const option = clear(["inventory", tempDir(), "--frob"]);
    expect(option.code).toBe(2);
    expect(option.stderr).toMatch(/unknown option .--frob/i);
  });

  it("with --json still prints one JSON object when the input cannot be read, and exits 2", () => {
    const missing = path.join(tempDir(), "nope");
    const r = clear(["inventory", missing, "--json"]);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toEqual({ schemaVersion: 1, ok: false, error: `${missing}: no such folder`, findings: [] });
    expect(r.stderr).toContain("no such folder");
  });

  it("with --json prints exactly one JSON object with schemaVersion 1, from any current directory", () => {
    const dir = tempDir();
    for (const command of [["inventory", dir], ["pair", dir]]) {
      const { json } = clearJson(command, { cwd: "/" });
      expect(json.schemaVersion).toBe(1);
    }
  });

  it("runs the whole demo: hooks, run, the gate refusing, ACCEPT, the commit going through; the project's files untouched", () => {
    const before = folderDigest(path.join(PROJECT_ROOT, "examples")) + (existsSync(path.join(PROJECT_ROOT, "fixtures")) ? folderDigest(path.join(PROJECT_ROOT, "fixtures")) : "");
    const record = readFileSync(path.join(PROJECT_ROOT, "CLEARANCE.md"), "utf8");
    const r = clear(["demo"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("pre-commit: installed in");
    expect(r.stdout).toMatch(/== git commit before ACCEPT: exit 1 \(refused by the gate\)/);
    expect(r.stdout).toContain("  BLOCK fixture-not-accepted: 16 findings in 16 files\n");
    expect(r.stdout).toContain("\n    fixtures/claude-code/2.1.261/post_compact.json\n");
    expect(r.stdout).toContain("== git commit after ACCEPT: exit 0");
    expect(r.stdout).toContain("The flow went as it should.");
    expect(r.stdout).not.toContain("capturer");
    const after = folderDigest(path.join(PROJECT_ROOT, "examples")) + (existsSync(path.join(PROJECT_ROOT, "fixtures")) ? folderDigest(path.join(PROJECT_ROOT, "fixtures")) : "");
    expect(after).toBe(before);
    expect(readFileSync(path.join(PROJECT_ROOT, "CLEARANCE.md"), "utf8")).toBe(record);
  });

  it("with --keep leaves the demo repository, accepted and verifiable", () => {
    const r = clear(["demo", "--keep"]);
    const kept = /the repository is kept at (\S+)\./.exec(r.stdout)?.[1] ?? "";
    expect(existsSync(path.join(kept, ".git"))).toBe(true);
    expect(clear(["verify"], { cwd: kept }).code).toBe(0);
  });

  it("is also installed as fixture-clear", () => {
    const pkg = JSON.parse(readFileSync(path.join(PROJECT_ROOT, "package.json"), "utf8"));
    expect(pkg.bin).toEqual({ clear: "dist/cli.js", "fixture-clear": "dist/cli.js" });
    expect(readFileSync(path.join(PROJECT_ROOT, "dist", "cli.js"), "utf8").startsWith("#!/usr/bin/env node")).toBe(true);
  });
});

const HAVE_SCRIPT = spawnSync("script", ["--version"]).status === 0;

describe.skipIf(!HAVE_SCRIPT)(`progress on long runs${HAVE_SCRIPT ? "" : " (skipped: no script(1) to give the command a terminal)"}`, () => {
  it("says each pass on a terminal with more than a few hundred captures, and nothing under --json", () => {
    const dir = tempDir();
    for (let i = 1; i <= 320; i++) writeFileSync(path.join(dir, `codex_stop_0_153_0.${i}.json`), JSON.stringify({ session_id: "s", turn_id: `t${i}` }));
    const out = path.join(tempDir(), "out");
    const onTerminal = spawnSync("script", ["-qc", `"${process.execPath}" "${CLI}" substitute "${dir}" --out "${out}" >/dev/null`, "/dev/null"], { encoding: "utf8" });
    expect(onTerminal.stdout).toContain("reading 320 entries");
    expect(onTerminal.stdout).toContain("substituting 320 captures");
    const json = spawnSync("script", ["-qc", `"${process.execPath}" "${CLI}" inventory "${dir}" --json`, "/dev/null"], { encoding: "utf8" });
    expect(json.stdout).not.toContain("reading 320");
  });
});
