import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeDisplay } from "../src/display.js";
import { homeGrammar, NamePattern, userNamePattern } from "../src/homes.js";
import { loadRules } from "../src/io/load-rules.js";
import { decodedValue, join, scanEngine, scanPass, type ScanInput } from "../src/passes/scan.js";
import { eachMatch, WordFinder } from "../src/regex.js";
import { PRESET_KEYWORDS } from "../src/scan-rules/preset-keywords.js";
import { decodeBase64, decodeHex } from "../src/scan-rules/byte-runs.js";
import { textReadings } from "../src/scan-rules/byte-text.js";
import { readSource } from "../src/scan-rules/readings.js";
import type { ScanFinding } from "../src/types.js";
import { clearJson, tempDir } from "./helpers.js";
import { prng } from "./seeded.mjs";

// Any byte sequence a JSON parser would turn into a secret is a secret: every kind the scan knows
// (each rule's planted value, this project's and the preset's), written with escapes in every way
// JSON allows, is found, and placed at its raw bytes.

const rules = loadRules();
const engine = scanEngine(rules.secrets, homeGrammar(rules.homes), null);
const display = makeDisplay(rules, [], null);

/** Every kind the scan knows, as the members its control plants, but the unreadable string. */
const kinds = engine.control.planted.filter((p) => p.rule !== "clear/escape-depth");

