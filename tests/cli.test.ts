import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { clear, clearJson, PROJECT_ROOT, tempDir } from "./helpers.js";

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
    const version = clear(["--version"]);
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(path.join(PROJECT_ROOT, "package.json"), "utf8")).version);
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

  it("runs the whole demo on the bundled example and exits 0", () => {
    const r = clear(["demo"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("9 captures (9 valid), 0 missing events, 0 blocking findings");
    expect(r.stdout).toContain("9 cleared into");
        const cleared = /cleared: (.*)\n/.exec(r.stdout)?.[1] ?? "";
    expect(cleared).toContain('"cwd":"/home/user/work/demo-project"');
    expect(cleared).not.toContain("capturer");
  });

  it("is also installed as fixture-clear", () => {
    const pkg = JSON.parse(readFileSync(path.join(PROJECT_ROOT, "package.json"), "utf8"));
    expect(pkg.bin).toEqual({ clear: "dist/cli.js", "fixture-clear": "dist/cli.js" });
    expect(readFileSync(path.join(PROJECT_ROOT, "dist", "cli.js"), "utf8").startsWith("#!/usr/bin/env node")).toBe(true);
  });
});
