import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadSetting } from "../src/io/setting.js";
import { watchParses } from "../src/json/reader.js";
import { runLine, withOwnDigestsBlanked } from "../src/line.js";
import { reviewModel } from "../src/review/model.js";
import { pageHtml } from "../src/review/page.js";
import { makeRealisticSitting } from "../bench/realistic.mjs";
import { loadRules } from "../src/io/load-rules.js";
import { makeDisplay } from "../src/display.js";
import { homeGrammar } from "../src/homes.js";
import { scanEngine, scanPass } from "../src/passes/scan.js";
import { sittingNames, substitutePass, type SittingNames } from "../src/passes/substitute/index.js";
import type { Capture, Substitution } from "../src/types.js";
import { captureOf, clear, clearJson, PROJECT_ROOT, tempDir } from "./helpers.js";

// The one line: each capture read and parsed once, whatever the passes after it need; one verdict
// on refused classes, whichever command asks.

describe("one clear run", () => {
  it("parses each capture once, through every pass to the batch", async () => {
    const dir = tempDir("clear-line-");
    cpSync(path.join(PROJECT_ROOT, "examples", "sitting"), dir, { recursive: true });
    makeRealisticSitting(dir, 120, 5);
    // A capture substitution leaves as it is: its text is the fixture's, read no second time.
    writeFileSync(path.join(dir, "claude-code_session_end_2.1.261.1.json"), JSON.stringify({ session_id: "9f1c2a7e-41b5-4d0e", hook_event_name: "SessionEnd", reason: "other" }));
    const root = tempDir("clear-line-root-");
    const counts = new Map<string, number>();
    watchParses((text) => counts.set(text, (counts.get(text) ?? 0) + 1));
    let selected: string[] = [];
    try {
      const line = await runLine(loadSetting(root, root), dir, "record");
      expect(line.batch.text).toContain("## User acceptance");
      expect(line.fixtures.length + line.batch.blockers.length).toBeGreaterThan(0);
      selected = line.selection.selected.map((s) => s.file);
    } finally {
      watchParses(null);
    }
    const captures = readdirSync(dir).filter((n) => n !== "sitting.json");
    expect(captures.length).toBeGreaterThan(120);
    const parsed = captures.map((n) => [n, counts.get(readFileSync(path.join(dir, n), "utf8")) ?? 0] as const);
    expect(parsed.filter(([, n]) => n !== 1)).toEqual([]);
    expect(selected).toContain("claude-code_session_end_2.1.261.1.json");
  });
});

describe("what learning found, substitution reads", () => {
  const owner = ["wen", "dell"].join("");
  const text = JSON.stringify({ session_id: "s", hook_event_name: "PostToolUse", cwd: `/home/${owner}/w`, tool_name: "Bash", tool_input: { command: "ls", description: "List files" }, tool_response: { stdout: "a.txt", stderr: "" } });
  const rules = loadRules();
  const display = makeDisplay(rules, [], null);
  /** A capture whose sitting's names were learned, as the line learns them before substitution. */
  const learned = (): { c: Capture; names: SittingNames } => {
    const c = captureOf(text, "claude-code_post_tool_use_2.1.261.1.json", "claude-code", "post_tool_use", rules);
    return { c, names: sittingNames([c], rules, [], display) };
  };
  const cleared = (c: Capture, names: SittingNames): Substitution => substitutePass([c], rules, { users: [], literals: [] }, display, names);

  it("learning marks each value that may hold a home, by the roots' words; substitution clears those", () => {
    const { c, names } = learned();
    expect(c.leaves.filter((l) => c.homeHints?.mayHold[l.index] === 1).map((l) => l.pointer)).toEqual(["/cwd"]);
    const [file] = cleared(c, names).files;
    expect(file?.cleared).toContain("/home/user/w");
    expect(file?.cleared).not.toContain(owner);
  });

  it("a mark that says no home where one stands is still refused by the final check: the mark saves a search, never a check", () => {
    const { c, names } = learned();
    c.homeHints?.mayHold.fill(0);
    const s = cleared(c, names);
    expect(s.findings.map((f) => [f.code, f.pointer])).toContainEqual(["home-left", "/cwd"]);
    expect(s.files[0]?.cleared).toBeNull();
  });
});

