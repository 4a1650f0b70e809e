import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { deflateRawSync, deflateSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { loadRules } from "../src/io/load-rules.js";
import { MAX_CHECKED_BYTES, namedLikeCapture, payloadIn, rawCaptureCheck } from "../src/passes/raw-capture.js";
import { MAX_INFLATED } from "../src/compressed.js";
import { couldHoldPayload } from "../src/passes/raw-capture/prefilter.js";
import { PASTURE_FIXTURES, PASTURE_PRESENT, PASTURE_SKIP_REASON, PROJECT_ROOT } from "./helpers.js";
import { dumped, hexdumpC, od, shown, squeezed, xxd } from "./dumps.js";

// What the gate recognises as a raw capture, by name and by content: every example in
// rules/payloads.json is a payload or not, as it says; payloads written in every form the check
// reads (JSON with comments, JSON5, code, Python, YAML, TOML, escaped, encoded) are found, and
// documentation, schemas and code that only name the members are not.

const rules = loadRules();
const check = rawCaptureCheck(rules.harnesses, rules.payloads);

/** Text as UTF-32, with its byte order mark or not. */
function utf32(text: string, bigEndian: boolean, bom: boolean): Buffer {
  const points = [...(bom ? "\ufeff" : ""), ...text].map((ch) => ch.codePointAt(0) as number);
  const out = Buffer.alloc(points.length * 4);
  points.forEach((cp, i) => (bigEndian ? out.writeUInt32BE(cp, i * 4) : out.writeUInt32LE(cp, i * 4)));
  return out;
}

const base64Times = (text: string, times: number): string => (times === 0 ? text : base64Times(Buffer.from(text).toString("base64"), times - 1));

/** Bytes in base32 as RFC 4648 writes them: upper case, padded with '=' to whole groups of eight. */
function base32(bytes: Buffer): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const b of bytes) bits += b.toString(2).padStart(8, "0");
  const digits = (bits.match(/.{1,5}/g) ?? []).map((d) => alphabet[Number.parseInt(d.padEnd(5, "0"), 2)]).join("");
  return digits.padEnd(Math.ceil(digits.length / 8) * 8, "=");
}
/** Bytes in Ascii85, four to five digits, the last group cut short and `z` for four zero bytes, as Python's a85encode writes them. */
function ascii85(bytes: Buffer): string {
  const alphabet = Array.from({ length: 85 }, (_, i) => String.fromCharCode(0x21 + i)).join("");
  let out = "";
  for (let at = 0; at < bytes.length; at += 4) {
    const group = Buffer.alloc(4);
    bytes.copy(group, 0, at, at + 4);
    const n = Math.min(4, bytes.length - at);
    let value = group.readUInt32BE(0);
    if (value === 0 && n === 4) {
      out += "z";
      continue;
    }
    const digits: string[] = [];
    for (let i = 0; i < 5; i++, value = Math.floor(value / 85)) digits.unshift(alphabet[value % 85] as string);
    out += digits.slice(0, n + 1).join("");
  }
  return out;
}
const rot13 = (text: string): string => text.replace(/[A-Za-z]/g, (c) => String.fromCharCode(((c.toLowerCase().charCodeAt(0) - 97 + 13) % 26) + (c <= "Z" ? 65 : 97)));
const reversed = (text: string): string => [...text].reverse().join("");
/** As Go's fmt prints a map[string]any: keys sorted, strings bare, a slice in brackets. */
const goPrint = (v: unknown): string =>
  Array.isArray(v) ? `[${v.map(goPrint).join(" ")}]` : v !== null && typeof v === "object" ? `map[${Object.keys(v).sort().map((k) => `${k}:${goPrint((v as Record<string, unknown>)[k])}`).join(" ")}]` : v === null ? "<nil>" : String(v);
/** As PHP's print_r prints an array: each member on its line, a nested array indented by eight. */
const phpPrint = (v: unknown, indent: string): string => {
  if (v === null || typeof v !== "object") return v === true ? "1" : v === false || v === null ? "" : String(v);
  const rows = Object.entries(v).map(([k, x]) => `${indent}    [${k}] => ${phpPrint(x, `${indent}        `)}`);
  return `Array\n${indent}(\n${rows.join("\n")}\n${indent})\n`;
};
/** Each member as an element, an array's items as <item> elements. */
const xmlOf = (v: unknown): string =>
  Array.isArray(v) ? v.map((x) => `<item>${xmlOf(x)}</item>`).join("") : v !== null && typeof v === "object" ? Object.entries(v).map(([k, x]) => `<${k}>${xmlOf(x)}</${k}>`).join("") : String(v).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
/** A value with each member renamed by `rename`, at any depth. */
const renamed = (value: unknown, rename: (name: string) => string): unknown =>
  Array.isArray(value) ? value.map((v) => renamed(v, rename)) : value !== null && typeof value === "object" ? Object.fromEntries(Object.entries(value).map(([k, v]) => [rename(k), renamed(v, rename)])) : value;
/** A member name's words: "hook_event_name" and "sessionID" as a serializer parts them. */
const nameWords = (name: string): string[] => name.split(/_|(?<=[a-z])(?=[A-Z])/).filter(Boolean);
const camel = (name: string): string => nameWords(name).map((w, i) => (i === 0 ? w.toLowerCase() : `${w[0]?.toUpperCase()}${w.slice(1).toLowerCase()}`)).join("");

/** A flat payload as block YAML, its values unquoted. */
const yamlOf = (json: string): string => `${Object.entries(JSON.parse(json) as Record<string, unknown>).map(([k, v]) => `${k}: ${typeof v === "object" ? JSON.stringify(v) : String(v)}`).join("\n")}\n`;

