import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { classifier } from "../src/classify.js";
import { loadRules } from "../src/io/load-rules.js";
import { pointerTokens } from "../src/json/reader.js";
import { captureOf, clearInMemory, clearJson, tempDir } from "./helpers.js";

// What real hosts send, checked against the hosts' own statements of their payloads, with
// synthetic values in the documented shapes.

const rules = loadRules();

interface FindingRow {
  code: string;
  file?: string;
  pointer?: string;
  message: string;
}

describe("pairing reads only what the field rules call identifiers", () => {
  for (const set of rules.pairing) {
    it(`${set.harness}: every pointer a scope reads is classed identifier on every event that carries it`, () => {
      const c = classifier(rules.fields.find((f) => f.harness === set.harness));
      const events = rules.harnesses.find((h) => h.harness === set.harness)!.events.map((e) => e.stem);
      for (const scope of set.scopes) {
        for (const p of scope.pointers) {
          const tokens = pointerTokens(p.pointer.replace(/\/\*(?=\/|$)/g, "/0"));
          // An id of the shape OpenCode gives it where a rule names one (ses_…, msg_…, prt_…).
          const id = { sessionID: "ses_1", messageID: "msg_1", partID: "prt_1" }[tokens.at(-1) as string] ?? "id_1";
          for (const event of p.events ?? events) expect(c.classify(event, tokens, "string", id).class, `${set.harness} ${scope.scope} ${p.pointer} on ${event}`).toBe("identifier");
        }
      }
    });
  }
});

function write(dir: string, files: Record<string, object>): void {
  for (const [name, body] of Object.entries(files)) writeFileSync(path.join(dir, name), JSON.stringify(body));
}

describe("OpenCode's event stream, bare and wrapped", () => {
  const stream = (wrap: boolean): Record<string, object> => {
    const w = (e: object): object => (wrap ? { event: e } : e);
    return {
      "opencode_session_created_1_18_29.1.json": w({ id: "evt_1", type: "session.created", properties: { sessionID: "ses_A1", info: { id: "ses_A1", title: "private title" } } }),
      "opencode_tool_execute_before_1_18_29.1.json": { input: { tool: "bash", sessionID: "ses_A1", callID: "call_A1" }, output: { args: { command: "ls" } } },
      "opencode_message_updated_1_18_29.1.json": w({ id: "evt_2", type: "message.updated", properties: { info: { id: "msg_A1", sessionID: "ses_A1", role: "assistant", mode: "build", finish: "stop" } } }),
      "opencode_message_part_updated_1_18_29.1.json": w({ id: "evt_3", type: "message.part.updated", properties: { part: { id: "prt_A1", messageID: "msg_A1", sessionID: "ses_A1", type: "tool", tool: "bash", callID: "call_A1", state: { status: "completed", input: { command: "ls" }, output: "total 0" } } } }),
      "opencode_message_part_delta_1_18_29.1.json": w({ id: "evt_4", type: "message.part.delta", properties: { sessionID: "ses_A1", messageID: "msg_A1", partID: "prt_A1", field: "text", delta: "some words" } }),
      "opencode_session_next_step_failed_1_18_29.1.json": w({ id: "evt_5", type: "session.next.step.failed", properties: { sessionID: "ses_A1", error: { type: "provider.internal", message: "it broke" } } }),
      "opencode_server_heartbeat_1_18_29.1.json": w({ id: "evt_6", type: "server.heartbeat", properties: {} }),
    };
  };

  for (const wrap of [false, true]) {
    it(`${wrap ? "wrapped" : "bare"}: no unknown event, ids kept byte for byte and paired by, enums kept, text substituted`, () => {
      const dir = tempDir();
      write(dir, stream(wrap));
      const inv = clearJson(["inventory", dir]);
      const findings = inv.json.findings as FindingRow[];
      expect(findings.filter((f) => f.code === "unknown-event")).toEqual([]);
      expect(findings.filter((f) => f.code === "unknown-field").map((f) => `${f.file} ${f.pointer}`)).toEqual([]);
      const out = path.join(tempDir(), "out");
      const sub = clearJson(["substitute", dir, "--out", out]);
      expect(sub.code).toBe(0);
      const part = readFileSync(path.join(out, "opencode_message_part_updated_1_18_29.1.json"), "utf8");
      for (const id of ['"prt_A1"', '"msg_A1"', '"ses_A1"', '"call_A1"', '"tool"', '"bash"', '"completed"']) expect(part).toContain(id);
      expect(part).not.toContain("total 0");
      expect(readFileSync(path.join(out, "opencode_message_updated_1_18_29.1.json"), "utf8")).toContain('"role":"assistant"');
      const pairs = (clearJson(["pair", out]).json.pairs as { scope: string; id: string; files: string[] }[]).map((p) => [p.scope, p.id, p.files.length]);
      expect(pairs).toContainEqual(["callID", "call_A1", 2]);
      // The part is finest at its call and at its own id: its text delta joins it there, not by the message.
      expect(pairs).toContainEqual(["partID", "prt_A1", 2]);
      expect(pairs.filter((p) => p[0] === "messageID")).toEqual([]);
    });
  }
});