describe("a command loads what its stages use", () => {
  /** The tool's own modules a command's process loads, by a resolve hook that logs each. */
  function toolModules(args: string[], cwd: string): string[] {
    const dir = tempDir("clear-loads-");
    const log = path.join(dir, "resolved.log");
    const hooks = path.join(dir, "hooks.mjs");
    writeFileSync(hooks, `import { appendFileSync } from "node:fs";\nexport async function resolve(s, c, next) { const r = await next(s, c); appendFileSync(${JSON.stringify(log)}, r.url + "\\n"); return r; }\n`);
    const register = `data:text/javascript,import{register}from"node:module";register(${JSON.stringify(`file://${hooks}`)});`;
    const r = spawnSync(process.execPath, ["--import", register, path.join(PROJECT_ROOT, "dist", "cli.js"), ...args], { cwd, encoding: "utf8" });
    expect([0, 1], `${args[0]}: ${r.stderr}`).toContain(r.status);
    const dist = path.join(PROJECT_ROOT, "dist");
    return readFileSync(log, "utf8").split("\n").filter((u) => u.startsWith(`file://${dist}/`)).map((u) => path.relative(dist, new URL(u).pathname));
  }

  it("inventory, pair and substitute load no selection, record or repository writer, and no schema validator where no file needs one", () => {
    const dir = tempDir("clear-loads-sitting-");
    makeRealisticSitting(dir, 12, 3);
    const out = tempDir("clear-loads-out-");
    const later = /^(passes\/(select|kept-ids|provenance|record|record-evidence|record-text|kit)|record\/write|io\/(write-repo|run-lock)|schemas\/)/;
    for (const args of [["inventory", dir, "--json"], ["pair", dir, "--json"], ["substitute", dir, "--out", path.join(out, "x"), "--json"]]) {
      const loaded = toolModules(args, out);
      expect(loaded, args[0]).toContain("line.js");
      expect(loaded.filter((m) => later.test(m)), args[0]).toEqual([]);
    }
    // A run loads them.
    const root = tempDir("clear-loads-root-");
    execFileSync("git", ["init", "-q", root]);
    expect(toolModules(["run", dir, "--root", root, "--json"], root)).toEqual(expect.arrayContaining(["passes/select.js", "passes/record.js", "io/write-repo.js"]));
  });
});

describe("refused classes have one owner", () => {
  it("with the env-dump-v1 policy opted in, every command gives an environment dump the same verdict", () => {
    const env = Object.fromEntries(Array.from({ length: 24 }, (_, i) => [`VAR_${i}`, `value ${i}`]));
    const payload = { session_id: "s", turn_id: "t", hook_event_name: "Stop", env };
    const verdicts = (policy: boolean): number[] => {
      const root = tempDir("clear-env-dump-");
      const dir = path.join(root, "captures-inbox");
      cpSync(path.join(PROJECT_ROOT, "examples", "sitting"), dir, { recursive: true });
      // The example's sitting.json speaks of Claude Code only; this sitting holds Codex too.
      rmSync(path.join(dir, "sitting.json"));
      writeFileSync(path.join(dir, "codex_stop_0.153.0.1.json"), JSON.stringify(payload));
      if (policy) writeFileSync(path.join(root, "clear.config.json"), JSON.stringify({ policies: { "env-dump-v1": { reason: "a test admits one" } } }));
      const run = (args: string[]): { code: number; json: Record<string, unknown> } => clearJson([...args, "--root", root]);
      const inventory = run(["inventory", dir]);
      const refused = (inventory.json.findings as { code: string }[]).filter((f) => f.code === "refused-class").length;
      const sub = run(["substitute", dir, "--out", path.join(tempDir("clear-env-out-"), "out")]);
      const subRefused = (sub.json.files as { name: string; clearedBytes: number | null }[]).filter((f) => f.name.startsWith("codex_stop") && f.clearedBytes === null).length;
      const select = run(["select", dir]);
      const selected = (select.json.selected as { file: string }[]).some((s) => s.file.startsWith("codex_stop")) ? 0 : 1;
      const runCode = run(["run", dir]).code;
      return [refused, subRefused, selected, runCode === 0 ? 0 : 1];
    };
    expect(verdicts(false)).toEqual([1, 1, 1, 1]);
    expect(verdicts(true)).toEqual([0, 0, 0, 0]);
  });
});

