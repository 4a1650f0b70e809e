import { readFileSync, realpathSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { HARNESSES, HOST_PINS, pinnedBin, probeVersion } from "../src/capture/hosts.js";
import { checklist, type DrivenRecipe } from "../src/capture/recipes.js";
import { loadRules, validateAgainst } from "../src/io/load-rules.js";

// A driven recipe accounts for the host's whole catalogue: each event is fired by a step, or listed
// as unreliable (a step fires it some of the time) or unreachable, with its reason; once only. A
// reason that says the pinned binary does not name an event is checked against the binary itself,
// and the same search must find every event the recipe fires (so a search that finds nothing cannot
// pass).

const rules = loadRules();
const IN_CI = process.env.CI !== undefined && process.env.CI !== "" && process.env.CI !== "false";
const NOT_NAMED = /^not named by the (.+?) (\d+\.\d+\.\d+) binary/;

/** Whether the binary holds the name as a whole word: not inside a longer dotted or underscored name. */
function names(binary: Buffer, name: string): boolean {
  const wordByte = (b: number | undefined): boolean => b !== undefined && /[A-Za-z0-9_.\-]/.test(String.fromCharCode(b));
  for (let at = binary.indexOf(name, 0, "latin1"); at >= 0; at = binary.indexOf(name, at + 1, "latin1")) {
    if (!wordByte(binary[at - 1]) && !wordByte(binary[at + name.length])) return true;
  }
  return false;
}

for (const harness of HARNESSES) {
  const recipe = rules.recipes.find((r) => r.name === `${harness}-driven`) as DrivenRecipe | undefined;
  const catalogue = rules.harnesses.find((h) => h.harness === harness)!;
  const hostName = (stem: string): string => catalogue.events.find((e) => e.stem === stem)!.event;

  describe(`${harness}-driven`, () => {
    it("lists every event of the host's catalogue once: fired by a step, or unreliable or unreachable with a reason", () => {
      expect(recipe).toBeDefined();
      const fired = recipe!.events;
      const others = [...(recipe!.unreliable ?? []), ...(recipe!.unreachable ?? [])];
      const listed = [...fired, ...others.map((u) => u.event)];
      const stems = catalogue.events.map((e) => e.stem);
      expect([...listed].sort()).toEqual([...stems].sort());
      expect(new Set(listed).size).toBe(listed.length);
      const byStep = new Set((recipe!.steps ?? []).flatMap((s) => s.events));
      expect([...byStep].filter((e) => !fired.includes(e))).toEqual([]);
      expect(fired.filter((e) => !byStep.has(e))).toEqual([]);
      for (const u of others) expect(u.reason.trim().length, u.event).toBeGreaterThan(20);
      expect(checklist(recipe!).filter((l) => l.startsWith("  [ ] "))).toHaveLength((recipe!.steps ?? []).length);
    });

    const claims = (recipe?.unreachable ?? []).filter((u) => NOT_NAMED.test(u.reason));
    const bin = pinnedBin(harness);
    const installed = probeVersion(bin)?.version === HOST_PINS[harness].version;
    if (!installed && IN_CI) throw new Error(`the pinned ${harness} is not installed at ${bin}; .ci/run installs it with clear capture install`);
    if (claims.length === 0) return;
    it.skipIf(!installed)(
      `an event said not to be named by the pinned binary is not in it, and every fired event is${installed ? "" : " (skipped: the pinned host is not installed here)"}`,
      () => {
        const binary = readFileSync(realpathSync(bin));
        for (const u of claims) {
          const [, , version] = NOT_NAMED.exec(u.reason)!;
          expect(version, u.event).toBe(HOST_PINS[harness].version);
          expect(names(binary, hostName(u.event)), `${u.event}: the binary names ${hostName(u.event)}`).toBe(false);
        }
        for (const stem of recipe!.events) expect(names(binary, hostName(stem)), `${stem} is fired but not found`).toBe(true);
      },
      60_000,
    );
  });
}

describe("a person's checklist", () => {
  it("has each step's trigger and its events on lines of their own, and names the unreliable events after the steps", () => {
    const recipe: DrivenRecipe = {
      name: "mine",
      harness: "codex",
      description: "a test recipe",
      events: ["stop"],
      steps: [{ name: "one", trigger: "a reply", events: ["stop"] }],
      unreliable: [{ event: "interrupt", reason: "fires some of the time, measured" }],
    };
    expect(checklist(recipe)).toEqual([
      "  [ ] 1. one: a reply",
      "        expect: stop",
      "  may also fire, not waited for: interrupt (fires some of the time, measured)",
    ]);
  });
});

describe("a recipe's scripted replies", () => {
  const recipe = (reply: unknown): unknown => ({
    name: "mine",
    harness: "codex",
    description: "a test recipe",
    events: ["stop"],
    steps: [{ name: "one", trigger: "a reply", events: ["stop"], run: { prompt: "go", script: [reply] } }],
  });
  it("are checked against the recipe schema: a status the server cannot send, a size that is not a count, a failure inside then, a misspelt field", () => {
    for (const good of [{ text: "ok" }, { tools: [{ tool: "bash", input: {} }], inputTokens: 199000 }, { status: 400 }, { status: 503, retryAfterMs: 200, then: { text: "again" } }])
      expect(() => validateAgainst("recipe", recipe(good), "mine.json"), JSON.stringify(good)).not.toThrow();
    const bad = [
      { status: 99 },
      { status: 1000 },
      { text: "x", inputTokens: "199000" },
      { text: "x", inputTokens: -5 },
      { status: 503, then: { status: 503, then: { text: "never" } } },
      { stauts: 400 },
      { text: "x", status: 400 },
      { status: 503, retryAfterMs: "1\r\nX-Evil: 1" },
    ];
    for (const reply of bad) expect(() => validateAgainst("recipe", recipe(reply), "mine.json"), JSON.stringify(reply)).toThrow(/mine\.json/);
  });
});
