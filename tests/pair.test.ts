import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { clear, clearJson, folderDigest, PASTURE_PRESENT, PASTURE_SKIP_REASON, tempDir } from "./helpers.js";
import { rebuildSitting } from "./pasture.js";
import { loadRules } from "../src/io/load-rules.js";
import { pairPass, type FileIds } from "../src/passes/pair.js";

interface PairRow {
  scope: string;
  id: string;
  files: string[];
}
interface UnpairedRow {
  scope: string | null;
  file: string;
  reason: string;
}

function sitting(files: Record<string, object>): string {
  const dir = tempDir();
  for (const [name, body] of Object.entries(files)) writeFileSync(path.join(dir, name), JSON.stringify(body));
  return dir;
}

function pair(dir: string): { pairs: PairRow[]; unpaired: UnpairedRow[]; json: Record<string, unknown> } {
  const { code, json } = clearJson(["pair", dir]);
  expect(code).toBe(0);
  return { pairs: json.pairs as PairRow[], unpaired: json.unpaired as UnpairedRow[], json };
}

const S = "session-0001";

describe("clear pair", () => {
  it("Claude Code: pairs a pre and post by tool call, joins the batch event, keeps a failed call apart from another call's post", () => {
    const dir = sitting({
      "claude-code_pre_tool_use_2_1_261.1.json": { session_id: S, prompt_id: "p1", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "toolu_A" },
      "claude-code_post_tool_use_2_1_261.1.json": { session_id: S, prompt_id: "p1", hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "toolu_A" },
      "claude-code_post_tool_batch_2_1_261.1.json": { session_id: S, prompt_id: "p1", hook_event_name: "PostToolBatch", tool_calls: [{ tool_name: "Bash", tool_use_id: "toolu_A" }] },
      "claude-code_pre_tool_use_2_1_261.2.json": { session_id: S, prompt_id: "p2", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "toolu_B" },
      "claude-code_post_tool_use_failure_2_1_261.1.json": { session_id: S, prompt_id: "p2", hook_event_name: "PostToolUseFailure", tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "toolu_B", error: "no" },
      "claude-code_session_start_2_1_261.1.json": { session_id: S, hook_event_name: "SessionStart", source: "startup" },
    });
    const { pairs, unpaired } = pair(dir);
    const toolPairs = pairs.filter((p) => p.scope === "tool_use_id");
    expect(toolPairs).toEqual([
      { harness: "claude-code", scope: "tool_use_id", id: "toolu_A", files: ["claude-code_post_tool_batch_2_1_261.1.json", "claude-code_post_tool_use_2_1_261.1.json", "claude-code_pre_tool_use_2_1_261.1.json"] },
      { harness: "claude-code", scope: "tool_use_id", id: "toolu_B", files: ["claude-code_post_tool_use_failure_2_1_261.1.json", "claude-code_pre_tool_use_2_1_261.2.json"] },
    ]);
    // The failed call's post never joins the other call's pre, though both run the same command.
    for (const p of pairs) expect(p.files.includes("claude-code_post_tool_use_failure_2_1_261.1.json") && p.files.includes("claude-code_pre_tool_use_2_1_261.1.json")).toBe(false);
    expect(unpaired).toEqual([{ file: "claude-code_session_start_2_1_261.1.json", scope: "session_id", reason: "carries only a session_id every file shares, which pairs nothing" }]);
  });

  const prePost: [string, Record<string, object>, string][] = [
    [
      "claude-code",
      {
        "claude-code_pre_tool_use_2_1_261.1.json": { session_id: S, prompt_id: "p1", tool_use_id: "toolu_1" },
        "claude-code_post_tool_use_2_1_261.1.json": { session_id: S, prompt_id: "p1", tool_use_id: "toolu_1" },
        "claude-code_pre_tool_use_2_1_261.2.json": { session_id: S, prompt_id: "p2", tool_use_id: "toolu_2" },
      },
      "toolu_1",
    ],
    [
      "codex",
      {
        "codex_pre_tool_use_0_153_0.1.json": { session_id: S, turn_id: "t1", tool_use_id: "exec-1" },
        "codex_post_tool_use_0_153_0.1.json": { session_id: S, turn_id: "t1", tool_use_id: "exec-1" },
        "codex_pre_tool_use_0_153_0.2.json": { session_id: S, turn_id: "t2", tool_use_id: "exec-2" },
      },
      "exec-1",
    ],
    [
      "opencode",
      {
        "opencode_tool_execute_before_1_18_29.1.json": { input: { tool: "bash", sessionID: "ses", callID: "call_1" } },
        "opencode_tool_execute_after_1_18_29.1.json": { input: { tool: "bash", sessionID: "ses", callID: "call_1" } },
        "opencode_tool_execute_before_1_18_29.2.json": { input: { tool: "bash", sessionID: "ses", callID: "call_2" } },
      },
      "call_1",
    ],
  ];
  for (const [harness, files, id] of prePost) {
    it(`${harness}: pairs a pre and a post by the tool call's own id, and not the other call`, () => {
      const { pairs, unpaired } = pair(sitting(files));
      const [pre1, post1, pre2] = Object.keys(files) as [string, string, string];
      const tool = pairs.filter((p) => ["tool_use_id", "callID"].includes(p.scope));
      expect(tool).toEqual([{ harness, scope: harness === "opencode" ? "callID" : "tool_use_id", id, files: [post1, pre1].sort() }]);
      expect(pairs.some((p) => p.files.includes(pre2))).toBe(false);
      expect(unpaired.map((u) => u.file)).toEqual([pre2]);
    });
  }

  it("one call id in two sessions is two calls: each pairs within its session, and selection keeps a pre and a post of one session; a file that carries no session joins either", () => {
    const call = "toolu_scripted_1_0";
    const claude = (event: string, session: string, n: number): [string, object] => [`claude-code_${event}_2.1.261.${n}.json`, { session_id: session, hook_event_name: event === "pre_tool_use" ? "PreToolUse" : "PostToolUse", tool_name: "Bash", tool_use_id: call, ...(event === "pre_tool_use" ? { tool_input: { command: "ls" } } : { tool_response: { stdout: n === 2 ? "a" : "a longer output" } }) }];
    const dir = sitting(Object.fromEntries([claude("pre_tool_use", "ses-a", 1), claude("post_tool_use", "ses-a", 1), claude("pre_tool_use", "ses-b", 2), claude("post_tool_use", "ses-b", 2), claude("pre_tool_use", "ses-c", 3)]));
    expect(pair(dir).pairs.map((p) => [p.id, p.files])).toEqual([
      [call, ["claude-code_post_tool_use_2.1.261.1.json", "claude-code_pre_tool_use_2.1.261.1.json"]],
      [call, ["claude-code_post_tool_use_2.1.261.2.json", "claude-code_pre_tool_use_2.1.261.2.json"]],
    ]);
    const chosen = clearJson(["select", dir]).json.selected as { file: string }[];
    const sessions = chosen.filter((c) => /_tool_use_/.test(c.file)).map((c) => (JSON.parse(readFileSync(path.join(dir, c.file), "utf8")) as { session_id: string }).session_id);
    expect(sessions.length).toBe(2);
    expect(new Set(sessions).size).toBe(1);
    // OpenCode's call id lies within its message: two messages, two calls; a tool hook carries no message and joins the first.
    const oc = sitting({
      "opencode_message_part_updated_1_18_29.1.json": { type: "message.part.updated", properties: { part: { id: "prt_1", messageID: "msg_1", type: "tool", callID: "call_1" } } },
      "opencode_message_part_updated_1_18_29.2.json": { type: "message.part.updated", properties: { part: { id: "prt_2", messageID: "msg_2", type: "tool", callID: "call_1" } } },
      "opencode_tool_execute_before_1_18_29.1.json": { input: { tool: "bash", sessionID: "ses_1", callID: "call_1" }, output: { args: { command: "ls" } } },
    });
    expect(pair(oc).pairs.map((p) => [p.scope, p.files])).toEqual([["callID", ["opencode_message_part_updated_1_18_29.1.json", "opencode_tool_execute_before_1_18_29.1.json"]]]);
  });

  it("an identifier every file shares pairs nothing, and says so", () => {
    const dir = sitting({
      "codex_session_start_0_153_0.1.json": { session_id: S, hook_event_name: "SessionStart" },
      "codex_session_end_0_153_0.1.json": { session_id: S, hook_event_name: "SessionEnd" },
    });
    const { pairs, unpaired, json } = pair(dir);
    expect(pairs).toEqual([]);
    expect(unpaired.map((u) => [u.scope, u.reason])).toEqual([
      ["session_id", "carries only a session_id every file shares, which pairs nothing"],
      ["session_id", "carries only a session_id every file shares, which pairs nothing"],
    ]);
    const counts = json.counts as { scope: string; distinctValues: number; sharedByAll: boolean }[];
    expect(counts.find((c) => c.scope === "session_id")).toMatchObject({ distinctValues: 1, sharedByAll: true });
    const human = clear(["pair", dir]);
    expect(human.stdout).toContain("session scope (session_id): one session_id; every file carries one; shared by every file, so it pairs nothing.");
  });

  it("files with no identifier are listed with that reason", () => {
    const dir = sitting({
      "opencode_session_created_1_18_29.1.json": { event: { type: "session.created", properties: { info: { title: "t" } } } },
      "opencode_tool_execute_before_1_18_29.1.json": { input: { tool: "bash" }, output: { args: { command: "ls" } } },
    });
    const { pairs, unpaired } = pair(dir);
    expect(pairs).toEqual([]);
    expect(unpaired).toEqual([
      { file: "opencode_session_created_1_18_29.1.json", scope: null, reason: "carries no identifier at any scope" },
      { file: "opencode_tool_execute_before_1_18_29.1.json", scope: null, reason: "carries no identifier at any scope" },
    ]);
  });

  it("never pairs by a value that appears in another field", () => {
    const dir = sitting({
      "codex_pre_tool_use_0_153_0.1.json": { session_id: "s1", turn_id: "t1", hook_event_name: "PreToolUse", tool_input: { command: "echo call_42" }, tool_use_id: "call_42" },
      "codex_post_tool_use_0_153_0.1.json": { session_id: "s2", turn_id: "t2", hook_event_name: "PostToolUse", tool_input: { command: "echo call_42" }, tool_response: "call_42", model: "t1", tool_use_id: "call_43" },
    });
    const { pairs, unpaired } = pair(dir);
    expect(pairs).toEqual([]);
    expect(unpaired.map((u) => u.file)).toEqual(["codex_post_tool_use_0_153_0.1.json", "codex_pre_tool_use_0_153_0.1.json"]);
    expect(unpaired[1]?.reason).toContain("no other file's finest identifier is its tool_use_id call_42");
  });

  it("OpenCode: pairs tool hooks by callID, and session events by session", () => {
    const dir = sitting({
      "opencode_tool_execute_before_1_18_29.1.json": { input: { tool: "bash", sessionID: "ses_1", callID: "call_1" }, output: { args: { command: "ls" } } },
      "opencode_tool_execute_after_1_18_29.1.json": { input: { tool: "bash", sessionID: "ses_1", callID: "call_1" }, output: { output: "x" } },
      "opencode_tool_execute_before_1_18_29.2.json": { input: { tool: "bash", sessionID: "ses_2", callID: "call_2" }, output: { args: { command: "ls" } } },
      "opencode_session_created_1_18_29.1.json": { event: { id: "evt_1", type: "session.created", properties: { sessionID: "ses_2", info: { id: "ses_2" } } } },
      "opencode_session_idle_1_18_29.1.json": { event: { id: "evt_2", type: "session.idle", properties: { sessionID: "ses_2" } } },
    });
    const { pairs, unpaired } = pair(dir);
    expect(pairs).toEqual([
      { harness: "opencode", scope: "callID", id: "call_1", files: ["opencode_tool_execute_after_1_18_29.1.json", "opencode_tool_execute_before_1_18_29.1.json"] },
      { harness: "opencode", scope: "sessionID", id: "ses_2", files: ["opencode_session_created_1_18_29.1.json", "opencode_session_idle_1_18_29.1.json"] },
    ]);
    expect(unpaired.map((u) => u.file)).toEqual(["opencode_tool_execute_before_1_18_29.2.json"]);
  });

  it("an identifier holding a key in hex or base64 is starred in the reasons printed, and the run writes and prints none of it", () => {
    const key = ["gh", "p_", "u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8d"].join("");
    const ids = { hex: `toolu_${Buffer.from(key).toString("hex")}`, base64: `toolu_${Buffer.from(key).toString("base64")}` };
    const dir = sitting(Object.fromEntries(Object.values(ids).map((id, i) => [`claude-code_pre_tool_use_2_1_261.${i + 1}.json`, { session_id: S, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: id }])));
    const { unpaired, json } = pair(dir);
    expect(unpaired).toHaveLength(2);
    const human = clear(["pair", dir, "--verbose"]);
    const root = tempDir();
    execFileSync("git", ["init", "-q"], { cwd: root });
    // The run refuses (a batch with a secret shape in a value it quotes lands nowhere), and prints or writes none of it.
    const run = clear(["run", dir, "--root", root]);
    expect(run.code).not.toBe(0);
    const recordFile = path.join(root, "CLEARANCE.md");
    const record = existsSync(recordFile) ? readFileSync(recordFile, "utf8") : "";
    for (const printed of [JSON.stringify(json), human.stdout + human.stderr, run.stdout + run.stderr, record]) {
      for (const id of Object.values(ids)) expect(printed).not.toContain(id.slice(6, 30));
    }
  });

  it("an identifier that is a learned name of two letters is starred in what pair prints", () => {
    const home = (name: string): Record<string, unknown> => ({ session_id: S, transcript_path: `/home/${name}/.claude/projects/p/s.jsonl`, cwd: `/home/${name}/p`, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: name });
    for (const name of ["zb", "zed"]) {
      const dir = sitting({ "claude-code_pre_tool_use_2_1_261.1.json": home(name), "claude-code_post_tool_use_2_1_261.1.json": { ...home(name), hook_event_name: "PostToolUse", tool_response: { stdout: "" } } });
      const { pairs, json } = pair(dir);
      expect(pairs.map((p) => p.id), name).toEqual(["*".repeat(name.length)]);
      const human = clear(["pair", dir, "--verbose"]);
      for (const printed of [JSON.stringify(json), human.stdout + human.stderr]) expect(printed, name).not.toMatch(new RegExp(`\\b${name}\\b`));
    }
  });

  it("an identifier masked for its length or an unseen character shows none of a learned name, in pair, select and review's model alike", () => {
    const name = "Qvmtzrk";
    const home = (id: string): Record<string, unknown> => ({ session_id: S, cwd: `/home/${name}/p`, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: id });
    for (const id of [`${name}${"A".repeat(130)}`, `${name}\u202e01`]) {
      const dir = sitting({ "claude-code_pre_tool_use_2_1_261.1.json": home(id), "claude-code_post_tool_use_2_1_261.1.json": { ...home(id), hook_event_name: "PostToolUse", tool_response: { stdout: "" } } });
      const { pairs, json } = pair(dir);
      expect(pairs).toHaveLength(1);
      const printed = [JSON.stringify(json), clear(["pair", dir, "--verbose"]).stdout, clear(["select", dir]).stdout, JSON.stringify(clearJson(["select", dir]).json)].join("\n").toLowerCase();
      for (let i = 0; i + 3 <= name.length; i++) expect(printed, name.slice(i, i + 3)).not.toContain(name.slice(i, i + 3).toLowerCase());
    }
  });

  it("an identifier holding a mailbox or a phone number, in any spelling, is starred in what pair prints", () => {
    const user = ["wren", "abernathy"].join(".");
    const ids = [`${user}@example.com`, `ref ${user}&#64;example.com`, `${user}\uff20example.com`, `mailto:${user}@corp.example.org`, "call +1 (555) 010-4477"];
    // The at sign and the dot spelt out, as people write them to keep a mailbox from a robot; a national number with dots or dashes.
    ids.push(`toolu_${user}(at)example(dot)org`, `${user}[at]example[dot]org`, `${user}-at-example-dot-org`, `toolu_${user}&commat;example&period;org`, "toolu_555.010.4477", "toolu_555-010-4477");
    for (const id of ids) {
      const dir = sitting({
        "claude-code_pre_tool_use_2_1_261.1.json": { session_id: S, hook_event_name: "PreToolUse", tool_name: "Read", tool_input: { file_path: "/srv/x" }, tool_use_id: id },
        "claude-code_post_tool_use_2_1_261.1.json": { session_id: S, hook_event_name: "PostToolUse", tool_name: "Read", tool_input: { file_path: "/srv/x" }, tool_use_id: id },
      });
      const { json } = pair(dir);
      const human = clear(["pair", dir]).stdout;
      for (const shown of [JSON.stringify(json), human]) {
        expect(shown, id).not.toMatch(/wren|abernathy|555|4477/);
        expect(shown, id).toContain("*****");
      }
    }
  });

  it("names each file it could not read, with the finding and its place, and exits 1; the pairs it could read are still said; writes nothing", () => {
    const dir = sitting({
      "codex_pre_tool_use_0_153_0.1.json": { session_id: "s", turn_id: "t", tool_use_id: "c1" },
      "codex_post_tool_use_0_153_0.1.json": { session_id: "s", turn_id: "t", tool_use_id: "c1" },
    });
    const w = (name: string, body: string): void => writeFileSync(path.join(dir, name), body);
    w("codex_stop_0_153_0.1.json", "{ not json");
    w("codex_stop_0_153_0.2.json", '{"session_id":"s","session_id":"t"}');
    w("notes.json", "{}");
    w("README.md", "what this sitting is");
    symlinkSync("codex_pre_tool_use_0_153_0.1.json", path.join(dir, "codex_pre_tool_use_0_153_0.2.json"));
    execFileSync("mkfifo", [path.join(dir, "codex_pre_tool_use_0_153_0.3.json")]);
    mkdirSync(path.join(dir, "older"));
    const before = folderDigest(dir);
    const { code, json } = clearJson(["pair", dir]);
    expect(code).toBe(1);
    expect(json.ok).toBe(false);
    expect(json.skipped).toEqual([
      { file: "codex_pre_tool_use_0_153_0.2.json", code: "symlink", reason: expect.stringContaining("never followed") },
      { file: "codex_pre_tool_use_0_153_0.3.json", code: "not-a-file", reason: expect.stringContaining("not a regular file") },
      { file: "codex_stop_0_153_0.1.json", code: "invalid-json", reason: expect.stringContaining("invalid-json"), line: 1, column: 3 },
      { file: "codex_stop_0_153_0.2.json", code: "duplicate-key", reason: expect.stringContaining("appears twice"), pointer: "/session_id", line: 1, column: 19 },
      { file: "notes.json", code: "not-a-capture", reason: expect.stringContaining("not named") },
      { file: "older", code: "not-a-capture", reason: expect.stringContaining("a folder") },
    ]);
    // The files pair cannot speak for are those inventory blocks on, each one (a companion aside).
    const inventory = clearJson(["inventory", dir]).json.findings as { file?: string; severity: string }[];
    const valid = ["codex_post_tool_use_0_153_0.1.json", "codex_pre_tool_use_0_153_0.1.json"];
    const blocked = [...new Set(inventory.filter((f) => f.severity === "block" && f.file !== undefined && !valid.includes(f.file)).map((f) => f.file))].sort();
    expect((json.skipped as { file: string }[]).map((s) => s.file)).toEqual(blocked);
    // Both files' finest identifier is the call, so they pair there and not again by their turn.
    expect((json.pairs as PairRow[]).map((p) => [p.scope, p.id])).toEqual([["tool_use_id", "c1"]]);
    const human = clear(["pair", dir]);
    expect(human.code).toBe(1);
    expect(human.stdout).toContain("6 skipped: BLOCKED");
    const verbose = clear(["pair", dir, "--verbose"]);
    expect(verbose.code).toBe(1);
    expect(verbose.stdout).toContain("codex_stop_0_153_0.2.json /session_id line 1, column 19: duplicate-key");
    expect(folderDigest(dir)).toBe(before);
  });

  it("prints no identifier longer than it bounds, nor one that moves a terminal or shows nothing, in JSON or human output", () => {
    const ids = ["toolu_\u001b]0;title\u0007\u001b[31mred", "\u009b31mtoolu_csi", "toolu_\u202eevil", "toolu_a\u200bb", "\u2028toolu", `toolu_${"k".repeat(300_000)}`];
    const files: Record<string, object> = {};
    ids.forEach((id, i) => {
      for (const [event, hook] of [["pre_tool_use", "PreToolUse"], ["post_tool_use", "PostToolUse"]]) files[`claude-code_${event}_2_1_261.${i + 1}.json`] = { session_id: S, prompt_id: `p${i}`, hook_event_name: hook, tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: id };
    });
    const dir = sitting(files);
    const { pairs, json } = pair(dir);
    expect(pairs).toHaveLength(ids.length);
    const text = JSON.stringify(json);
    expect(text.length).toBeLessThan(20_000);
    for (const p of pairs) {
      const shown = p.id.replace(/… \(\d+ characters\)$/u, "");
      expect(shown).not.toMatch(/[\p{C}\s]/u);
      expect([...shown].length).toBeLessThanOrEqual(128);
    }
    expect(pairs.map((p) => p.id)).toContain(`tool${"*".repeat(124)}… (300006 characters)`);
    for (const args of [["pair", dir], ["pair", dir, "--verbose"]]) {
      const human = clear(args).stdout;
      expect(human.length).toBeLessThan(20_000);
      expect(human).not.toMatch(/[\u001b\u0007\u009b\u202e\u200b\u2028]|\\u001b|\\u009b|\\u202e|\\u200b|\\u2028|evil|title|31mred/u);
    }
  });

  it("names at most three of an unpaired batch's identifiers and counts the rest", () => {
    const calls = Array.from({ length: 2000 }, (_, i) => ({ tool_name: "Bash", tool_use_id: `toolu_${String(i).padStart(4, "0")}` }));
    const dir = sitting({
      "claude-code_post_tool_batch_2_1_261.1.json": { session_id: S, prompt_id: "p1", hook_event_name: "PostToolBatch", tool_calls: calls },
      "claude-code_stop_2_1_261.1.json": { session_id: S, prompt_id: "p2", hook_event_name: "Stop" },
    });
    const { unpaired } = pair(dir);
    expect(unpaired.find((u) => u.file.includes("batch"))?.reason).toBe("no other file's finest identifier is its tool_use_id toolu_0000, toolu_0001, toolu_0002 and 1997 more");
  });

  it("pairs by an id of one type and one harness, as the host wrote it: a number is no identifier, an id inside a string is not read, another harness's same id is apart", () => {
    const dir = sitting({
      "claude-code_pre_tool_use_2_1_261.1.json": { session_id: S, prompt_id: "p1", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: 7 },
      "claude-code_post_tool_use_2_1_261.1.json": { session_id: S, prompt_id: "p2", hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "7" },
      "claude-code_post_tool_use_2_1_261.2.json": { session_id: S, prompt_id: "p3", hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "toolu_Z", tool_response: JSON.stringify({ tool_use_id: "toolu_N" }) },
      "claude-code_pre_tool_use_2_1_261.2.json": { session_id: S, prompt_id: "p4", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "toolu_N" },
      "codex_pre_tool_use_0_153_0.1.json": { session_id: S, turn_id: "t", hook_event_name: "PreToolUse", tool_use_id: "toolu_Z" },
    });
    const { pairs, unpaired } = pair(dir);
    expect(pairs).toEqual([]);
    expect(unpaired.map((u) => [u.file, u.scope])).toEqual([
      ["claude-code_post_tool_use_2_1_261.1.json", "tool_use_id"],
      ["claude-code_post_tool_use_2_1_261.2.json", "tool_use_id"],
      ["claude-code_pre_tool_use_2_1_261.1.json", "prompt_id"],
      ["claude-code_pre_tool_use_2_1_261.2.json", "tool_use_id"],
      ["codex_pre_tool_use_0_153_0.1.json", "tool_use_id"],
    ]);
  });

  it("refuses a folder named by going up out of a symbolic link (link/../sitting), which the system reads elsewhere than the path shows; reads none of either", () => {
    const base = tempDir();
    const pre = { session_id: S, prompt_id: "p1", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "toolu_A" };
    mkdirSync(path.join(base, "sitting"));
    mkdirSync(path.join(base, "elsewhere", "inner"), { recursive: true });
    mkdirSync(path.join(base, "elsewhere", "sitting"));
    writeFileSync(path.join(base, "sitting", "claude-code_pre_tool_use_2_1_261.1.json"), JSON.stringify(pre));
    writeFileSync(path.join(base, "elsewhere", "sitting", "claude-code_pre_tool_use_2_1_261.1.json"), JSON.stringify({ ...pre, tool_use_id: "toolu_B" }));
    symlinkSync(path.join("elsewhere", "inner"), path.join(base, "link"));
    for (const given of ["link/../sitting", `${base}/link/../sitting`, "link/x/../../sitting"]) {
      const r = clearJson(["pair", given], { cwd: base });
      expect(r.code, given).toBe(2);
      expect(r.json.error, given).toContain('goes up ("..") out of a symbolic link');
      expect(JSON.stringify(r.json), given).not.toMatch(/toolu_[AB]|elsewhere/);
    }
    // Up out of a real folder, or down through a link, names one folder: read.
    expect((clearJson(["pair", "elsewhere/inner/../../sitting"], { cwd: base }).json.unpaired as UnpairedRow[])[0]?.reason).toContain("toolu_A");
    symlinkSync("elsewhere", path.join(base, "down"));
    expect((clearJson(["pair", "down/sitting"], { cwd: base }).json.unpaired as UnpairedRow[])[0]?.reason).toContain("toolu_B");
  });
});