/** A zip archive of the entries, each deflated or stored, as zip(1) writes one: local headers, then the central directory. */
function zipOf(entries: { name: string; bytes: Buffer }[], deflated: boolean): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const data = deflated ? deflateRawSync(e.bytes) : e.bytes;
    const name = Buffer.from(e.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(deflated ? 8 : 0, 8);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(e.bytes.length, 22);
    local.writeUInt16LE(name.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(deflated ? 8 : 0, 10);
    entry.writeUInt32LE(data.length, 20);
    entry.writeUInt32LE(e.bytes.length, 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    central.push(entry, name);
    offset += 30 + name.length + data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

describe("raw captures by content", () => {
  for (const ex of rules.payloads.examples) {
    it(`${ex.payload ? "a payload" : "not a payload"}: ${ex.note ?? ex.text.slice(0, 60)}`, () => {
      expect(payloadIn(Buffer.from(ex.text), check) !== null).toBe(ex.payload);
    });
  }

  it.skipIf(!PASTURE_PRESENT)(`every payload pasture took from a live host is one under any name, OpenCode 2's flat hooks and events included${PASTURE_PRESENT ? "" : ` (skipped: ${PASTURE_SKIP_REASON})`}`, () => {
    const harnesses = ["claude", "codex", "opencode"] as const;
    const files = harnesses.flatMap((h) => readdirSync(PASTURE_FIXTURES(h)).filter((n) => n.endsWith(".json") && !n.endsWith(".provenance.json")).map((n) => path.join(PASTURE_FIXTURES(h), n)));
    expect(files.filter((f) => f.includes("/opencode/")).length).toBeGreaterThanOrEqual(16);
    const missed = files.filter((f) => payloadIn(readFileSync(f), check) === null).map((f) => path.basename(f));
    expect(missed).toEqual([]);
  });

  it("a member named twice is read as each of its values: a payload behind decoys is found, and repeated names hold none where no values make one", () => {
    const stop = '{"session_id":"s","turn_id":"t","hook_event_name":"Stop","hook_event_name":0,"stop_hook_active":false}';
    expect(payloadIn(Buffer.from(stop), check)).toEqual({ signature: "hook-event-name", pointer: "" });
    expect(payloadIn(Buffer.from('{"cases":[{"in":{"hook_event_name":0,"session_id":"s","hook_event_name":"Stop","cwd":"/x","cwd":1}}]}'), check)).toMatchObject({ pointer: "/cases/0/in" });
    for (const clear of ['{"a":1,"a":2}', '{"hook_event_name":0,"hook_event_name":null,"session_id":"s","session_id":1,"cwd":[]}', '{"type":"session.created","type":"x","properties":1,"properties":"p"}', "kind: Stop\nkind: Stop\nvalue: 1\nvalue: 2\n"]) {
      expect(payloadIn(Buffer.from(clear), check), clear).toBeNull();
    }
  });

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
  /** The payload's string members alone: YAML of it holds no brace. */
  const scalars = JSON.stringify({ session_id: "s", transcript_path: "/tmp/t.jsonl", cwd: "/tmp", hook_event_name: "PreToolUse", tool_name: "Bash" });
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
    "UTF-16 little-endian with its byte order mark": Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(pretty, "utf16le")]),
    "UTF-16 big-endian with its byte order mark": Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(pretty, "utf16le").swap16()]),
    "UTF-16 little-endian without a byte order mark, after a log line": Buffer.from(`log: ${payload}\n`, "utf16le"),
    "UTF-16 big-endian without a byte order mark": Buffer.from(payload, "utf16le").swap16(),
    "UTF-32 little-endian with its byte order mark": utf32(pretty, false, true),
    "UTF-32 big-endian with its byte order mark": utf32(pretty, true, true),
    "UTF-32 little-endian without a byte order mark": utf32(payload, false, false),
    "base64 four times over": Buffer.from(base64Times(payload, 4)),
    "base64 six times over": Buffer.from(base64Times(payload, 6)),
    "YAML percent-encoded whole": Buffer.from(encodeURIComponent(yamlOf(payload))),
    "YAML whose underscores are character references": Buffer.from(yamlOf(scalars).replaceAll("_", "&#95;")),
    "YAML whose underscores are hex character references": Buffer.from(yamlOf(scalars).replaceAll("_", "&#x5F;")),
    "YAML whose underscores are percent-encoded": Buffer.from(yamlOf(scalars).replaceAll("_", "%5F")),
    "a zip archive, deflated": zipOf([{ name: "notes/log.txt", bytes: Buffer.from(pretty) }], true),
    "a zip archive, stored, beside an entry that holds none": zipOf([{ name: "a.txt", bytes: Buffer.from("nothing here") }, { name: "b.txt", bytes: Buffer.from(payload) }], false),
    "a zip archive's entry named by the capture grammar": zipOf([{ name: "x/claude-code_stop_2.1.0.1.json", bytes: Buffer.from("{}") }], true),
    "its hook_event_name taken out": Buffer.from(JSON.stringify({ ...JSON.parse(payload), hook_event_name: undefined })),
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

  it("a format the check cannot open (xz, bzip2, zstd, 7z, rar, lz4, lzip), also in base64, is refused as unchecked naming it; a zip of documents holds none", () => {
    const sealed: Record<string, number[]> = { xz: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], bzip2: [0x42, 0x5a, 0x68, 0x39, 0x31, 0x41, 0x59, 0x26, 0x53, 0x59], zstd: [0x28, 0xb5, 0x2f, 0xfd], "7z": [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], rar: [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07], lz4: [0x04, 0x22, 0x4d, 0x18], lzip: [0x4c, 0x5a, 0x49, 0x50] };
    for (const [name, magic] of Object.entries(sealed)) {
      const bytes = Buffer.concat([Buffer.from(magic), Buffer.alloc(64, 7)]);
      expect(payloadIn(bytes, check), name).toEqual({ unchecked: `it is ${name}-compressed, which the check cannot open` });
      expect(couldHoldPayload(bytes, check.words), name).toBe(true);
      expect(payloadIn(Buffer.from(`blob: ${bytes.toString("base64")}`), check), name).toMatchObject({ unchecked: expect.stringContaining(name) });
    }
    // Text that only starts with the letters of a magic is text: "BZh" alone is no bzip2 stream.
    expect(payloadIn(Buffer.from("BZh, said the note, and nothing else"), check)).toBeNull();
    const docx = zipOf([{ name: "word/document.xml", bytes: Buffer.from("<w:document><w:body>a note</w:body></w:document>") }, { name: "[Content_Types].xml", bytes: Buffer.from("<Types/>") }], true);
    expect(payloadIn(docx, check)).toBeNull();
    expect(payloadIn(zipOf([{ name: "big.bin", bytes: Buffer.alloc(1 << 20) }], true), check, 0)).toBeNull();
    // An entry whose local header the directory does not list: a stream reader extracts it, so it is unchecked.
    const listed = zipOf([{ name: "readme.txt", bytes: Buffer.from("hello") }], true);
    const hidden = zipOf([{ name: "cap.json", bytes: Buffer.from(JSON.stringify({ hook_event_name: "Stop" })) }], true);
    const endAt = listed.length - 22;
    const directoryAt = listed.readUInt32LE(endAt + 16);
    const smuggled = Buffer.concat([listed.subarray(0, directoryAt), hidden.subarray(0, hidden.readUInt32LE(hidden.length - 22 + 16)), listed.subarray(directoryAt)]);
    smuggled.writeUInt32LE(smuggled.length - 22 - (endAt - directoryAt), smuggled.length - 22 + 16);
    expect(payloadIn(smuggled, check)).toEqual({ unchecked: "it is a zip archive with an entry its directory does not list" });
  });

  it("a payload compressed inside another file is found: a tar of a .gz or a .zip, a gzip stream or a zip after a prefix; a format the check cannot open inside one, an .lzma file and git's packed history are unchecked", () => {
    const payload = Buffer.from(JSON.stringify(PAYLOADS["a Codex Stop"]));
    const dir = mkdtempSync(path.join(tmpdir(), "clear-embedded-"));
    const tarOf = (name: string, bytes: Buffer): Buffer => {
      writeFileSync(path.join(dir, name), bytes);
      return execFileSync("tar", ["cf", "-", "-C", dir, name]);
    };
    const sfx = Buffer.concat([Buffer.from("#!/bin/sh\nexec unzip \"$0\"\n"), Buffer.alloc(300, 0x90), zipOf([{ name: "notes.json", bytes: payload }], true)]);
    const found: Record<string, Buffer> = {
      "a tar of a .gz": tarOf("session.json.gz", gzipSync(payload)),
      "a tar of a .zip": tarOf("session.zip", zipOf([{ name: "s.json", bytes: payload }], true)),
      "a gzip stream after a prefix": Buffer.concat([Buffer.from("0123456789abcdef"), gzipSync(payload)]),
      "a self-extracting zip": sfx,
      "a stored zip entry after a log line": Buffer.concat([Buffer.from("saved:\n"), zipOf([{ name: "s.bin", bytes: payload }], false)]),
      // gunzip reads what follows a member as another one, and fails on anything else.
      "a gzip file with bytes appended": Buffer.concat([gzipSync(payload), Buffer.from("appended")]),
    };
    for (const [how, bytes] of Object.entries(found)) {
      expect(payloadIn(bytes, check), how).toMatchObject({ signature: "hook-event-name", form: expect.stringMatching(/bytes into the file|compressed/) });
      expect(couldHoldPayload(bytes, check.words), how).toBe(true);
    }
    const xz = Buffer.concat([Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]), Buffer.alloc(64, 7)]);
    const lzma = Buffer.concat([Buffer.from([0x5d, 0x00, 0x00, 0x80, 0x00]), Buffer.alloc(8, 0xff), Buffer.alloc(64, 7)]);
    const repo = mkdtempSync(path.join(tmpdir(), "clear-bundle-"));
    execFileSync("git", ["init", "-q"], { cwd: repo });
    writeFileSync(path.join(repo, "n.json"), payload);
    execFileSync("git", ["add", "n.json"], { cwd: repo });
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qm", "x"], { cwd: repo });
    execFileSync("git", ["bundle", "create", "-q", path.join(dir, "repo.bundle"), "HEAD"], { cwd: repo, stdio: "ignore" });
    const bundle = readFileSync(path.join(dir, "repo.bundle"));
    const pack = bundle.subarray(bundle.indexOf("PACK"));
    const unchecked: Record<string, [Buffer, string]> = {
      "xz in a tar": [tarOf("s.xz", xz), "xz-compressed bytes start 512 bytes into it"],
      "an .lzma file": [lzma, "lzma-compressed"],
      "a git bundle": [bundle, "a git bundle"],
      "a git pack": [pack, "a git pack"],
      "a git pack in a tar": [tarOf("objects.pack", pack), "a git pack start 512 bytes into it"],
      "bzip2 in a tar": [tarOf("s.bz2", Buffer.concat([Buffer.from("BZh91AY&SY"), Buffer.alloc(64, 7)])), "bzip2-compressed bytes start 512 bytes into it"],
      "a zip entry after a prefix compressed by bzip2 (method 12)": [Buffer.concat([Buffer.from("prefix"), zipOf([{ name: "s.json", bytes: payload }], false)]).fill(12, 6 + 8, 6 + 9), "method 12"],
      "an encrypted zip entry after a prefix": [Buffer.concat([Buffer.from("prefix"), zipOf([{ name: "s.json", bytes: payload }], false)]).fill(1, 6 + 6, 6 + 7), "encrypted"],
      // Many gzip headers sharing one stream: read a few, then no more.
      // A gzip header, then a deflate block of a type that does not exist (0b11): it fails to inflate.
      "seventeen gzip streams after prefixes that fail to inflate": [Buffer.concat(Array.from({ length: 17 }, () => [Buffer.from("x"), gzipSync(Buffer.from("a note")).subarray(0, 10), Buffer.from([7, 0, 0, 0, 0, 0, 0, 0])]).flat()), "more than 16"],
    };
    for (const [how, [bytes, said]] of Object.entries(unchecked)) {
      expect(payloadIn(bytes, check), how).toMatchObject({ unchecked: expect.stringContaining(said) });
      expect(couldHoldPayload(bytes, check.words), how).toBe(true);
    }
    // Many streams inside one file inflate within one bound, all told, however deep.
    const zeros = gzipSync(Buffer.alloc(8 << 20));
    const many = Buffer.concat(Array.from({ length: 10 }, () => [Buffer.from("xx"), zeros]).flat());
    expect(payloadIn(many, check)).toEqual({ unchecked: `the streams inside it inflate past ${MAX_INFLATED} bytes` });
    expect(payloadIn(gzipSync(many), check)).toEqual({ unchecked: `the streams inside it inflate past ${MAX_INFLATED} bytes` });
    // A gzip file of many members (a log rotated into one, bgzip's blocks) is read as zcat reads it, once; a zlib in a tar's member too.
    expect(payloadIn(Buffer.concat(Array.from({ length: 300 }, (_, i) => gzipSync(Buffer.from(`log line ${i}\n`)))), check)).toBeNull();
    expect(payloadIn(Buffer.concat(Array.from({ length: 40 }, (_, i) => gzipSync(Buffer.from(`log line ${i}\n`))).concat([gzipSync(payload)])), check)).toMatchObject({ signature: "hook-event-name" });
    expect(payloadIn(tarOf("note.zz", deflateSync(payload)), check)).toMatchObject({ signature: "hook-event-name", form: expect.stringContaining("a zlib stream") });
    // Text whose 512-byte blocks start as a zlib header would ("x^" and the like) holds no archive.
    expect(payloadIn(Buffer.from("x^ plain words in a note. ".repeat(6000)), check)).toBeNull();
    // A tar of documents, and bytes that only hold a magic's first letters, hold none.
    expect(payloadIn(tarOf("notes.md", Buffer.from("# notes\nnothing here\n")), check)).toBeNull();
    expect(payloadIn(Buffer.from("the PACK of cards, # v2 of the notes"), check)).toBeNull();
    // A library that reads xz holds its magic as a constant, off a tar's blocks: no archive.
    expect(payloadIn(Buffer.concat([Buffer.alloc(1000, 0x90), xz, Buffer.alloc(1000, 0x90)]), check)).toBeNull();
  });

  it("text too large to parse is refused as unchecked, never passed", () => {
    const big = Buffer.alloc(MAX_CHECKED_BYTES + 1, 0x20);
    big.write('{"hook_event_name":"Stop"}', 0);
    expect(payloadIn(big, check)).toMatchObject({ unchecked: expect.stringContaining("above") });
  });
});