const hex4 = (ch: string): string => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`;

/** A string as JSON content: the characters `escape` picks as \u escapes, the rest as JSON needs. */
function content(text: string, escape: (ch: string, i: number) => string | null): string {
  return [...text]
    .map((ch, i) => escape(ch, i) ?? (ch === '"' || ch === "\\" ? `\\${ch}` : ch < " " ? hex4(ch) : ch))
    .join("");
}

function objectText(members: Record<string, string>, escapeValue: (ch: string, i: number) => string | null): string {
  const none = (): null => null;
  return `{${Object.entries(members)
    .map(([k, v]) => `"${content(k, none)}": "${content(v, escapeValue)}"`)
    .join(", ")}}`;
}

function offsetOf(text: string, line: number, column: number): number {
  let at = 0;
  for (let l = 1; l < line; l++) at = text.indexOf("\n", at) + 1;
  return at + column - 1;
}

/** The findings of each text, by file; each finding's raw bytes, decoded, must be part of what was planted. */
async function scanAll(cases: { file: string; text: string; planted: string[] }[]): Promise<Map<string, ScanFinding[]>> {
  const inputs: ScanInput[] = cases.map((c) => ({ file: c.file, text: c.text }));
  const result = await scanPass(inputs, engine, display);
  expect(result.control.red).toBe(true);
  const byFile = new Map<string, ScanFinding[]>(cases.map((c) => [c.file, []]));
  for (const f of result.findings) byFile.get(f.file)?.push(f);
  for (const c of cases) {
    for (const f of byFile.get(c.file) ?? []) {
      const raw = c.text.slice(offsetOf(c.text, f.line, f.column), offsetOf(c.text, f.endLine, f.endColumn));
      const value = decodedValue(decodedValue(raw));
      expect(value.length, `${c.file}: ${f.rule}`).toBeGreaterThan(0);
      expect(
        c.planted.some((p) => p.includes(value)),
        `${c.file}: ${f.rule} points at bytes that are not the planted value`,
      ).toBe(true);
    }
  }
  return byFile;
}

const isName = (rule: string): boolean => rule === "clear/home-owner";

function expectFound(byFile: Map<string, ScanFinding[]>, file: string, rule: string): void {
  const found = (byFile.get(file) ?? []).filter((f) => isName(f.rule) === isName(rule) && f.rule !== "clear/escape-depth");
  expect(found.length, `${file}: ${rule} not found`).toBeGreaterThan(0);
}

describe("the scan reads what a JSON parser decodes", () => {
  it("finds every kind with every letter escaped, with every separator escaped (\\/ for a slash), and inside JSON held in a string two levels down", async () => {
    const cases = kinds.flatMap((k) => {
      const planted = Object.values(k.members);
      const letters = objectText(k.members, (ch) => (/[A-Za-z]/.test(ch) ? hex4(ch) : null));
      const separators = objectText(k.members, (ch) => (ch === "/" ? "\\/" : /[^A-Za-z0-9]/.test(ch) ? hex4(ch) : null));
      const nested = JSON.stringify({ outer: JSON.stringify({ inner: JSON.stringify(k.members) }) });
      const nestedEscaped = JSON.stringify({ outer: JSON.stringify({ inner: letters }) });
      return [
        { file: `${k.rule} letters`, text: letters, planted },
        { file: `${k.rule} separators`, text: separators, planted },
        { file: `${k.rule} nested`, text: nested, planted },
        { file: `${k.rule} nested escaped`, text: nestedEscaped, planted },
      ];
    });
    const byFile = await scanAll(cases);
    for (const k of kinds) for (const how of ["letters", "separators", "nested", "nested escaped"]) expectFound(byFile, `${k.rule} ${how}`, k.rule);
  });

  it("runs the preset where a word of its rules is spelt only with escapes", async () => {
    const user = ["deploy", "bot"].join("-");
    const texts = [
      `{"u": "see https:\\/\\/${user}:Rq74zePXG8c2tRJV@build.example.com now"}`,
      `{"u": "see h\\u0074tps\\u003a//${user}:Rq74zePXG8c2tRJV@build.example.com now"}`,
      `{"m": "\\u006dongodb://app:Kz4VA9w3nYDP07qchS@db.example.com/a"}`,
    ];
    const result = await scanPass(texts.map((text, i) => ({ file: `f${i}.json`, text })), engine, display);
    const rulesOf = (file: string): string[] => result.findings.filter((f) => f.file === file).map((f) => f.rule);
    expect(rulesOf("f0.json")).toContain("@secretlint/secretlint-rule-basicauth");
    expect(rulesOf("f1.json")).toContain("@secretlint/secretlint-rule-basicauth");
    expect(rulesOf("f2.json")).toContain("@secretlint/secretlint-rule-database-connection-string");
  });

  it("finds in the decoded text the words a search of all of it finds, where it is not searched whole", () => {
    // Every word the prefilters look for, and texts built of their pieces, the characters decoding
    // writes and the escapes that write them, member names, JSON held in strings, and a \\u escape or
    // base64 in some (where the decoded text is searched whole).
    const words = [...new Set([...rules.secrets.rules.flatMap((r) => r.keywords), ...Object.values(PRESET_KEYWORDS).flat()])];
    const finder = new WordFinder(words);
    const pieces = words.flatMap((w) => [w, w.slice(0, 2), w.slice(2), w.toUpperCase(), w.replace(/\//g, "\\/")]);
    const written = ["\\n", '\\"', "\\\\", "\\/", "\\t", "\\u0041", ":", " ", "/", "-", "_", ".", "key", "x"];
    const rnd = prng(41);
    const pick = (): string => {
      const from = rnd() < 0.4 ? written : pieces;
      return from[Math.floor(rnd() * from.length)] as string;
    };
    const value = (): string => Array.from({ length: 1 + Math.floor(rnd() * 8) }, pick).join("");
    let shortcut = 0;
    for (let k = 0; k < 3000; k++) {
      const held = JSON.stringify({ [value()]: value() });
      const members = { [value()]: value(), [value()]: rnd() < 0.3 ? held : value(), n: Buffer.from(value()).toString(rnd() < 0.2 ? "base64" : "utf8") };
      const text = JSON.stringify(members).replace(/\\\\/g, () => (rnd() < 0.5 ? "\\" : "\\\\"));
      let r: ReturnType<typeof readSource>;
      try {
        r = readSource(text);
      } catch {
        continue;
      }
      const found = r.words(finder);
      const whole = r.decoded === "" ? new Set() : finder.in(r.decoded.toLowerCase());
      expect([...found.decoded].sort(), text).toEqual([...whole].sort());
      expect([...found.raw].sort(), text).toEqual([...finder.in(text.toLowerCase())].sort());
      if (r.decoded !== "" && !text.includes("\\u")) shortcut++;
    }
    expect(shortcut).toBeGreaterThan(500);
  });

  it("runs each rule of the preset whose word stands in a file, where one rule's word overlaps another's", async () => {
    // "A3T" is a word of the AWS rule; an OpenAI key holding "...A3T3BlbkFJ..." still gets the OpenAI rule.
    const pieces = [...(rules.secrets.preset["@secretlint/secretlint-rule-openai"]?.match[0] as string[])];
    pieces[2] = `${(pieces[2] as string).slice(0, -2)}A3`;
    const key = join(pieces);
    expect(key.toLowerCase()).toContain("a3t3blbkfj");
    const result = await scanPass([{ file: "k.json", text: JSON.stringify({ k: key }) }], engine, display);
    expect(result.findings.map((f) => f.rule)).toContain("@secretlint/secretlint-rule-openai");
  });

  it("a service account's JSON nested deeper than the reader goes is still read as JSON by the GCP rule", async () => {
    const deep = `${"[".repeat(10_005)}${"]".repeat(10_005)}`;
    const text = `{"private_key_id": "k1", "private_key": "-----BEGINPRIVATE KEY", "d": ${deep}}`;
    const result = await scanPass([{ file: "deep.json", text }], engine, display);
    expect(result.findings.map((f) => f.rule)).toContain("@secretlint/secretlint-rule-gcp");
  });

  it("finds every kind split by an escape at every position of its value", async () => {
    const cases = kinds.flatMap((k) => {
      const planted = Object.values(k.members);
      const longest = Math.max(...planted.map((v) => [...v].length));
      return Array.from({ length: longest }, (_, at) => ({
        file: `${k.rule} @${at}`,
        text: objectText(k.members, (ch, i) => (i === at ? hex4(ch) : null)),
        planted,
      }));
    });
    const byFile = await scanAll(cases);
    for (const c of cases) expectFound(byFile, c.file, c.file.replace(/ @\d+$/, ""));
  });

  it("finds every secret shape and home held in a member name, escaped", async () => {
    const named = kinds.filter((k) => k.rule !== "clear/sensitive-member" && k.rule !== "clear/aws-secret" && k.rule !== "@secretlint/secretlint-rule-gcp");
    const cases = named.map((k) => {
      const value = Object.values(k.members)[0] as string;
      return { file: `${k.rule} key`, text: `{"${content(value, (ch, i) => (i % 3 === 1 ? hex4(ch) : null))}": 1}`, planted: [value] };
    });
    const byFile = await scanAll(cases);
    for (const k of named) expectFound(byFile, `${k.rule} key`, k.rule);
  });

  it("places a finding at its raw bytes: line, column and pointer of the escaped value", async () => {
    const key = join(["gh", "p_", "wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx"]);
    const text = `{\n  "session_id": "s",\n  "tool_response": "see: ${content(key, (ch, i) => (i === 2 ? hex4(ch) : null))} end"\n}`;
    const [f] = (await scanPass([{ file: "a.json", text }], engine, display)).findings;
    expect(f).toMatchObject({ line: 3, column: 26, endLine: 3, endColumn: 26 + key.length + 5, pointer: "/tool_response", masked: `ghp_${"*".repeat(36)}` });
  });

  it("reads JSON Lines and plain text decoded too, and a string escaped past the levels it follows is a finding", async () => {
    const key = join(["sk-", "ant-", "api03-", "Zq8rT2vLm9xWp4kNy7bQ3sD6fG1hJ5k"]);
    const escaped = content(key, (ch) => (/[a-z]/.test(ch) ? hex4(ch) : null));
    const lines = `{"a": 1}\n{"b": "${escaped}"}\n`;
    const plain = `export KEY=${escaped}\n`;
    const deep = JSON.stringify({ v: `\\${"u005c".repeat(40)}u0041` });
    // Twenty levels only, but each decodes one character of a long string: linear work is all it gets.
    const costly = JSON.stringify({ v: `\\${"u005c".repeat(20)}u0041${" ".repeat(20_000)}` });
    const inputs = [{ file: "l.jsonl", text: lines }, { file: "p.txt", text: plain }, { file: "d.json", text: deep }, { file: "c.json", text: costly }];
    const r = await scanPass(inputs, engine, display);
    expect(r.findings.map((f) => [f.file, f.rule, f.line])).toEqual([
      ["l.jsonl", "clear/anthropic", 2],
      ["p.txt", "clear/anthropic", 1],
      ["d.json", "clear/escape-depth", 1],
      ["c.json", "clear/escape-depth", 1],
    ]);
  });

  it("reads a document with a member name twice, and a member name's escapes give its value's context", async () => {
    const password = ["Zq8", "rT2v", "Lm9x", "Wp4k", "Ny7b"].join("");
    const key = join(["gh", "p_", "wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx"]);
    const text = `{"a": "x", "a": "${content(key, (ch, i) => (i === 0 ? hex4(ch) : null))}", "pass\\u0077ord": "${password}"}`;
    const r = await scanPass([{ file: "t.json", text }], engine, display);
    expect(r.findings.map((f) => [f.rule, f.column])).toEqual([
      ["@secretlint/secretlint-rule-github", 18],
      ["clear/sensitive-member", 84],
    ]);
  });

  it("one finding per secret per place, though several rules see it", async () => {
    const key = join(["sk-", "ant-api03-", "A".repeat(93), "AA"]);
    const r = await scanPass([{ file: "a.json", text: JSON.stringify({ k: key, nested: JSON.stringify({ k: key }) }) }], engine, display);
    expect(r.findings.map((f) => f.pointer)).toEqual(["/[masked]", "/[masked]"]);
  });
});

describe("clear scan on the issue's escaped keys", () => {
  it("a \\u006b in an Anthropic key, B\\u0065arer, \\u0041KIA and gh\\u0070_ are each found, and a secretlint-disable comment silences nothing", () => {
    const dir = tempDir();
    const files = {
      "anthropic.json": `{"k": "s\\u006b-${join(["ant-api03-", "Zq8rT2vLm9xWp4kNy7bQ3sD6fG1hJ5k"])}"}`,
      "bearer.json": `{"h": "B\\u0065arer ${join(["abcDEF", "0123456789ghijKLMN"])}"}`,
      "aws.json": `{"k": "\\u0041KIA${join(["Z7VRSQ5T", "EXNWL3KH"])}"}`,
      "github.json": `{"k": "gh\\u0070_${join(["wWPw5k4aXcaT4f", "NP0UcnZwJUVFk6LO0pINUx"])}"}`,
      "disabled.json": `{\n "note": "secretlint-disable -- all",\n "k": "${join(["gh", "p_", "wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx"])}"\n}`,
    };
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
    const r = clearJson(["scan", dir, "--root", dir]);
    expect(r.code).toBe(1);
    const findings = r.json.findings as ScanFinding[];
    expect(findings.map((f) => f.file).sort()).toEqual(Object.keys(files).sort());
    for (const f of findings) expect([f.file, f.column]).toEqual([f.file, f.file === "bearer.json" ? 20 : 8]);
  });
});

describe("names", () => {
  it("a home owner or a known name is found in any reading, and shown as nothing of it", async () => {
    const names = ["Wrzqxa", "Ćmyłkö"];
    const withNames = scanEngine(rules.secrets, homeGrammar(rules.homes, names), userNamePattern(names));
    const text = JSON.stringify({ cwd: "/home/wrzqxa/p", note: JSON.stringify({ by: "ćmyłkö" }), owner: content("/Users/Pqlxvj/x", (ch) => hex4(ch)) });
    const r = await scanPass([{ file: "n.json", text }], withNames, makeDisplay(rules, names, null));
    expect(r.findings.map((f) => [f.rule, f.pointer, f.masked])).toEqual([
      ["clear/home-owner", "/cwd", "[name]"],
      ["clear/home-owner", "/[masked]", "[name]"],
      ["clear/home-owner", "/[masked]", "[name]"],
    ]);
    expect(r.findings.some((f) => f.sha256 !== undefined)).toBe(false);
  });
});

describe("the scan reads what an encoding hides", () => {
  const encodings: Record<string, (v: string) => string> = {
    base64: (v) => Buffer.from(v).toString("base64"),
    "base64url without padding": (v) => Buffer.from(v).toString("base64url"),
    hex: (v) => Buffer.from(v).toString("hex"),
    "percent-encoding of every character": (v) => [...Buffer.from(v)].map((b) => `%${b.toString(16).padStart(2, "0")}`).join(""),
    "percent-encoding of one character, in a URL's path": (v) => `https://example.com/a/${v.replace(/[_\-.]/, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}/b`,
    "base64 after a prefix": (v) => `data:text/plain;base64,${Buffer.from(v).toString("base64")}`,
    "base64 of base64": (v) => Buffer.from(Buffer.from(v).toString("base64")).toString("base64"),
    "hex in mixed case": (v) => [...Buffer.from(v).toString("hex")].map((c, i) => (i % 3 === 0 ? c.toUpperCase() : c)).join(""),
  };
  // Shapes read from a whole document's structure or from a member's context beside the value, and
  // key material, read from whole lines (a line glued into a URL's path is no key's line).
  const structural = new Set(["@secretlint/secretlint-rule-gcp", "@secretlint/secretlint-rule-aws", "clear/aws-secret", "clear/sensitive-member", "@secretlint/secretlint-rule-basicauth", "clear/key-material"]);
  const shapes = kinds.filter((k) => !structural.has(k.rule) && !isName(k.rule));

  it("finds every shape of a value base64, base64url or hex encoded, or percent-encoded whole or in part, at the encoded bytes", async () => {
    expect(shapes.length).toBeGreaterThan(20);
    const cases = shapes.flatMap((k) =>
      Object.entries(encodings).map(([how, encode]) => {
        const members = Object.fromEntries(Object.entries(k.members).map(([m, v]) => [m, encode(v)]));
        return { file: `${k.rule} ${how}`, text: JSON.stringify({ note: "see", ...members }), members };
      }),
    );
    const result = await scanPass(cases.map((c) => ({ file: c.file, text: c.text })), engine, display);
    const missed = cases.filter((c) => !result.findings.some((f) => f.file === c.file && !isName(f.rule))).map((c) => c.file);
    expect(missed).toEqual([]);
    // Each finding stands inside an encoded member's raw bytes, never at the note beside it.
    for (const f of result.findings) expect(f.pointer, `${f.file}: ${f.rule}`).not.toBe("/note");
  });

  it("decodes a run's base64 (either alphabet) and hex to the bytes Buffer.from gives, from any place in a text, whatever stands in it", () => {
    const rnd = prng(41);
    const pick = (alphabet: string, length: number): string => Array.from({ length }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join("");
    const base64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_";
    const hex = "0123456789abcdefABCDEF";
    // Characters no run holds: each must leave the answer Buffer.from's (a letter above ASCII, "@" and "`" beside the hex letters' codes).
    const stray = "=. @`\u00e9\u0130\u0141:G\n\ud83d";
    let lastLone = 0;
    for (let i = 0; i < 20_000; i++) {
      const odd = rnd() < 0.15;
      const run = pick(odd ? base64 + stray : base64, Math.floor(rnd() * 80));
      const before = pick("xyz", Math.floor(rnd() * 3));
      const text = `${before}${run}"`;
      expect(decodeBase64(text, before.length, before.length + run.length).equals(Buffer.from(run, "base64")), JSON.stringify(run)).toBe(true);
      if (!odd && run.length % 4 === 1) lastLone++;
      const digits = pick(odd ? hex + stray : hex, 2 * Math.floor(rnd() * 40));
      expect(decodeHex(`${before}${digits}"`, before.length, before.length + digits.length).equals(Buffer.from(digits, "hex")), JSON.stringify(digits)).toBe(true);
    }
    // Every last group was met: a lone character, two and three.
    expect(lastLone).toBeGreaterThan(1000);
    expect(decodeBase64("QUJDREU", 0, 7).toString()).toBe("ABCDE");
    expect(decodeHex("xx6B65", 2, 6).toString()).toBe("ke");
  });

  it("decoded bytes are text whole only where one stretch of text is all of them; text among noise is read, and is not whole", () => {
    const source = { text: "x".repeat(400), rawAt: (i: number) => i };
    const words = Buffer.from("the quick brown fox jumps over the lazy dog");
    const noise = Buffer.from([0x00, 0x01, 0x02, 0xff, 0x03]);
    const read = (bytes: Buffer, group: number): { texts: string[]; whole: boolean } => {
      const { readings, whole } = textReadings({ bytes, sourceAt: (j) => j, group }, source);
      return { texts: readings.map((r) => r.text), whole };
    };
    for (const group of [1, 3]) {
      // Whole: read all of it (and, where bytes decode in groups, its edges again).
      const all = read(words, group);
      expect(all.whole).toBe(true);
      expect(all.texts[0]).toBe(words.toString());
      // One stretch of text, then noise (or noise, then text; or text on both sides): read, never whole.
      for (const bytes of [Buffer.concat([words, noise]), Buffer.concat([noise, words]), Buffer.concat([words, noise, words])]) {
        const got = read(bytes, group);
        expect(got.whole, `${group} ${bytes.toString("hex")}`).toBe(false);
        expect(got.texts.some((t) => t.includes("quick brown fox")), `${group} ${bytes.toString("hex")}`).toBe(true);
      }
    }
    // Short stretches among noise are no reading; nor is noise alone.
    expect(read(Buffer.from("ab\u0000cd\u0001ef\u0002gh\u0003ij\u0004kl\u0005mn\u0006op"), 1)).toEqual({ texts: [], whole: false });
    expect(read(noise, 1)).toEqual({ texts: [], whole: false });
  });

  it("reads a base64 run of megabytes and a string of 40,000 short runs whole, without a stack overflow", async () => {
    const random = Buffer.from(Array.from({ length: 4_500_000 }, (_, i) => (i * 7919 + (i >> 8)) % 256)).toString("base64");
    const planted = kinds.find((k) => k.rule === "clear/anthropic") as (typeof kinds)[number];
    const key = Object.values(planted.members)[0] as string;
    const text = JSON.stringify({ blob: random, runs: `${"QUJDREVGR0g= ".repeat(40_000)}${Buffer.from(key).toString("base64")}` });
    const r = await scanPass([{ file: "big.json", text }], engine, display);
    expect(r.findings.map((f) => f.rule)).toContain(planted.rule);
  });

  it("finds a known name base64 or percent-encoded, and leaves text that only looks encoded alone", async () => {
    const names = ["Wrzqxa"];
    const withNames = scanEngine(rules.secrets, homeGrammar(rules.homes, names), userNamePattern(names));
    const text = JSON.stringify({ b: Buffer.from("wrzqxa").toString("base64"), u: "https://github.com/wrz%71xa/repo", h: `/home/${encodeURIComponent("wrzqxa")}`.replace("q", "%71") });
    const r = await scanPass([{ file: "n.json", text }], withNames, makeDisplay(rules, names, null));
    expect(r.findings.map((f) => f.rule)).toEqual(["clear/home-owner", "clear/home-owner", "clear/home-owner"]);
    const plain = JSON.stringify({ words: "authentication configuration tool_response PreToolUse", sha: "3f786850e387550fdab836ed7e6dc881de23001b", uuid: "1b4e28ba-2fa1-11d2-883f-0016d3cca427", image: Buffer.from([...Array(300).keys()].map((i) => (i * 37) % 256)).toString("base64") });
    expect((await scanPass([{ file: "plain.json", text: plain }], engine, display)).findings).toEqual([]);
  });

  it("reads a long text's homes once for all the owners its reading without controls finds, and still finds each", async () => {
    const grammar = homeGrammar(rules.homes, []);
    // The grammar keeps no answer for a text past 2,048 characters: each read of one is counted.
    let longReads = 0;
    const owners = grammar.owners.bind(grammar);
    grammar.owners = (text) => {
      if (text.length > 2048) longReads++;
      return owners(text);
    };
    const engine = scanEngine(rules.secrets, grammar, null);
    await scanPass([{ file: "first.txt", text: "first" }], engine, display);
    // Each line's owner has a control inside it: the reading with the controls taken out finds a whole owner on every line, each one checked against the text's own.
    const lines = Array.from({ length: 300 }, (_, i) => `step ${i}: cd /home/ro\x01bin${i % 10} and build`);
    longReads = 0;
    const r = await scanPass([{ file: "notes.txt", text: lines.join("\n") }], engine, display);
    expect(r.findings.filter((f) => f.rule === "clear/home-owner").map((f) => f.line)).toEqual(lines.map((_, i) => i + 1));
    // Once for the text, once for each reading of it: never once for each owner.
    expect(longReads).toBeLessThan(20);
  });

  it("searches each line once for all the readings of a text, and still finds a name parted over a line end", async () => {
    // Each spelling below gives the whole text another reading, and each line stands in every one of
    // them: searched reading by reading, the text was searched for names once for each.
    const names = ["bakoruvi", "temasilo", "gunapeto"];
    const pattern = userNamePattern(names) as NamePattern;
    const searched: string[] = [];
    const exec = pattern.exec.bind(pattern);
    pattern.exec = (text, from = 0) => {
      if (from === 0) searched.push(text);
      return exec(text, from);
    };
    const withNames = scanEngine(rules.secrets, homeGrammar(rules.homes, names), pattern);
    const spellings = ["a%2Fb", "a%252Fb", "a&#47;b", "a&#x2F;b", "a\\x2fb", "a\\u002fb", "a=2Fb", "[\u2026]", "\uff41\uff42", "a\\tb", '"a" + "b"'];
    const words = "the scan reads each line of a text again for every reading of it".split(" ");
    const lines = Array.from({ length: 220 }, (_, i) => {
      const said = Array.from({ length: 12 }, (_, k) => words[((i % 11) * 7 + k * 3) % words.length]).join(" ");
      return `${said} ${i} ${spellings[i % spellings.length]} ${said}`;
    });
    lines[100] = "and bakoruvi wrote it";
    [lines[216], lines[217]] = ["by tem", "asilo too"];
    const text = lines.join("\n");
    // The engine's control runs once, on texts of its own, before the first file.
    await scanPass([{ file: "first.txt", text: "first" }], withNames, makeDisplay(rules, names, null));
    searched.length = 0;
    const r = await scanPass([{ file: "notes.txt", text }], withNames, makeDisplay(rules, names, null));
    expect(r.findings.filter((f) => f.rule === "clear/home-owner").map((f) => f.line)).toEqual([101, 217]);
    // Each line is searched as written once, whatever reading it stands in, and its verdict kept: a
    // few times the text in all (a line read in a changed spelling, its letters' readings), where
    // searched reading by reading it came to thirty times and more.
    expect(searched.reduce((n, t) => n + t.length, 0)).toBeLessThan(10 * text.length);
  });
});