describe.skipIf(!PASTURE_PRESENT)(`clear pair on pasture's Codex 0.153.0 fixtures${PASTURE_PRESENT ? "" : ` (skipped: ${PASTURE_SKIP_REASON})`}`, () => {
  it("asserts exactly the pairs their CLEARANCE.md asserts, and lists what it does not pair", () => {
    const dir = tempDir();
    const rebuilt = rebuildSitting("codex", dir, (c) => c.version === "0.153.0");
    expect(rebuilt).toHaveLength(12);
    const name = (stem: string): string => `codex-cli_${stem}_0_153_0.1.json`;
    const { pairs, unpaired, json } = pair(dir);
    const fine = pairs.filter((p) => ["tool_use_id", "turn_id", "agent_id"].includes(p.scope));
    expect(fine).toEqual([
      { harness: "codex", scope: "agent_id", id: "01a0736f-5370-7d02-9eb9-7a28a3563b32", files: [name("subagent_start"), name("subagent_stop")] },
      { harness: "codex", scope: "turn_id", id: "01a0736d-6431-7730-9321-53425562ab77", files: [name("stop"), name("user_prompt_submit")] },
      { harness: "codex", scope: "turn_id", id: "01a0736d-ca76-78a2-bfef-180da6c981f0", files: [name("post_compact"), name("pre_compact")] },
    ]);
    // The committed PreToolUse and PostToolUse are not one call.
    expect(pairs.some((p) => p.files.includes(name("pre_tool_use")) && p.files.includes(name("post_tool_use")))).toBe(false);
    expect(pairs.filter((p) => p.scope === "session_id")).toEqual([]);
    // A coarser scope never joins what a finer one separates: the PostToolUse's finest id is its call, which has no partner.
    expect(unpaired.map((u) => u.file)).toEqual([name("interrupt"), name("permission_request"), name("post_tool_use"), name("pre_tool_use"), name("session_end"), name("session_start")]);
    expect(unpaired.find((u) => u.file === name("post_tool_use"))?.scope).toBe("tool_use_id");
    expect(unpaired.find((u) => u.file === name("permission_request"))?.reason).toContain("turn_id 01a0736f-d539-7812-9525-a5731c764606");
    const counts = json.counts as { scope: string; distinctValues: number; filesWithout: number }[];
    expect(counts.find((c) => c.scope === "turn_id")).toMatchObject({ distinctValues: 6, filesWithout: 2 });
    expect(counts.find((c) => c.scope === "session_id")).toMatchObject({ distinctValues: 2, filesWithout: 0 });
  });
});

