import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { looksLikeProse } from "../src/passes/substitute/clear-file.js";
import { BUNDLED_RULES_DIR, loadRules } from "../src/io/load-rules.js";
import type { FieldClass, FieldRuleSet } from "../src/types.js";
import { makeDisplay } from "../src/display.js";
import { homeGrammar, userNamePattern } from "../src/homes.js";
import { scanEngine, scanPass } from "../src/passes/scan.js";
import { clear, clearJson, tempDir } from "./helpers.js";

// Guarantees that once had no test: each of these fails when the code that keeps it is broken.

/** A repository whose rules add one that never runs: a prefilter word no text holds, on the files or on the control. */
function silencedRoot(): { root: string; silenced: string } {
  const root = tempDir("clear-silent-rule-");
  mkdirSync(path.join(root, "rules", "secrets"), { recursive: true });
  const patterns = JSON.parse(readFileSync(path.join(BUNDLED_RULES_DIR, "secrets", "patterns.json"), "utf8")) as { rules: { id: string; keywords: string[] }[] };
  const silenced = { ...(patterns.rules[0] as { id: string; keywords: string[] }), id: "clear/never-runs", keywords: ["zzqqxxnevermatches"] };
  writeFileSync(path.join(root, "rules", "secrets", "patterns.json"), JSON.stringify({ rules: [silenced], preset: {} }, null, 2));
  return { root, silenced: silenced.id };
}

describe("the scan's planted control", () => {
  it("fails the scan when a rule stays silent on it", () => {
    const { root, silenced: id } = silencedRoot();
    const silenced = { id };
    writeFileSync(path.join(root, "clean.json"), JSON.stringify({ note: "nothing secret here" }));
    const r = clearJson(["scan", path.join(root, "clean.json"), "--root", root]);
    expect(r.json.findings).toEqual([]);
    expect(r.json.control).toMatchObject({ red: false, silent: [silenced.id] });
    expect(r.code).toBe(1);
    const human = clear(["scan", path.join(root, "clean.json"), "--root", root]);
    expect(human.code).toBe(1);
    expect(human.stdout).toContain(`control: SILENT for ${silenced.id}`);
  });

  it("fails run and substitute too, which write nothing cleared", () => {
    const { root, silenced } = silencedRoot();
    execFileSync("git", ["init", "-q", root]);
    const dir = tempDir("clear-silent-sitting-");
    writeFileSync(path.join(dir, "claude-code_session_end_2.1.261.1.json"), JSON.stringify({ session_id: "s", hook_event_name: "SessionEnd", reason: "other" }));
    const run = clearJson(["run", dir, "--root", root]);
    expect(run.code).toBe(1);
    expect((run.json.scan as { control: unknown }).control).toMatchObject({ red: false, silent: [silenced] });
    expect(existsSync(path.join(root, "fixtures"))).toBe(false);
    const out = path.join(tempDir("clear-silent-out-"), "out");
    const sub = clearJson(["substitute", dir, "--out", out, "--root", root]);
    expect(sub.code).toBe(1);
    expect(sub.json.findings).toEqual(expect.arrayContaining([expect.objectContaining({ code: "control-silent", message: expect.stringContaining(silenced) })]));
    expect(existsSync(path.join(out, "claude-code_session_end_2.1.261.1.json"))).toBe(false);
  });

  it("judges the home owner's rule on the control for each engine's grammar and names", async () => {
    const rules = loadRules();
    const display = makeDisplay(rules, [], null);
    const clean = [{ file: "clean.json", text: JSON.stringify({ note: "nothing secret here" }) }];
    const whole = scanEngine(rules.secrets, homeGrammar(rules.homes), null, rules.knownMembers);
    expect((await scanPass(clean, whole, display)).control).toMatchObject({ red: true, silent: [] });
    // The same secret rules, with a grammar that knows no home under /home: the planted home is found by none.
    const homes = { ...rules.homes, roots: rules.homes.roots.filter((r) => !r.root.includes("home")) };
    const blind = scanEngine(rules.secrets, homeGrammar(homes), null, rules.knownMembers);
    expect((await scanPass(clean, blind, display)).control).toMatchObject({ red: false, silent: ["clear/home-owner"] });
    // The same blind grammar with the planted owner among the names: the name is found, but the grammar still finds no home, and that is said.
    // (A grammar of its own, made from a copy of the rules: none judged before it stands in for it.)
    const named = scanEngine(rules.secrets, homeGrammar({ ...homes }), userNamePattern(["control-owner"]), rules.knownMembers);
    expect((await scanPass(clean, named, display)).control).toMatchObject({ red: false, silent: ["clear/home-owner"] });
    // The whole grammar with names, among them one spelt in the planted home: judged on its own, and red.
    const taught = scanEngine(rules.secrets, homeGrammar(rules.homes, ["control-owner"]), userNamePattern(["control-owner", "ande"]), rules.knownMembers);
    expect((await scanPass(clean, taught, display)).control).toMatchObject({ red: true, silent: [] });
  });
});

