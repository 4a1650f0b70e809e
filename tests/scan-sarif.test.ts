import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { join } from "../src/passes/scan.js";
import { clear, tempDir } from "./helpers.js";
import { MULTITOOL_SKIP_REASON, MULTITOOL_SUPPORTED, multitoolIssues, sarifMultitool, sarifSchemaErrors } from "./sarif-tools.js";

// clear scan --sarif writes what GitHub code scanning takes: valid against the SARIF 2.1.0 schema,
// and clean under Microsoft's SARIF Multitool with GitHub's rules and SARIF's own (no error, no
// warning), on findings in files whose names have spaces and accents.

interface SarifLog {
  runs: {
    tool: { driver: { rules: { id: string; shortDescription?: { text: string }; fullDescription?: { text: string }; help?: { text: string }; properties?: Record<string, unknown> }[] } };
    results: {
      ruleId: string;
      message: { text: string };
      partialFingerprints: Record<string, string>;
      locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId: string }; region: { startLine: number; startColumn: number; endLine: number; endColumn: number } } }[];
    }[];
  }[];
}

const GITHUB = join(["gh", "p_", "wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx"]);
// secretlint's Anthropic rule and this project's both read this key.
const ANTHROPIC = join(["sk-", "ant-api03-", "Qz7".repeat(31), "AA"]);
const NAME = "wrzqxa";

/** A repository with findings in files whose names have spaces and accents. */
function repository(): { root: string; files: Record<string, string> } {
  const root = tempDir("clear-sarif-");
  execFileSync("git", ["init", "-q", "-b", "main"], { cwd: root });
  const escapedGithub = [...GITHUB].map((ch, i) => (i === 2 ? `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}` : ch)).join("");
  const files: Record<string, string> = {
    "dossier été/clé 1.json": `{\n  "session_id": "s",\n  "tool_response": "token: ${escapedGithub}"\n}\n`,
    "notes ü/a b.json": `${JSON.stringify({ cwd: `/home/${NAME}/p`, tool_input: { command: ANTHROPIC }, nested: JSON.stringify({ k: GITHUB }) }, null, 2)}\n`,
  };
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), text);
  }
  return { root, files };
}

function offsetOf(text: string, line: number, column: number): number {
  let at = 0;
  for (let l = 1; l < line; l++) at = text.indexOf("\n", at) + 1;
  return at + column - 1;
}