describe.skipIf(!PASTURE_PRESENT)(`clear pair on pasture's OpenCode 2.0.20 payloads${PASTURE_PRESENT ? "" : ` (skipped: ${PASTURE_SKIP_REASON})`}`, () => {
  it("pairs a permission check with the tool call it asked about, and never a call's before with another call's after", () => {
    const dir = tempDir();
    const rebuilt = rebuildSitting("opencode", dir, (c) => c.version === "2.0.20");
    expect(rebuilt.length).toBeGreaterThanOrEqual(5);
    const name = (stem: string): string => rebuilt.find((c) => c.stem === stem)?.capture ?? stem;
    const { pairs, unpaired } = pair(dir);
    expect(pairs.filter((p) => p.scope === "callID")).toEqual([
      { harness: "opencode", scope: "callID", id: "call_00_ol6zvpbgwup5or2tz4gkvvmq", files: [name("permission_evaluate"), name("tool_execute_before")] },
    ]);
    // The after belongs to another call of the same message: it is not joined by the message id.
    expect(pairs.some((p) => p.files.includes(name("tool_execute_before")) && p.files.includes(name("tool_execute_after")))).toBe(false);
    expect(unpaired.find((u) => u.file === name("tool_execute_after"))).toMatchObject({ scope: "callID" });
  });
});