describe("substitution says which rule changed each span", () => {
  it("the review page marks a literal-rule span as the literal rule, not as a home", async () => {
    const root = tempDir("clear-literal-");
    writeFileSync(path.join(root, "clear.config.json"), JSON.stringify({ literals: [{ name: "hostname", value: "build-box-7", placeholder: "host" }] }));
    const dir = tempDir("clear-literal-sitting-");
    const body = { session_id: "s", hook_event_name: "SessionStart", source: "startup", cwd: "/srv/build-box-7/work", transcript_path: ["/home/", "ana", "/t.jsonl"].join("") };
    writeFileSync(path.join(dir, "claude-code_session_start_2.1.261.1.json"), JSON.stringify(body));
    const line = await runLine(loadSetting(root, root), dir, "record", { keepDocuments: true });
    const model = reviewModel(line, line.selection, line.scan, null);
    const spans = model.fixtures[0]?.spans ?? [];
    const shown = (rule: string): string[] => spans.filter((s) => s.rules.includes(rule)).map((s) => model.fixtures[0]!.cleared.slice(s.start, s.end));
    expect(shown("literal-v1:hostname")).toEqual(['"/srv/host/work"']);
    expect(shown("home-path-v1")).toEqual(['"/home/user/t.jsonl"']);
  });

  it("a span two rules changed is marked with both, in the order they applied, on the page as in the record", async () => {
    const root = tempDir("clear-literal-");
    writeFileSync(path.join(root, "clear.config.json"), JSON.stringify({ literals: [{ name: "hostname", value: "build-box-7", placeholder: "host" }] }));
    const dir = tempDir("clear-literal-sitting-");
    const home = ["/home/", "ana"].join("");
    const body = { session_id: "s", hook_event_name: "SessionStart", source: "startup", cwd: `${home}/build-box-7/work`, transcript_path: `${home}/t.jsonl` };
    writeFileSync(path.join(dir, "claude-code_session_start_2.1.261.1.json"), JSON.stringify(body));
    const line = await runLine(loadSetting(root, root), dir, "record", { keepDocuments: true });
    const model = reviewModel(line, line.selection, line.scan, null);
    const fixture = model.fixtures[0]!;
    const cwd = fixture.spans.find((s) => fixture.cleared.slice(s.start, s.end) === '"/home/user/host/work"');
    expect(cwd?.rules).toEqual(["home-path-v1", "literal-v1:hostname"]);
    const page = pageHtml(model, "t");
    expect(page).toContain('<mark class="span home-path-v1 literal-v1" data-file="claude-code_session_start_2.1.261.1.json"');
    expect(page).toContain('data-rule="home-path-v1, then literal-v1:hostname"');
    expect(page).toContain('<mark class="span literal-v1">literal-v1</mark>');
  });

  it("a capture's name holding a C1 control, a bidi override or a zero-width space stands in the page only percent-encoded or as visible escapes", async () => {
    const root = tempDir("clear-review-name-");
    const dir = tempDir("clear-review-name-sitting-");
    const body = { session_id: "s", hook_event_name: "SessionStart", source: "startup", cwd: ["/home/", "ana", "/w"].join(""), transcript_path: "/tmp/t.jsonl" };
    writeFileSync(path.join(dir, "claude-code_session_start_2.1.261.1.json"), JSON.stringify(body));
    const line = await runLine(loadSetting(root, root), dir, "record", { keepDocuments: true });
    const model = reviewModel(line, line.selection, line.scan, null);
    const hostile = "claude-code\u009b31m_\u202eevil\u200b.json";
    for (const f of model.fixtures) f.file = hostile;
    const page = pageHtml(model, "t");
    expect(page).toContain(`data-file="${encodeURIComponent(hostile)}"`);
    expect(page).not.toMatch(/[\u0080-\u009f\u202a-\u202e\u2066-\u2069\u200b-\u200f]/u);
    expect(page).toMatch(/data-shown="claude-code[^"]*31m_[^"]*evil[^"]*\.json"/);
  });
});

