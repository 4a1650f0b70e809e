import { cpSync, mkdirSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { classifier } from "../src/classify.js";
import { loadRules } from "../src/io/load-rules.js";
import { scanJson } from "../src/json/reader.js";
import { compareEvent, shapeOf } from "../src/passes/compare.js";
import { clearVersion, gitRepo, type Edit, type Payload } from "./fixture-repo.js";
import { clear, clearJson, tempDir } from "./helpers.js";

// clear compare: two versions cleared by real `clear run`s that differ by exactly five facts, and
// the masking, the no-link reads and the usage errors around them.

/** Version 2.1.283 of the example sitting: a member added, one removed, a class changed, a new enum value, an event gone. */
const BUMP: Edit = (event, p) => {
  if (event === "pre_compact") return null;
  if (event === "session_start") return { ...p, agent_type: "Explore" };
  if (event === "pre_tool_use") return Object.fromEntries(Object.entries(p).filter(([k]) => k !== "prompt_id"));
  if (event !== "post_tool_batch") return p;
  const [call] = p.tool_calls as Payload[];
  const asObject = { ...call, tool_response: { stdout: "# Demo project", stderr: "" } };
  return { ...p, tool_calls: [asObject, { ...asObject, tool_name: "Read", tool_use_id: "toolu_01ZyXwVuTsRqPoNmLkJiHgFe" }] };
};

const FIVE = {
  onlyInA: ["pre_compact"],
  onlyInB: [],
  changed: [
    {
      event: "post_tool_batch",
      classChanged: [{ pointer: "/tool_calls/*/tool_response", before: ["free-text"], after: ["object"], members: 2 }],
      enumValues: [{ pointer: "/tool_calls/*/tool_name", new: [{ value: "Read", documented: false, known: true }], gone: [] }],
    },
    { event: "pre_tool_use", removed: [{ pointer: "/prompt_id", classes: ["identifier"], members: 0 }] },
    { event: "session_start", added: [{ pointer: "/agent_type", classes: ["enum"], members: 0 }] },
  ],
};

type EventFacts = { event: string; changed: boolean } & Record<string, unknown>;

/** The facts of a --json comparison, with the empty lists of each event left out. */
function factsOf(json: Record<string, unknown>): unknown {
  const events = (json.events as EventFacts[]).filter((e) => e.changed);
  const changed = events.map((e) => Object.fromEntries(Object.entries(e).filter(([k, v]) => k !== "changed" && !(Array.isArray(v) && v.length === 0))));
  return { onlyInA: json.onlyInA, onlyInB: json.onlyInB, changed };
}

let root: string;

beforeAll(() => {
  root = gitRepo();
  clearVersion(root, "2.1.261");
  clearVersion(root, "2.1.283", BUMP);
});

describe("clear compare on two cleared versions", () => {
  it("reports exactly the five differences, under --json", () => {
    const r = clearJson(["compare", "claude-code", "2.1.261", "2.1.283"], { cwd: root });
    expect(r.code).toBe(0);
    const sides = { a: { label: "claude-code 2.1.261", events: 8 }, b: { label: "claude-code 2.1.283", events: 7 } };
    expect(r.json).toMatchObject({ command: "compare", ok: true, findings: [], ...sides });
    expect(factsOf(r.json)).toEqual(FIVE);
    const unchanged = (r.json.events as EventFacts[]).filter((e) => !e.changed).map((e) => e.event);
    expect(unchanged).toEqual(["post_compact", "post_tool_use", "post_tool_use_failure", "session_end"]);
  });

  it("reports the same five in human output, grouped by event", () => {
    const r = clear(["compare", "claude-code", "2.1.261", "2.1.283"], { cwd: root });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        "compare claude-code 2.1.261 (8 events) with claude-code 2.1.283 (7 events)",
        "only in claude-code 2.1.261: pre_compact",
        "only in claude-code 2.1.283: none",
        "post_tool_batch:",
        "  class    /tool_calls/*/tool_response  free-text -> object (2 members under it)",
        '  values   /tool_calls/*/tool_name  new "Read"',
        "pre_tool_use:",
        "  removed  /prompt_id  identifier",
        "session_start:",
        "  added    /agent_type  enum",
        "unchanged: post_compact, post_tool_use, post_tool_use_failure, session_end",
        "",
      ].join("\n"),
    );
  });

  it("gives the same facts for the two folders, from any current directory", () => {
    const dirs = ["2.1.261", "2.1.283"].map((v) => path.join(root, "fixtures", "claude-code", v));
    const r = clearJson(["compare", ...dirs], { cwd: tempDir() });
    expect(r.code).toBe(0);
    expect(factsOf(r.json)).toEqual(FIVE);
    expect(r.json).toMatchObject({ a: { harness: "claude-code" }, b: { harness: "claude-code" } });
    const same = clearJson(["compare", dirs[0] as string, dirs[0] as string], { cwd: root });
    expect(factsOf(same.json)).toEqual({ onlyInA: [], onlyInB: [], changed: [] });
    // Folders under the runner's home are shown with ~, as every path the tool prints. The home is
    // the repository's parent: the repository's own name ("clear-fixtures-<random>") as a home would
    // teach its words as the runner's names, and "fixtures" would be masked.
    const home = path.dirname(root);
    const human = clear(["compare", ...dirs], { env: { HOME: home } });
    const shown = `~/${path.basename(root)}/fixtures/claude-code`;
    expect(human.stdout.split("\n")[0]).toBe(`compare ${shown}/2.1.261 (8 events) with ${shown}/2.1.283 (7 events)`);
    expect(human.stdout).not.toContain(root);
    const named = clear(["compare", ...dirs], { env: { HOME: root } });
    expect(named.stdout.split("\n")[0]).toBe("compare ~/********/claude-code/2.1.261 (8 events) with ~/********/claude-code/2.1.283 (7 events)");
  });
});

