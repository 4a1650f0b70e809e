import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The house reads top to bottom: every module of src/ stands on a floor, imports only from its own
// floor or those below, and no import, static or loaded on demand, closes a circle.

const SRC = path.resolve(import.meta.dirname, "..", "src");

/** Floors from the bottom; a module's floor is the first whose pattern its path matches. */
export const FLOORS: [string, RegExp][] = [
  ["values", /^(types|schema-types|findings|advice|errors|regex|digest|version|collections|compressed|byte-lists|hex-dumps|radix|schemas|schemas\/.*)$/],
  ["text", /^(json\/.*|pointers|capture-name|record\/.*|homes|home-anchors|home-escapes|home-shown|look-alike-table|name-spellings|account-names)$/],
  ["domain", /^(classify|refusals|display|scan-rules\/.*)$/],
  ["passes", /^passes\/.*$/],
  ["presentation", /^(render|review)\/.*$/],
  ["edges", /^(io|capture|lib)\/.*$/],
  ["line", /^(line|clearance\/.*)$/],
  ["commands", /^(command|cli-args|said-back|commands\/.*)$/],
  ["entry", /^cli$/],
];

function modules(dir = SRC): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return modules(p);
    return p.endsWith(".ts") ? [path.relative(SRC, p).replace(/\.d\.ts$|\.ts$/, "")] : [];
  });
}

/** A module's source; the schemas' validators are generated at build time, and src/ holds their declarations. */
const sourceOf = (module: string): string => path.join(SRC, `${module}${module === "schemas" || module.startsWith("schemas/") ? ".d" : ""}.ts`);

function importsOf(module: string): string[] {
  const file = sourceOf(module);
  const text = readFileSync(file, "utf8");
  const specs = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^;]*?\bfrom\s*"(\.[^"]+)"|\bimport\(\s*"(\.[^"]+)"\s*\)/g)].map((m) => (m[1] ?? m[2]) as string);
  return specs.map((s) => path.relative(SRC, path.resolve(path.dirname(file), s)).replace(/\.js$/, ""));
}

const floorOf = (module: string): number => FLOORS.findIndex(([, re]) => re.test(module));

function upwardImports(graph: Map<string, string[]>): string[] {
  return [...graph].flatMap(([m, deps]) => deps.filter((d) => floorOf(d) > floorOf(m)).map((d) => `${m} (${FLOORS[floorOf(m)]?.[0]}) -> ${d} (${FLOORS[floorOf(d)]?.[0]})`));
}

function circlesIn(graph: Map<string, string[]>): string[] {
  const state = new Map<string, "open" | "done">();
  const circles: string[] = [];
  const visit = (m: string, trail: string[]): void => {
    if (state.get(m) === "done") return;
    if (state.get(m) === "open") {
      circles.push([...trail.slice(trail.indexOf(m)), m].join(" -> "));
      return;
    }
    state.set(m, "open");
    for (const d of graph.get(m) ?? []) visit(d, [...trail, m]);
    state.set(m, "done");
  };
  for (const m of graph.keys()) visit(m, []);
  return circles;
}

describe("the layers of src/", () => {
  const all = modules();
  const graph = new Map(all.map((m) => [m, importsOf(m)]));

  it("every module stands on a floor", () => {
    expect(all.filter((m) => floorOf(m) === -1)).toEqual([]);
  });

  it("reads every import, static and on demand", () => {
    expect([...graph.values()].flat().length).toBeGreaterThan(300);
    expect(graph.get("cli")).toEqual(expect.arrayContaining(["capture/sink", "io/process-io"]));
  });

  it("no import runs up a floor", () => {
    expect(upwardImports(graph)).toEqual([]);
  });

  it("no import closes a circle", () => {
    expect(circlesIn(graph)).toEqual([]);
  });

  it("a command's help loads no pass, no rules and no scanner: the registry's imports reach none", () => {
    const reached = new Set<string>();
    const visit = (m: string): void => {
      if (reached.has(m)) return;
      reached.add(m);
      for (const d of graph.get(m) ?? []) visit(d);
    };
    visit("commands/help");
    expect(reached.size).toBeGreaterThan(1);
    expect([...reached].filter((m) => /^(passes|scan-rules|line|render|review|clearance)\/|^io\/(load-rules|setting)$/.test(m))).toEqual([]);
    // Every command the CLI dispatches has its help there.
    const cli = readFileSync(path.join(SRC, "cli.ts"), "utf8");
    const dispatched = [...cli.matchAll(/^\s+"?([a-z-]+)"?: async \(\) => \(await import\("\.\/commands\//gm)].map((m) => m[1]);
    const help = readFileSync(path.join(SRC, "commands", "help.ts"), "utf8");
    expect(dispatched.length).toBeGreaterThan(10);
    for (const name of dispatched) expect(help).toContain(`"${name}": \``);
  });

  it("the checks see an upward import and a circle where there is one", () => {
    const fake = new Map([["passes/a", ["io/b"]], ["io/b", ["passes/a"]]]);
    expect(upwardImports(fake)).toEqual(["passes/a (passes) -> io/b (edges)"]);
    expect(circlesIn(fake)).toEqual(["passes/a -> io/b -> passes/a"]);
  });
});

/** Calls that pass every item of a list as one argument each: past some hundred thousand, a stack overflow. */
export function listsSpreadIntoCalls(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, "");
  // A spread among the call's own arguments: nothing opened between the call and it (an object or array literal holds its own).
  const found = code.match(/\.(?:push|unshift)\(\s*(?:[^;{}[\]()]*?,\s*)?\.\.\.|(?:Math\.(?:max|min)|String\.from(?:CharCode|CodePoint))\(\s*(?:[^;{}[\]()]*?,\s*)?\.\.\.|\bappend\([^;{}[\]()]*?,\s*\.\.\./g);
  return found ?? [];
}

describe("no list of unbounded length is spread into a call", () => {
  it("src/ uses pushAll and reduce, never push(...list) or Math.max(...list)", () => {
    const offenders = modules().flatMap((m) => listsSpreadIntoCalls(readFileSync(sourceOf(m), "utf8")).map((x) => `${m}: ${x}`));
    expect(offenders).toEqual([]);
  });

  it("the check sees one", () => {
    expect(listsSpreadIntoCalls("out.push(...changes);\nlines.push(\"a\", ...rest);\nMath.max(...sizes);\nappend(map, key, ...items);\nlines.push(\n  ...more,\n);\nMath.max(2 * n + 3, ...sizes);")).toHaveLength(6);
    expect(listsSpreadIntoCalls("pushAll(out, [...a, b]);\nconst c = [...d];\nout.push({ ...leaf, a: 1 });\n// x.push(...y)")).toEqual([]);
  });
});
