import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadRules } from "../src/io/load-rules.js";
import type { FieldRule, Rules } from "../src/types.js";
import { clearJson, tempDir } from "./helpers.js";
import { drift, eventsFromSchemas, eventsFromTypes, examplePayload, packageDir, packageVersion } from "./published-types.js";
import type { DeclaredEvent, Exceptions, TypeSource } from "./published-types.js";

// The rules against the hosts' own published statements of their hook inputs: the packages
// pinned in package.json and Codex's generated schemas. A host's next release shows up here, as a
// failing test, on the day its pin moves.

interface Sources {
  "claude-code": { types: TypeSource[] };
  opencode: { types: TypeSource[] };
  codex: { schemas: string };
  exceptions: Exceptions;
}

const DATA = path.join(import.meta.dirname, "data");
const sources = JSON.parse(readFileSync(path.join(DATA, "published-types.json"), "utf8")) as Sources;
const rules = loadRules();

const declared: Record<string, DeclaredEvent[]> = {
  "claude-code": sources["claude-code"].types.flatMap(eventsFromTypes),
  opencode: sources.opencode.types.flatMap(eventsFromTypes),
  codex: eventsFromSchemas((JSON.parse(readFileSync(path.join(DATA, sources.codex.schemas), "utf8")) as { schemas: Record<string, object> }).schemas, "codex"),
};

describe("the rules against the hosts' published types", () => {
  it("reads the pinned packages at the versions package.json pins", () => {
    const manifest = readFileSync(path.join(import.meta.dirname, "..", "package.json"), "utf8");
    const pinned = (JSON.parse(manifest) as { devDependencies: Record<string, string> }).devDependencies;
    for (const name of ["@anthropic-ai/claude-agent-sdk", "@opencode-ai/sdk", "@opencode-ai/plugin"]) expect(packageVersion(name), name).toBe(pinned[name]);
    expect(declared["claude-code"]!.map((e) => e.event)).toContain("PreToolUse");
    expect(declared.opencode!.map((e) => e.event)).toEqual(expect.arrayContaining(["session.created", "session.next.text.delta", "tool.execute.before"]));
    expect(declared.codex!.map((e) => e.event)).toEqual(expect.arrayContaining(["SessionStart", "Interrupt", "SessionEnd"]));
  });

  for (const harness of ["claude-code", "codex", "opencode"]) {
    describe(harness, () => {
      const d = drift(harness, declared[harness]!, rules, sources.exceptions);
      it("catalogues every event the host declares, and declares every catalogued event or says why not", () => {
        expect(d.uncatalogued).toEqual([]);
        expect(d.undeclaredEvents).toEqual([]);
      });
      it("has a rule of a fitting class for every member the host declares", () => {
        expect(d.unknownMembers).toEqual([]);
      });
      it("names nothing in a rule that the host no longer declares, unless an exception says why", () => {
        expect(d.undeclaredRules).toEqual([]);
        expect(d.enumValues).toEqual([]);
        expect(d.staleExceptions).toEqual([]);
      });
    });
  }
});

describe("an enum the hook input types as a string, whose values a named type of the SDK lists", () => {
  // A rule's note says which named union of sdk.d.ts its values are ("its values are sdk.d.ts
  // PermissionMode"); the rule documents exactly that union's literals.
  const sdk = readFileSync(path.join(packageDir("@anthropic-ai/claude-agent-sdk"), "sdk.d.ts"), "utf8");
  const union = (name: string): string[] | null => {
    const m = new RegExp(`export declare type ${name} = ([^;]+);`).exec(sdk);
    return m ? [...(m[1] as string).matchAll(/'([^']*)'/g)].map((x) => x[1] as string) : null;
  };
  const named = (rules.fields.find((f) => f.harness === "claude-code")?.rules ?? []).flatMap((r) => {
    const m = /its values are sdk\.d\.ts ([A-Za-z]+)/.exec(r.note ?? "");
    return m ? [{ rule: r, type: m[1] as string }] : [];
  });

  it("documents exactly the literals of that type", () => {
    expect(named.map((n) => n.rule.pointer)).toEqual(expect.arrayContaining(["/permission_mode", "/effort/level"]));
    for (const { rule, type } of named) {
      const literals = union(type);
      expect(literals, `${rule.pointer}: sdk.d.ts ${type}`).not.toBeNull();
      expect([...(rule.values ?? [])].sort(), rule.pointer).toEqual([...(literals ?? [])].sort());
    }
  });
});

