import { spawnSync } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT } from "./helpers.js";

// The scan's control runs on a thread of its own only where the tool runs compiled: these tests
// load the compiled modules (the global setup builds them), typed by their sources.
const load = <T>(rel: string): Promise<T> => import(pathToFileURL(path.join(PROJECT_ROOT, "dist", rel)).href) as Promise<T>;

async function modules() {
  const [{ loadRules }, { homeGrammar, userNamePattern }, { controlAhead }, { verdictOf }, { scanEngine, silentOn, sittingEngine }] = await Promise.all([
    load<typeof import("../src/io/load-rules.js")>("io/load-rules.js"),
    load<typeof import("../src/homes.js")>("homes.js"),
    load<typeof import("../src/passes/control-ahead.js")>("passes/control-ahead.js"),
    load<typeof import("../src/passes/control-verdicts.js")>("passes/control-verdicts.js"),
    load<typeof import("../src/passes/scan.js")>("passes/scan.js"),
  ]);
  return { loadRules, homeGrammar, userNamePattern, controlAhead, verdictOf, scanEngine, silentOn, sittingEngine };
}

describe("the scan's control on a thread of its own", () => {
  it("hands the scan the verdicts the process would work out, for the sitting's engine and the guard's, a silent rule included", async () => {
    const m = await modules();
    const bundled = m.loadRules();
    // A rule with a prefilter word no text holds never runs: the control, on either thread, says it is silent.
    const silenced = { ...(bundled.secrets.rules[0] as (typeof bundled.secrets.rules)[number]), id: "clear/never-runs", keywords: ["zzqqxxnevermatches"] };
    const rules = { ...bundled, secrets: { ...bundled.secrets, rules: [...bundled.secrets.rules, silenced] } };
    const user = ["ben", "chuser"].join("");
    const names = { all: [user], checked: [user], grammar: m.homeGrammar(rules.homes, [user]) };
    const ahead = m.controlAhead(rules);
    expect(ahead).not.toBeNull();
    ahead?.named(names);
    const notHere = (): Promise<string[]> => Promise.reject(new Error("worked out in the process, not handed over"));
    const [handed, handedGuard] = await Promise.all([
      m.verdictOf(m.sittingEngine(rules, names).madeFrom, notHere),
      m.verdictOf(m.scanEngine(rules.secrets, names.grammar, null, rules.knownMembers).madeFrom, notHere),
    ]);
    expect(handed).toContain(silenced.id);
    // Engines made afresh (a grammar of their own) are not the line's: their control runs here.
    const fresh = m.homeGrammar(rules.homes, [user]);
    expect(handed).toEqual(await m.silentOn(m.scanEngine(rules.secrets, fresh, m.userNamePattern([user]), rules.knownMembers)));
    expect(handedGuard).toEqual(await m.silentOn(m.scanEngine(rules.secrets, fresh, null, rules.knownMembers)));
  });

  it("where the thread fails, the control runs in the process, once for every scan that asks", async () => {
    const m = await modules();
    const bundled = m.loadRules();
    // Home rules the thread cannot make a grammar of: it fails before it answers.
    const broken = { ...bundled, homes: { ...bundled.homes, roots: null as unknown as typeof bundled.homes.roots } };
    const user = ["ben", "chuser"].join("");
    const names = { all: [user], checked: [user], grammar: m.homeGrammar(bundled.homes, [user]) };
    const ahead = m.controlAhead(broken);
    ahead?.named(names);
    let runs = 0;
    const here = async (): Promise<string[]> => {
      runs++;
      return ["worked out here"];
    };
    const madeFrom = m.sittingEngine(broken, names).madeFrom;
    expect(await Promise.all([m.verdictOf(madeFrom, here), m.verdictOf(madeFrom, here)])).toEqual([["worked out here"], ["worked out here"]]);
    expect(runs).toBe(1);
  });

  it("never holds the process open where no scan asks for its verdict", () => {
    // The names never come, so the thread waits for them for ever: the process ends all the same.
    const script = [
      `const { loadRules } = await import(${JSON.stringify(pathToFileURL(path.join(PROJECT_ROOT, "dist", "io", "load-rules.js")).href)});`,
      `const { controlAhead } = await import(${JSON.stringify(pathToFileURL(path.join(PROJECT_ROOT, "dist", "passes", "control-ahead.js")).href)});`,
      "if (controlAhead(loadRules()) === null) process.exit(3);",
    ].join("\n");
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", timeout: 30_000 });
    expect(r.signal).toBeNull();
    expect(r.status).toBe(0);
  });
});