describe("selection", () => {
  it("breaks a tie in size by the lowest .n, not by the order of names", () => {
    const dir = tempDir("clear-tie-");
    const body = JSON.stringify({ session_id: "s", hook_event_name: "SessionEnd", reason: "other" });
    // Sorted by name, .10 comes before .2: only the counter can choose .2.
    for (const n of [10, 2]) writeFileSync(path.join(dir, `claude-code_session_end_2.1.261.${n}.json`), body);
    const r = clearJson(["select", dir]);
    const selected = r.json.selected as { file: string; notChosen: { file: string; why: string }[] }[];
    expect(selected.map((s) => s.file)).toEqual(["claude-code_session_end_2.1.261.2.json"]);
    expect(selected[0]?.notChosen).toEqual([expect.objectContaining({ file: "claude-code_session_end_2.1.261.10.json", why: "same size, later .n" })]);
  });
});

describe("one writer for one --out", () => {
  it("a lock held beside --out refuses a second writer, which writes nothing", () => {
    const dir = tempDir("clear-lock-sitting-");
    writeFileSync(path.join(dir, "claude-code_session_end_2.1.261.1.json"), JSON.stringify({ session_id: "s", hook_event_name: "SessionEnd", reason: "other" }));
    const parent = tempDir("clear-lock-out-");
    mkdirSync(path.join(parent, ".out.clear-lock"));
    const r = clearJson(["substitute", dir, "--out", path.join(parent, "out")]);
    expect(r.code).toBe(2);
    expect(String(r.json.error)).toContain("another clear is writing there");
    expect(existsSync(path.join(parent, "out"))).toBe(false);
  });
});

/** Why an example's value cannot be of its rule's class, or null when it can. */
function contradiction(cls: FieldClass, value: unknown): string | null {
  if (cls === "number" || cls === "bool" || cls === "null") return typeof value === (cls === "bool" ? "boolean" : cls === "null" ? "object" : "number") ? null : `not a ${cls}`;
  if (typeof value !== "string") return null;
  if (cls === "free-text") return null;
  if (/[\n\r]/.test(value)) return "spans lines";
  if ((cls === "identifier" || cls === "enum") && looksLikeProse(value)) return "reads as prose";
  if (cls === "identifier" && /\s/.test(value)) return "an identifier holds no space";
  if (cls === "timestamp" && Number.isNaN(Date.parse(value)) && !/^[0-9]+(\.[0-9]+)?$/.test(value)) return "not a date and time";
  if (cls === "url" && !/^[a-z][a-z0-9+.-]*:\/\/\S+$/i.test(value)) return "not a URL";
  if (cls === "path" && looksLikeProse(value)) return "reads as prose, not a path";
  return null;
}

function contradictions(sets: FieldRuleSet[]): string[] {
  return sets.flatMap((set) => set.rules.flatMap((r) => r.examples.flatMap((ex) => {
    const why = contradiction(r.class, ex.value ?? null);
    return why === null ? [] : [`${set.harness} ${r.pointer} (${r.class}) example ${JSON.stringify(ex.value)}: ${why}`];
  })));
}

describe("field rules prove themselves", () => {
  it("no bundled example's value contradicts its rule's class", () => {
    expect(contradictions(loadRules().fields)).toEqual([]);
  });

  it("an example whose value contradicts its class is caught", () => {
    const sets = loadRules().fields.map((s) => ({ ...s, rules: s.rules.map((r) => ({ ...r, examples: [...r.examples] })) }));
    const rule = sets[0]?.rules.find((r) => r.class === "identifier");
    expect(rule).toBeDefined();
    rule?.examples.push({ ...(rule.examples[0] as { event: string; pointer: string }), value: "please read the notes I left in the folder" });
    expect(contradictions(sets)).toEqual([expect.stringContaining("reads as prose")]);
  });
});
