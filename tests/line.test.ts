import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadSetting } from "../src/io/setting.js";
import { watchParses } from "../src/json/reader.js";
import { runLine } from "../src/line.js";
import { reviewModel } from "../src/review/model.js";
import { makeRealisticSitting } from "../bench/realistic.mjs";
import { clearJson, PROJECT_ROOT, tempDir } from "./helpers.js";

// The one line: each capture read and parsed once, whatever the passes after it need; one verdict
// on refused classes, whichever command asks.

describe("one clear run", () => {
  it("parses each capture once, through every pass to the batch", async () => {
    const dir = tempDir("clear-line-");
    cpSync(path.join(PROJECT_ROOT, "examples", "sitting"), dir, { recursive: true });
    makeRealisticSitting(dir, 120, 5);
    const root = tempDir("clear-line-root-");
    const counts = new Map<string, number>();
    watchParses((text) => counts.set(text, (counts.get(text) ?? 0) + 1));
    try {
      const line = await runLine(loadSetting(root, root), dir, "record");
      expect(line.batch.text).toContain("## User acceptance");
      expect(line.fixtures.length + line.batch.blockers.length).toBeGreaterThan(0);
    } finally {
      watchParses(null);
    }
    const captures = readdirSync(dir).filter((n) => n !== "sitting.json");
    expect(captures.length).toBeGreaterThan(120);
    const parsed = captures.map((n) => [n, counts.get(readFileSync(path.join(dir, n), "utf8")) ?? 0] as const);
    expect(parsed.filter(([, n]) => n !== 1)).toEqual([]);
  });
});

describe("refused classes have one owner", () => {
  it("with the env-dump-v1 policy opted in, every command gives an environment dump the same verdict", () => {
    const env = Object.fromEntries(Array.from({ length: 24 }, (_, i) => [`VAR_${i}`, `value ${i}`]));
    const payload = { session_id: "s", turn_id: "t", hook_event_name: "Stop", env };
    const verdicts = (policy: boolean): number[] => {
      const root = tempDir("clear-env-dump-");
      const dir = path.join(root, "captures-inbox");
      cpSync(path.join(PROJECT_ROOT, "examples", "sitting"), dir, { recursive: true });
      // The example's sitting.json speaks of Claude Code only; this sitting holds Codex too.
      rmSync(path.join(dir, "sitting.json"));
      writeFileSync(path.join(dir, "codex_stop_0.153.0.1.json"), JSON.stringify(payload));
      if (policy) writeFileSync(path.join(root, "clear.config.json"), JSON.stringify({ policies: { "env-dump-v1": { reason: "a test admits one" } } }));
      const run = (args: string[]): { code: number; json: Record<string, unknown> } => clearJson([...args, "--root", root]);
      const inventory = run(["inventory", dir]);
      const refused = (inventory.json.findings as { code: string }[]).filter((f) => f.code === "refused-class").length;
      const sub = run(["substitute", dir, "--out", path.join(tempDir("clear-env-out-"), "out")]);
      const subRefused = (sub.json.files as { name: string; clearedBytes: number | null }[]).filter((f) => f.name.startsWith("codex_stop") && f.clearedBytes === null).length;
      const select = run(["select", dir]);
      const selected = (select.json.selected as { file: string }[]).some((s) => s.file.startsWith("codex_stop")) ? 0 : 1;
      const runCode = run(["run", dir]).code;
      return [refused, subRefused, selected, runCode === 0 ? 0 : 1];
    };
    expect(verdicts(false)).toEqual([1, 1, 1, 1]);
    expect(verdicts(true)).toEqual([0, 0, 0, 0]);
  });
});

describe("substitution says which rule changed each span", () => {
  it("the review page marks a literal-rule span as the literal rule, not as a home", async () => {
    const root = tempDir("clear-literal-");
    writeFileSync(path.join(root, "clear.config.json"), JSON.stringify({ literals: [{ name: "hostname", value: "build-box-7", placeholder: "host" }] }));
    const dir = tempDir("clear-literal-sitting-");
    const body = { session_id: "s", hook_event_name: "SessionStart", source: "startup", cwd: "/srv/build-box-7/work", transcript_path: ["/home/", "ana", "/t.jsonl"].join("") };
    writeFileSync(path.join(dir, "claude-code_session_start_2.1.261.1.json"), JSON.stringify(body));
    const line = await runLine(loadSetting(root, root), dir, "record", { keepDocuments: true });
    const model = reviewModel(line, line.selection, line.scan, null);
    const spans = model.fixtures[0]?.spans ?? [];
    const shown = (rule: string): string[] => spans.filter((s) => s.rule === rule).map((s) => model.fixtures[0]!.cleared.slice(s.start, s.end));
    expect(shown("literal-v1:hostname")).toEqual(['"/srv/host/work"']);
    expect(shown("home-path-v1")).toEqual(['"/home/user/t.jsonl"']);
  });
});
