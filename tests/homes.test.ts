import { describe, expect, it } from "vitest";
import { homeGrammar } from "../src/homes.js";
import { loadRules } from "../src/io/load-rules.js";
import { nestedReadings } from "../src/json/escapes.js";
import { captureOf, clearInMemory } from "./helpers.js";
import { prng } from "./seeded.mjs";

const rules = loadRules();
const grammar = homeGrammar(rules.homes);

describe("the home grammar (rules/homes.json)", () => {
  for (const root of [...rules.homes.roots, ...rules.homes.slugs]) {
    it(`${root.id}: finds the owner in each of its examples, and in none of its counter-examples`, () => {
      for (const ex of root.examples) expect(grammar.realOwners(ex.text).map((o) => o.owner), ex.text).toEqual([ex.owner]);
      for (const text of root.notExamples ?? []) expect(grammar.realOwners(text), text).toEqual([]);
    });
  }

  it("replaces owners of any letters: non-ASCII, one letter, a leading underscore, @ and +, spaces on Windows", () => {
    const owners = ["José", "j", "_svc", "ana@corp", "ana+1", "Zoë Ødegård"];
    for (const owner of owners) {
      // A space ends an owner in a POSIX home, not in a Windows one.
      const text = owner.includes(" ") ? `C:\\Users\\${owner}\\Documents` : `C:\\Users\\${owner}\\Documents and /home/${owner}/p`;
      const found = grammar.realOwners(text).map((o) => o.owner);
      expect(found, text).toEqual(owner.includes(" ") ? [owner] : [owner, owner]);
    }
  });
});

// Random roots from the data, random owners of any letters (1 to 30, spaces where Windows allows
// them), random escaping depth: no written file keeps an owner the final check can find.
const SEED = Number(process.env.CLEAR_PROPERTY_SEED ?? Date.now() % 2 ** 31);

function randomOwner(rnd: () => number, spaces: boolean): string {
  const letters = ["a", "Z", "é", "ß", "ø", "Ж", "中", "_", "@", "+", "-", ".", "7", ...(spaces ? [" "] : [])];
  const length = 1 + Math.floor(rnd() * 30);
  let owner = "";
  while (owner.length < length) owner += letters[Math.floor(rnd() * letters.length)];
  // An owner never starts with a dot or ends with a space, and a dash cannot lead a slug.
  return owner.replace(/^[.\- ]+/, "q").replace(/ +$/, "");
}

function spell(rootId: string, owner: string, rnd: () => number): string {
  const root = rules.homes.roots.find((r) => r.id === rootId)!;
  const windows = root.separators.includes("\\") && rnd() < 0.5;
  const drive = String.fromCharCode(65 + Math.floor(rnd() * 26));
  const base = root.root.replace("{drive}", rnd() < 0.5 ? drive : drive.toLowerCase()).replace("{name}", "Disk").replace("{group}", "users");
  const path = `${base}/${owner}/work/file.txt`;
  return windows ? path.replace(/\//g, "\\") : path;
}

function nest(text: string, depth: number): string {
  let out = text;
  for (let k = 0; k < depth; k++) out = JSON.stringify({ inner: out });
  return out;
}

describe("home owners, as a property", () => {
  it(`no written file keeps an owner, for 400 random homes (seed ${SEED})`, () => {
    const rnd = prng(SEED);
    const roots = rules.homes.roots.filter((r) => r.id !== "tilde");
    let written = 0;
    for (let i = 0; i < 400; i++) {
      const root = roots[Math.floor(rnd() * roots.length)]!;
      const owner = randomOwner(rnd, root.owner === "segment-with-spaces");
      const value = nest(spell(root.id, owner, rnd), Math.floor(rnd() * 3));
      const text = JSON.stringify({ session_id: "s", turn_id: "t", cwd: value, prompt: `look at ${value}` });
      const [file] = clearInMemory([captureOf(text, `codex_pre_tool_use_0_153_0.${i + 1}.json`, "codex", "pre_tool_use")]).files;
      if (!file?.cleared) continue;
      written++;
      const out = JSON.parse(Buffer.from(file.cleared).toString("utf8")) as { cwd: string };
      for (const reading of nestedReadings(out.cwd)) expect(grammar.realOwners(reading), `${root.id} ${JSON.stringify(owner)}: ${out.cwd}`).toEqual([]);
    }
    // Refusal is allowed (fail closed) but must stay the exception.
    expect(written).toBeGreaterThan(300);
  });
});

describe("overlapping finds", () => {
  it("keep the first and longest owner, so no replacement lands inside another (seed 121, doc 987)", () => {
    const text = "see /home/ana/a and then U:\\Users\\ana ~é_0 ~😀/";
    const owners = grammar.owners(text);
    for (let i = 1; i < owners.length; i++) expect(owners[i]!.start).toBeGreaterThanOrEqual(owners[i - 1]!.end);
    expect(owners.map((o) => o.owner)).toEqual(["ana", "ana ~é_0 ~😀"]);
  });
});
