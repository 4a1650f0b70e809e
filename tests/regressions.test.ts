import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { scanJson } from "../src/json/reader.js";
import { check, clearOnce } from "../scripts/fuzz-check.mjs";

// Every input the fuzz target (npm run fuzz) or a property test ever failed on, replayed.

const dir = path.join(import.meta.dirname, "regressions");
const files = readdirSync(dir).filter((f) => f.endsWith(".json")).sort();

describe("saved regressions", () => {
  it("the folder holds at least the regressions found so far", () => {
    expect(files.length).toBeGreaterThan(0);
  });
  for (const file of files) {
    it(`${file}: reads and clears as it should now`, () => {
      const r = JSON.parse(readFileSync(path.join(dir, file), "utf8")) as { reason: string; input: string; expect?: "cleared" };
      expect(check(r.input), r.reason).toBeNull();
      if (r.expect === "cleared") expect(clearOnce(r.input, scanJson(r.input, { maxDepth: 64 })), r.reason).not.toBeNull();
    });
  }
});