describe("a member named for a credential", () => {
  const value = ["d41d8cd98f00", "b204e9800998", "ecf8427e"].join("");
  const key = ["Zq8vN3", "xT5wL0", "pR7mK2sY9"].join("");
  it("holding a high-entropy value of any shape is found, as JSON members and environment variables spell it", async () => {
    const named = ["api_key", "apiKey", "OPENROUTER_API_KEY", "XAI_API_KEY", "accessKey", "private_key", "client-secret", "x-auth", "Authorization", "KEY", "signing_key", "cookie", "credentials", "oauth"];
    const cases = named.map((m) => ({ file: m, text: JSON.stringify({ env: { [m]: m.startsWith("api") ? value : key } }) }));
    const r = await scanPass(cases, engine, display);
    expect(named.filter((m) => !r.findings.some((f) => f.file === m && f.rule === "clear/sensitive-member"))).toEqual([]);
  });

  it("or a setting named for one, as Kubernetes, ECS and SSM write settings, and an authorization value's credentials after its scheme", async () => {
    const cases = {
      kubernetes: { env: [{ name: "HOME", value: "/root" }, { name: "DB_PASSWORD", value: key }] },
      ssm: { Parameter: { Name: "/prod/db/password", Type: "SecureString", Value: key } },
      keyed: { settings: [{ key: "STRIPE_SECRET", value: key }] },
      scheme: { headers: { Authorization: `SSWS ${key}` } },
      token: { headers: { authorization: `token ${key}` } },
    };
    const r = await scanPass(Object.entries(cases).map(([file, v]) => ({ file, text: JSON.stringify(v) })), engine, display);
    expect(Object.keys(cases).filter((file) => !r.findings.some((f) => f.file === file && f.rule === "clear/sensitive-member"))).toEqual([]);
    expect(r.findings.find((f) => f.file === "kubernetes")?.pointer).toBe("/env/1/value");
    // A setting named for no credential, and a scheme before a word, stay; so does a value beside a credential's
    // name in another object: in a document held in a string, or on another line of JSON Lines.
    const plain = { env: [{ name: "LOG_FORMAT", value: key }], headers: { Authorization: "token the-word" }, item: { name: "password reset", value: "clicked" } };
    const nested = { tool_response: { stdout: JSON.stringify({ env: [{ name: "DB_PASSWORD", valueFrom: { secretKeyRef: { name: "db" } } }, { name: "BUILD_ID", value: key }] }) } };
    const lines = `${JSON.stringify({ env: [{ name: "DB_PASSWORD", value: "changeme" }] })}\n${JSON.stringify({ env: [{ name: "BUILD_ID", value: key }] })}\n`;
    const apart = [
      { file: "plain.json", text: JSON.stringify(plain) },
      { file: "nested.json", text: JSON.stringify(nested) },
      { file: "lines.jsonl", text: lines },
    ];
    expect((await scanPass(apart, engine, display)).findings).toEqual([]);
  });

  it("not one whose name only holds the letters: ids, keyboards and monkeys stay", async () => {
    const text = JSON.stringify({ session_id: key, tool_use_id: key, keyboard: key, monkey: key, author: key, keys: key, api_key: "changeme" });
    expect((await scanPass([{ file: "ids.json", text }], engine, display)).findings).toEqual([]);
  });

  it("not a tokenizer, named in a member or in text; a tokenizer's own token still is", async () => {
    const text = JSON.stringify({ tokenizer: key, tokenizer_config: key, tool_response: { stdout: "model: gpt-x\ntokenizer: cl100k_base\nTOKENIZERS_PARALLELISM=false" } });
    expect((await scanPass([{ file: "tokenizer.json", text }], engine, display)).findings).toEqual([]);
    const r = await scanPass([{ file: "token.json", text: JSON.stringify({ tokenizer_token: key, tool_response: { stdout: `tokenizer_token: ${key}` } }) }], engine, display);
    expect(r.findings.map((f) => f.rule).sort()).toEqual(["clear/sensitive-assignment", "clear/sensitive-member"]);
  });

  it("not a key or token named for what it indexes, nor an object's path; the same words beside a credential's still are", async () => {
    const indexes = { publicKey: key, public_key: key, idempotency_key: "550e8400-e29b-41d4-a716-446655440000", cache_key: `v1-${value}`, partitionKey: key, sortKey: key, Key: "uploads/2024/photo-1a2b3c4d5e.jpg", pageToken: key, next_page_token: key };
    expect((await scanPass([{ file: "indexes.json", text: JSON.stringify(indexes) }], engine, display)).findings).toEqual([]);
    const credentials = ["public_key_secret", "primaryKeySecret", "cache_api_key", "storage_key", "session_token", "Key"];
    const cases = credentials.map((m) => ({ file: m, text: JSON.stringify({ [m]: m === "Key" ? ["wJalrXUtnFEMI", "/K7MDENG/bPxRfiCY", "EXAMPLEKEY"].join("") : key }) }));
    const r = await scanPass(cases, engine, display);
    expect(credentials.filter((m) => !r.findings.some((f) => f.file === m && f.rule === "clear/sensitive-member"))).toEqual([]);
  });
});

