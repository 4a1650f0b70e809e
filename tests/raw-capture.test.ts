import { describe, expect, it } from "vitest";
import { loadRules } from "../src/io/load-rules.js";
import { MAX_CHECKED_BYTES, namedLikeCapture, payloadIn, rawCaptureCheck } from "../src/passes/raw-capture.js";

// What the gate recognises as a raw capture, by name and by content: every example in
// rules/payloads.json is a payload or not, as it says.

const rules = loadRules();
const check = rawCaptureCheck(rules.harnesses, rules.payloads);

describe("raw captures by content", () => {
  for (const ex of rules.payloads.examples) {
    it(`${ex.payload ? "a payload" : "not a payload"}: ${ex.note ?? ex.text.slice(0, 60)}`, () => {
      expect(payloadIn(Buffer.from(ex.text), check) !== null).toBe(ex.payload);
    });
  }

  it("says where in the document the payload stands", () => {
    expect(payloadIn(Buffer.from('{"cases":[{"x":1},{"in":{"hook_event_name":"Stop"}}]}'), check)).toEqual({ signature: "hook-event-name", pointer: "/cases/1/in" });
  });

  it("a byte order mark, deep nesting and invalid UTF-8 do not hide or crash it", () => {
    expect(payloadIn(Buffer.from('\ufeff{"hook_event_name":"Stop"}'), check)).not.toBeNull();
    const deep = `${"[".repeat(5000)}{"hook_event_name":"Stop"}${"]".repeat(5000)}`;
    expect(payloadIn(Buffer.from(deep), check)).not.toBeNull();
    expect(payloadIn(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), check)).toBeNull();
  });

  const payload = JSON.stringify({ session_id: "s", transcript_path: "/tmp/t.jsonl", cwd: "/tmp", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" } });
  const pretty = JSON.stringify(JSON.parse(payload), null, 2);
  const hidden: Record<string, Buffer> = {
    "one byte that is not UTF-8 after it": Buffer.concat([Buffer.from(`${payload}\n`), Buffer.from([0xff, 0x0a])]),
    "one byte that is not UTF-8 before it": Buffer.concat([Buffer.from([0xc3, 0x28, 0x0a]), Buffer.from(payload)]),
    "a log line's prefix": Buffer.from(`2026-01-01T00:00:00Z stdin: ${payload}\n`),
    "a prefix inside a JSON Lines file": Buffer.from(`{"ok":1}\nINFO ${payload}\n`),
    "two pretty-printed documents in a row": Buffer.from(`${pretty}\n${pretty}\n`),
    "a comment after it": Buffer.from(`${pretty}\n// end\n`),
    "a comma after it": Buffer.from(`${payload},\n`),
    "an unclosed brace before it": Buffer.from(`{ "broken": ${pretty}`),
    "a string holding a log line with it": Buffer.from(JSON.stringify({ output: `hook said: ${payload}` })),
    "an array of them after a prefix": Buffer.from(`got [${payload}, ${payload}]`),
    "a JSON string literal of it in a log line": Buffer.from(`log: ${JSON.stringify(payload)}\n`),
    "a JSON string literal of it after a prefix in a JSON Lines file": Buffer.from(`{"ok":1}\nstdin=${JSON.stringify(pretty)}\n`),
  };
  for (const [how, bytes] of Object.entries(hidden)) {
    it(`finds a payload behind ${how}`, () => {
      expect(payloadIn(bytes, check)).toMatchObject({ signature: expect.any(String) });
    });
  }

  it("text that only looks like JSON holds no payload, and braces that never close are refused as unchecked, not searched forever", () => {
    expect(payloadIn(Buffer.from("hook_event_name: see {this} and [that] and { not json"), check)).toBeNull();
    const unclosed = Buffer.from(`${'{"hook_event_name":'.repeat(200_000)}`);
    expect(payloadIn(unclosed, check)).toMatchObject({ unchecked: expect.stringContaining("cannot be searched") });
  });

  it("text too large to parse is refused as unchecked, never passed", () => {
    const big = Buffer.alloc(MAX_CHECKED_BYTES + 1, 0x20);
    big.write('{"hook_event_name":"Stop"}', 0);
    expect(payloadIn(big, check)).toMatchObject({ unchecked: expect.stringContaining("above") });
  });
});

describe("raw captures by name", () => {
  it("a name in the capture grammar of a known harness, wherever it stands", () => {
    expect(namedLikeCapture("tests/data/claude-code_pre_tool_use_2.1.261.1.json", check)).toBe(true);
    expect(namedLikeCapture("x/codex-cli_session_start_0_153_0.3.json", check)).toBe(true);
    expect(namedLikeCapture("opencode_some_new_event_1.18.33.1.json", check)).toBe(true);
    expect(namedLikeCapture("docs/claude-code_pre_tool_use.md", check)).toBe(false);
    expect(namedLikeCapture("data_set_1.2.json", check)).toBe(false);
  });
});