describe("the check itself", () => {
  const without = (harness: string, pointer: string): Rules => ({
    ...rules,
    fields: rules.fields.map((f) => (f.harness === harness ? { ...f, rules: f.rules.filter((r) => r.pointer !== pointer) } : f)),
  });
  const withRule = (harness: string, pointer: string): Rules => ({
    ...rules,
    fields: rules.fields.map((f) => (f.harness === harness ? { ...f, rules: [...f.rules, { pointer, class: "enum" as const, examples: [] }] } : f)),
  });

  it("fails when a declared member's rule is removed", () => {
    const d = drift("claude-code", declared["claude-code"]!, without("claude-code", "/session_title"), sources.exceptions);
    expect(d.unknownMembers).toContain("SessionStart /session_title: no rule");
  });

  it("fails when a rule names what the host does not declare, and when an enum documents a value the host dropped", () => {
    expect(drift("codex", declared.codex!, withRule("codex", "/teleport_target"), sources.exceptions).undeclaredRules).toContain("/teleport_target");
    const moonlit = (r: FieldRule): FieldRule => (r.pointer === "/trigger" ? { ...r, values: [...(r.values ?? []), "by-moonlight"] } : r);
    const stale = { ...rules, fields: rules.fields.map((f) => (f.harness === "codex" ? { ...f, rules: f.rules.map(moonlit) } : f)) };
    expect(drift("codex", declared.codex!, stale, sources.exceptions).enumValues).toEqual(["/trigger: values by-moonlight are no longer declared"]);
  });
});

describe("a payload in the shape of every event the hosts declare", () => {
  const versions: Record<string, string> = { "claude-code": "2.1.332", codex: "0.171.0", opencode: "1.19.3" };
  for (const harness of ["claude-code", "codex", "opencode"]) {
    it(`${harness}: inventories with no unknown event or field, and clears`, () => {
      const dir = tempDir();
      const stems = new Map(rules.harnesses.find((h) => h.harness === harness)!.events.map((e) => [e.event, e.stem]));
      const counters = new Map<string, number>();
      for (const e of declared[harness]!) {
        // OpenCode's event stream comes bare and wrapped in {event}; everything else as it is.
        const forms = e.source.endsWith(" Event") ? [false, true] : [false];
        for (const wrapped of forms) {
          const stem = stems.get(e.event)!;
          const n = (counters.get(stem) ?? 0) + 1;
          counters.set(stem, n);
          writeFileSync(path.join(dir, `${harness}_${stem}_${versions[harness]!.replace(/\./g, "_")}.${n}.json`), JSON.stringify(examplePayload(e, wrapped)));
        }
      }
      const inventory = clearJson(["inventory", dir]).json.findings as { code: string; file?: string; pointer?: string }[];
      const unknown = inventory.filter((f) => f.code === "unknown-event" || f.code === "unknown-field");
      expect(unknown.map((f) => `${f.code} ${f.file} ${f.pointer}`)).toEqual([]);
      const r = clearJson(["substitute", dir, "--out", path.join(tempDir(), "out")]);
      const blocking = (r.json.findings as { code: string; severity: string; file?: string; pointer?: string }[]).filter((f) => f.severity === "block");
      expect(blocking.map((f) => `${f.code} ${f.file} ${f.pointer}`)).toEqual([]);
      expect(r.code).toBe(0);
    });
  }
});