// Payloads written in forms other than JSON: each class is built at run time from a few
// payloads of each host and signature, so that a class is tested, not one sample.
const PAYLOADS: Record<string, Record<string, unknown>> = {
  "a Claude Code PreToolUse": { session_id: "9f1c2a7e-41b5-4d0e", transcript_path: "/home/user/.claude/projects/p/9f1c.jsonl", cwd: "/home/user/proj", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls -la | grep 'x' && echo \"done\"", description: "List files" } },
  "a Codex Stop": { session_id: "s-2", turn_id: "t-1", hook_event_name: "Stop", stop_hook_active: false, last_assistant_message: "Done.\nAll tests pass, it's fine" },
  "an OpenCode event": { type: "session.created", properties: { info: { id: "ses_1", title: "New session" } } },
  "an OpenCode hook's input and output": { input: { tool: "bash", sessionID: "ses_1", callID: "call_1" }, output: { args: { command: "ls" } } },
  "a capture record": { capturedAt: "2026-01-01T00:00:00Z", kind: "tool.execute.before", value: { input: { tool: "read" } } },
};

type Writer = (payload: Record<string, unknown>) => string;
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
const quote1 = (s: string): string => `'${s.replace(/\\/g, "\\\\").replace(/'/g, "\\'").replace(/\n/g, "\\n")}'`;

/** A JavaScript, JSON5 or Python literal: `key` writes a member name, `str` a string, `words` true, false and null. */
function literal(v: unknown, o: { key: (k: string) => string; str: (s: string) => string; words: [string, string, string]; sep?: string; trailing?: boolean; comments?: boolean }, indent = ""): string {
  if (v === null) return o.words[2];
  if (typeof v === "boolean") return v ? o.words[0] : o.words[1];
  if (typeof v === "string") return o.str(v);
  if (typeof v !== "object") return String(v);
  const inner = `${indent}  `;
  const members = Object.entries(v).map(([k, x], i) => `${o.comments && i % 2 === 1 ? `${inner}// ${k}, as the host sent it\n` : ""}${inner}${o.key(k)}${o.sep ?? ": "}${literal(x, o, inner)}${o.comments && i === 0 ? " /* the first */" : ""}`);
  return `{\n${members.join(",\n")}${o.trailing ? "," : ""}\n${indent}}`;
}
const bare = (k: string): string => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k));
const py = (k: string): string => (k.includes("'") && !k.includes('"') ? `"${k}"` : quote1(k));

function yamlBlock(v: Record<string, unknown>, indent = ""): string {
  return Object.entries(v)
    .map(([k, x]) => {
      if (isObject(x)) return `${indent}${k}:\n${yamlBlock(x, `${indent}  `)}`;
      if (typeof x === "string" && x.includes("\n")) return `${indent}${k}: |\n${x.split("\n").map((l) => `${indent}  ${l}`).join("\n")}`;
      if (typeof x === "string") return `${indent}${k}: ${/^[\w./-]+$/.test(x) ? x : JSON.stringify(x)}`;
      return `${indent}${k}: ${String(x)}`;
    })
    .join("\n");
}
const yamlFlow = (v: unknown): string => (isObject(v) ? `{${Object.entries(v).map(([k, x]) => `${k}: ${yamlFlow(x)}`).join(", ")}}` : typeof v === "string" && !/^[\w./-]+$/.test(v) ? JSON.stringify(v) : String(v));
function toml(v: Record<string, unknown>, table = ""): string {
  const value = (x: unknown): string => (isObject(x) ? `{ ${Object.entries(x).map(([k, y]) => `${k} = ${value(y)}`).join(", ")} }` : typeof x === "string" ? JSON.stringify(x) : String(x));
  const plain = Object.entries(v).filter(([, x]) => !isObject(x));
  const tables = Object.entries(v).filter(([, x]) => isObject(x)) as [string, Record<string, unknown>][];
  const head = table === "" ? "" : `[${table}]\n`;
  return `${head}${plain.map(([k, x]) => `${k} = ${value(x)}`).join("\n")}\n${tables.map(([k, x]) => `\n${toml(x, table === "" ? k : `${table}.${k}`)}`).join("")}`;
}
const escapedTimes = (text: string, n: number): string => (n === 0 ? text : escapedTimes(JSON.stringify(text).slice(1, -1), n - 1));
const html = (text: string): string => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/'/g, "&#39;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const pretty = (p: unknown): string => JSON.stringify(p, null, 2);

const xxdI = (b: Buffer): string => `unsigned char payload_json[] = {\n${dumped(b, { perLine: 12, group: 1 }).replace(/([0-9a-f]{2})/g, "0x$1,").replace(/^/gm, "  ").replace(/,\n {2}$/, "\n")}};\nunsigned int payload_json_len = ${b.length};\n`;

/** A payload's leaves as dotted names and values, as a structured log or a form flattens it. */
const flattened = (v: Record<string, unknown>, prefix = ""): [string, unknown][] =>
  Object.entries(v).flatMap(([k, x]) => (isObject(x) ? flattened(x, `${prefix}${k}.`) : [[`${prefix}${k}`, x] as [string, unknown]]));
/** A value as logfmt writes it: a word as it is, anything else in double quotes. */
const logfmtValue = (x: unknown): string => (typeof x === "string" && !/^[\w./:@+-]+$/.test(x) ? JSON.stringify(x) : String(x));
/** Quoted-printable with lines of at most `width` characters, soft breaks wherever a line fills (inside a member's name too). */
function quotedPrintable(text: string, width = 19): string {
  const pieces = [...Buffer.from(text)].map((b) => (b === 0x3d || b > 0x7e ? `=${b.toString(16).toUpperCase().padStart(2, "0")}` : String.fromCharCode(b)));
  const lines: string[] = [];
  let line = "";
  for (const piece of pieces) {
    if (piece === "\n") {
      lines.push(line);
      line = "";
      continue;
    }
    if (line.length + piece.length > width) {
      lines.push(`${line}=`);
      line = "";
    }
    line += piece;
  }
  return `${[...lines, line].join("\n")}\n`;
}
/** Text's UTF-16 code units, as String.fromCharCode takes them. */
const codeUnits = (text: string): number[] => Array.from({ length: text.length }, (_, i) => text.charCodeAt(i));
/** Bytes as od -tu1 prints them: seven octal digits of offset, then sixteen decimal bytes a line. */
const odU1 = (b: Buffer): string => `${(([...b].map((x) => String(x).padStart(4)).join("").match(/.{1,64}/g) ?? []) as string[]).map((l, i) => `${(i * 16).toString(8).padStart(7, "0")}${l}`).join("\n")}\n${b.length.toString(8).padStart(7, "0")}\n`;

/** A name's first letter written as a \\u escape: the same name to every JSON reader. */
const escapedName = (k: string): string => `"\\u${k.charCodeAt(0).toString(16).padStart(4, "0")}${JSON.stringify(k).slice(2)}`;
/** JSON with each member written twice, the second time with a decoy (`first` puts the decoy first): a reader that keeps one value of a name sees only decoys. */
const decoyed = (v: unknown, o: { name?: (k: string) => string; first?: boolean } = {}): string => {
  if (!isObject(v)) return JSON.stringify(v);
  const name = o.name ?? JSON.stringify;
  return `{${Object.entries(v).map(([k, x]) => (o.first ? `${name(k)}:0,${JSON.stringify(k)}:${decoyed(x, o)}` : `${JSON.stringify(k)}:${decoyed(x, o)},${name(k)}:0`)).join(",")}}`;
};
/** Block YAML with a decoy after each member. */
const yamlDecoyed = (v: Record<string, unknown>, indent = ""): string =>
  Object.entries(v).map(([k, x]) => `${isObject(x) ? `${indent}${k}:\n${yamlDecoyed(x, `${indent}  `)}` : `${indent}${k}: ${JSON.stringify(x)}`}\n${indent}${k}: 0`).join("\n");
/** A literal (JavaScript with bare names, or Python) with a decoy after each member. */
const literalDecoyed = (v: unknown, key: (k: string) => string, decoy: string): string =>
  isObject(v) ? `{${Object.entries(v).map(([k, x]) => `${key(k)}: ${literalDecoyed(x, key, decoy)}, ${key(k)}: ${decoy}`).join(", ")}}` : typeof v === "boolean" && decoy === "None" ? (v ? "True" : "False") : JSON.stringify(v);

