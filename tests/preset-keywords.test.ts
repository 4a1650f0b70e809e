import { lintSource } from "@secretlint/core";
import { rules as presetRules } from "@secretlint/secretlint-rule-preset-recommend";
import { describe, expect, it } from "vitest";
import { loadRules } from "../src/io/load-rules.js";
import { join } from "../src/passes/scan.js";
import { PRESET_KEYWORDS, presetKeywords } from "../src/scan-rules/preset-keywords.js";

// The scan skips secretlint's preset on a text that holds none of its rules' words. That is sound
// only if every match of every rule holds one of its own rule's words: each rule, run alone by the
// real engine, is given its planted example and every text one edit away from it, and wherever it
// reports, the text holds a word of that rule.

const scanners = presetRules.filter((r) => r.meta.type === "scanner" && r.meta.id !== "@secretlint/secretlint-rule-filter-comments");
const examples = loadRules().secrets.preset;

async function reports(rule: (typeof scanners)[number], text: string, ext: string): Promise<boolean> {
  const options = rule.meta.id === "@secretlint/secretlint-rule-aws" ? { enableIDScanRule: true } : {};
  const config = { rules: [{ id: rule.meta.id, rule, options }] };
  const result = await lintSource({ source: { filePath: "", ext, content: text, contentType: "text" }, options: { config, maskSecrets: true, noPhysicFilePath: true } });
  return result.messages.some((m) => m.type === "message");
}

/** The example, and every text one edit from it in its first 64 units: a unit dropped, its case turned, or put in its place one of a few others. */
function neighbours(example: string): string[] {
  const out = [example, example.toUpperCase(), example.toLowerCase()];
  for (let at = 0; at < Math.min(example.length, 64); at++) {
    const [head, unit, tail] = [example.slice(0, at), example.charAt(at), example.slice(at + 1)];
    const turned = unit === unit.toLowerCase() ? unit.toUpperCase() : unit.toLowerCase();
    for (const put of ["", turned, "_", "-", ".", " ", "x", "0", "\\"]) if (put !== unit) out.push(head + put + tail);
  }
  return out;
}

describe("the preset's words", () => {
  it("are listed for every rule of the preset the scan runs, and for no other", () => {
    expect(Object.keys(PRESET_KEYWORDS).sort()).toEqual(scanners.map((r) => r.meta.id).sort());
    for (const words of Object.values(PRESET_KEYWORDS)) for (const w of words) expect(w).toBe(w.toLowerCase());
  });

  it("a rule with no words listed has the preset run on every text", () => {
    expect(presetKeywords(["@secretlint/secretlint-rule-aws"])?.test("akia")).toBe(true);
    expect(presetKeywords(["@secretlint/secretlint-rule-aws", "@secretlint/secretlint-rule-new"])).toBeNull();
  });

  it("every text a rule reports, its example and each one edit from it, holds a word of that rule", async () => {
    const wrong: string[] = [];
    let reported = 0;
    for (const rule of scanners) {
      const id = rule.meta.id;
      const words = presetKeywords([id]) as RegExp;
      const example = join(examples[id]?.match[0] as string[]);
      const ext = id === "@secretlint/secretlint-rule-gcp" ? ".json" : ".txt";
      expect(await reports(rule, example, ext), `${id} reports its own example`).toBe(true);
      for (const text of neighbours(example)) {
        if (!(await reports(rule, text, ext))) continue;
        reported++;
        if (!words.test(text.toLowerCase())) wrong.push(`${id}: ${JSON.stringify(text.slice(0, 80))}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(reported).toBeGreaterThan(scanners.length * 50);
  });
});