describe("clear pair, OpenCode event stream", () => {
  const OC = (stem: string, n = 1): string => `opencode_${stem}_1_18_29.${n}.json`;
  const bare = (type: string, properties: object): object => ({ type, properties });
  const wrapped = (type: string, properties: object): object => ({ event: { type, properties } });

  it("pairs a message's events by the message id and a part's by the part id, in both forms; two parts of one message are not one pair", () => {
    const text = (id: string): object => ({ part: { id, messageID: "msg_1", sessionID: "ses_1", type: "text" } });
    const dir = sitting({
      [OC("message_updated")]: bare("message.updated", { info: { id: "msg_1", sessionID: "ses_1", role: "assistant" } }),
      [OC("message_removed")]: wrapped("message.removed", { sessionID: "ses_1", messageID: "msg_1" }),
      [OC("message_part_updated")]: bare("message.part.updated", text("prt_1")),
      [OC("message_part_updated", 2)]: wrapped("message.part.updated", text("prt_2")),
      [OC("message_part_delta")]: bare("message.part.delta", { sessionID: "ses_1", messageID: "msg_1", partID: "prt_2", field: "text", delta: "x" }),
    });
    const { pairs, unpaired } = pair(dir);
    expect(pairs.map((p) => [p.scope, p.id, p.files])).toEqual([
      ["partID", "prt_2", [OC("message_part_delta"), OC("message_part_updated", 2)]],
      ["messageID", "msg_1", [OC("message_removed"), OC("message_updated")]],
    ]);
    expect(unpaired).toEqual([{ file: OC("message_part_updated"), scope: "partID", reason: "no other file's finest identifier is its partID prt_1" }]);
  });

  it("a permission joins its tool part by call id, and asked and replied join by request id, in both versions of the stream", () => {
    const tool = (callID: string): object => ({ messageID: "msg_1", callID });
    const dir = sitting({
      [OC("message_part_updated")]: bare("message.part.updated", { part: { id: "prt_1", messageID: "msg_1", type: "tool", callID: "call_1" } }),
      [OC("tool_execute_before")]: { input: { tool: "bash", sessionID: "ses_1", callID: "call_1" }, output: { args: { command: "ls" } } },
      [OC("permission_asked")]: bare("permission.asked", { id: "per_1", sessionID: "ses_1", permission: "bash", tool: tool("call_1") }),
      [OC("permission_replied")]: bare("permission.replied", { sessionID: "ses_1", requestID: "per_1", reply: "once" }),
      [OC("permission_updated")]: wrapped("permission.updated", { id: "per_2", sessionID: "ses_1", messageID: "msg_1", callID: "call_2", type: "bash" }),
      [OC("permission_replied", 2)]: wrapped("permission.replied", { sessionID: "ses_1", permissionID: "per_2", response: "once" }),
      [OC("question_asked")]: bare("question.asked", { id: "que_1", sessionID: "ses_1", questions: [], tool: tool("call_3") }),
      [OC("question_replied")]: bare("question.replied", { sessionID: "ses_1", requestID: "que_1", answers: [] }),
    });
    expect(pair(dir).pairs.map((p) => [p.scope, p.id, p.files])).toEqual([
      ["requestID", "per_1", [OC("permission_asked"), OC("permission_replied")]],
      ["requestID", "per_2", [OC("permission_replied", 2), OC("permission_updated")]],
      ["requestID", "que_1", [OC("question_asked"), OC("question_replied")]],
      ["callID", "call_1", [OC("message_part_updated"), OC("permission_asked"), OC("tool_execute_before")]],
    ]);
  });

  it("pairs the same with and without an event that carries no identifier (server.connected comes first on every stream)", () => {
    const files: Record<string, object> = {
      [OC("session_created")]: bare("session.created", { info: { id: "ses_1", title: "t" } }),
      [OC("session_updated")]: bare("session.updated", { info: { id: "ses_1", title: "t" } }),
      [OC("session_idle")]: bare("session.idle", { sessionID: "ses_1" }),
      [OC("session_status")]: bare("session.status", { sessionID: "ses_1", status: { type: "busy" } }),
      [OC("session_diff")]: bare("session.diff", { sessionID: "ses_1", diff: [] }),
      [OC("tool_execute_before")]: { input: { tool: "bash", sessionID: "ses_1", callID: "call_1" } },
      [OC("tool_execute_after")]: { input: { tool: "bash", sessionID: "ses_1", callID: "call_1" } },
    };
    const without = pair(sitting(files));
    const withIt = pair(sitting({ ...files, [OC("server_connected")]: bare("server.connected", {}) }));
    expect(withIt.pairs).toEqual(without.pairs);
    expect(withIt.pairs.map((p) => [p.scope, p.id])).toEqual([["callID", "call_1"]]);
    const sessionOnly = withIt.unpaired.filter((u) => u.scope === "sessionID").map((u) => u.reason);
    expect(sessionOnly).toEqual(Array(5).fill("carries only a sessionID every file shares, which pairs nothing"));
    const human = clear(["pair", sitting({ ...files, [OC("server_connected")]: bare("server.connected", {}) })]).stdout;
    expect(human).toContain("one file carries no sessionID; shared by every file that carries an identifier, so it pairs nothing.");
  });

  it("a placeholder id pairs nothing, and the counts say so", () => {
    const dir = sitting({
      "claude-code_pre_tool_use_2_1_261.1.json": { session_id: "s", prompt_id: "«redacted»", tool_use_id: "" },
      "claude-code_post_tool_use_2_1_261.1.json": { session_id: "s", prompt_id: "«redacted»", tool_use_id: "" },
      "claude-code_stop_2_1_261.1.json": { session_id: "s", prompt_id: "xxxxxxxx" },
    });
    const { pairs, json } = pair(dir);
    expect(pairs).toEqual([]);
    const counts = json.counts as { scope: string; placeholders: number }[];
    expect(counts.find((c) => c.scope === "prompt_id")?.placeholders).toBe(3);
    expect(counts.find((c) => c.scope === "tool_use_id")?.placeholders).toBe(2);
  });
});

