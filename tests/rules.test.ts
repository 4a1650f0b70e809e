import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { classifier, classifyDocument } from "../src/classify.js";
import { findRefusals } from "../src/refusals.js";
import { captureOf, clearInMemory } from "./helpers.js";
import { BUNDLED_RULES_DIR, checkBundled, loadRules } from "../src/io/load-rules.js";
import { sha256Hex } from "../src/digest.js";
import { bundledDigests, validator } from "../dist/schemas.js";
import { pointerTokens, scanJson } from "../src/json/reader.js";
import { nameGrammar, parseCaptureName } from "../src/capture-name.js";
import { clear, PROJECT_ROOT, tempDir } from "./helpers.js";

const rules = loadRules();
const STRING_CLASSES = new Set(["identifier", "path", "free-text", "enum", "timestamp", "url"]);

/** A payload holding `value` at `pointer` (array indices become arrays). */
function payloadAt(pointer: string, value: unknown): Record<string, unknown> {
  const tokens = pointerTokens(pointer);
  let node: unknown = value;
  for (let i = tokens.length - 1; i >= 0; i--) {
    const t = tokens[i] as string;
    node = /^(0|[1-9][0-9]*)$/.test(t) ? Object.assign(new Array(Number(t) + 1).fill(null), { [Number(t)]: node }) : { [t]: node };
  }
  return node as Record<string, unknown>;
}

function snake(event: string): string {
  return event.replace(/[.-]/g, "_").replace(/(?<=[a-z0-9])([A-Z])/g, "_$1").toLowerCase();
}

