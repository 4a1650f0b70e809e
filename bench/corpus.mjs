// Generates a synthetic sitting of capture files for the benchmarks: sizes spread from 200 B to
// 100 KB, shaped like real Claude Code, Codex and OpenCode payloads, with a home path to clear.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { prng } from "../tests/seeded.mjs";

export { prng };

const WORDS = ["the", "file", "read", "line", "project", "output", "error", "build", "test", "café", "日本", "path"];

export function makeCorpus(dir, count, seed = 7) {
  mkdirSync(dir, { recursive: true });
  const rnd = prng(seed);
  const user = ["bench", "user", "x"].join("");
  const home = `/home/${user}`;
  let bytes = 0;
  const counters = new Map();
  for (let i = 0; i < count; i++) {
    const target = Math.floor(200 + rnd() ** 2 * (100 * 1024 - 200));
    const kind = i % 3;
    const text = (n) => {
      let s = "";
      while (s.length < n) s += `${WORDS[Math.floor(rnd() * WORDS.length)]} `;
      return s.slice(0, n);
    };
    let name;
    let body;
    if (kind === 0) {
      name = ["claude-code", "post_compact", "2_1_261"];
      body = { session_id: `s-${i}`, transcript_path: `${home}/.claude/projects/-home-${user}-p/s.jsonl`, cwd: `${home}/p`, prompt_id: `p-${i}`, hook_event_name: "PostCompact", trigger: "manual", compact_summary: "" };
      body.compact_summary = text(Math.max(0, target - JSON.stringify(body).length));
    } else if (kind === 1) {
      name = ["codex", "stop", "0_153_0"];
      body = { session_id: `s-${i}`, turn_id: `t-${i}`, transcript_path: `${home}/.codex/sessions/r.jsonl`, cwd: `${home}/p`, hook_event_name: "Stop", model: "m", permission_mode: "default", stop_hook_active: false, last_assistant_message: "" };
      body.last_assistant_message = text(Math.max(0, target - JSON.stringify(body).length));
    } else {
      name = ["opencode", "session_created", "1_18_29"];
      body = { event: { id: `evt_${i}`, type: "session.created", properties: { sessionID: `ses_${i}`, info: { id: `ses_${i}`, directory: `${home}/p`, path: `home/${user}/p`, title: "" } } } };
      body.event.properties.info.title = text(Math.max(0, target - JSON.stringify(body).length));
    }
    const key = name.join("_");
    const n = (counters.get(key) ?? 0) + 1;
    counters.set(key, n);
    const raw = Buffer.from(JSON.stringify(body));
    bytes += raw.length;
    writeFileSync(path.join(dir, `${key}.${n}.json`), raw);
  }
  return { files: count, bytes };
}