describe("Claude Code events from the hooks reference, in their documented shapes", () => {
  it("knows every field of TaskCreated, TaskCompleted, TeammateIdle, WorktreeCreate, WorktreeRemove, StopFailure, Elicitation", () => {
    const dir = tempDir();
    const base = { session_id: "s", transcript_path: "/home/user/.claude/projects/-home-user-p/s.jsonl", cwd: "/home/user/p", permission_mode: "default" };
    write(dir, {
      "claude-code_task_created_2_1_261.1.json": { ...base, hook_event_name: "TaskCreated", task_id: "task_1", task_subject: "Write tests", task_description: "Write the parser tests", teammate_name: "reviewer", team_name: "core" },
      "claude-code_task_completed_2_1_261.1.json": { ...base, hook_event_name: "TaskCompleted", task_id: "task_1", task_subject: "Write tests", task_description: "Done", teammate_name: "reviewer", team_name: "core" },
      "claude-code_teammate_idle_2_1_261.1.json": { ...base, hook_event_name: "TeammateIdle", teammate_name: "reviewer", team_name: "core" },
      "claude-code_worktree_create_2_1_261.1.json": { ...base, hook_event_name: "WorktreeCreate", name: "feature-x" },
      "claude-code_worktree_remove_2_1_261.1.json": { ...base, hook_event_name: "WorktreeRemove", worktree_path: "/home/user/p-wt" },
      "claude-code_stop_failure_2_1_261.1.json": { ...base, hook_event_name: "StopFailure", error: "rate_limit", error_details: "429 from the API" },
      "claude-code_elicitation_2_1_261.1.json": { ...base, hook_event_name: "Elicitation", mcp_server_name: "srv", message: "Sign in", mode: "url", url: "https://auth.example.com/authorize?state=abc123&code=xyz" },
      "claude-code_elicitation_result_2_1_261.1.json": { ...base, hook_event_name: "ElicitationResult", mcp_server_name: "srv", elicitation_id: "elic_1", action: "accept" },
    });
    const { json } = clearJson(["inventory", dir, "--recipe", "claude-code-measured"]);
    expect((json.findings as FindingRow[]).filter((f) => f.code === "unknown-field" || f.code === "unknown-event")).toEqual([]);
  });
});

describe("URL values", () => {
  it("keep scheme, host and path; lose user information, query values and fragment; a fixed endpoint stays whole", () => {
    const dir = tempDir();
    const secret = ["tok", "en", "Value", "42"].join("");
    write(dir, {
      "claude-code_elicitation_2_1_261.1.json": { session_id: "s", hook_event_name: "Elicitation", mode: "url", url: `https://bob:${secret}@auth.example.com/authorize?state=${secret}&x=1#frag${secret}` },
      "opencode_session_model_request_2_0_20.1.json": { sessionID: "ses_1", baseURL: "https://opencode.ai/inference/go/openai/v1" },
    });
    const out = path.join(tempDir(), "out");
    const r = clearJson(["substitute", dir, "--out", out]);
    expect(r.code).toBe(0);
    const cleared = readFileSync(path.join(out, "claude-code_elicitation_2_1_261.1.json"), "utf8");
    expect(cleared).not.toContain(secret);
    expect(cleared).not.toContain("bob");
    expect(cleared).toContain("@auth.example.com/authorize?state=");
    expect(readFileSync(path.join(out, "opencode_session_model_request_2_0_20.1.json"), "utf8")).toContain('"baseURL":"https://opencode.ai/inference/go/openai/v1"');
  });
});

