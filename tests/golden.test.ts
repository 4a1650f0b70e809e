import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeRealisticSitting } from "../bench/realistic.mjs";
import { clear, PROJECT_ROOT, sha256, tempDir } from "./helpers.js";

// Restructuring keeps every output byte: inventory, pair and select (every line, --verbose, and
// --json) and the cleared bytes of substitute, on the bundled sitting and a generated one, are
// compared with what the line wrote before (tests/golden/). CLEAR_GOLDEN_WRITE=1 writes them anew, for a change
// that means to change them.

const GOLDEN = path.join(import.meta.dirname, "golden");
const WRITE = process.env.CLEAR_GOLDEN_WRITE === "1";

function outputs(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const command of ["inventory", "pair", "select"]) {
    out[`${command}.json`] = clear([command, dir, "--json"]).stdout.split(dir).join("<sitting>");
    out[`${command}.txt`] = clear([command, dir, "--verbose"]).stdout.split(dir).join("<sitting>");
  }
  const target = path.join(tempDir("clear-golden-out-"), "out");
  clear(["substitute", dir, "--out", target]);
  out["substitute.sums"] = readdirSync(target).sort().map((n) => `${sha256(readFileSync(path.join(target, n)))}  ${n}`).join("\n");
  return out;
}

const sittings: Record<string, () => string> = {
  bundled: () => path.join(PROJECT_ROOT, "examples", "sitting"),
  generated: () => {
    const dir = path.join(tempDir("clear-golden-"), "sitting");
    makeRealisticSitting(dir, 60, 7);
    return dir;
  },
};

describe("outputs byte for byte as before", () => {
  for (const [name, make] of Object.entries(sittings)) {
    it(`the ${name} sitting`, () => {
      const got = outputs(make());
      const folder = path.join(GOLDEN, name);
      if (WRITE) {
        mkdirSync(folder, { recursive: true });
        for (const [file, text] of Object.entries(got)) writeFileSync(path.join(folder, file), text);
      }
      for (const [file, text] of Object.entries(got)) expect(text, `${name}/${file}`).toBe(readFileSync(path.join(folder, file), "utf8"));
    });
  }
});