describe("every byte written is checked like a fixture", () => {
  const key = ["sk-", "ant-", "api03-", "abcdefghijklmnopqrstuvwxyz0123456789"].join("");
  const everyFile = (root: string): string => execFileSync("grep", ["-r", "-l", "--", key, root], { encoding: "utf8" }).trim();

  for (const field of ["driver", "method", "versionLine", "versionLines", "hostBinary", "hostBinarySha256", "model"]) {
    it(`a key planted in sitting.json's ${field} is refused naming the field and reaches no written file`, () => {
      const root = tempDir("clear-planted-");
      execFileSync("git", ["init", "-q"], { cwd: root });
      const dir = path.join(root, "captures-inbox");
      cpSync(path.join(PROJECT_ROOT, "examples", "sitting"), dir, { recursive: true });
      const info = { driver: "a person", method: "by hand", versionLine: "2.1.261 (Claude Code)" } as Record<string, unknown>;
      info[field] = field === "versionLines" ? { "claude-code": `2.1.261 ${key}` } : `${field === "versionLine" ? "2.1.261 " : ""}${key}`;
      writeFileSync(path.join(dir, "sitting.json"), JSON.stringify(info));
      const r = clearJson(["run", "--root", root]);
      expect(r.code).toBe(1);
      expect(r.json.findings).toContainEqual(expect.objectContaining({ code: "invalid-sitting", file: "sitting.json", pointer: field === "versionLines" ? "/versionLines/claude-code" : `/${field}` }));
      rmSync(dir, { recursive: true });
      expect(() => everyFile(root)).toThrow();
      expect(readFileSync(path.join(root, "CLEARANCE.md"), "utf8")).toContain("[not written: it holds a secret shape or a contact]");
    });
  }

  it("a mailbox or a phone number in sitting.json's text is refused naming the field and written nowhere", () => {
    const mailbox = ["ada", ".", "lovelace", "@", "example", ".org"].join("");
    for (const [field, value] of [["driver", `Ada <${mailbox}>`], ["model", `m ${mailbox.replace("@", "\uFE6B")}`], ["hostBinarySha256", "call +44 20 7946 0958"]] as const) {
      const root = tempDir("clear-contact-");
      execFileSync("git", ["init", "-q"], { cwd: root });
      const dir = path.join(root, "captures-inbox");
      cpSync(path.join(PROJECT_ROOT, "examples", "sitting"), dir, { recursive: true });
      writeFileSync(path.join(dir, "sitting.json"), JSON.stringify({ driver: "a person", versionLine: "2.1.261 (Claude Code)", [field]: value }));
      const r = clearJson(["run", "--root", root]);
      expect(r.code, field).toBe(1);
      expect(r.json.findings, field).toContainEqual(expect.objectContaining({ code: "invalid-sitting", file: "sitting.json", pointer: `/${field}` }));
      const record = readFileSync(path.join(root, "CLEARANCE.md"), "utf8");
      expect(record, field).not.toContain("lovelace");
      expect(record, field).not.toContain("7946");
    }
  });

  it("a name the sitting taught is kept out where sitting.json's text is written", () => {
    const root = tempDir("clear-taught-");
    execFileSync("git", ["init", "-q"], { cwd: root });
    const dir = path.join(root, "captures-inbox");
    cpSync(path.join(PROJECT_ROOT, "examples", "sitting"), dir, { recursive: true });
    const name = ["zel", "dagh"].join("");
    const start = JSON.parse(readFileSync(path.join(dir, "claude-code_session_start_2.1.261.1.json"), "utf8")) as Record<string, unknown>;
    writeFileSync(path.join(dir, "claude-code_session_start_2.1.261.1.json"), JSON.stringify({ ...start, cwd: `/home/${name}/work` }));
    writeFileSync(path.join(dir, "sitting.json"), JSON.stringify({ driver: `${name} at the keyboard`, versionLine: "2.1.261 (Claude Code)" }));
    expect(clear(["run", "--root", root]).code).toBe(0);
    const record = readFileSync(path.join(root, "CLEARANCE.md"), "utf8");
    // Beside other words the rest may be the person too: the line is not written.
    expect(record).toContain("- Driven by: `[not written: it names a user the sitting taught]`");
    expect(record.toLowerCase()).not.toContain(name);
  });
});

