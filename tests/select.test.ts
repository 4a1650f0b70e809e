import { execFileSync } from "node:child_process";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { clearJson, PROJECT_ROOT, tempDir } from "./helpers.js";

interface Selected {
  event: string;
  file: string;
  bytes: number;
  why: string;
  override: boolean;
  notChosen: { file: string; bytes: number; why: string }[];
}

function sitting(files: Record<string, object>): string {
  const dir = tempDir();
  for (const [name, body] of Object.entries(files)) writeFileSync(path.join(dir, name), JSON.stringify(body));
  return dir;
}

describe("clear select", () => {
  const files = {
    // The smallest PreToolUse belongs to another call than the only PostToolUse.
    "claude-code_pre_tool_use_2_1_261.1.json": { session_id: "s", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls -la /tmp" }, tool_use_id: "toolu_KEEP" },
    "claude-code_pre_tool_use_2_1_261.2.json": { session_id: "s", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "toolu_OTHER" },
    "claude-code_post_tool_use_2_1_261.1.json": { session_id: "s", hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "ls -la /tmp" }, tool_response: { stdout: "a" }, tool_use_id: "toolu_KEEP" },
    "claude-code_session_start_2_1_261.1.json": { session_id: "s", hook_event_name: "SessionStart", source: "startup" },
    "claude-code_session_start_2_1_261.2.json": { session_id: "s", hook_event_name: "SessionStart", source: "compact", model: "claude-opus" },
  };

  it("chooses the pre that pairs with the only post, and records the smaller one as not chosen, with why", () => {
    const { code, json } = clearJson(["select", sitting(files)]);
    expect(code).toBe(0);
    const selected = json.selected as Selected[];
    const pre = selected.find((s) => s.event === "pre_tool_use")!;
    expect(pre.file).toBe("claude-code_pre_tool_use_2_1_261.1.json");
    expect(pre.why).toBe("keeps the tool_use_id toolu_KEEP pair with claude-code_post_tool_use_2_1_261.1.json");
    expect(pre.notChosen).toEqual([{ file: "claude-code_pre_tool_use_2_1_261.2.json", bytes: expect.any(Number), why: "smaller; the chosen one keeps its pair" }]);
    expect(pre.notChosen[0]!.bytes).toBeLessThan(pre.bytes);
    const start = selected.find((s) => s.event === "session_start")!;
    expect(start).toMatchObject({ file: "claude-code_session_start_2_1_261.1.json", why: "the smallest" });
    expect(start.notChosen).toEqual([{ file: "claude-code_session_start_2_1_261.2.json", bytes: expect.any(Number), why: "larger" }]);
  });

  it("--json lists every capture not chosen at the top level too, each with file, bytes and the event it was passed over for, as each selected[] entry lists it", () => {
    const { json } = clearJson(["select", sitting(files)]);
    const selected = json.selected as (Selected & { harness: string; version: string })[];
    const perEvent = selected.flatMap((s) => s.notChosen.map((n) => ({ harness: s.harness, event: s.event, version: s.version, ...n })));
    expect(perEvent).toHaveLength(2);
    expect(json.notChosen).toEqual(perEvent);
    expect(json.notChosen).toContainEqual({ harness: "claude-code", event: "session_start", version: "2.1.261", file: "claude-code_session_start_2_1_261.2.json", bytes: expect.any(Number), why: "larger" });
  });

  it("never breaks an operation silently: a chosen PostToolBatch of another call than the pre and post chosen is a note naming it; two spellings of one capture's name tie by name, and say so", () => {
    const call = (id: string, command: string): Record<string, object> => ({
      [`claude-code_pre_tool_use_2_1_261.${id === "toolu_A" ? 1 : 2}.json`]: { session_id: "s", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command }, tool_use_id: id },
      [`claude-code_post_tool_use_2_1_261.${id === "toolu_A" ? 1 : 2}.json`]: { session_id: "s", hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command }, tool_response: { stdout: "a" }, tool_use_id: id },
      [`claude-code_post_tool_batch_2_1_261.${id === "toolu_A" ? 1 : 2}.json`]: { session_id: "s", hook_event_name: "PostToolBatch", tool_calls: [{ tool_name: "Bash", tool_input: { command }, tool_use_id: id }] },
    });
    // Call A's pre and post are the smaller; call B's batch event is.
    const dir = sitting({ ...call("toolu_A", "ls"), ...call("toolu_B", "ls -la") });
    writeFileSync(path.join(dir, "claude-code_post_tool_batch_2_1_261.2.json"), JSON.stringify({ session_id: "s", hook_event_name: "PostToolBatch", tool_calls: [{ tool_use_id: "toolu_B" }] }));
    const { code, json } = clearJson(["select", dir]);
    expect(code).toBe(0);
    const chosen = Object.fromEntries((json.selected as Selected[]).map((s) => [s.event, s.file]));
    expect(chosen).toEqual({ pre_tool_use: "claude-code_pre_tool_use_2_1_261.1.json", post_tool_use: "claude-code_post_tool_use_2_1_261.1.json", post_tool_batch: "claude-code_post_tool_batch_2_1_261.2.json" });
    expect((json.findings as { code: string; file: string }[]).map((f) => [f.code, f.file])).toEqual([["pair-split", "claude-code_post_tool_batch_2_1_261.2.json"]]);
    const twice = sitting({ "codex_session_start_0_153_0.1.json": { session_id: "s", hook_event_name: "SessionStart" }, "codex_session_start_0.153.0.1.json": { session_id: "s", hook_event_name: "SessionStart" } });
    const tied = (clearJson(["select", twice]).json.selected as Selected[])[0]!;
    expect(tied.notChosen.map((n) => n.why)).toEqual(["same size and .n, later name"]);
  });

  it("records --choose as an override, and refuses a name that is not a capture here", () => {
    const dir = sitting(files);
    const { json } = clearJson(["select", dir, "--choose", "claude-code_session_start_2_1_261.2.json"]);
    expect((json.selected as Selected[]).find((s) => s.event === "session_start")).toMatchObject({ file: "claude-code_session_start_2_1_261.2.json", override: true });
    expect(clearJson(["select", dir, "--choose", "nope.json"]).code).toBe(2);
  });

  it("blocks an event whose every capture is refused, and lists the refused one as not chosen elsewhere", () => {
    const dir = sitting({
      "codex_post_tool_use_0_153_0.1.json": { session_id: "s", turn_id: "t", tool_use_id: "c", tool_response: "y".repeat(5000) },
      "codex_pre_tool_use_0_153_0.1.json": { session_id: "s", turn_id: "t", tool_use_id: "c", tool_input: { command: "ls" } },
    });
    const { code, json } = clearJson(["select", dir]);
    expect(code).toBe(1);
    expect((json.findings as { code: string }[]).map((f) => f.code)).toContain("no-clearable-capture");
  });

  it("says what blocks clear run in sitting.json or kit.json (a secret shape, a mailbox), as inventory does: the same verdict from the three commands", () => {
    const token = ["gh", "p_", "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"].join("");
    for (const driver of [`ci with ${token}`, "the runner of wren.abernathy@example.com"]) {
      const dir = tempDir();
      cpSync(path.join(PROJECT_ROOT, "examples", "sitting"), dir, { recursive: true });
      const info = JSON.parse(readFileSync(path.join(dir, "sitting.json"), "utf8")) as Record<string, unknown>;
      writeFileSync(path.join(dir, "sitting.json"), JSON.stringify({ ...info, driver }));
      const root = tempDir();
      execFileSync("git", ["init", "-q"], { cwd: root });
      const verdicts = [clearJson(["inventory", dir]), clearJson(["select", dir]), clearJson(["run", dir, "--root", root])];
      for (const r of verdicts) {
        expect([r.code, r.json.ok], `${r.json.command}: ${driver}`).toEqual([1, false]);
        expect((r.json.findings as { code: string; file: string; pointer: string }[]).filter((f) => f.code === "invalid-sitting").map((f) => [f.file, f.pointer])).toEqual([["sitting.json", "/driver"]]);
        expect(JSON.stringify(r.json)).not.toMatch(/ABCDEFGHIJKL|abernathy/);
      }
    }
  });

  it("says what would block clear run: a capture that cannot be read is a finding and exit 1, never passed over", () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "codex_session_start_0_153_0.1.json"), JSON.stringify({ session_id: "s", hook_event_name: "SessionStart", cwd: "/tmp" }));
    writeFileSync(path.join(dir, "codex_stop_0_153_0.1.json"), "{ broken");
    const r = clearJson(["select", dir]);
    expect(r.code).toBe(1);
    expect(r.json.ok).toBe(false);
    expect(r.json.findings).toContainEqual(expect.objectContaining({ code: "invalid-json", file: "codex_stop_0_153_0.1.json" }));
  });
});