describe("a name learned from a path that only looks like a home", () => {
  it("refuses other files with user-name-left and says where the name was learned, never the name", () => {
    const dir = tempDir();
    const project = ["my", "project"].join("-");
    write(dir, {
      "codex_session_start_0_153_0.1.json": { session_id: "s", cwd: `/Users/${project}` },
      "codex_stop_0_153_0.1.json": { session_id: "s", turn_id: "t", cwd: `/srv/${project}/build` },
    });
    const r = clearJson(["substitute", dir, "--out", path.join(tempDir(), "out")]);
    expect(r.code).toBe(1);
    const left = (r.json.findings as FindingRow[]).find((f) => f.code === "user-name-left");
    expect(left).toMatchObject({ file: "codex_stop_0_153_0.1.json", pointer: "/cwd" });
    expect(left?.message).toContain("learned from codex_session_start_0_153_0.1.json at /cwd");
    expect(JSON.stringify(r.json)).not.toContain(project);
  });
});

describe("OpenCode plugin hooks and events, in their documented shapes", () => {
  it("knows every field, keeps every id, and blanks what people and models wrote", () => {
    const dir = tempDir();
    write(dir, {
      "opencode_tool_execute_after_1_18_29.1.json": { input: { tool: "bash", sessionID: "ses_1", callID: "call_1" }, output: { title: "ls -la", output: "total 8", metadata: { output: "total 8", exit: 0, description: "List files" } } },
      "opencode_chat_message_1_18_29.1.json": { input: { sessionID: "ses_1", agent: "build", model: { providerID: "anthropic", modelID: "claude-sonnet-4" }, messageID: "msg_1" }, output: { message: { id: "msg_1", sessionID: "ses_1", role: "user" }, parts: [{ id: "prt_1", sessionID: "ses_1", messageID: "msg_1", type: "text", text: "Run ls -la in the shell" }] } },
      "opencode_session_error_1_18_29.1.json": { event: { type: "session.error", properties: { sessionID: "ses_1", error: { name: "ProviderAuthError", data: { providerID: "anthropic", message: "Invalid API key" } } } } },
      "opencode_permission_asked_1_18_29.1.json": { event: { type: "permission.asked", properties: { id: "per_1", sessionID: "ses_1", permission: "bash", patterns: ["ls *"], metadata: { command: "ls -la" }, always: ["ls *"], tool: { messageID: "msg_1", callID: "call_1" } } } },
      "opencode_todo_updated_1_18_29.1.json": { event: { type: "todo.updated", properties: { sessionID: "ses_1", todos: [{ id: "1", content: "Write tests", status: "pending", priority: "high" }] } } },
      "opencode_command_executed_1_18_29.1.json": { event: { type: "command.executed", properties: { name: "init", sessionID: "ses_1", arguments: "", messageID: "msg_2" } } },
      "opencode_file_edited_1_18_29.1.json": { event: { type: "file.edited", properties: { file: "/home/user/p/src/a.ts" } } },
    });
    const findings = clearJson(["inventory", dir]).json.findings as FindingRow[];
    expect(findings.filter((f) => f.code === "unknown-field" || f.code === "unknown-event")).toEqual([]);
    const out = path.join(tempDir(), "out");
    expect(clearJson(["substitute", dir, "--out", out]).code).toBe(0);
    const asked = readFileSync(path.join(out, "opencode_permission_asked_1_18_29.1.json"), "utf8");
    for (const kept of ['"id":"per_1"', '"callID":"call_1"', '"messageID":"msg_1"', '"permission":"bash"']) expect(asked).toContain(kept);
    expect(readFileSync(path.join(out, "opencode_chat_message_1_18_29.1.json"), "utf8")).not.toContain("Run ls");
    expect(readFileSync(path.join(out, "opencode_todo_updated_1_18_29.1.json"), "utf8")).toContain('"status":"pending"');
  });
});

