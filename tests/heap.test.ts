import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeRealisticSitting } from "../bench/realistic.mjs";
import { CLI, PROJECT_ROOT, tempDir } from "./helpers.js";

const PROCESS_IO = path.join(PROJECT_ROOT, "dist", "io", "process-io.js");

// A process that holds about 60 MB live and replaces all of it ten times over, as a sitting's
// passes do: it prints its peak heap and how many full collections it took. V8 ignores a flag it
// does not know without a word, so what is checked is what the heap does.
const CHURN = `
import { PerformanceObserver, constants } from "node:perf_hooks";
if (process.argv[2] === "near") (await import(process.argv[3])).keepHeapNearLive();
let majors = 0;
new PerformanceObserver((list) => { for (const e of list.getEntries()) if (e.detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR) majors++; }).observe({ entryTypes: ["gc"] });
const live = new Array(40000);
let peak = 0;
for (let round = 0; round < 10; round++) {
  for (let i = 0; i < live.length; i++) {
    live[i] = { text: "x".repeat(1500) + i + round, spans: [i, round] };
    if (i % 1000 === 0) peak = Math.max(peak, process.memoryUsage().heapTotal);
  }
}
setTimeout(() => process.stdout.write(JSON.stringify({ peak, majors })), 20);
`;

function churn(mode: "near" | "default"): { peak: number; majors: number } {
  const script = path.join(tempDir("clear-heap-"), "churn.mjs");
  writeFileSync(script, CHURN);
  const r = spawnSync(process.execPath, [script, mode, PROCESS_IO], { encoding: "utf8" });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { peak: number; majors: number };
}

describe("a command's heap", () => {
  it("is held near what is live once the process asks: more full collections, a lower peak", () => {
    const near = churn("near");
    const left = churn("default");
    expect(near.majors).toBeGreaterThan(left.majors);
    expect(near.peak).toBeLessThan(left.peak * 0.85);
  });

  it("is held near what is live by a command's process, from its start", () => {
    const dir = tempDir("clear-heap-sitting-");
    makeRealisticSitting(path.join(dir, "sitting"), 20, 5);
    // The probe records each flag the process sets.
    const probe = path.join(dir, "probe.cjs");
    writeFileSync(probe, `const v8 = require("node:v8"); const set = v8.setFlagsFromString; const seen = [];
v8.setFlagsFromString = (f) => { seen.push(f); return set.call(v8, f); };
process.on("exit", () => process.stderr.write("\\nFLAGS " + JSON.stringify(seen) + "\\n"));`);
    const flagsOf = (node: string[], args: string[], nodeOptions?: string): unknown => {
      const env = nodeOptions === undefined ? process.env : { ...process.env, NODE_OPTIONS: nodeOptions };
      const r = spawnSync(process.execPath, [...node, "-r", probe, CLI, ...args], { encoding: "utf8", cwd: dir, env });
      expect([0, 1], r.stderr).toContain(r.status);
      return JSON.parse(/FLAGS (.*)/.exec(r.stderr)?.[1] ?? "null");
    };
    const sitting = ["inventory", path.join(dir, "sitting"), "--json"];
    // Reading a sitting also holds the young generation (the next test); --version reads none.
    expect(flagsOf([], sitting)).toEqual(["--heap-growing-percent=30", "--semi-space-growth-factor=1"]);
    expect(flagsOf([], ["--version"])).toEqual(["--heap-growing-percent=30"]);
    // A person who gave node a flag keeps their choice, spelt either way.
    for (const given of ["--heap-growing-percent=80", "--heap_growing_percent=80"]) expect(flagsOf([given], ["--version"]), given).toEqual([]);
    for (const given of ["--max-semi-space-size=16", "--min_semi_space_size=2", "--semi-space-growth-factor=2"]) {
      expect(flagsOf([given], sitting), given).toEqual(["--heap-growing-percent=30"]);
    }
    // NODE_OPTIONS takes the young generation's ceiling (not the other flags): given there, it is kept too.
    expect(flagsOf([], sitting, "--max-semi-space-size=64")).toEqual(["--heap-growing-percent=30"]);
  });

  it("holds its young generation at 16 MB as it reads a sitting, where V8 would grow it to 32", () => {
    const dir = tempDir("clear-heap-young-");
    makeRealisticSitting(path.join(dir, "sitting"), 2000);
    const probe = path.join(dir, "young.cjs");
    writeFileSync(probe, `const v8 = require("node:v8");
process.on("exit", () => process.stderr.write("\\nYOUNG " + v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space").space_size + "\\n"));`);
    const youngAtEnd = (node: string[]): number => {
      const r = spawnSync(process.execPath, [...node, "-r", probe, CLI, "inventory", path.join(dir, "sitting"), "--json"], { encoding: "utf8", cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
      expect([0, 1], r.stderr).toContain(r.status);
      return Number(/YOUNG (\d+)/.exec(r.stderr)?.[1]);
    };
    // YOUNG_GENERATION_MB (process-io.ts); importing that module here would hook the worker's stdout.
    const held = 16 * 1024 * 1024;
    expect(youngAtEnd([])).toBeLessThanOrEqual(held);
    // The same process left to V8's default growth (a person's own flag) grows past it.
    expect(youngAtEnd(["--semi-space-growth-factor=2"])).toBeGreaterThan(held);
  });
});