describe("clear scan --sarif", () => {
  let root = "";
  let files: Record<string, string> = {};
  let sarifPath = "";
  let log: SarifLog;
  beforeAll(() => {
    ({ root, files } = repository());
    sarifPath = path.join(tempDir(), "scan.sarif");
    expect(clear(["scan", ".", "--sarif", sarifPath], { cwd: root }).code).toBe(1);
    log = JSON.parse(readFileSync(sarifPath, "utf8")) as SarifLog;
  });

  it("is valid against the SARIF 2.1.0 schema @microsoft/jest-sarif ships", () => {
    expect(sarifSchemaErrors(log)).toEqual([]);
    expect(sarifSchemaErrors({ version: "2.1.0", runs: [{ results: [] }] }).length).toBeGreaterThan(0);
  });

  it.skipIf(!MULTITOOL_SUPPORTED)(`has no error and no warning under the SARIF Multitool's GitHub and SARIF rules${MULTITOOL_SUPPORTED ? "" : ` (skipped: ${MULTITOOL_SKIP_REASON})`}`, () => {
    const binary = sarifMultitool();
    expect(multitoolIssues(binary, sarifPath, tempDir())).toEqual([]);
    // The checker does see what code scanning refuses: a region that ends before it starts.
    const broken = JSON.parse(JSON.stringify(log)) as SarifLog;
    const region = broken.runs[0]!.results[0]!.locations[0]!.physicalLocation.region;
    region.endColumn = 1;
    region.startColumn = 5;
    const brokenPath = path.join(tempDir(), "broken.sarif");
    writeFileSync(brokenPath, JSON.stringify(broken));
    expect(multitoolIssues(binary, brokenPath, tempDir()).map((i) => i.ruleId)).toContain("SARIF1007");
  });

  it("describes every rule: short and full descriptions, help and a security severity", () => {
    const rules = log.runs[0]!.tool.driver.rules;
    expect(rules.map((r) => r.id)).toEqual(expect.arrayContaining(["clear/home-owner", "clear/anthropic", "@secretlint/secretlint-rule-github"]));
    for (const r of rules) {
      expect(r.shortDescription?.text.length, r.id).toBeGreaterThan(0);
      expect(r.fullDescription?.text.length, r.id).toBeGreaterThan(0);
      expect(r.help?.text.length, r.id).toBeGreaterThan(0);
      expect(r.properties?.["security-severity"], r.id).toMatch(/^\d+\.\d$/);
    }
  });

  it("places each result at its raw bytes under a relative, percent-encoded URI, once per secret per place, and shows no name", () => {
    const results = log.runs[0]!.results;
    const places = results.map((r) => {
      const { artifactLocation, region } = r.locations[0]!.physicalLocation;
      expect(artifactLocation.uriBaseId).toBe("%SRCROOT%");
      expect(artifactLocation.uri).toMatch(/^[A-Za-z0-9%._~!$&'()*+,;=:@/-]+$/);
      const file = decodeURIComponent(artifactLocation.uri);
      const text = files[file] as string;
      const bytes = text.slice(offsetOf(text, region.startLine, region.startColumn), offsetOf(text, region.endLine, region.endColumn));
      return { rule: r.ruleId, file, bytes };
    });
    expect(places.map((p) => [p.file, p.bytes]).sort()).toEqual(
      [
        ["dossier été/clé 1.json", `gh\\u0070${GITHUB.slice(3)}`],
        ["notes ü/a b.json", NAME],
        ["notes ü/a b.json", ANTHROPIC],
        ["notes ü/a b.json", GITHUB],
      ].sort(),
    );
    expect(readFileSync(sarifPath, "utf8")).not.toMatch(new RegExp(`${NAME.slice(0, 3)}|${GITHUB.slice(4, 12)}|${ANTHROPIC.slice(10, 18)}`));
  });

  it("gives each result a fingerprint that stays the same across runs and differs between results", () => {
    const again = path.join(tempDir(), "again.sarif");
    clear(["scan", ".", "--sarif", again], { cwd: root });
    const prints = (l: SarifLog): string[] => l.runs[0]!.results.map((r) => JSON.stringify(r.partialFingerprints));
    expect(prints(JSON.parse(readFileSync(again, "utf8")) as SarifLog)).toEqual(prints(log));
    expect(new Set(prints(log)).size).toBe(log.runs[0]!.results.length);
  });

  it("shows a file the scan could not read as an error result and in the run's notifications, never as clean", () => {
    const dir = tempDir("clear-sarif-unread-");
    execFileSync("git", ["init", "-q", "-b", "main"], { cwd: dir });
    writeFileSync(path.join(dir, "clean.json"), '{"a":1}\n');
    writeFileSync(path.join(dir, "outside.json"), `{"k":"${GITHUB}"}\n`);
    symlinkSync(path.join(dir, "outside.json"), path.join(dir, "linked.json"));
    const out = path.join(tempDir(), "unread.sarif");
    expect(clear(["scan", "clean.json", "linked.json", "--sarif", out], { cwd: dir }).code).toBe(1);
    const text = readFileSync(out, "utf8");
    const unread = JSON.parse(text) as SarifLog & { runs: { invocations: { executionSuccessful: boolean; toolExecutionNotifications: { message: { text: string } }[] }[] }[] };
    const run = unread.runs[0]!;
    expect(run.results.map((r) => [r.ruleId, r.locations[0]!.physicalLocation.artifactLocation.uri, r.message.text])).toEqual([["clear/not-scanned", "linked.json", "Not scanned: a symbolic link; never followed."]]);
    expect(run.tool.driver.rules.map((r) => r.id)).toContain("clear/not-scanned");
    expect(run.invocations[0]!.executionSuccessful).toBe(false);
    expect(run.invocations[0]!.toolExecutionNotifications.map((n) => n.message.text)).toEqual(["linked.json not scanned: a symbolic link; never followed."]);
    expect(text).not.toContain(GITHUB);
    expect(sarifSchemaErrors(unread)).toEqual([]);
    if (MULTITOOL_SUPPORTED) expect(multitoolIssues(sarifMultitool(), out, tempDir())).toEqual([]);
  });
});
