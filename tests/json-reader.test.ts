import { describe, expect, it } from "vitest";
import { firstInvalidUtf8, parseCaptureBytes } from "../src/io/read-capture-dir.js";
import { JsonScanError, placeOf, scanJson } from "../src/json/reader.js";
import { findMatches, matchesPattern } from "../src/pointers.js";

const scan = (text: string) => scanJson(text, { maxDepth: 64 });

describe("the JSON scanner", () => {
  it("records the exact span of every value and member name", () => {
    const text = '{ "a" : [1, "t\\"x", {"b/c": null}], "~k": true }';
    const doc = scan(text);
    const at = (p: string): string => {
      const s = doc.spans.find((x) => x.pointer === p);
      return s ? text.slice(s.start, s.end) : "(none)";
    };
    expect(at("")).toBe(text);
    expect(at("/a")).toBe('[1, "t\\"x", {"b/c": null}]');
    expect(at("/a/1")).toBe('"t\\"x"');
    expect(at("/a/2/b~1c")).toBe("null");
    expect(at("/~0k")).toBe("true");
    expect(doc.keys.map((k) => text.slice(k.start, k.end))).toEqual(['"a"', '"b/c"', '"~k"']);
    expect(doc.value).toEqual({ a: [1, 't"x', { "b/c": null }], "~k": true });
  });

  it("agrees with JSON.parse on what is valid", () => {
    const valid = ['{"a":-0.5e+10}', '{"s":"\\u00e9\\ud83d\\ude00\\/"}', "{}", '{"a":[]}', ' {"x" :\n\t[ true , false ] } '];
    for (const t of valid) expect(scan(t).value).toEqual(JSON.parse(t));
    const invalid = ['{"a":01}', '{"a":1,}', "{'a':1}", '{"a":"\\x"}', '{"a":"\n"}', '{"a":tru}', '{"a":1} x', "[1,]", '{"a" 1}', '{"a":.5}', '{"a":-}'];
    for (const t of invalid) {
      expect(() => JSON.parse(t), t).toThrow();
      expect(() => scan(t), t).toThrow(JsonScanError);
    }
  });

  it("finds duplicate member names, at any depth, with their pointer", () => {
    try {
      scan('{"a":{"b":1,"c":2,"b":3}}');
      expect.unreachable();
    } catch (err) {
      expect(err).toMatchObject({ code: "duplicate-key", pointer: "/a/b", offset: 18 });
    }
    // An escaped spelling of the same name is the same name.
    expect(() => scan('{"ab":1,"\\u0061b":2}')).toThrow(/appears twice/);
  });

  it("bounds nesting without recursion: 100,000 levels is a finding, not a crash", () => {
    const deep = `{"a":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
    expect(() => scanJson(deep, { maxDepth: 128 })).toThrow(/nesting deeper than 128 levels/);
    const r = parseCaptureBytes(Buffer.from(deep), { maxDepth: 128, maxFileBytes: 1e9 });
    expect(r.problem).toMatchObject({ code: "too-deep", line: 1, column: 133 });
  });

  it("places an error by line and column", () => {
    expect(placeOf("ab\ncd\nef", 7)).toEqual({ line: 3, column: 2 });
    expect(placeOf("x\ny", 2)).toEqual({ line: 2, column: 1 });
    expect(placeOf("ab\ncd\nef", 0)).toEqual({ line: 1, column: 1 });
    expect(placeOf("ab\ncd\nef", 2)).toEqual({ line: 1, column: 3 });
    const r = parseCaptureBytes(Buffer.from('{\n  "a": 1,\n  "b": }'), { maxDepth: 8, maxFileBytes: 100 });
    expect(r.problem).toMatchObject({ code: "invalid-json", line: 3, column: 8 });
  });

  it("names the first byte that is not UTF-8, and refuses a byte order mark", () => {
    expect(firstInvalidUtf8(Buffer.from("héllo"))).toBe(-1);
    expect(firstInvalidUtf8(Buffer.from([0x61, 0xc3]))).toBe(1);
    expect(firstInvalidUtf8(Buffer.from([0x61, 0xed, 0xa0, 0x80]))).toBe(1); // an encoded surrogate
    expect(firstInvalidUtf8(Buffer.from([0xc0, 0x80]))).toBe(0); // overlong
    expect(parseCaptureBytes(Buffer.from([0x7b, 0x0a, 0xff, 0x7d]), { maxDepth: 8, maxFileBytes: 100 }).problem).toMatchObject({ code: "not-utf8", line: 2, column: 1 });
    expect(parseCaptureBytes(Buffer.from("\ufeff{}"), { maxDepth: 8, maxFileBytes: 100 }).problem).toMatchObject({ code: "not-utf8", message: expect.stringContaining("byte order mark") });
  });
});

describe("pointer patterns", () => {
  it("match one token with * and any number with **, a trailing ** needing one", () => {
    expect(matchesPattern("/tool_calls/*/tool_use_id", ["tool_calls", "3", "tool_use_id"])).toBe(true);
    expect(matchesPattern("/tool_calls/*/tool_use_id", ["tool_calls", "tool_use_id"])).toBe(false);
    expect(matchesPattern("/**/sessionID", ["sessionID"])).toBe(true);
    expect(matchesPattern("/**/sessionID", ["event", "properties", "sessionID"])).toBe(true);
    expect(matchesPattern("/tool_input/**", ["tool_input"])).toBe(false);
    expect(matchesPattern("/tool_input/**", ["tool_input", "a", "b"])).toBe(true);
    const doc = { a: [{ id: "x" }, { id: "y" }], b: { id: "z" } };
    expect(findMatches(doc, "/a/*/id").map((m) => m.value)).toEqual(["x", "y"]);
    expect(findMatches(doc, "/**/id").map((m) => m.value).sort()).toEqual(["x", "y", "z"]);
  });
});
