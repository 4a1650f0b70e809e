// A realistic sitting for the benchmarks: most captures 300 B to 2 KB, a tail to 44 KB, about 2%
// near 99 KB (a system prompt), all three harnesses, repeated `.n` files, home paths to clear.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { prng } from "../tests/seeded.mjs";

const WORDS = ["the", "file", "read", "line", "project", "output", "error", "build", "test", "café", "path", "done"];

function targetSize(rnd) {
  const r = rnd();
  if (r < 0.02) return 95_000 + Math.floor(rnd() * 6_000);
  if (r < 0.1) return 2_000 + Math.floor(rnd() ** 2 * 42_000);
  return 300 + Math.floor(rnd() * 1_700);
}

function shapes(i, home, user) {
  const slug = `-home-${user}-proj`;
  return [
    ["claude-code", "pre_tool_use", "2_1_261", { session_id: "s-1", transcript_path: `${home}/.claude/projects/${slug}/s-1.jsonl`, cwd: `${home}/proj`, permission_mode: "default", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "", description: "List files" }, tool_use_id: `toolu_${i}`, prompt_id: `p-${i % 7}` }, ["tool_input", "command"]],
    ["claude-code", "post_tool_use", "2_1_261", { session_id: "s-1", transcript_path: `${home}/.claude/projects/${slug}/s-1.jsonl`, cwd: `${home}/proj`, hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "ls", description: "List files" }, tool_response: { stdout: "", stderr: "", interrupted: false, isImage: false }, tool_use_id: `toolu_${i - 1}`, duration_ms: 12 }, ["tool_response", "stdout"]],
    ["codex", "stop", "0_153_0", { session_id: "s-2", turn_id: `t-${i}`, transcript_path: `${home}/.codex/sessions/2026/11/09/rollout-1.jsonl`, cwd: `${home}/proj`, hook_event_name: "Stop", model: "gpt-5", permission_mode: "default", stop_hook_active: false, last_assistant_message: "" }, ["last_assistant_message"]],
    ["opencode", "session_created", "1_18_29", { event: { id: `evt_${i}`, type: "session.created", properties: { sessionID: `ses_${i}`, info: { id: `ses_${i}`, directory: `${home}/proj`, title: "" } } } }, ["event", "properties", "info", "title"]],
  ];
}

/**
 * Writes `count` captures into `dir`. With `distinct`, every capture is of its own host version,
 * so that `clear run` writes one fixture for each; `maxBytes` caps a capture's size (no tool output
 * large enough to be refused).
 */
export function makeRealisticSitting(dir, count, seed = 11, { distinct = false, maxBytes = Infinity } = {}) {
  mkdirSync(dir, { recursive: true });
  const rnd = prng(seed);
  const user = ["bench", "user", "x"].join("");
  const home = `/home/${user}`;
  const counters = new Map();
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    const all = shapes(i, home, user);
    const [harness, event, version, body, fill] = all[i % all.length];
    const target = Math.min(targetSize(rnd), maxBytes);
    let node = body;
    for (const k of fill.slice(0, -1)) node = node[k];
    let text = "";
    const need = Math.max(0, target - JSON.stringify(body).length);
    while (text.length < need) text += `${WORDS[Math.floor(rnd() * WORDS.length)]} `;
    node[fill.at(-1)] = text.slice(0, need);
    const key = `${harness}_${event}_${distinct ? `${version.split("_")[0]}_${i}_0` : version}`;
    const n = (counters.get(key) ?? 0) + 1;
    counters.set(key, n);
    const raw = Buffer.from(JSON.stringify(body));
    bytes += raw.length;
    writeFileSync(path.join(dir, `${key}.${n}.json`), raw);
  }
  return { files: count, bytes };
}