describe("identifiers that link events, and host enums with their documented values", () => {
  it("keeps Claude Code's agentId in the Agent tool's response and the host's enums; blanks what people and models wrote", () => {
    const dir = tempDir();
    const base = { session_id: "s", transcript_path: "/home/user/.claude/projects/-home-user-p/s.jsonl", cwd: "/home/user/p" };
    const agentId = "a7f3c2e91b0d4f55";
    write(dir, {
      "claude-code_post_tool_use_2_1_332.1.json": {
        ...base,
        hook_event_name: "PostToolUse",
        tool_name: "Agent",
        tool_use_id: "toolu_01",
        tool_input: { description: "Review the parser", prompt: "Read src/parser.ts and list its bugs" },
        tool_response: { status: "async_launched", agentId, description: "Review the parser", prompt: "Read src/parser.ts", outputFile: "/tmp/out.txt" },
      },
      "claude-code_subagent_start_2_1_332.1.json": { ...base, hook_event_name: "SubagentStart", agent_id: agentId, agent_type: "general-purpose" },
      "claude-code_pre_skill_shell_command_2_1_332.1.json": {
        ...base,
        hook_event_name: "PreSkillShellCommand",
        command_name: "deploy",
        command_source: "project",
        invoked_by: "claude",
        tool_input: { command: "make deploy" },
      },
    });
    const inv = clearJson(["inventory", dir]).json.findings as FindingRow[];
    expect(inv.filter((f) => f.code === "unknown-field" || f.code === "unknown-event")).toEqual([]);
    const out = path.join(tempDir(), "out");
    const r = clearJson(["substitute", dir, "--out", out]);
    expect(r.code).toBe(0);
    const post = readFileSync(path.join(out, "claude-code_post_tool_use_2_1_332.1.json"), "utf8");
    expect(post).toContain(`"agentId":"${agentId}"`);
    expect(post).toContain('"status":"async_launched"');
    expect(post).not.toContain("parser");
    expect(readFileSync(path.join(out, "claude-code_subagent_start_2_1_332.1.json"), "utf8")).toContain(`"agent_id":"${agentId}"`);
    expect(readFileSync(path.join(out, "claude-code_pre_skill_shell_command_2_1_332.1.json"), "utf8")).toContain('"invoked_by":"claude"');
  });

  it("keeps OpenCode's reply and a built-in agent; a value outside an enum's documented values is substituted as free text, with a note", () => {
    const dir = tempDir();
    const custom = ["ana", "reviewer"].join("-");
    write(dir, {
      "opencode_permission_replied_1_19_3.1.json": { type: "permission.replied", properties: { sessionID: "ses_1", requestID: "per_1", reply: "once" } },
      "opencode_message_updated_1_19_3.1.json": { type: "message.updated", properties: { info: { id: "msg_1", role: "assistant", agent: "build" } } },
      "opencode_message_updated_1_19_3.2.json": { type: "message.updated", properties: { info: { id: "msg_2", role: "assistant", agent: custom } } },
    });
    const out = path.join(tempDir(), "out");
    const r = clearJson(["substitute", dir, "--out", out]);
    expect(r.code).toBe(0);
    expect(readFileSync(path.join(out, "opencode_permission_replied_1_19_3.1.json"), "utf8")).toContain('"reply":"once"');
    expect(readFileSync(path.join(out, "opencode_message_updated_1_19_3.1.json"), "utf8")).toContain('"agent":"build"');
    const second = readFileSync(path.join(out, "opencode_message_updated_1_19_3.2.json"), "utf8");
    expect(second).not.toContain(custom);
    expect(second).toContain(`"agent":"${"x".repeat(custom.length)}"`);
    const notes = (r.json.findings as FindingRow[]).filter((f) => f.code === "undocumented-value");
    expect(notes).toEqual([expect.objectContaining({ file: "opencode_message_updated_1_19_3.2.json", pointer: "/properties/info/agent" })]);
    expect(JSON.stringify(r.json)).not.toContain(custom);
  });
});