describe("pairPass, called directly", () => {
  const rules = loadRules();
  const ids = (name: string, harness: string, scopes: Record<string, string[]>, placeholders: Record<string, number> = {}): FileIds => ({
    name,
    harness,
    ids: new Map(Object.entries(scopes)),
    placeholders: new Map(Object.entries(placeholders)),
  });

  it("joins files only at their finest scope and lists the rest with that scope", () => {
    const pairing = pairPass(
      [
        ids("a", "codex", { tool_use_id: ["c1"], turn_id: ["t1"], session_id: ["s"] }),
        ids("b", "codex", { tool_use_id: ["c2"], turn_id: ["t1"], session_id: ["s"] }),
        ids("c", "codex", { turn_id: ["t1"], session_id: ["s"] }),
        ids("d", "codex", { turn_id: ["t1"], session_id: ["s"] }),
      ],
      rules,
    );
    expect(pairing.pairs).toEqual([{ harness: "codex", scope: "turn_id", id: "t1", files: ["c", "d"] }]);
    expect(pairing.unpaired.map((u) => [u.file, u.scope])).toEqual([
      ["a", "tool_use_id"],
      ["b", "tool_use_id"],
    ]);
  });

  it("says a file with only placeholder ids carries nothing that pairs", () => {
    const pairing = pairPass([ids("a", "claude-code", { session_id: ["s"] }, { tool_use_id: 1 }), ids("b", "claude-code", { session_id: ["s"] })], rules);
    expect(pairing.pairs).toEqual([]);
    expect(pairing.counts.find((c) => c.scope === "tool_use_id")?.placeholders).toBe(1);
  });
});
