import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Harness } from "./hosts.js";
import { refusalOf, snakeEvent, CAPTURE_DIR_VARIABLE } from "./sink.js";
import { transportsFor, type SinkCall } from "./transports.js";

// `clear capture dry-run`: one synthetic payload through the transport's exact hook command into a
// temporary folder, the name and the bytes checked, the folder removed. Hand-piped bytes are
// never fixtures, so nothing of it is kept.

const SYNTHETIC: Record<Harness, { event: string; payload: unknown }> = {
  "claude-code": { event: "SessionStart", payload: { session_id: "dry-run", hook_event_name: "SessionStart", source: "startup" } },
  codex: { event: "SessionStart", payload: { session_id: "dry-run", hook_event_name: "SessionStart", source: "startup" } },
  opencode: { event: "session.created", payload: { event: { type: "session.created", properties: { sessionID: "dry-run" } } } },
};

export interface DryRun {
  ok: boolean;
  expected: string;
  found: string[];
  bytesEqual: boolean;
  stdoutEmpty: boolean;
  exitCode: number | null;
  notice: boolean;
}

/** The command a Claude Code or Codex hooks file runs for an event, as the host would run it. */
function commandFor(text: string, event: string): string {
  const hooks = (JSON.parse(text) as { hooks: Record<string, { hooks: { command: string }[] }[]> }).hooks;
  const command = hooks[event]?.[0]?.hooks[0]?.command;
  if (command === undefined) throw new Error(`the transport registers no hook for ${event}`);
  return command;
}

/** OpenCode's plugin is loaded as the host loads it, and its `event` hook called. */
async function throughPlugin(
  pluginFile: string,
  payload: unknown,
  env: NodeJS.ProcessEnv,
): Promise<{ stdout: string; stderr: string; code: number | null }> {
  const runner = [
    `const m = await import(${JSON.stringify(pathToFileURL(pluginFile).href)});`,
    "const hooks = await Object.values(m)[0]({});",
    `await hooks.event(${JSON.stringify(payload)});`,
  ].join("\n");
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", runner], {
    env,
    encoding: "utf8",
  });
  return { stdout: r.stdout, stderr: r.stderr, code: r.status };
}

export async function dryRun(harness: Harness, version: string, call: SinkCall, events: string[]): Promise<DryRun> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), "clear-dry-run-"));
  try {
    const dir = path.join(scratch, "sitting");
    const project = path.join(scratch, "project");
    mkdirSync(dir);
    mkdirSync(project);
    const refusal = refusalOf(dir);
    if (refusal !== null) throw new Error(`the temporary folder ${refusal}`);
    const synthetic = SYNTHETIC[harness];
    const transport = transportsFor(harness, events, call, version)[0]!;
    const file = path.join(project, ...transport.path.split("/"));
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, transport.text);
    const bytes = Buffer.from(JSON.stringify(synthetic.payload));
    // The sink's marker that says the notice once lands in the scratch folder and goes with it.
    const env = { ...process.env, TMPDIR: scratch, [CAPTURE_DIR_VARIABLE]: dir };
    const r =
      harness === "opencode"
        ? await throughPlugin(file, synthetic.payload, env)
        : (({ stdout, stderr, status }) => ({ stdout, stderr, code: status }))(
            spawnSync("/bin/sh", ["-c", commandFor(transport.text, synthetic.event)], {
              input: bytes,
              env,
              encoding: "utf8",
            }),
          );
    const expected = `${harness}_${snakeEvent(synthetic.event)}_${version}.1.json`;
    const found = readdirSync(dir).sort();
    const bytesEqual =
      found.length === 1 &&
      found[0] === expected &&
      readFileSync(path.join(dir, expected)).equals(harness === "opencode" ? Buffer.from(JSON.stringify(synthetic.payload)) : bytes);
    const result = {
      expected,
      found,
      bytesEqual,
      stdoutEmpty: r.stdout === "",
      exitCode: r.code,
      notice: /capture mode is recording/.test(r.stderr),
    };
    return { ok: bytesEqual && result.stdoutEmpty && r.code === 0 && result.notice, ...result };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