describe("rules as data", () => {
  it("loads every bundled rules file against its schema", () => {
    expect(rules.harnesses.map((h) => h.harness).sort()).toEqual(["claude-code", "codex", "opencode"]);
    expect(rules.recipes.filter((r) => r.default).map((r) => [r.harness, r.events.length])).toEqual(
      expect.arrayContaining([
        ["claude-code", 8],
        ["codex", 2],
        ["opencode", 2],
      ]),
    );
    expect(rules.harnesses.find((h) => h.harness === "codex")?.aliases).toEqual(["codex-cli"]);
  });

  it("names each catalogued event's stem as its snake-case host name", () => {
    for (const h of rules.harnesses) for (const e of h.events) expect(e.stem, `${h.harness} ${e.event}`).toBe(snake(e.event));
  });

  for (const set of rules.fields) {
    it(`${set.harness}: every field-class rule classes a payload built from each example's value, and no earlier rule shadows it`, () => {
      const c = classifier(set);
      for (const rule of set.rules) {
        for (const ex of rule.examples) {
          const doc = scanJson(JSON.stringify(payloadAt(ex.pointer, ex.value ?? null)), { maxDepth: 256 });
          const leaf = classifyDocument(doc, ex.event, c).find((l) => l.pointer === ex.pointer);
          const got = c.classify(ex.event, pointerTokens(ex.pointer), leaf?.kind ?? "null", ex.value ?? null);
          expect(got.rule, `${rule.pointer} example ${ex.event} ${ex.pointer}`).toBe(rule);
          expect(leaf?.class, `${rule.pointer} example ${ex.event} ${ex.pointer} = ${JSON.stringify(ex.value)}`).toBe(STRING_CLASSES.has(rule.class) && typeof ex.value !== "string" ? leaf?.class : rule.class);
        }
      }
    });

    it(`${set.harness}: an authored subtree is free text under a pointer ending in /**, and the tool input of each shape the harness sends is one`, () => {
      const authored = set.rules.filter((r) => r.authored);
      for (const r of authored) expect([r.class, r.pointer.endsWith("/**")], r.pointer).toEqual(["free-text", true]);
      const toolInput = { "claude-code": ["/tool_input/**", "/tool_calls/*/tool_input/**"], codex: ["/tool_input/**"], opencode: ["/output/args/**", "/input/**", "/**/part/state/input/**", "/**/properties/input/**"] }[set.harness] ?? [];
      for (const pointer of toolInput) expect(authored.map((r) => r.pointer), pointer).toContain(pointer);
    });

    it(`${set.harness}: a value a rule lists as not its own never survives verbatim (substituted or refused)`, () => {
      for (const rule of set.rules.filter((r) => r.notValues)) {
        const ex = rule.examples[0]!;
        for (const value of rule.notValues ?? []) {
          const text = JSON.stringify(payloadAt(ex.pointer, value));
          const [file] = clearInMemory([captureOf(text, `${set.harness}_${ex.event}_1.0.0.1.json`, set.harness, ex.event)], [], rules).files;
          const kept = file?.cleared ? Buffer.from(file.cleared).toString("utf8").includes(value) : false;
          expect(kept, `${rule.pointer} kept ${JSON.stringify(value)}`).toBe(false);
        }
      }
    });
  }

  it("refused classes: each example payload is refused or not, as it says", () => {
    for (const ex of rules.refusals.examples) {
      const fill = "bytes" in ex.fill ? "y".repeat(ex.fill.bytes) : Object.fromEntries(Array.from({ length: ex.fill.members }, (_, i) => [`VAR_${i}`, "v"]));
      const doc = scanJson(JSON.stringify(payloadAt(ex.pointer, fill)), { maxDepth: 256 });
      const found = findRefusals(doc, ex, rules.refusals, classifier(rules.fields.find((f) => f.harness === ex.harness)));
      expect(found.length > 0, `${ex.harness} ${ex.event} ${ex.pointer} ${JSON.stringify(ex.fill)}`).toBe(ex.refused);
    }
  });

  it("refused classes: a string of tool output is measured in its own UTF-8 bytes, not in its JSON quotes and escapes", () => {
    const limit = rules.refusals.toolResponse.maxBytes;
    const found = (text: string): string[] => findRefusals(scanJson(text, { maxDepth: 256 }), { harness: "codex", event: "post_tool_use" }, rules.refusals, classifier(rules.fields.find((f) => f.harness === "codex"))).map((r) => r.detail);
    const at = (output: string): string => JSON.stringify({ hook_event_name: "PostToolUse", tool_response: output });
    // At the limit, in two-byte characters, written as they are or as \u escapes: kept.
    expect(found(at("é".repeat(limit / 2)))).toEqual([]);
    expect(found(at("é".repeat(limit / 2)).replace(/é/g, "\\u00e9"))).toEqual([]);
    expect(found(at("x".repeat(limit)))).toEqual([]);
    // One byte past it: refused, saying the output's own size.
    expect(found(at(`${"é".repeat(limit / 2)}x`))).toEqual([expect.stringContaining(`tool output of ${limit + 1} bytes`)]);
    expect(found(at(`${"\n".repeat(limit)}x`))).toEqual([expect.stringContaining(`tool output of ${limit + 1} bytes`)]);
  });

  it("refused classes: tool output is what the field rules mark toolOutput, summed per tool response, on every harness", () => {
    const limit = rules.refusals.toolResponse.maxBytes;
    const refusedAt = (harness: string, event: string, payload: object): string[] =>
      findRefusals(scanJson(JSON.stringify(payload), { maxDepth: 256 }), { harness, event }, rules.refusals, classifier(rules.fields.find((f) => f.harness === harness)))
        .filter((r) => r.kind === "tool-response")
        .map((r) => r.pointer);
    const big = "y".repeat(limit + 904);
    const half = "y".repeat(limit / 2 + 100);
    const otherHalf = "z".repeat(limit / 2 + 100);
    const ids = { tool: "bash", sessionID: "ses_1", callID: "call_1" };
    // OpenCode's tool hook, in each shape it has had: result.output, a bare output, output.output.
    expect(refusedAt("opencode", "tool_execute_after", { input: ids, result: { output: big } })).toEqual(["/result"]);
    expect(refusedAt("opencode", "tool_execute_after", { input: ids, output: big })).toEqual(["/output"]);
    expect(refusedAt("opencode", "tool_execute_after", { input: ids, output: { title: "t", output: big, metadata: {} } })).toEqual(["/output"]);
    // Its event stream: a shell's output, a tool's result, a part's state.
    expect(refusedAt("opencode", "session_next_shell_ended", { event: { type: "session.next.shell.ended", properties: { sessionID: "ses_1", output: big } } })).toEqual(["/event/properties/output"]);
    expect(refusedAt("opencode", "session_next_tool_success", { event: { type: "session.next.tool.success", properties: { sessionID: "ses_1", result: { output: big } } } })).toEqual(["/event/properties/result"]);
    // One response split over members weighs what it weighs together, as Claude's whole tool_response does.
    expect(refusedAt("opencode", "tool_execute_after", { input: ids, output: { title: "t", output: half, metadata: { preview: otherHalf } } })).toEqual(["/output"]);
    const part = (state: object): object => ({ event: { type: "message.part.updated", properties: { part: { id: "prt_1", type: "tool", state } } } });
    expect(refusedAt("opencode", "message_part_updated", part({ status: "completed", output: half, metadata: { preview: otherHalf } }))).toEqual(["/event/properties/part/state"]);
    // One output a host writes twice in a response (OpenCode's state.output and metadata.output) is counted once.
    expect(refusedAt("opencode", "message_part_updated", part({ status: "completed", output: half, metadata: { output: half } }))).toEqual([]);
    expect(refusedAt("claude-code", "post_tool_use", { tool_response: { stdout: half, stderr: otherHalf } })).toEqual(["/tool_response"]);
    // A failed tool's error is its output.
    expect(refusedAt("claude-code", "post_tool_use_failure", { tool_name: "Bash", error: "y".repeat(6000) })).toEqual(["/error"]);
    expect(refusedAt("opencode", "tool_execute_after", { input: ids, status: "error", error: { message: big } })).toEqual(["/error"]);
    // Under the limit, each response on its own: kept. Two responses of one batch are not summed together.
    const small = "y".repeat(limit / 2 - 100);
    expect(refusedAt("opencode", "tool_execute_after", { input: ids, output: { title: "t", output: small, metadata: { preview: small } } })).toEqual([]);
    expect(refusedAt("claude-code", "post_tool_use_failure", { error: "y".repeat(limit) })).toEqual([]);
    expect(refusedAt("claude-code", "post_tool_batch", { tool_calls: [{ tool_response: { stdout: half } }, { tool_response: { stdout: half } }] })).toEqual([]);
    // What is not tool output is not measured as one: a tool's input, an error outside a tool, a shell's environment.
    expect(refusedAt("claude-code", "pre_tool_use", { tool_input: { content: big } })).toEqual([]);
    expect(refusedAt("claude-code", "stop_failure", { error: big })).toEqual([]);
    expect(refusedAt("opencode", "shell_env", { input: { cwd: "/tmp" }, output: { env: { NOTE: big } } })).toEqual([]);
  });

  it("refused classes: an environment is a dump whatever the case of its names, as an object or a list of NAME=value strings; an object of many lower-case members is not one", () => {
    const dumpsAt = (harness: string, event: string, payload: object): string[] =>
      findRefusals(scanJson(JSON.stringify(payload), { maxDepth: 256 }), { harness, event }, rules.refusals, classifier(rules.fields.find((f) => f.harness === harness)))
        .filter((r) => r.kind === "env-dump")
        .map((r) => r.pointer);
    const value = (name: string): string => `v-${name.length}`;
    const windows = ["ALLUSERSPROFILE", "APPDATA", "CommonProgramFiles", "CommonProgramFiles(x86)", "CommonProgramW6432", "COMPUTERNAME", "ComSpec", "DriverData", "HOMEDRIVE", "HOMEPATH", "LOCALAPPDATA", "LOGONSERVER", "NUMBER_OF_PROCESSORS", "OS", "Path", "PATHEXT", "PROCESSOR_ARCHITECTURE", "PROCESSOR_IDENTIFIER", "PROCESSOR_LEVEL", "PROCESSOR_REVISION", "ProgramData", "ProgramFiles", "ProgramFiles(x86)", "ProgramW6432", "PSModulePath", "PUBLIC", "SystemDrive", "SystemRoot", "TEMP", "USERPROFILE", "windir"];
    expect(windows.length).toBe(31);
    expect(dumpsAt("opencode", "shell_env", { input: { cwd: "C:/p" }, output: { env: Object.fromEntries(windows.map((n) => [n, value(n)])) } })).toEqual(["/output/env"]);
    const upper = ["PATH", "HOME", "SHELL", "LANG", "TERM", "PWD", "SHLVL", "EDITOR", "PAGER", "HOSTNAME", "LOGNAME", "TMPDIR", "COLORTERM", "DISPLAY", "XDG_RUNTIME_DIR", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_SESSION_TYPE", "NODE_ENV"];
    const npm = ["npm_config_user_agent", "npm_config_cache", "npm_config_prefix", "npm_execpath", "npm_node_execpath", "npm_lifecycle_event", "npm_package_name", "npm_package_version", "http_proxy", "no_proxy"];
    expect(upper.length + npm.length).toBe(29);
    expect(dumpsAt("claude-code", "session_start", { env: Object.fromEntries([...upper, ...npm].map((n) => [n, value(n)])) })).toEqual(["/env"]);
    const lower = ["path", "home", "user", "shell", "lang", "term", "pwd", "oldpwd", "editor", "pager", "hostname", "logname", "tmpdir", "display", "shlvl", "colorterm", "mail", "manpath", "infopath", "histsize", "histfile", "visual", "browser", "less", "lscolors"];
    expect(lower.length).toBe(25);
    expect(dumpsAt("codex", "session_start", { env: Object.fromEntries(lower.map((n) => [n, value(n)])) })).toEqual(["/env"]);
    expect(dumpsAt("opencode", "shell_env", { output: { env: [...upper, ...npm].map((n) => `${n}=${value(n)}`) } })).toEqual(["/output/env"]);
    expect(dumpsAt("opencode", "shell_env", { output: { env: windows.map((n) => `${n}=${value(n)}`) } })).toEqual(["/output/env"]);
    // Not a dump: fewer variables than the threshold; many lower-case members that are no environment's.
    expect(dumpsAt("claude-code", "session_start", { env: Object.fromEntries(upper.slice(0, rules.refusals.envDump.minMembers - 1).map((n) => [n, value(n)])) })).toEqual([]);
    const schemaProperties = Object.fromEntries(lower.map((n) => [n, { type: "string", description: n }]));
    expect(dumpsAt("claude-code", "pre_tool_use", { tool_input: { schema: { type: "object", properties: schemaProperties } } })).toEqual([]);
    const words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliett", "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango", "uniform", "victor", "whiskey", "xray", "yankee", "zulu"];
    expect(dumpsAt("claude-code", "pre_tool_use", { tool_input: Object.fromEntries(words.map((n) => [n, value(n)])) })).toEqual([]);
    // A tool input naming a few well-known variables among many words is still no environment.
    expect(dumpsAt("claude-code", "pre_tool_use", { tool_input: Object.fromEntries([...words, "path", "user", "shell"].map((n) => [n, value(n)])) })).toEqual([]);
    expect(dumpsAt("claude-code", "pre_tool_use", { tool_input: { lines: words.map((n) => `${n}=${value(n)}`) } })).toEqual([]);
  });

  it("refuses a rules file that breaks its schema, naming the file and the JSON pointer", () => {
    const dir = path.join(tempDir(), "rules");
    cpSync(BUNDLED_RULES_DIR, dir, { recursive: true });
    const file = path.join(dir, "fields", "codex.json");
    const set = JSON.parse(readFileSync(file, "utf8"));
    set.rules[3].class = "secretive";
    writeFileSync(file, JSON.stringify(set));
    expect(() => loadRules(dir)).toThrow(/fields\/codex\.json: does not match fields\.schema\.json at \/rules\/3\/class/);
    set.rules[3].class = "identifier";
    delete set.rules[5].examples;
    writeFileSync(file, JSON.stringify(set));
    expect(() => loadRules(dir)).toThrow(/at \/rules\/5: must have required property 'examples'/);
  });

  it("refuses a payload signature whose pattern stands on a member that is not a string", () => {
    const dir = path.join(tempDir(), "rules");
    cpSync(BUNDLED_RULES_DIR, dir, { recursive: true });
    const file = path.join(dir, "payloads.json");
    const rules = JSON.parse(readFileSync(file, "utf8"));
    const at = rules.signatures.findIndex((s: { id: string }) => s.id === "opencode-hook-call");
    rules.signatures[at].members[1].pattern = "^x";
    writeFileSync(file, JSON.stringify(rules));
    expect(() => loadRules(dir)).toThrow(new RegExp(`payloads\\.json: does not match payloads\\.schema\\.json at /signatures/${at}/members/1/is`));
  });

  it("refuses a recipe naming an event its harness does not know", () => {
    const dir = path.join(tempDir(), "rules");
    cpSync(BUNDLED_RULES_DIR, dir, { recursive: true });
    const file = path.join(dir, "recipes", "codex-measured.json");
    const recipe = JSON.parse(readFileSync(file, "utf8"));
    recipe.events.push("teleport");
    writeFileSync(file, JSON.stringify(recipe));
    expect(() => loadRules(dir)).toThrow(/codex-measured\.json: event "teleport" is not in the codex catalogue/);
  });

  it("checks a bundled rules file against its schema unless its bytes are ones the build checked against that schema", () => {
    const file = path.join(BUNDLED_RULES_DIR, "homes.json");
    const bytes = readFileSync(file);
    const broken = { ...JSON.parse(bytes.toString("utf8")), roots: "none" };
    // The bytes the build checked as homes: they would pass again, so the value is not looked at.
    expect(() => checkBundled("homes", broken, bytes, file)).not.toThrow();
    // A byte more, or the same bytes read as another kind: checked, and refused naming the file and pointer.
    expect(() => checkBundled("homes", broken, Buffer.concat([bytes, Buffer.from("\n")]), file)).toThrow(/homes\.json: does not match homes\.schema\.json at \/roots/);
    expect(() => checkBundled("urls", broken, bytes, file)).toThrow(/homes\.json: does not match urls\.schema\.json/);
  });

  it("the build lists every bundled rules file by its digest, under a kind whose schema it passes", () => {
    const files = readdirSync(BUNDLED_RULES_DIR, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".json") && !f.startsWith("schemas"));
    const byDigest = new Map(files.map((f) => [sha256Hex(readFileSync(path.join(BUNDLED_RULES_DIR, f))), f]));
    const listed = Object.entries(bundledDigests).flatMap(([kind, digests]) => (digests ?? []).map((d) => [kind, d] as const));
    expect(listed.length).toBe(files.length);
    for (const [kind, digest] of listed) {
      const f = byDigest.get(digest);
      expect(f, `${kind} ${digest}`).toBeDefined();
      expect(validator(kind as "homes")(JSON.parse(readFileSync(path.join(BUNDLED_RULES_DIR, f as string), "utf8"))), f).toBe(true);
    }
    // Loading the bundled rules then needs no validator: none is loaded. A repository's
    // clear.config.json loads the config's alone.
    const withConfig = tempDir();
    writeFileSync(path.join(withConfig, "clear.config.json"), JSON.stringify({ paths: { fixtures: "data" } }));
    const validatorsLoaded = (root: string): string[] => {
      const script = `const dist = ${JSON.stringify(path.join(PROJECT_ROOT, "dist", "io"))};
const { loadRules } = await import(dist + "/load-rules.js"); const { loadConfig } = await import(dist + "/repo.js");
loadRules(); loadConfig(${JSON.stringify(root)});
const { createRequire } = await import("node:module"); console.log(JSON.stringify(Object.keys(createRequire(import.meta.url).cache)));`;
      const loaded = JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" })) as string[];
      return loaded.filter((m) => m.includes("schemas")).map((m) => path.basename(m));
    };
    expect(validatorsLoaded(tempDir())).toEqual([]);
    expect(validatorsLoaded(withConfig)).toEqual(["config.cjs"]);
  });

  it("an install that lacks a validator refuses every file of that kind, saying so; it never takes one unchecked", () => {
    // A copy of the install (the build, with the rules and the dependencies beside it) missing the config's validator.
    const install = tempDir("clear-install-");
    cpSync(path.join(PROJECT_ROOT, "dist"), path.join(install, "dist"), { recursive: true });
    for (const linked of ["rules", "node_modules"]) symlinkSync(path.join(PROJECT_ROOT, linked), path.join(install, linked));
    cpSync(path.join(PROJECT_ROOT, "package.json"), path.join(install, "package.json"));
    rmSync(path.join(install, "dist", "schemas", "config.cjs"));
    const sitting = path.join(PROJECT_ROOT, "examples", "sitting");
    const repo = (config: string | null): string => {
      const root = tempDir("clear-install-repo-");
      execFileSync("git", ["init", "-q", root]);
      if (config !== null) writeFileSync(path.join(root, "clear.config.json"), config);
      return root;
    };
    const cli = (root: string) => spawnSync(process.execPath, [path.join(install, "dist", "cli.js"), "run", sitting, "--root", root, "--json"], { encoding: "utf8" });
    for (const config of [JSON.stringify({ paths: { fixtures: "data" } }), JSON.stringify({ paths: { fixtures: 7 } })]) {
      const root = repo(config);
      const r = cli(root);
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toContain("config.schema.json: its validator (dist/schemas/config.cjs) cannot be loaded (MODULE_NOT_FOUND); this install of the tool is incomplete, reinstall it");
      expect(JSON.parse(r.stdout).ok).toBe(false);
      expect(readdirSync(root)).toEqual([".git", "clear.config.json"]);
    }
    // Where no file needs it, the install works.
    const plain = cli(repo(null));
    expect(plain.status, plain.stderr).toBe(0);
  });

  it("refuses a pairing scope that lies within a scope that is not coarser than it", () => {
    const dir = path.join(tempDir(), "rules");
    cpSync(BUNDLED_RULES_DIR, dir, { recursive: true });
    const file = path.join(dir, "pairing", "opencode.json");
    const set = JSON.parse(readFileSync(file, "utf8"));
    set.scopes.find((s: { scope: string }) => s.scope === "sessionID").within = "callID";
    writeFileSync(file, JSON.stringify(set));
    expect(() => loadRules(dir)).toThrow(/opencode\.json: scope "sessionID" lies within "callID", which is not a coarser scope after it/);
  });

  it("uses a repository's own rules/ folder, and a broken one is exit 2 naming the file", () => {
    const root = tempDir();
    cpSync(BUNDLED_RULES_DIR, path.join(root, "rules"), { recursive: true });
    const sitting = tempDir();
    writeFileSync(path.join(sitting, "codex_session_start_0_153_0.1.json"), JSON.stringify({ session_id: "s", hook_event_name: "SessionStart" }));
    writeFileSync(path.join(sitting, "codex_pre_tool_use_0_153_0.1.json"), JSON.stringify({ session_id: "s", hook_event_name: "PreToolUse" }));
    expect(clear(["inventory", sitting, "--root", root]).code).toBe(0);
    const file = path.join(root, "rules", "pairing", "codex.json");
    writeFileSync(file, JSON.stringify({ harness: "codex", scopes: [{ scope: "turn_id", pointers: [] }] }));
    const r = clear(["inventory", sitting, "--root", root]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("pairing/codex.json: does not match pairing.schema.json at /scopes/0");
  });

  it("refuses a clear.config.json that breaks its schema", () => {
    const root = tempDir();
    writeFileSync(path.join(root, "clear.config.json"), JSON.stringify({ policies: { "env-dump-v1": {} } }));
    const sitting = tempDir();
    const r = clear(["inventory", sitting, "--root", root]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("clear.config.json: does not match config.schema.json at /policies/env-dump-v1: must have required property 'reason'");
  });
});

describe("capture file names", () => {
  const grammar = nameGrammar(rules.harnesses);
  const parse = (n: string) => parseCaptureName(n, grammar);

  it("parses harness, event stem (longest first), dotted or underscored version, and counter", () => {
    expect(parse("claude-code_post_tool_use_failure_2_1_261.3.json")).toMatchObject({
      kind: "capture",
      name: { harness: "claude-code", event: "post_tool_use_failure", hostEvent: "PostToolUseFailure", version: "2.1.261", n: 3 },
    });
    expect(parse("claude-code_post_tool_use_2.1.261.12.json")).toMatchObject({ kind: "capture", name: { event: "post_tool_use", version: "2.1.261", n: 12 } });
    expect(parse("codex-cli_session_start_0_165_0-alpha_1_2.1.json")).toMatchObject({ kind: "capture", name: { harness: "codex", harnessAsWritten: "codex-cli", version: "0.165.0-alpha.1.2" } });
    expect(parse("opencode_tool_execute_before_1_18_29.1.json")).toMatchObject({ kind: "capture", name: { event: "tool_execute_before", hostEvent: "tool.execute.before" } });
    expect(parse("opencode_session_experimental_ws_send_2_0_21.1.json")).toMatchObject({ kind: "capture", name: { event: "session_experimental_ws_send" } });
    expect(parse("codex_stop_unknown.2.json")).toMatchObject({ kind: "capture", name: { version: "unknown", n: 2 } });
  });

  it("tells apart unknown harnesses, unknown events and names that are not captures", () => {
    expect(parse("gemini_session_start_1_0_0.1.json")).toEqual({ kind: "unknown-harness" });
    expect(parse("codex_warp_drive_0_153_0.1.json")).toMatchObject({ kind: "unknown-event", stem: "warp_drive", version: "0.153.0" });
    expect(parse("codex_stop_0_153_0.json")).toMatchObject({ kind: "not-a-capture", reason: expect.stringContaining("no .<n> counter") });
    expect(parse("notes.txt")).toMatchObject({ kind: "not-a-capture" });
    expect(parse("codex_stop_0_153_0.0.json")).toMatchObject({ kind: "not-a-capture" });
  });
});