describe("the guard reads a digest the tool made as x's, and every other run as written", () => {
  const rules = loadRules();
  const engine = scanEngine(rules.secrets, homeGrammar(rules.homes), null);
  // 32 bytes whose hex is as long as a SHA-256 digest, and spells a key.
  const spelled = Buffer.from(["glpat-", "Zq8rT2vLm9xWp4kNy7bQ"].join("").padEnd(32, " ")).toString("hex");
  const scanned = async (text: string): Promise<string[]> => (await scanPass([{ file: "the batch", text }], engine, makeDisplay(rules, [], null))).findings.map((f) => f.rule);

  it("writes over only a digest it was given that stands alone, keeping every offset", () => {
    const own = new Set([spelled]);
    const row = `| \`${spelled}\` | 1182 |\n`;
    expect(withOwnDigestsBlanked(row, own)).toBe(`| \`${"x".repeat(64)}\` | 1182 |\n`);
    // Another 64 hex digits, a digest glued to a longer run, and one in capitals are read as written.
    const other = "ab".repeat(32);
    for (const text of [`\`${other}\``, `=${spelled}`, `${spelled}Q`, `_${spelled}`, spelled.toUpperCase()]) expect(withOwnDigestsBlanked(text, own)).toBe(text);
    expect(withOwnDigestsBlanked(row, new Set())).toBe(row);
  });

  it("finds a key spelled in hex where the text holds it as any value but a digest the tool made", async () => {
    const row = `| \`${spelled}\` | 1182 |\n`;
    expect(await scanned(row)).toContain("@secretlint/secretlint-rule-gitlab");
    expect(await scanned(withOwnDigestsBlanked(row, new Set(["cd".repeat(32)])))).toContain("@secretlint/secretlint-rule-gitlab");
    expect(await scanned(withOwnDigestsBlanked(`=${spelled}`, new Set([spelled])))).toContain("@secretlint/secretlint-rule-gitlab");
    expect(await scanned(withOwnDigestsBlanked(row, new Set([spelled])))).toEqual([]);
  });

  it("a run writing hundreds of fixtures lists their digests and passes its own guard", () => {
    const dir = tempDir("clear-digests-");
    makeRealisticSitting(dir, 300, 3, { distinct: true, maxBytes: 1800 });
    const root = tempDir("clear-digests-root-");
    execFileSync("git", ["init", "-q"], { cwd: root });
    const r = clearJson(["run", dir, "--root", root]);
    expect(r.code, r.stderr).toBe(0);
    const record = readFileSync(path.join(root, "CLEARANCE.md"), "utf8");
    expect((record.match(/`[0-9a-f]{64}`/g) ?? []).length).toBeGreaterThanOrEqual(2 * (r.json.fixtures as string[]).length);
  });
});

describe("what the line keeps of a capture", () => {
  it("keeps no long value alive through the example of a change: 50 values of 200 KB leave under 2 MB behind", () => {
    // Run in a process of its own, with a collector it may call: the heap is measured, not timed.
    const script = `
      const { changeExample } = await import(${JSON.stringify(path.join(PROJECT_ROOT, "dist", "passes", "substitute", "example.js"))});
      const used = () => { globalThis.gc(); globalThis.gc(); return process.memoryUsage().heapUsed; };
      const before = used();
      const kept = [];
      for (let i = 0; i < 50; i++) {
        const value = "word ".repeat(40_000) + i;
        kept.push(changeExample("free-text-v1", "/prompt", value, value.slice(0, 100_000) + "xx" + value.slice(100_002)));
      }
      process.stdout.write(JSON.stringify({ grown: used() - before, examples: kept.length, before: kept[0].before }));
    `;
    const out = JSON.parse(execFileSync(process.execPath, ["--expose-gc", "--input-type=module", "-e", script], { encoding: "utf8" })) as { grown: number; examples: number; before: string };
    expect(out.examples).toBe(50);
    expect(out.before).toContain("...");
    expect(out.grown).toBeLessThan(2_000_000);
  });
});
