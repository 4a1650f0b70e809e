import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { join } from "../src/passes/scan.js";
import type { Found } from "../src/passes/scan-waivers.js";
import { waive } from "../src/passes/scan-waivers.js";
import type { ScanWaiver, WaivedFinding } from "../src/types.js";
import { clear, clearJson, tempDir } from "./helpers.js";

// A value that is not a secret is waived in clear.config.json by fixture path, JSON pointer, rule
// and the SHA-256 of the decoded value, never the value; a waiver that matches nothing is reported.

const sha = (text: string): string => createHash("sha256").update(text, "utf8").digest("hex");

function found(path: string, rawPointer: string | null, rule: string, value: string): Found {
  const finding = { file: path, rule, line: 1, column: 1, endLine: 1, endColumn: 2, masked: "****", message: "m" };
  return { finding, path, rawPointer, valueSha256: sha(value) };
}

describe("waive", () => {
  const w: ScanWaiver = { fixture: "fixtures/a.json", pointer: "/k", rule: "clear/jwt", sha256: sha("v"), reason: "a documented example" };

  it("waives only where path, pointer, rule and digest all match", () => {
    const all = [
      found("fixtures/a.json", "/k", "clear/jwt", "v"),
      found("fixtures/a.json", "/k", "clear/jwt", "other value"),
      found("fixtures/a.json", "/j", "clear/jwt", "v"),
      found("fixtures/a.json", "/k", "clear/anthropic", "v"),
      found("fixtures/b.json", "/k", "clear/jwt", "v"),
      found("fixtures/a.json", null, "clear/jwt", "v"),
    ];
    const split = waive(all, new Set(["fixtures/a.json", "fixtures/b.json"]), [w]);
    expect(split.waived).toEqual([{ ...all[0]!.finding, sha256: sha("v"), reason: "a documented example" }]);
    expect(split.kept).toEqual(all.slice(1).map((f) => f.finding));
    expect(split.unused).toEqual([]);
  });

  it("reports a waiver naming a scanned file that matched nothing there, and not one for a file not scanned", () => {
    const other = { ...w, fixture: "fixtures/other.json" };
    const split = waive([found("fixtures/a.json", "/k", "clear/jwt", "changed")], new Set(["fixtures/a.json"]), [w, other]);
    expect(split.unused).toEqual([w]);
    expect(split.kept).toHaveLength(1);
  });
});

describe("clear scan with waivers in clear.config.json", () => {
  const key = join(["AKIA", "Z7VRSQ5T", "EXNWL3KH"]);
  const escaped = `\\u0041${key.slice(1)}`;

  function repository(waivers: unknown[]): string {
    const root = tempDir("clear-waive-");
    execFileSync("git", ["init", "-q", "-b", "main"], { cwd: root });
    mkdirSync(path.join(root, "fixtures", "claude-code"), { recursive: true });
    writeFileSync(path.join(root, "fixtures", "claude-code", "pre_tool_use.json"), `{"tool_input": {"command": "aws --key ${escaped}"}, "other": "${key}"}`);
    writeFileSync(path.join(root, "clear.config.json"), JSON.stringify({ waivers }));
    return root;
  }
  const waiver = (over: Partial<ScanWaiver> = {}): ScanWaiver => ({
    fixture: "fixtures/claude-code/pre_tool_use.json",
    pointer: "/tool_input/command",
    rule: "@secretlint/secretlint-rule-aws",
    sha256: sha(key),
    reason: "AWS's documented example key",
    ...over,
  });

  it("waives the finding it names (digest of the decoded value), keeps the same value elsewhere, and reports an unused waiver", () => {
    const unused = waiver({ pointer: "/nowhere" });
    const root = repository([waiver(), unused, waiver({ fixture: "fixtures/not-scanned.json" })]);
    const r = clearJson(["scan", "fixtures"], { cwd: root });
    expect(r.code).toBe(1);
    const json = r.json as unknown as { findings: { pointer: string }[]; waived: WaivedFinding[]; unusedWaivers: ScanWaiver[] };
    expect(json.findings.map((f) => f.pointer)).toEqual(["/[masked]"]); // /other: a member no rule spells
    expect(json.waived).toEqual([expect.objectContaining({ rule: "@secretlint/secretlint-rule-aws", pointer: "/tool_input/command", sha256: sha(key), reason: "AWS's documented example key" })]);
    expect(json.unusedWaivers).toEqual([{ ...unused, pointer: "/[masked]" }]);
    const human = clear(["scan", "fixtures"], { cwd: root }).stdout;
    expect(human).toContain("WAIVED @secretlint/secretlint-rule-aws fixtures/claude-code/pre_tool_use.json /tool_input/command");
    expect(human).toContain("UNUSED WAIVER @secretlint/secretlint-rule-aws fixtures/claude-code/pre_tool_use.json /[masked]");
    expect(human).toContain("1 finding, 1 waived, 1 unused waivers");
    const sarif = path.join(tempDir(), "w.sarif");
    clear(["scan", "fixtures", "--sarif", sarif], { cwd: root });
    const results = (JSON.parse(readFileSync(sarif, "utf8")) as { runs: { results: { suppressions?: { justification: string }[] }[] }[] }).runs[0]!.results;
    expect(results.map((x) => x.suppressions?.[0]?.justification ?? null).sort()).toEqual(["AWS's documented example key", null]);
  });

  it("exits 0 when every finding is waived; an unused waiver alone does not block", () => {
    const root = repository([waiver(), waiver({ pointer: "/other" }), waiver({ sha256: sha("gone") })]);
    const r = clearJson(["scan", "fixtures"], { cwd: root });
    expect([r.code, (r.json.waived as unknown[]).length, (r.json.unusedWaivers as unknown[]).length]).toEqual([0, 2, 1]);
  });

  it("refuses a waiver of a name, one holding anything but a SHA-256, and one without its reason, naming the file and the place", () => {
    for (const bad of [waiver({ rule: "clear/home-owner" }), waiver({ sha256: key }), { ...waiver(), reason: undefined }]) {
      const root = repository([bad]);
      const r = clearJson(["scan", "fixtures"], { cwd: root });
      expect(r.code).toBe(2);
      expect(r.json.error).toMatch(/clear\.config\.json: does not match config\.schema\.json at \/waivers\/0/);
      expect(JSON.stringify(r.json)).not.toContain(key.slice(4));
    }
  });
});