describe("a rule's matches, walked on its own pattern", () => {
  it("are matchAll's, empty ones and pairs of surrogates too, and leave the pattern's lastIndex at 0 however the walk ends", () => {
    const cases: [RegExp, string][] = [[/a*/g, "baaac"], [/(?:)/gu, "a\u{1F600}b"], [new RegExp("x?", "gv"), "\u{1F600}x"], [/\d+/dg, "a1b22c333"], [/(?<=a)/g, "aaa"], [/(?<w>\w)\1/gi, "aAbbCc"], [/^/gm, "a\nb\n"]];
    for (const [re, text] of cases) {
      const expected = [...text.matchAll(re)].map((m) => [m.index, m[0], m.indices?.[0]]);
      expect([...eachMatch(re, text)].map((m) => [m.index, m[0], m.indices?.[0]]), `${re} on ${JSON.stringify(text)}`).toEqual(expected);
      expect(re.lastIndex).toBe(0);
    }
    const re = /a/g;
    for (const m of eachMatch(re, "aaa")) if (m.index === 0) break;
    expect(re.lastIndex).toBe(0);
    expect(() => {
      for (const _ of eachMatch(re, "aaa")) throw new Error("stopped");
    }).toThrow("stopped");
    expect(re.lastIndex).toBe(0);
  });
});