/** A cell as a CSV writer sets it: in double quotes, its quotes doubled, where it holds a separator, a quote or a line break; an object as its JSON (or as Python's repr, `py`). */
function csvCell(x: unknown, sep = ",", py = false): string {
  const text = isObject(x) || Array.isArray(x) ? (py ? JSON.stringify(x).replace(/"/g, "'") : JSON.stringify(x)) : String(x);
  return text.includes(sep) || /["\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
const csvRow = (cells: unknown[], sep = ",", py = false): string => cells.map((c) => csvCell(c, sep, py)).join(sep);
/** A cell of a Markdown table: on one line, its bars escaped. */
const mdCell = (x: unknown): string => (isObject(x) ? JSON.stringify(x) : String(x)).replace(/\n/g, " ").replace(/\|/g, "\\|");

const CLASSES: Record<string, Record<string, Writer>> = {
  tables: {
    "a CSV of one row under its names, objects as JSON in quoted cells": (p) => `${csvRow(Object.keys(p))}\n${csvRow(Object.values(p))}\n`,
    "a CSV with pandas' index column (no name) and Python reprs in cells": (p) => `,${csvRow(Object.keys(p))}\n0,${csvRow(Object.values(p), ",", true)}\n`,
    "a CSV of every cell quoted, CRLF line ends": (p) => [Object.keys(p), Object.values(p)].map((row) => row.map((x) => `"${(isObject(x) ? JSON.stringify(x) : String(x)).replace(/"/g, '""')}"`).join(",")).join("\r\n"),
    "a TSV of flattened names (json_normalize)": (p) => `${flattened(p).map(([k]) => k).join("\t")}\n${flattened(p).map(([, x]) => String(x).replace(/[\t\n]/g, " ")).join("\t")}\n`,
    "a semicolon-separated file of flattened names, two rows": (p) => `${csvRow(flattened(p).map(([k]) => k), ";")}\n${csvRow(flattened(p).map(([, x]) => x), ";")}\n${csvRow(flattened(p).map(([, x]) => x), ";")}\n`,
    "a Markdown table": (p) => `| ${Object.keys(p).join(" | ")} |\n| ${Object.keys(p).map(() => "---").join(" | ")} |\n| ${Object.values(p).map(mdCell).join(" | ")} |\n`,
    "a Markdown table of flattened names in prose": (p) => `The capture:\n\n|${flattened(p).map(([k]) => k).join("|")}|\n|${flattened(p).map(() => ":---:").join("|")}|\n|${flattened(p).map(([, x]) => mdCell(x)).join("|")}|\n\nThat is all.\n`,
    "a CSV of two columns, each row a member and its value": (p) => `${Object.entries(p).map(([k, x]) => csvRow([k, x])).join("\n")}\n`,
    "a TSV of two columns under a heading row, flattened names": (p) => `field\tvalue\n${flattened(p).map(([k, x]) => `${k}\t${String(x).replace(/[\t\n]/g, " ")}`).join("\n")}\n`,
  },
  "each member named twice in one object (a reader keeps one of its values)": {
    "JSON, a decoy after each member": (p) => decoyed(p),
    "JSON, a decoy before each member": (p) => decoyed(p, { first: true }),
    "JSON, the decoy's name spelt with an escape": (p) => decoyed(p, { name: escapedName }),
    "JSON after a log line's prefix": (p) => `2026-01-01 10:02:00 hook input: ${decoyed(p)}\n`,
    "JSON held in a string of another document": (p) => JSON.stringify({ stdin: decoyed(p) }),
    "a JavaScript literal": (p) => `const input = ${literalDecoyed(p, bare, "0")};\n`,
    "a Python repr": (p) => literalDecoyed(p, py, "None"),
    "YAML, block style": (p) => `${yamlDecoyed(p)}\n`,
    "TOML, dotted names": (p) => `${flattened(p).map(([k, x]) => `${k} = ${JSON.stringify(x)}\n${k} = 0`).join("\n")}\n`,
    "an .env file": (p) => `${flattened(p).map(([k, x]) => `${k}=${logfmtValue(x)}\n${k}=0`).join("\n")}\n`,
  },
  "JSON with comments, JSON5, JavaScript and TypeScript": {
    "comments between members and a trailing comma": (p) => literal(p, { key: JSON.stringify, str: JSON.stringify, words: ["true", "false", "null"], comments: true, trailing: true }),
    "unquoted keys, single quotes (JSON5)": (p) => literal(p, { key: bare, str: quote1, words: ["true", "false", "null"], trailing: true }),
    "raw tabs and line breaks in strings": (p) => pretty({ ...p, note: "x" }).replace('"note": "x"', '"note": "a tab\there,\na line break there"'),
    "NaN, Infinity and undefined values": (p) => literal({ ...p, score: Number.NaN, limit: Number.POSITIVE_INFINITY }, { key: bare, str: JSON.stringify, words: ["true", "false", "undefined"] }),
    "a TypeScript constant": (p) => `import type { HookInput } from "./types";\n\nexport const input: HookInput = ${literal(p, { key: bare, str: quote1, words: ["true", "false", "null"], trailing: true })} as const;\n`,
    "a .jsonc in a Markdown fence": (p) => `Captured:\n\n\`\`\`jsonc\n${literal(p, { key: JSON.stringify, str: JSON.stringify, words: ["true", "false", "null"], comments: true })}\n\`\`\`\n`,
  },
  "YAML and TOML": {
    "YAML, block style": (p) => `${yamlBlock(p)}\n`,
    "YAML after a document marker and a comment": (p) => `---\n# captured at 10:02\n${yamlBlock(p)}\n...\n`,
    "YAML nested in a list of cases": (p) => `cases:\n  - name: first\n    payload:\n${yamlBlock(p, "      ")}\n`,
    "YAML with CRLF line ends and tabs after the colons": (p) => `${yamlBlock(p).replace(/: /g, ":\t").replace(/\n/g, "\r\n")}\r\n`,
    "YAML, flow style": (p) => `${yamlFlow(p)}\n`,
    "YAML, flow style under a member": (p) => `payload: ${yamlFlow(p)}\nnote: kept\n`,
    "YAML in a Markdown fence": (p) => `Example:\n\n\`\`\`yaml\n${yamlBlock(p)}\n\`\`\`\n`,
    "TOML, tables": (p) => toml(p),
    "TOML, under a table of its own": (p) => toml(p, "payload"),
  },
  "escaped JSON, Markdown and doubled escapes": {
    "HTML-escaped in a <pre>": (p) => `<pre><code>${html(JSON.stringify(p))}</code></pre>`,
    "XML-escaped in an attribute": (p) => `<case payload="${html(pretty(p)).replace(/\n/g, "&#10;")}"/>`,
    "escaped with numeric entities": (p) => JSON.stringify(p).replace(/"/g, "&#34;"),
    "HTML-escaped twice": (p) => html(html(JSON.stringify(p))),
    "in a Markdown table cell": (p) => `| case | payload |\n| --- | --- |\n| one | \`${JSON.stringify(p).replace(/\|/g, "\\|")}\` |\n`,
    "in a Markdown table cell over <br>": (p) => `| case | payload |\n| --- | --- |\n| one | ${pretty(p).replace(/\|/g, "\\|").replace(/\n/g, "<br>")} |\n`,
    "in a fence in a Markdown quote": (p) => `> \`\`\`json\n> ${pretty(p).split("\n").join("\n> ")}\n> \`\`\`\n`,
    "backslash-escaped twice in plain text": (p) => `stdin was ${escapedTimes(JSON.stringify(p), 2)} then`,
    "backslash-escaped three times in plain text": (p) => `stdin was ${escapedTimes(JSON.stringify(p), 3)} then`,
    "backslash-escaped four times, pretty-printed": (p) => `x = ${escapedTimes(pretty(p), 4)}\n`,
  },
  "hex dumps": {
    "xxd": (p) => xxd(Buffer.from(pretty(p))),
    "xxd -g1, upper case": (p) => xxd(Buffer.from(JSON.stringify(p)), 1).toUpperCase(),
    "xxd -g4": (p) => xxd(Buffer.from(JSON.stringify(p)), 4),
    "xxd -e (little-endian words)": (p) => xxd(Buffer.from(pretty(p)), 4, true),
    "xxd -c 8 (eight bytes a line)": (p) => dumped(Buffer.from(pretty(p)), { perLine: 8, group: 2, offset: (at) => `${at.toString(16).padStart(8, "0")}: `, width: 21, beside: shown }),
    "xxd -p": (p) => `${(Buffer.from(pretty(p)).toString("hex").match(/.{1,60}/g) as string[]).join("\n")}\n`,
    "xxd -i": (p) => xxdI(Buffer.from(JSON.stringify(p))),
    "hexdump -C": (p) => hexdumpC(Buffer.from(pretty(p))),
    "od -x": (p) => od(Buffer.from(`${JSON.stringify(p)}\n`)),
    "od -An -tx1": (p) => dumped(Buffer.from(JSON.stringify(p)), { perLine: 16, group: 1, offset: () => " " }),
    "one line of hex after a prefix": (p) => `payload=${Buffer.from(JSON.stringify(p)).toString("hex")}\n`,
    "\\x escapes": (p) => `printf '${Buffer.from(JSON.stringify(p)).toString("hex").replace(/(..)/g, "\\x$1")}' | hook\n`,
    "xxd in a Markdown fence": (p) => `# A capture\n\n\`\`\`\n${xxd(Buffer.from(pretty(p)))}\`\`\`\n`,
    "hexdump -C, a repeated line left out as *": (p) => squeezed(hexdumpC(Buffer.from(JSON.stringify({ ...p, padding: "=".repeat(80) })))),
    "od -x, a repeated line left out as *": (p) => squeezed(od(Buffer.from(JSON.stringify({ ...p, padding: "=".repeat(80) })))),
    "xxd behind a comment's mark": (p) => xxd(Buffer.from(pretty(p))).replace(/^(?=.)/gm, "# "),
    "hexdump -C behind a quote's mark": (p) => hexdumpC(Buffer.from(pretty(p))).replace(/^(?=.)/gm, "> "),
    "xxd with a blank line after each line": (p) => xxd(Buffer.from(pretty(p))).replace(/\n/g, "\n\n"),
    "xxd numbered by cat -n": (p) => xxd(Buffer.from(pretty(p))).split("\n").map((l, i) => (l === "" ? l : `${String(i + 1).padStart(6)}\t${l}`)).join("\n"),
    "a Markdown table, its rows numbered": (p) => `| row | bytes |\n| --- | --- |\n${(Buffer.from(JSON.stringify(p)).toString("hex").match(/.{1,32}/g) as string[]).map((l, i) => `| ${i * 16} | ${(l.match(/../g) as string[]).join(" ")} |`).join("\n")}\n`,
    "tcpdump -x": (p) => dumped(Buffer.from(JSON.stringify(p)), { perLine: 16, group: 2, offset: (at) => `\t0x${at.toString(16).padStart(4, "0")}:  ` }),
    "bytes joined by dashes (BitConverter)": (p) => Buffer.from(JSON.stringify(p)).toString("hex").toUpperCase().replace(/(..)(?!$)/g, "$1-"),
    "od -tx8 (eight-byte words)": (p) => dumped(Buffer.from(JSON.stringify(p)), { perLine: 16, group: 8, littleEndian: true, offset: (at) => `${at.toString(8).padStart(7, "0")} ` }),
    "xxd -p under a line whose words read as hex": (p) => `added: a bead, a cafe\n${Buffer.from(JSON.stringify(p)).toString("hex")}\n`,
    "xxd -p of UTF-16 text with its byte order mark": (p) => `${(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(JSON.stringify(p), "utf16le")]).toString("hex").match(/.{1,60}/g) as string[]).join("\n")}\n`,
    "xxd -p of a gzip stream": (p) => `${(gzipSync(Buffer.from(pretty(p))).toString("hex").match(/.{1,60}/g) as string[]).join("\n")}\n`,
  },
  "decimal bytes, escapes by code, CSV, quoted-printable, name=value pairs and arrays of lines": {
    "pretty-printed JSON kept as an array of its lines": (p) => JSON.stringify({ step: "hook", stdout_lines: pretty(p).split("\n") }, null, 2),
    "xxd kept as an array of its lines": (p) => JSON.stringify({ output: xxd(Buffer.from(pretty(p))).trimEnd().split("\n") }),
    "a C byte array, a comment after each row": (p) => `const unsigned char p[] = {\n${(([...Buffer.from(JSON.stringify(p))].join(", ").match(/(?:\d+, ){0,7}\d+(?:, )?/g) ?? []) as string[]).map((r, i) => `  ${r} // ${i * 8}`).join("\n")}\n};\n`,
    "a Java byte array with casts": (p) => `byte[] p = {${[...Buffer.from(JSON.stringify(p))].map((b) => `(byte) ${b > 127 ? b - 256 : b}`).join(", ")}};\n`,
    "a Buffer dumped to YAML": (p) => `type: Buffer\ndata:\n${[...Buffer.from(JSON.stringify(p))].map((b) => `  - ${b}`).join("\n")}\n`,
    "od -tu1z (the text beside each line)": (p) => odU1(Buffer.from(JSON.stringify(p))).replace(/^(\d{7}(?: +\d+)+)$/gm, (l) => `${l.padEnd(71)}  >text<`),
    "\\u{22} quotes, the names as they are": (p) => JSON.stringify(p).replace(/"/g, "\\u{22}"),
    "braces written \\u007b and \\u007d, quotes as they are": (p) => JSON.stringify(p).replace(/\{/g, "\\u007b").replace(/\}/g, "\\u007d"),
    "a Node Buffer as JSON.stringify writes it": (p) => JSON.stringify({ stdin: Buffer.from(JSON.stringify(p)) }),
    "a Uint8Array literal": (p) => `const bytes = new Uint8Array([${[...Buffer.from(pretty(p))].join(", ")}]);\n`,
    "Java's Arrays.toString of a byte[] (bytes above 127 negative)": (p) => `[${[...Buffer.from(JSON.stringify({ ...p, note: "café ✓" }))].map((b) => (b > 127 ? b - 256 : b)).join(", ")}]`,
    "String.fromCharCode of its code units": (p) => `eval(String.fromCharCode(${codeUnits(JSON.stringify({ ...p, note: "✓ done" })).join(",")}))\n`,
    "od -tu1 (decimal bytes after octal offsets)": (p) => odU1(Buffer.from(JSON.stringify(p))),
    "octal escapes (printf, bash's $'...')": (p) => `printf '${[...Buffer.from(JSON.stringify(p))].map((b) => `\\${b.toString(8).padStart(3, "0")}`).join("")}' | hook\n`,
    "\\u escapes of every character": (p) => codeUnits(JSON.stringify(p)).map((c) => `\\u${c.toString(16).padStart(4, "0")}`).join(""),
    "\\u{...} escapes (JavaScript, Rust, Swift)": (p) => `let s = "${codeUnits(JSON.stringify(p)).map((c) => `\\u{${c.toString(16)}}`).join("")}";\n`,
    "quotes written \\u0022 in plain text": (p) => `payload = ${JSON.stringify(p).replace(/\\"/g, "\\u005c\\u0022").replace(/"/g, "\\u0022")}\n`,
    "a CSV cell, its quotes doubled": (p) => `id,payload\n1,"${JSON.stringify(p).replace(/"/g, '""')}"\n`,
    "a CSV cell of pretty-printed JSON": (p) => `"id";"payload"\n"1";"${pretty(p).replace(/"/g, '""')}"\n`,
    "quoted-printable, soft breaks inside names": (p) => quotedPrintable(JSON.stringify(p)),
    "a logfmt line": (p) => `time=2026-01-01T10:02:00Z level=info ${flattened(p).map(([k, x]) => `${k}=${logfmtValue(x)}`).join(" ")}\n`,
    "an .env file, values in single quotes, export before each, comments and blank lines among them": (p) =>
      `# captured\n${flattened(p).map(([k, x], i) => `${i % 2 === 0 ? "export " : ""}${k}='${String(x).replace(/'/g, "")}'${i === 0 ? "  # the first" : ""}${i === 1 ? "\n" : ""}`).join("\n")}\n`,
    "a form in quotes on a curl line, names in brackets, ; between pairs": (p) =>
      `curl -d '${flattened(p).map(([k, x]) => `${k.replace(/\.(\w+)/g, "%5B$1%5D")}=${encodeURIComponent(String(x)).replace(/'/g, "%27")}`).join(";")}' https://example.com/hook\n`,
    "a logfmt line after a prefix": (p) => `2026-01-01 10:02:00 INFO hooks: ${flattened(p).map(([k, x]) => `${k}=${logfmtValue(x)}`).join(" ")}\n`,
    "a form body (name=value&...)": (p) => `${new URLSearchParams(flattened(p).map(([k, x]) => [k, String(x)])).toString()}\n`,
    "a query string after a URL": (p) => `GET https://example.com/hook?${new URLSearchParams(flattened(p).map(([k, x]) => [k, String(x)])).toString()}\n`,
    "an .env file, one pair a line": (p) => `${flattened(p).map(([k, x]) => `${k}=${logfmtValue(x)}`).join("\n")}\n`,
  },
  "base32, Ascii85, rot13 and reversed": {
    "base32 in a text file": (p) => `payload: ${base32(Buffer.from(JSON.stringify(p)))}\n`,
    "base32 in lower case, unpadded": (p) => `payload = "${base32(Buffer.from(JSON.stringify(p))).toLowerCase().replace(/=+$/, "")}"\n`,
    "base32 right after an .env line's =": (p) => `PAYLOAD=${base32(Buffer.from(JSON.stringify(p)))}\n`,
    "base32 in a query string, lower case, unpadded": (p) => `GET https://example.com/hook?d=${base32(Buffer.from(pretty(p))).toLowerCase().replace(/=+$/, "")}\n`,
    "base32 wrapped at 76 columns (base32(1))": (p) => `${(base32(Buffer.from(pretty(p))).match(/.{1,76}/g) as string[]).join("\n")}\n`,
    "base32 of a gzip stream": (p) => base32(gzipSync(Buffer.from(JSON.stringify(p)))),
    "Ascii85 between <~ and ~>, wrapped (a85encode(adobe=True, wrapcol=75))": (p) => `${(`<~${ascii85(Buffer.from(pretty(p)))}~>`.match(/.{1,75}/g) as string[]).join("\n")}\n`,
    "rot13": (p) => rot13(JSON.stringify(p)),
    "rot13, pretty-printed, after a line of prose": (p) => `Decoded with rot13:\n${rot13(pretty(p))}\n`,
    "reversed": (p) => reversed(JSON.stringify(p)),
    "reversed, pretty-printed": (p) => reversed(`${pretty(p)}\n`),
    "each line reversed (rev)": (p) => `${pretty(p).split("\n").map(reversed).join("\n")}\n`,
    "YAML reversed": (p) => reversed(`${yamlBlock(p)}\n`),
    "base64 of rot13": (p) => Buffer.from(rot13(JSON.stringify(p))).toString("base64"),
  },

  "prints of other languages": {
    "Go's fmt %v of a map": (p) => `payload: ${goPrint(p)}\n`,
    "PHP's print_r": (p) => `received:\n${phpPrint(p, "")}`,
    "XML elements": (p) => `<?xml version="1.0"?>\n<payload>${xmlOf(p)}</payload>\n`,
  },
  "Python reprs, URL-encoding and base64": {
    "a Python repr": (p) => literal(p, { key: py, str: py, words: ["True", "False", "None"] }).replace(/\n\s*/g, " "),
    "a Ruby hash as inspect writes it before Ruby 3.4 (:symbol=>value)": (p) => literal(p, { key: (k) => `:${/^[A-Za-z_]\w*$/.test(k) ? k : JSON.stringify(k)}`, str: (v) => JSON.stringify(v), words: ["true", "false", "nil"], sep: "=>" }).replace(/\n\s*/g, " "),
    "a Python 2 repr (u'' strings)": (p) => literal(p, { key: (k) => `u${py(k)}`, str: (v) => `u${py(v)}`, words: ["True", "False", "None"] }),
    "a Python repr in a log line": (p) => `DEBUG:hooks:payload=${literal(p, { key: py, str: py, words: ["True", "False", "None"] }).replace(/\n\s*/g, "")}\n`,
    "URL-encoded": (p) => encodeURIComponent(JSON.stringify(p)),
    "URL-encoded in a query, pretty-printed": (p) => `https://example.com/hook?payload=${encodeURIComponent(pretty(p))}&x=1\n`,
    "form-encoded (spaces as +)": (p) => new URLSearchParams({ payload: pretty(p) }).toString(),
    "URL-encoded twice": (p) => encodeURIComponent(encodeURIComponent(JSON.stringify(p))),
    "base64 in a text file": (p) => `payload: ${Buffer.from(JSON.stringify(p)).toString("base64")}\n`,
    "base64 wrapped at 76 columns": (p) => `${(Buffer.from(pretty(p)).toString("base64").match(/.{1,76}/g) as string[]).join("\n")}\n`,
    "base64url": (p) => Buffer.from(JSON.stringify(p)).toString("base64url"),
    "base64 cut into a JSON list of strings": (p) => JSON.stringify({ chunks: Buffer.from(JSON.stringify(p)).toString("base64").match(/.{1,40}/g) }, null, 2),
    "base64 cut into literals code joins": (p) => `const blob =\n${(Buffer.from(pretty(p)).toString("base64").match(/.{1,64}/g) as string[]).map((c) => `  '${c}'`).join(" +\n")};\n`,
    // Its length a multiple of three: no padding ends the run, and the list's strings would read as one.
    "base64 in a list of strings beside base64 of other bytes": (p) => JSON.stringify([Buffer.from(JSON.stringify(p).padEnd(3 * Math.ceil(JSON.stringify(p).length / 3))).toString("base64"), Buffer.alloc(60, 0xfe).toString("base64")]),
    "base64 cut into Python's adjacent literals": (p) => `blob = (${(Buffer.from(JSON.stringify(p)).toString("base64").match(/.{1,48}/g) as string[]).map((c) => `"${c}"`).join("\n        ")})\n`,
    "base64 wrapped at 32 columns (base64 -w 32)": (p) => `${(Buffer.from(JSON.stringify(p)).toString("base64").match(/.{1,32}/g) as string[]).join("\n")}\n`,
    "base64 wrapped at 24 columns": (p) => `${(Buffer.from(pretty(p)).toString("base64").match(/.{1,24}/g) as string[]).join("\n")}\n`,
    "base64 of UTF-16 text": (p) => `payload: ${Buffer.from(JSON.stringify(p), "utf16le").toString("base64")}\n`,
    "base64 of UTF-16 text with its byte order mark": (p) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(pretty(p), "utf16le")]).toString("base64"),
    "base64 of gzip of UTF-16 text": (p) => `data: ${gzipSync(Buffer.from(JSON.stringify(p), "utf16le")).toString("base64")}\n`,
    "base64 of a Python repr": (p) => Buffer.from(literal(p, { key: py, str: py, words: ["True", "False", "None"] })).toString("base64"),
  },
  "string literals that code joins": {
    "JavaScript, a member a line, joined with +": (p) => `const raw =\n${pieces(JSON.stringify(p), "member").map(quote1).join(" +\n")};\n`,
    "JavaScript, cut every 20 characters, names cut in two": (p) => `const raw = ${pieces(JSON.stringify(p), 20).map(quote1).join("\n  + ")};\n`,
    "Go or Java, double quotes, + at each line's end": (p) => `var raw = ${pieces(JSON.stringify(p), 24).map((c) => JSON.stringify(c)).join(" +\n\t")}\n`,
    "Python, adjacent literals in parentheses": (p) => `RAW = (\n${pieces(JSON.stringify(p), 30).map((c) => `    ${quote1(c)}`).join("\n")}\n)\n`,
    "C, adjacent literals": (p) => `static const char *raw = ${pieces(JSON.stringify(p), 16).map((c) => JSON.stringify(c)).join("\n    ")};\n`,
    "PHP, joined with a dot": (p) => `<?php\n$raw = ${pieces(JSON.stringify(p), 28).map(quote1).join(" .\n  ")};\n`,
  },
};

/** A text cut into pieces: at each member's start, or every `size` characters. */
function pieces(text: string, size: number | "member"): string[] {
  if (size === "member") return text.split(/(?=,")/);
  return text.match(new RegExp(`[^]{1,${size}}`, "g")) as string[];
}

describe("raw captures written in other forms", () => {
  for (const [klass, writers] of Object.entries(CLASSES)) {
    describe(klass, () => {
      for (const [how, write] of Object.entries(writers)) {
        it(`finds each payload written as ${how}`, () => {
          for (const [name, payload] of Object.entries(PAYLOADS)) {
            expect(payloadIn(Buffer.from(write(payload)), check), `${name}:\n${write(payload)}`).toMatchObject({ signature: expect.any(String) });
            // The gate's fast path sends it on to the whole check.
            expect(couldHoldPayload(Buffer.from(write(payload)), check.words), `prefilter, ${name}`).toBe(true);
          }
        });
      }
    });
  }

  it("finds a payload whose member names a serializer wrote in another case style (camelCase, PascalCase, upper case, kebab-case); names of one word are any text's words, so an OpenCode event ({type, properties}) or a capture record ({kind, value}) is not read so", () => {
    const styles: Record<string, (p: unknown) => string> = {
      "camelCase": (p) => JSON.stringify(renamed(p, camel), null, 2),
      "PascalCase": (p) => JSON.stringify(renamed(p, (k) => `${camel(k)[0]?.toUpperCase()}${camel(k).slice(1)}`)),
      "upper case, values too": (p) => JSON.stringify(p).toUpperCase(),
      "kebab-case, in YAML": (p) => yamlBlock(renamed(p, (k) => nameWords(k).map((w) => w.toLowerCase()).join("-")) as Record<string, unknown>),
      "camelCase, in a Python repr": (p) => literal(renamed(p, camel), { key: py, str: py, words: ["True", "False", "None"] }),
    };
    // Payloads whose signature names a member of several words (hook_event_name, sessionID); a capture record's kind and value, an event's type and properties, are single words.
    const read = Object.entries(PAYLOADS).filter(([, p]) => JSON.stringify(renamed(p, camel)) !== JSON.stringify(p) && !("type" in (p as object) && "properties" in (p as object)) && !("kind" in (p as object) && "value" in (p as object)));
    expect(read.length).toBeGreaterThan(2);
    for (const [how, write] of Object.entries(styles)) {
      for (const [name, payload] of read) {
        expect(payloadIn(Buffer.from(write(payload)), check), `${how}, ${name}:\n${write(payload)}`).toMatchObject({ signature: expect.any(String), form: expect.stringContaining("names in") });
        expect(couldHoldPayload(Buffer.from(write(payload)), check.words), `prefilter, ${how}, ${name}`).toBe(true);
      }
    }
    // A name of the style standing inside a longer one is none ("mySessionIdCache"), nor is code that names its variables so.
    const code = "const mySessionIdCache = new Map();\nconst transcriptPathFor = (cwd) => cwd;\nexport function hookEventNameOf(e) { return e.hookEventNameX; }\n";
    expect(payloadIn(Buffer.from(code), check)).toBeNull();
  });

  it("reads no payload in code or markup that only names the members: a Go map literal and an unrelated map's print, PHP's array(), a page that quotes the names in <code>, an XML schema", () => {
    const none = {
      "Go": 'm := map[string]any{"hook_event_name": e, "session_id": id, "cwd": dir}\nfmt.Println(map[string]int{"a": 1}) // map[a:1 b:2]\n',
      "PHP": "$payload = array('hook_event_name' => $event, 'session_id' => $id, 'cwd' => getcwd());\nprint_r(array(1, 2));\n",
      "a page": "<html><body><p>Each payload holds <code>hook_event_name</code>, <code>session_id</code> and <code>cwd</code>.</p></body></html>\n",
      "a schema": '<xs:schema><xs:element name="hook_event_name" type="xs:string"/><xs:element name="session_id" type="xs:string"/><xs:element name="cwd"/></xs:schema>\n',
    };
    for (const [what, text] of Object.entries(none)) expect(payloadIn(Buffer.from(text), check), what).toBeNull();
  });

  it("finds a payload written as Python's dict(name=value, ...), as SQL's INSERT under named columns, or as a Markdown table of fields and their values; code, a schema and a table of what members mean are none", () => {
    const flat = { session_id: "9f1c2a7e-41b5", cwd: "/home/user/proj", hook_event_name: "PreToolUse", tool_name: "Bash", stop_hook_active: false };
    const py = (v: unknown): string => (typeof v === "string" ? quote1(v) : v === false ? "False" : String(v));
    const sqlValue = (v: unknown): string => (typeof v === "string" ? `'${v.replace(/'/g, "''")}'` : String(v).toUpperCase());
    const written: Record<string, string> = {
      "Python's dict(": `PAYLOAD = dict(\n${Object.entries(flat).map(([k, v]) => `    ${k}=${py(v)},  # as sent`).join("\n")}\n)\n`,
      "SQL's INSERT": `INSERT INTO hook_events (${Object.keys(flat).join(", ")})\nVALUES (${Object.values(flat).map(sqlValue).join(", ")}), (${Object.values(flat).map(sqlValue).join(", ")});\n`,
      "SQL's INSERT, columns quoted": `insert into "events" (${Object.keys(flat).map((k) => `"${k}"`).join(",")}) values (${Object.values(flat).map(sqlValue).join(",")});`,
      "a Markdown table of fields and values": `| Field | Value |\n| :--- | --- |\n${Object.entries(flat).map(([k, v]) => `| ${k} | ${String(v)} |`).join("\n")}\n`,
    };
    for (const [how, text] of Object.entries(written)) {
      expect(payloadIn(Buffer.from(text), check), how).toMatchObject({ signature: "hook-event-name" });
      expect(couldHoldPayload(Buffer.from(text), check.words), how).toBe(true);
    }
    const none: Record<string, string> = {
      "a call with variables": "payload = dict(session_id=sid, hook_event_name=event, cwd=os.getcwd())\n",
      "a schema and an INSERT of placeholders": "CREATE TABLE events (session_id TEXT, hook_event_name TEXT, cwd TEXT);\nINSERT INTO events (session_id, hook_event_name, cwd) VALUES (?, ?, $3);\n",
      "a table of what members mean": "| member | meaning |\n|---|---|\n| session_id | the session |\n| hook_event_name | the event |\n| cwd | the folder |\n",
    };
    for (const [what, text] of Object.entries(none)) expect(payloadIn(Buffer.from(text), check), what).toBeNull();
  });

  it("finds a payload cut into literals with no escape in them, a member's name cut in two by the join; the gate's fast path sends it on", () => {
    const text = `const raw = '{"session_id":"s","hook_ev' +\n  'ent_name":"Stop"}';\n`;
    expect(couldHoldPayload(Buffer.from(text), check.words)).toBe(true);
    expect(payloadIn(Buffer.from(text), check)).toMatchObject({ signature: "hook-event-name", form: "string literals joined" });
    // A literal that does not close on its line (a template over lines) ends its own chain, not the search.
    const after = `const note = 'see ' +\n  \`the\nguide\`;\n${text}`;
    expect(payloadIn(Buffer.from(after), check)).toMatchObject({ signature: "hook-event-name", form: "string literals joined" });
    // Code that joins literals holding no payload is none.
    expect(payloadIn(Buffer.from(`const greeting = 'hello, ' +\n  'world' + "!";\nconst path = "a/" "b";\n`), check)).toBeNull();
  });

  it("says the line where a payload that is not one JSON document starts, and how it is written", () => {
    const yaml = `# notes\n\nsteps:\n  - run: x\n\nThe capture follows.\n\n${yamlBlock(PAYLOADS["a Codex Stop"] as Record<string, unknown>)}\n`;
    expect(payloadIn(Buffer.from(yaml), check)).toMatchObject({ signature: "hook-event-name", line: 8, form: "YAML" });
    const b64 = `a\nb\n${Buffer.from(JSON.stringify(PAYLOADS["an OpenCode event"])).toString("base64")}\n`;
    expect(payloadIn(Buffer.from(b64), check)).toMatchObject({ signature: "opencode-event", line: 3, form: "base64" });
  });

  // Its trailer and the last bytes of its stream gone, as a copy stopped before its end leaves it.
  const cutShort = (gz: Buffer): Buffer => gz.subarray(0, gz.length - 12);

  it("reads a compressed payload as what it inflates to: gzip, zlib, cut short, inside another stream, base64 of one; a stream past the bound is unchecked", () => {
    const text = Buffer.from(JSON.stringify(PAYLOADS["a Codex Stop"]));
    for (const [how, bytes] of [
      ["gzip", gzipSync(text)],
      ["zlib", deflateSync(text)],
      ["gzip cut short", cutShort(gzipSync(Buffer.concat([text, Buffer.from("\n".repeat(40_000))])))],
      ["gzip of gzip", gzipSync(gzipSync(text))],
    ] as const) {
      expect(payloadIn(bytes, check), how).toMatchObject({ signature: "hook-event-name", form: expect.stringContaining("compressed") });
    }
    expect(payloadIn(Buffer.from(`data: ${gzipSync(text).toString("base64")}\n`), check)).toMatchObject({ signature: "hook-event-name", form: "base64" });
    expect(payloadIn(gzipSync(Buffer.from(yamlBlock(PAYLOADS["a Codex Stop"] as Record<string, unknown>))), check)).toMatchObject({ form: "YAML, compressed" });
    expect(payloadIn(gzipSync(Buffer.alloc(MAX_INFLATED + 1, 0x20)), check)).toMatchObject({ unchecked: expect.stringContaining("inflates past") });
    expect(payloadIn(gzipSync(Buffer.from("plain notes, no payload here\n".repeat(50))), check)).toBeNull();
  });

  it("refuses as unchecked what is still compressed past the last stream it opens, also in base64, and reads base64 of a stream inside a stream", () => {
    const text = Buffer.from(JSON.stringify(PAYLOADS["a Codex Stop"]));
    const layers = (bytes: Buffer, n: number, wrap: (b: Buffer) => Buffer = gzipSync): Buffer => (n === 0 ? bytes : layers(wrap(bytes), n - 1, wrap));
    expect(payloadIn(layers(text, 4), check)).toMatchObject({ signature: "hook-event-name", form: expect.stringContaining("compressed") });
    for (const [how, bytes] of [
      ["gzip five deep", layers(text, 5)],
      ["zlib five deep", layers(text, 5, deflateSync)],
      ["gzip eight deep", layers(text, 8)],
      ["zlib in gzip four deep", layers(deflateSync(text), 4)],
      ["no payload, six deep", layers(Buffer.from("plain notes\n".repeat(20)), 6)],
    ] as const) {
      expect(payloadIn(bytes, check), how).toEqual({ unchecked: "it is compressed more than 4 streams deep" });
      expect(couldHoldPayload(bytes, check.words), how).toBe(true);
    }
    const inBase64 = (bytes: Buffer): Buffer => Buffer.from(`notes\ndata: ${bytes.toString("base64")}\n`);
    expect(payloadIn(inBase64(layers(text, 2)), check)).toMatchObject({ signature: "hook-event-name", form: "base64" });
    expect(payloadIn(inBase64(layers(text, 4)), check)).toMatchObject({ signature: "hook-event-name", form: "base64" });
    expect(payloadIn(inBase64(layers(text, 5)), check)).toEqual({ unchecked: "base64 there decodes to a stream that is compressed more than 4 streams deep" });
    expect(payloadIn(inBase64(gzipSync(Buffer.alloc(MAX_INFLATED + 1, 0x20))), check)).toMatchObject({ unchecked: expect.stringContaining("inflates past") });
    // The fast path's prefilter sends each on to the whole check.
    for (const n of [2, 5]) expect(couldHoldPayload(inBase64(layers(text, n)), check.words), `base64 of ${n} streams`).toBe(true);
    expect(payloadIn(inBase64(layers(Buffer.from("plain notes, no payload here\n".repeat(50)), 2)), check)).toBeNull();
  });

  it("keeps a member's kind: a type name, prose or a variable is no value, an object is no string", () => {
    const none = [
      "hook_event_name: string\nsession_id: string\n",
      "hook_event_name: the name of the event, such as PreToolUse\n",
      "hook_event_name: PreToolUse | PostToolUse\n",
      "type: session.created\nproperties: object\n",
      "input:\n  sessionID: str\noutput:\n",
      "const payload = { ...base, hook_event_name: event, session_id: id };\n",
      "[payload]\nhook_event_name = event.name()\n",
    ];
    for (const text of none) expect(payloadIn(Buffer.from(text), check), text).toBeNull();
    expect(payloadIn(Buffer.from("payload:\n  hook_event_name: Stop\n"), check)).toMatchObject({ pointer: "/payload" });
    expect(payloadIn(Buffer.from("hook_event_name:\n  Stop\n"), check)).toMatchObject({ form: "YAML" });
  });

  const NOT_PAYLOADS: Record<string, string> = {
    "a shell line setting variables for a command": "hook_event_name=Stop session_id=abc node hook.js\n",
    "a shell line setting three variables for a command": "#!/bin/sh\nhook_event_name=PreToolUse session_id=test cwd=/tmp ./hook.sh\n",
    "prose with three assignments": "Run the hook with hook_event_name=Stop session_id=abc cwd=/tmp set, to try it by hand.\n",
    "a zip archive's magic number in a test": "const zipHeader = new Uint8Array([80, 75, 3, 4, 20, 0, 0, 0, 8, 0, 33, 0, 84, 93, 21, 88, 12, 0]);\n",
    "a long document whose lines now and then end in =": `${"Each event has a type and properties.\n> a quoted line\nset opt=\nlet x = [1, \\\"two\\\"]\n"}${"Plain prose line of documentation that explains things at some length.\n".repeat(5)}`.repeat(1200),
    "prose with name=value in it": "Set hook_event_name=Stop and session_id=abc to try a hook by hand.\n",
    "a logfmt line of one pair": "hook_event_name=Stop\n",
    "decimal bytes of prose": `[${[...Buffer.from("plain notes, no payload here. ".repeat(4))].join(",")}]\n`,
    "a table of numbers": `${Array.from({ length: 40 }, (_, i) => `${i} ${i * 7} ${i * 31}`).join("\n")}\n`,
    "a CSV of quoted prose": 'name,quote\nann,"She said ""hi"" to me"\n',
    "\\u escapes of prose": "\\u0048\\u0069 there, \\u007b\\u0022 is how a brace and a quote are escaped\n",
    "README prose naming members": "# Hooks\n\nThe hook_event_name field names the event; session_id names the session, and\ntype: the OpenCode event's type (session.created and the like) with its properties.\n",
    "a Markdown list of members": "- `hook_event_name`: the event (`PreToolUse`, `Stop`)\n- `session_id`: string\n- hook_event_name: which event fired, e.g. Stop\n",
    "a Markdown table of members": "| member | type | meaning |\n| --- | --- | --- |\n| hook_event_name | string | the event |\n| session_id | string | the session |\n",
    "a Markdown table of two columns, members and what each means": "| member | meaning |\n|---|---|\n| hook_event_name | the event (`PreToolUse`, `Stop`) |\n| session_id | the session |\n| cwd | the folder |\n| transcript_path | the transcript |\n",
    "a CSV header of member names and no row": "hook_event_name,session_id,transcript_path,cwd\n",
    "a JSON Schema": pretty({ $schema: "https://json-schema.org/draft/2020-12/schema", type: "object", required: ["hook_event_name"], properties: { hook_event_name: { type: "string", enum: ["PreToolUse", "Stop"] }, session_id: { type: "string" } } }),
    "a JSON Schema in YAML": "type: object\nrequired: [hook_event_name, session_id]\nproperties:\n  hook_event_name:\n    type: string\n    enum: [PreToolUse, Stop]\n  session_id: {type: string}\n",
    "an OpenAPI schema of an OpenCode event": "Event:\n  type: object\n  properties:\n    type:\n      type: string\n      example: session.created\n    properties:\n      type: object\n",
    "a TypeScript interface": "export interface HookInput {\n  session_id: string;\n  hook_event_name: \"PreToolUse\" | \"Stop\";\n}\n\ninterface Loose {\n  hook_event_name: string\n  cwd: string\n}\n\ntype Stop = {\n  hook_event_name: \"Stop\";\n  stop_hook_active: boolean;\n};\n",
    "a zod schema": "const Hook = z.object({\n  hook_event_name: z.enum([\"PreToolUse\", \"Stop\"]),\n  session_id: z.string(),\n});\n",
    "Python types": "class HookInput(TypedDict):\n    session_id: str\n    hook_event_name: Literal['Stop']\n\n@dataclass\nclass Hook:\n    hook_event_name: str = \"Stop\"\n",
    "code that reads the members": "const input = JSON.parse(stdin);\nif (input.hook_event_name === 'PreToolUse') {\n  const { hook_event_name: event, session_id } = input;\n  console.log({ event, session_id });\n}\nfunction f({ hook_event_name = 'Stop' }) {}\nevent = payload[\"hook_event_name\"] if payload.get('hook_event_name') else None\n",
    "Go and Rust types": "type HookInput struct {\n\tHookEventName string `json:\"hook_event_name\"`\n}\nstruct Input {\n    hook_event_name: String,\n}\n",
    "hook settings": pretty({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "x" }] }] } }),
    "a jq filter and a shell script": "select(.hook_event_name == \"Stop\") | {session_id, cwd}\nevent=$(jq -r .hook_event_name)\nhook_event_name=\"${1:-Stop}\"\n",
    "hex that holds no payload": `${["sha256", "sha512"].map((h) => `${h}: ${Buffer.alloc(h === "sha256" ? 32 : 64, 0xab).toString("hex")}`).join("\n")}\ncolors = [0xff00ff, 0x00ff00, 0x0000ff, 0xababab, 0x123456, 0x654321, 0xdeadbe, 0xefefef, 0x010101, 0x020202]\n${xxd(Buffer.from("The hook_event_name member names the event; session_id names the session.\n"))}${hexdumpC(Buffer.from(Array.from({ length: 64 }, (_, i) => (i * 37) % 256)))}`,
    "base32, Ascii85, rot13 and reversal that hold no payload": [
      `otpauth://totp/x?secret=${base32(Buffer.from("12345678901234567890"))}`,
      `onion: ${"pg6mmjiyjmcrsslvykfwnntlaru7p5svn6y2ymmju6nubxndf4pscryd"}.onion`,
      `<~${ascii85(Buffer.from("plain notes, no payload here, hook_event_name is a member"))}~>`,
      rot13("The hook_event_name member names the event; session_id and cwd say where. {\"hook_event_name\": <event>}"),
      reversed("The hook_event_name member names the event; session_id and cwd say where."),
      "GIT binary patch\nliteral 32\nncmZ?wcUI6;uv5^@&o9X+&dAR#)=^L?$w{rZQ7A~wOfJbR&x<c2Y1aULP\n\nliteral 0\nHcmV?d00001\n",
    ].join("\n"),
    "base64 and escapes that hold no payload": `sha512-${Buffer.from("x".repeat(64)).toString("base64")} &quot;hook_event_name&quot; is a member; {\\"hook_event_name\\": <event>} %7Bnot%20json%7D\n`,
  };

  for (const [what, text] of Object.entries(NOT_PAYLOADS)) {
    it(`not a payload: ${what}`, () => {
      expect(payloadIn(Buffer.from(text), check)).toBeNull();
    });
  }

  it("the project's own documentation, sources and rules hold no payload but the dry run's own", () => {
    const tracked = execFileSync("git", ["ls-files", "-z", "README.md", "src", "rules"], { cwd: PROJECT_ROOT, encoding: "utf8" }).split("\0").filter(Boolean);
    // The dry run hands the host's hook a payload of its own, written as a literal; the rules' examples are payloads.
    const known = new Set(["src/capture/dry-run.ts", "rules/payloads.json"]);
    const refused = tracked.filter((p) => !known.has(p) && payloadIn(readFileSync(path.join(PROJECT_ROOT, p)), check) !== null);
    expect(refused).toEqual([]);
    expect(payloadIn(readFileSync(path.join(PROJECT_ROOT, "src/capture/dry-run.ts")), check)).toMatchObject({ form: "a JavaScript, JSON5 or Python literal" });
  });

  it("a run of base64, base32, Ascii85 or hex characters megabytes long is read to its end, not a crash", () => {
    expect(payloadIn(Buffer.from(`data: ${"aB".repeat(5_000_000)}\n`), check)).toBeNull();
    expect(payloadIn(Buffer.from(`${"5a".repeat(5_000_000)}\n`), check)).toBeNull();
    expect(payloadIn(Buffer.from(`${"AB2".repeat(3_000_000)} ${"ab2".repeat(3_000_000)}\n`), check)).toBeNull();
    expect(payloadIn(Buffer.from(`${"<~ab".repeat(2_000_000)}~>\n`), check)).toBeNull();
    const payload = Buffer.from(JSON.stringify(PAYLOADS["a Codex Stop"]));
    expect(payloadIn(Buffer.from(`${"aB".repeat(5_000_000)} ${payload.toString("base64")}\n`), check)).toMatchObject({ form: "base64" });
  });

  it("text built to be read many times over is refused as unchecked or read in bounded time, never searched forever", () => {
    const started = Date.now();
    const layered = '{\\"type\\": \\"kind\\", \\"value\\": [\\\\\\"input\\\\\\"]} &quot;properties&quot; %22x%7B '.repeat(15_000);
    const braces = "{ type: { kind: { value: { properties: { input: 'x', ".repeat(20_000);
    // name=value pairs whose quotes close inside one word, or never: each word is read once.
    const glued = `hook_event_name=Stop a=1 ${'x="x='.repeat(100_000)}\n`;
    const unclosed = `hook_event_name=Stop a=1 ${'x="\\ '.repeat(100_000)}\n`;
    // A CSV cell's doubled quotes opened again and again, and numbers that never make a list.
    const doubled = `hook_event_name {${'{""a'.repeat(500_000)}\n`;
    const numbers = `hook_event_name ${"1234567 ".repeat(500_000)}\n`;
    // One name given tens of thousands of times, in each reader that keeps every value of it.
    const repeated = [`{${'"hook_event_name":0,'.repeat(50_000)}"a":1}`, `x:\n${"  hook_event_name: 0\n".repeat(40_000)}`, "hook_event_name = 0\n".repeat(40_000), `const a = {${"hook_event_name: 0,".repeat(40_000)}};`];
    for (const text of [layered, braces, glued, unclosed, doubled, numbers, ...repeated]) {
      const verdict = payloadIn(Buffer.from(text), check);
      expect(verdict === null || "unchecked" in verdict).toBe(true);
    }
    expect(Date.now() - started).toBeLessThan(20_000);
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

describe("hex dumps made by the tools themselves", () => {
  const installed = (tool: string): boolean => spawnSync("sh", ["-c", `command -v ${tool}`]).status === 0;
  // Each tool's dump, and the writer above that lays bytes out as it does (the class's tests run the writers on every payload).
  const TOOLS: [string, string[], (b: Buffer) => string][] = [
    ["xxd", [], (b) => xxd(b)],
    ["xxd", ["-g4"], (b) => xxd(b, 4)],
    ["xxd", ["-e"], (b) => xxd(b, 4, true)],
    ["xxd", ["-i"], xxdI],
    ["hexdump", ["-C"], hexdumpC],
    ["od", ["-x"], od],
    ["od", ["-An", "-tx1"], (b) => dumped(b, { perLine: 16, group: 1, offset: () => " " })],
  ];
  // An odd number of bytes: the last word of a dump in words is cut short.
  const bytes = Buffer.from(`${pretty(PAYLOADS["a Codex Stop"])}\n `);
  // Lines that repeat the one before: hexdump and od leave them out as "*" unless told not to (-v).
  const padded = Buffer.from(JSON.stringify({ ...PAYLOADS["a Codex Stop"], padding: "=".repeat(80) }));
  for (const [tool, args] of [["hexdump", ["-C"]], ["od", ["-x"]], ["hexdump", []]] as [string, string[]][]) {
    it.skipIf(!installed(tool))(`finds a payload dumped by ${[tool, ...args].join(" ")} with a repeated line left out as * (skipped where ${tool} is not installed)`, () => {
      const dir = mkdtempSync(path.join(tmpdir(), "clear-hex-"));
      writeFileSync(path.join(dir, "payload_json"), padded);
      const dump = execFileSync(tool, [...args, "payload_json"], { cwd: dir, encoding: "utf8" });
      expect(dump).toMatch(/^\*$/m);
      expect(payloadIn(Buffer.from(dump), check)).toMatchObject({ signature: "hook-event-name", form: "hex" });
    });
  }
  for (const [tool, args, writer] of TOOLS) {
    it.skipIf(!installed(tool))(`finds a payload dumped by ${[tool, ...args].join(" ")}, laid out as the writer lays it (skipped where ${tool} is not installed)`, () => {
      const dir = mkdtempSync(path.join(tmpdir(), "clear-hex-"));
      writeFileSync(path.join(dir, "payload_json"), bytes);
      const dump = execFileSync(tool, [...args, "payload_json"], { cwd: dir, encoding: "utf8" });
      expect(writer(bytes)).toBe(dump);
      expect(payloadIn(Buffer.from(dump), check)).toMatchObject({ signature: "hook-event-name", form: "hex" });
    });
  }
});