describe("example payloads as the hosts' documentation shows them", () => {
  it("inventory knows every event and field of them", () => {
    const dir = tempDir();
    write(dir, {
      // Claude Code's hooks guide: a PostToolUse for TodoWrite and a Stop.
      "claude-code_post_tool_use_2_1_332.1.json": {
        session_id: "9ecf22fa-edf8-4332-ae85-b6d5456eda64",
        transcript_path: "/home/user/.claude/projects/-home-user-p/9ecf22fa.jsonl",
        hook_event_name: "PostToolUse",
        tool_name: "TodoWrite",
        tool_input: { todos: [{ content: "write a readme", status: "pending", priority: "medium", id: "1" }] },
        tool_response: { oldTodos: [], newTodos: [{ content: "write a readme", status: "pending", priority: "medium", id: "1" }] },
      },
      "claude-code_stop_2_1_332.1.json": { session_id: "af9f50b6", transcript_path: "/home/user/t.jsonl", hook_event_name: "Stop", stop_hook_active: false },
      // Codex's PermissionRequest, as its pull request introducing the hook shows it.
      "codex_permission_request_0_171_0.1.json": {
        session_id: "s",
        turn_id: "t",
        transcript_path: "/path/to/transcript.jsonl",
        cwd: "/path/to/cwd",
        hook_event_name: "PermissionRequest",
        model: "gpt-5",
        permission_mode: "default",
        tool_name: "Bash",
        tool_input: { command: "rm -f /tmp/example", description: "network-access example.com" },
      },
      // OpenCode's plugin guide: tool.execute.before with the arguments a plugin may change.
      "opencode_tool_execute_before_1_19_3.1.json": { input: { tool: "read", sessionID: "ses_1", callID: "c1" }, output: { args: { filePath: "/tmp/.env" } } },
      "opencode_session_idle_1_19_3.1.json": { event: { type: "session.idle", properties: { sessionID: "ses_1" } } },
    });
    const { json } = clearJson(["inventory", dir]);
    expect((json.findings as FindingRow[]).filter((f) => f.code === "unknown-field" || f.code === "unknown-event")).toEqual([]);
    expect(clearJson(["substitute", dir, "--out", path.join(tempDir(), "out")]).code).toBe(0);
  });
});

describe("a value of another kind than its rule expects", () => {
  it("a string where a rule expects a number is substituted as free text, never kept on the rule's word", () => {
    const text = JSON.stringify({ session_id: "s", turn_id: "t", tool_input: { timeout_ms: "wait for the build to finish" } });
    const [file] = clearInMemory([captureOf(text, "codex_pre_tool_use_0_171_0.1.json", "codex", "pre_tool_use")]).files;
    const cleared = Buffer.from(file!.cleared!).toString("utf8");
    expect(cleared).not.toContain("build");
    expect(JSON.parse(cleared).tool_input.timeout_ms).toBe("x".repeat("wait for the build to finish".length));
  });
});

describe("an agent a person defined", () => {
  it("Claude Code's and Codex's custom agent types are substituted as free text with a note; built-in ones are kept", () => {
    const custom = ["ana", "reviewer"].join("-");
    const start = (name: string, harness: string, body: object) => captureOf(JSON.stringify(body), name, harness, "subagent_start");
    const files = [
      start("claude-code_subagent_start_2_1_332.1.json", "claude-code", { session_id: "s", agent_id: "a1", agent_type: custom }),
      start("claude-code_subagent_start_2_1_332.2.json", "claude-code", { session_id: "s", agent_id: "a2", agent_type: "Explore" }),
      start("codex_subagent_start_0_171_0.1.json", "codex", { session_id: "s", turn_id: "t", agent_id: "a3", agent_type: custom }),
    ];
    const s = clearInMemory(files);
    const text = s.files.map((f) => Buffer.from(f.cleared!).toString("utf8"));
    expect(text[0]).toContain(`"agent_type":"${"x".repeat(custom.length)}"`);
    expect(text[1]).toContain('"agent_type":"Explore"');
    expect(text[2]).not.toContain(custom);
    expect(s.findings.filter((f) => f.code === "undocumented-value").map((f) => [f.file, f.pointer])).toEqual([
      ["claude-code_subagent_start_2_1_332.1.json", "/agent_type"],
      ["codex_subagent_start_0_171_0.1.json", "/agent_type"],
    ]);
  });
});