describe("what clear compare prints and reads", () => {
  it("masks a member name the rules do not spell, and never prints it or a value", () => {
    const repo = gitRepo();
    const name = ["private", "member", "of", "a", "hook"].join("_");
    clearVersion(repo, "2.1.261");
    const withMember = (p: Payload): Payload => ({ ...p, tool_input: { ...(p.tool_input as Payload), [name]: "a value of the capture" } });
    clearVersion(repo, "2.1.262", (event, p) => (event === "pre_tool_use" ? withMember(p) : p));
    for (const args of [["compare", "claude-code", "2.1.261", "2.1.262"], ["compare", "claude-code", "2.1.261", "2.1.262", "--json"]]) {
      const r = clear(args, { cwd: repo });
      expect(r.code).toBe(0);
      expect(r.stdout).toContain("/tool_input/[masked]");
      expect(r.stdout).not.toContain(name);
      expect(r.stdout).not.toContain("a value of the capture");
    }
  });

  it("prints none of an enum value the rules do not spell where it could hold a home or prose, in folders of any origin", () => {
    const parent = path.join(tempDir("clear-compare-values-"), "claude-code");
    const home = ["", "home", "alice"].join("/");
    const batch = (names: string[]): string => JSON.stringify({ hook_event_name: "PostToolBatch", tool_calls: names.map((tool_name) => ({ tool_name })) });
    for (const [version, names] of [["1.0.0", ["Bash"]], ["1.0.1", ["Bash", `a tool kept under ${home}`]]] as const) {
      mkdirSync(path.join(parent, version), { recursive: true });
      writeFileSync(path.join(parent, version, "post_tool_batch.json"), batch([...names]));
    }
    for (const json of [false, true]) {
      const r = clear(["compare", path.join(parent, "1.0.0"), path.join(parent, "1.0.1"), ...(json ? ["--json"] : [])]);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain("[not in the rules: 29 characters]");
      expect(r.stdout).not.toContain("a to");
      expect(r.stdout).not.toContain("alice");
    }
  });

  it("prints no secret shape an enum value holds, in folders of any origin", () => {
    const parent = path.join(tempDir("clear-compare-keys-"), "claude-code");
    const token = ["gh", "p_", "wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx"].join("");
    for (const [version, model] of [["1.0.0", "claude-x"], ["1.0.1", token]] as const) {
      mkdirSync(path.join(parent, version), { recursive: true });
      writeFileSync(path.join(parent, version, "session_start.json"), JSON.stringify({ session_id: "s", hook_event_name: "SessionStart", source: "startup", model }));
    }
    for (const json of [false, true]) {
      const r = clear(["compare", path.join(parent, "1.0.0"), path.join(parent, "1.0.1"), ...(json ? ["--json"] : [])]);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(json ? /"value": ?"\[not in the rules: 40 characters\]"/ : /new \[not in the rules: 40 characters\]; gone \[not in the rules: 8 characters\]/);
      expect(r.stdout).not.toContain("claude-x");
      expect(r.stdout + r.stderr).not.toContain(token.slice(4, 20));
    }
  });

  it("learns the names the folders' homes teach, and prints none of them: not in an event's name, not in an enum value", () => {
    const parent = path.join(tempDir("clear-compare-names-"), "claude-code");
    const owner = ["kenj", "iro"].join("");
    for (const [version, model] of [["1.0.0", "claude-x"], ["1.0.1", `${owner}-model`]] as const) {
      mkdirSync(path.join(parent, version), { recursive: true });
      writeFileSync(path.join(parent, version, "session_start.json"), JSON.stringify({ session_id: "s", hook_event_name: "SessionStart", cwd: `/home/${owner}/work`, source: "startup", model }));
    }
    writeFileSync(path.join(parent, "1.0.1", `notes-${owner}.json`), JSON.stringify({ session_id: "s", hook_event_name: "Stop" }));
    for (const json of [false, true]) {
      const r = clear(["compare", path.join(parent, "1.0.0"), path.join(parent, "1.0.1"), ...(json ? ["--json"] : [])]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain("notes-");
      expect((r.stdout + r.stderr).toLowerCase()).not.toContain(owner);
    }
  });

  it("learns the owner of a home in a file that does not parse, and prints no file named after it", () => {
    const parent = path.join(tempDir("clear-compare-cut-"), "claude-code");
    const owner = ["qvmt", "zrk"].join("");
    for (const version of ["1.0.0", "1.0.1"]) {
      mkdirSync(path.join(parent, version), { recursive: true });
      writeFileSync(path.join(parent, version, "session_start.json"), JSON.stringify({ session_id: "s", hook_event_name: "SessionStart", source: "startup" }));
    }
    writeFileSync(path.join(parent, "1.0.1", `${owner}_notes.json`), `{"cwd":"/home/${owner}/p", `);
    for (const json of [false, true]) {
      const r = clear(["compare", path.join(parent, "1.0.0"), path.join(parent, "1.0.1"), ...(json ? ["--json"] : [])]);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout).toContain("_notes.json");
      expect((r.stdout + r.stderr).toLowerCase()).not.toContain(owner);
    }
  });

  it("prints an enum value whole only where the rules spell it, and never a member named with digits, in folders of raw captures", () => {
    const parent = path.join(tempDir("clear-compare-raw-"), "claude-code");
    const tool = ["mcp", "payroll", "internal", "query"].join("__");
    const card = ["4111", "1111", "1111", "1111"].join("");
    const sides: [string, Payload][] = [
      ["1.0.0", { hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" }, source: "startup" }],
      ["1.0.1", { hook_event_name: "PreToolUse", tool_name: tool, tool_input: { command: "ls", [card]: "x" }, source: "resume" }],
    ];
    for (const [version, payload] of sides) {
      mkdirSync(path.join(parent, version), { recursive: true });
      writeFileSync(path.join(parent, version, "claude-code_pre_tool_use_" + version + ".1.json"), JSON.stringify(payload));
      writeFileSync(path.join(parent, version, "pre_tool_use.json"), JSON.stringify(payload));
    }
    const args = ["compare", path.join(parent, "1.0.0"), path.join(parent, "1.0.1")];
    const json = clearJson(args);
    expect(json.code).toBe(0);
    const event = (json.json.events as EventFacts[]).find((e) => e.event === "pre_tool_use") as EventFacts;
    expect(event.added).toEqual([{ pointer: "/tool_input/[masked]", classes: ["free-text"], members: 0 }]);
    expect(event.enumValues).toEqual([
      { pointer: "/tool_name", new: [{ value: `[not in the rules: ${tool.length} characters]`, documented: false, known: false }], gone: [{ value: "Bash", documented: false, known: true }] },
      { pointer: "/source", new: [{ value: "resume", documented: true, known: true }], gone: [{ value: "startup", documented: true, known: true }] },
    ]);
    const human = clear(args);
    expect(human.stdout).toContain(`  values   /tool_name  new [not in the rules: ${tool.length} characters]; gone "Bash"`);
    expect(human.stdout).toContain('  values   /source  new "resume"; gone "startup"');
    for (const out of [JSON.stringify(json.json), human.stdout + human.stderr]) {
      expect(out).not.toContain("payroll");
      expect(out).not.toContain("mcp_");
      expect(out).not.toContain(card);
    }
  });

  it("prints no character of a short value the rules do not spell (a PIN, initials, a token's piece), whatever the harness or none", () => {
    const shorts = ["4821", "JQ", "k9", "Zed", "x"];
    const base = tempDir("clear-compare-short-");
    for (const parent of [path.join(base, "claude-code"), path.join(base, "codex"), path.join(base, "some-folder")]) {
      const payload = (i: number): Payload => ({
        hook_event_name: "PreToolUse",
        source: i === 0 ? "startup" : "resume",
        tool_name: i === 0 ? "Bash" : shorts[0],
        model: shorts[1 - i + 1],
        notification_type: shorts[2 + i],
        tool_calls: [{ tool_name: shorts[4 - i] }],
        code: shorts[i],
        initials: shorts[3 - i],
      });
      for (const i of [0, 1]) {
        mkdirSync(path.join(parent, `1.0.${i}`), { recursive: true });
        writeFileSync(path.join(parent, `1.0.${i}`, "pre_tool_use.json"), JSON.stringify(payload(i)));
      }
      for (const json of [false, true]) {
        const r = clear(["compare", path.join(parent, "1.0.0"), path.join(parent, "1.0.1"), ...(json ? ["--json"] : [])]);
        expect(r.code, r.stderr).toBe(0);
        const out = (json ? r.stdout.replace(/"(value|pointer|event|label|folder|harness|command|code|message|file)"/g, "") : r.stdout).replace(/\[not in the rules: [0-9]+ characters?\]/g, "");
        for (const v of shorts) expect(out, `${path.basename(parent)} ${v}`).not.toMatch(new RegExp(`"${v}"|\\b${v}\\b`));
        if (parent.endsWith("some-folder")) continue;
        expect(r.stdout).toMatch(json ? /"value": ?"Bash"/ : /gone "Bash"/);
        expect(r.stdout).toContain("[not in the rules: 4 characters]");
      }
    }
  });

  it("never follows a link: a fixture that is one is a finding (exit 1); a folder that is one is not read (exit 2)", () => {
    const repo = tempDir("clear-compare-links-");
    cpSync(path.join(root, "fixtures"), path.join(repo, "fixtures"), { recursive: true });
    const b = path.join(repo, "fixtures", "claude-code", "2.1.283");
    symlinkSync(path.join(b, "session_end.json"), path.join(b, "stop.json"));
    const r = clearJson(["compare", path.join(repo, "fixtures/claude-code/2.1.261"), b]);
    expect(r.code).toBe(1);
    expect(r.json.findings).toEqual([expect.objectContaining({ code: "symlink-in-repo", file: expect.stringMatching(/2\.1\.283\/stop\.json$/) })]);
    expect(r.json.onlyInB).toEqual([]);
    symlinkSync(b, path.join(repo, "linked"));
    expect(clearJson(["compare", path.join(repo, "fixtures/claude-code/2.1.261"), path.join(repo, "linked")]).code).toBe(2);
    renameSync(path.join(repo, "fixtures", "claude-code"), path.join(repo, "real"));
    symlinkSync(path.join(repo, "real"), path.join(repo, "fixtures", "claude-code"));
    mkdirSync(path.join(repo, ".git"));
    const above = clearJson(["compare", "claude-code", "2.1.261", "2.1.283", "--root", repo]);
    expect(above.code).toBe(2);
    expect(above.json.error).toMatch(/fixtures\/claude-code is a symbolic link/);
  });

  it("findings are grouped by code with their first files; --verbose lists every one", () => {
    const repo = tempDir("clear-compare-verbose-");
    cpSync(path.join(root, "fixtures"), path.join(repo, "fixtures"), { recursive: true });
    const [a, b] = ["2.1.261", "2.1.283"].map((v) => path.join(repo, "fixtures", "claude-code", v)) as [string, string];
    for (const name of ["stop.json", "notification.json"]) symlinkSync(path.join(b, "session_end.json"), path.join(b, name));
    const short = clear(["compare", a, b]);
    expect(short.code).toBe(1);
    expect(short.stdout).toContain("\nFindings by code: 2 blocking, 0 notes\n  BLOCK symlink-in-repo: 2 findings in 2 files\n");
    expect(short.stdout).toContain("--verbose lists every finding.");
    const every = clear(["compare", a, b, "--verbose"]);
    expect(every.code).toBe(1);
    expect(every.stdout.split("\n").filter((l) => /^BLOCK symlink-in-repo +\S*2\.1\.283\/(stop|notification)\.json: /.test(l))).toHaveLength(2);
    // What the comparison says is the same either way.
    const facts = (out: string): string => out.slice(0, out.indexOf("unchanged:"));
    expect(facts(every.stdout)).toBe(facts(short.stdout));
  });

  it("a fixture that does not parse is a finding naming it; other entries are counted, not compared", () => {
    const dir = tempDir("clear-compare-bad-");
    cpSync(path.join(root, "fixtures", "claude-code", "2.1.261"), dir, { recursive: true });
    writeFileSync(path.join(dir, "stop.json"), "{ broken");
    writeFileSync(path.join(dir, "README.md"), "notes\n");
    // A name that is not UTF-8 is said to be one, not "no such file".
    writeFileSync(Buffer.concat([Buffer.from(`${dir}/stop`), Buffer.from([0xff]), Buffer.from(".json")]), "{}");
    const r = clearJson(["compare", path.join(root, "fixtures", "claude-code", "2.1.261"), dir]);
    expect(r.code).toBe(1);
    expect(r.json.findings).toEqual([
      expect.objectContaining({ code: "not-a-file", file: expect.stringMatching(/stop\ufffd\.json$/), message: "has a name that is not UTF-8 (shown with \ufffd); not read" }),
      expect.objectContaining({ code: "invalid-json", file: expect.stringMatching(/stop\.json$/) }),
    ]);
    expect(r.json.ignored).toBe(1);
  });

  it("usage errors exit 2, with one JSON object under --json", () => {
    expect(clearJson(["compare", "claude-code", "2.1.261"], { cwd: root }).code).toBe(2);
    const unknown = clearJson(["compare", "no-such-host", "1.0.0", "1.0.1"], { cwd: root });
    expect(unknown).toMatchObject({ code: 2, json: { ok: false, error: expect.stringMatching(/unknown harness/) } });
    expect(clearJson(["compare", "claude-code", "2.1.261", "9.9.9"], { cwd: root }).json.error).toMatch(/fixtures\/claude-code\/9\.9\.9: no such folder/);
    expect(clearJson(["compare", path.join(root, "nowhere"), path.join(root, "fixtures")]).code).toBe(2);
    // A harness's folder given for a version's holds no fixture: nothing compared is not "unchanged".
    const harness = path.join(root, "fixtures", "claude-code");
    const none = clearJson(["compare", harness, path.join(harness, "2.1.261")]);
    expect(none).toMatchObject({ code: 2, json: { ok: false, error: expect.stringMatching(/claude-code: holds no fixture \(<event>\.json\); give a version's folder/) } });
    const repo = tempDir("clear-compare-empty-");
    mkdirSync(path.join(repo, ".git"));
    cpSync(path.join(harness, "2.1.261"), path.join(repo, "fixtures", "claude-code", "2.1.261"), { recursive: true });
    mkdirSync(path.join(repo, "fixtures", "claude-code", "2.1.300"));
    const empty = clearJson(["compare", "claude-code", "2.1.261", "2.1.300", "--root", repo]);
    expect(empty).toMatchObject({ code: 2, json: { error: expect.stringMatching(/fixtures\/claude-code\/2\.1\.300: holds no fixture/) } });
  });
});

describe("the compare pass", () => {
  const rules = loadRules();
  const claude = classifier(rules.fields.find((f) => f.harness === "claude-code"));
  const shape = (payload: Payload, event = "pre_tool_use"): ReturnType<typeof shapeOf> =>
    shapeOf(scanJson(JSON.stringify(payload), { maxDepth: 64 }), event, claude);

  it("takes every item of an array as one shape: more items of the same shape change nothing", () => {
    const item = { tool_name: "Bash", tool_use_id: "toolu_01AbCdEfGhIjKlMnOpQrStUv" };
    const batch = (calls: Payload[]): ReturnType<typeof shapeOf> => shape({ tool_calls: calls }, "post_tool_batch");
    const diff = compareEvent("post_tool_batch", batch([item]), batch([item, item, item]));
    expect(diff).toEqual({ event: "post_tool_batch", added: [], removed: [], classChanged: [], enumValues: [] });
    const grown = compareEvent("post_tool_batch", batch([]), batch([item]));
    expect(grown.added).toEqual([{ tokens: ["tool_calls", null], classes: ["object"], members: 2 }]);
  });

  it("an enum whose new value its rule does not document is a class change, enum to free text", () => {
    const diff = compareEvent("session_end", shape({ reason: "logout" }, "session_end"), shape({ reason: "a reason of the host's own" }, "session_end"));
    expect(diff.classChanged).toEqual([{ tokens: ["reason"], before: ["enum"], after: ["free-text"], members: 0 }]);
    const documented = compareEvent("session_end", shape({ reason: "logout" }, "session_end"), shape({ reason: "clear" }, "session_end"));
    const change = { tokens: ["reason"], added: [{ value: "clear", documented: true, known: true }], gone: [{ value: "logout", documented: true, known: true }] };
    expect(documented.enumValues).toEqual([change]);
  });

  it("is linear in the members: 20,000 added or removed and 2,000 under a class change are counted at once", () => {
    const many = (n: number, prefix: string): Payload => Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, { command: "x", list: [i] }]));
    const a = shape({ tool_name: "Bash", tool_input: many(10_000, "a"), tool_response: "text" });
    const b = shape({ tool_name: "Bash", tool_input: many(10_000, "b"), tool_response: many(500, "c") });
    const started = performance.now();
    const diff = compareEvent("pre_tool_use", a, b);
    const took = performance.now() - started;
    expect(diff.added.length + diff.removed.length).toBe(20_000);
    expect(diff.added[0]).toEqual({ tokens: ["tool_input", "b0"], classes: ["object"], members: 3 });
    expect(diff.classChanged).toEqual([{ tokens: ["tool_response"], before: ["free-text"], after: ["object"], members: 2_000 }]);
    // A comparison that looks at every member for each member takes minutes here.
    expect(took).toBeLessThan(10_000);
  });

  it("a member removed with what lies under it is one fact", () => {
    const diff = compareEvent("pre_tool_use", shape({ tool_input: { command: "x", description: "y" }, tool_name: "Bash" }), shape({ tool_name: "Bash" }));
    expect(diff.removed).toEqual([{ tokens: ["tool_input"], classes: ["object"], members: 2 }]);
  });
});
