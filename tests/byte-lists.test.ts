// Where a list of decimal numbers may start: a number glued to a word, a decimal point or an
// underscore is part of that and starts none; a minus sign before a number is its sign.
import { describe, expect, it } from "vitest";
import { numberLists } from "../src/byte-lists.js";

const sixteen = Array.from({ length: 16 }, (_, i) => 100 + i).join(", ");

describe("lists of decimal numbers", () => {
  it.each([
    ["at the text's start", sixteen, 0],
    ["after a bracket", `[${sixteen}]`, 1],
    ["after a space", `data: ${sixteen}`, 6],
    ["with a minus sign first", `[-${sixteen}]`, 1],
    ["after a word's dash, which is no sign", `a-${sixteen}`, 2],
  ])("a list %s starts at its first number", (_name, text, start) => {
    const lists = numberLists(text);
    expect(lists.map((l) => l.start)).toEqual([start]);
    expect(lists[0]?.values).toHaveLength(16);
    expect(Math.abs(lists[0]?.values[1] as number)).toBe(101);
  });

  it.each([
    ["a letter", `v${sixteen}`],
    ["a digit's decimal point", `0.${sixteen}`],
    ["an underscore", `id_${sixteen}`],
  ])("a number after %s starts no list there: the next list is one short and is none", (_name, text) => {
    expect(numberLists(text)).toEqual([]);
  });
});
