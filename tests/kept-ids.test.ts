import { describe, expect, it } from "vitest";
import { replaceIdWords } from "../src/passes/kept-ids.js";
import { escapeRegex } from "../src/regex.js";
import { prng } from "./seeded.mjs";

// The pattern the comparison replaced, kept here as what it must agree with.
function byPattern(text: string, ids: string[], by: string): string {
  return text.replace(new RegExp(`(?<=^|[\\s(\\[])(?:${ids.map(escapeRegex).join("|")})(?=$|[\\s,;:)\\]])`, "gu"), by);
}

describe("an id named as a word in a reason", () => {
  it("is replaced where it stands alone, the longer first, and nowhere inside a longer word", () => {
    const by = "(gone)";
    expect(replaceIdWords("no pair for s-1 (s-1:t-2) [s-1]", ["s-1:t-2", "s-1"], by)).toBe(`no pair for ${by} (${by}) [${by}]`);
    expect(replaceIdWords("xs-1 s-1x s-1.2 s-1", ["s-1"], by)).toBe(`xs-1 s-1x s-1.2 ${by}`);
    expect(replaceIdWords("s-1;s-1,s-1:", ["s-1"], by)).toBe(`${by};s-1,s-1:`);
    expect(replaceIdWords("s-1\u00a0s-1\u2028s-1", ["s-1"], by)).toBe(`${by}\u00a0${by}\u2028${by}`);
    expect(replaceIdWords("a b", ["", "b"], by)).toBe(`a ${by}`);
  });

  it("agrees with the pattern it replaced on generated texts", () => {
    const rnd = prng(Number(process.env.CLEAR_PROPERTY_SEED ?? 19));
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
    const pieces = ["s-1", "s-1:t", "t", "1", "s", " ", "(", "[", ")", "]", ",", ";", ":", ".", "-", "\u00a0", "\u3000", "\n", "\ud83d\ude00", "\ud83d", "é", "x"];
    let replaced = 0;
    for (let n = 0; n < 5000; n++) {
      const text = Array.from({ length: 1 + Math.floor(rnd() * 14) }, () => pick(pieces)).join("");
      const ids = [...new Set(Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => pick(["s-1", "s-1:t", "t", "1", "s", "\ud83d\ude00", "é x", "(s"])))].sort((a, b) => b.length - a.length);
      const expected = byPattern(text, ids, "#");
      if (expected !== text) replaced++;
      expect(replaceIdWords(text, ids, "#"), JSON.stringify({ text, ids })).toBe(expected);
    }
    expect(replaced).toBeGreaterThan(300);
  });
});
