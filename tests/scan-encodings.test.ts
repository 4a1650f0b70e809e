import { writeFileSync } from "node:fs";
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from "node:zlib";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeDisplay } from "../src/display.js";
import { homeGrammar } from "../src/homes.js";
import { loadRules } from "../src/io/load-rules.js";
import { join, scanEngine, scanPass } from "../src/passes/scan.js";
import type { ScanFinding } from "../src/types.js";
import { dumped, hexdumpC, od, shown, xxd } from "./dumps.js";
import { clear, clearJson, tempDir } from "./helpers.js";
import { prng } from "./seeded.mjs";

// A key a payload holds in any encoding a log, a mail, a web page or a dump writes it in is found
// by `clear scan`, placed at the string that holds it (line, column inside its quotes, pointer),
// and printed masked: base64 wrapped over lines, base64 glued to other text, HTML and XML
// character references, backslash and %u escapes, quoted-printable, and hex written as a dump.

/** Well-known provider keys, each with the rules that may report it. */
const SECRETS = {
  github: { value: join(["gh", "p_", "wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx"]), rules: ["@secretlint/secretlint-rule-github", "clear/github-token"] },
  aws: {
    value: join(["aws_access_key_id = ", "AKIA", "Z7VRSQ5TEXNWL3KH", "\naws_secret_access_key = ", "q8Fz3LmN0pRsT5uV", "wXyZ/aB1cD2eF3gH4iJ5kL6m"]),
    rules: ["@secretlint/secretlint-rule-aws", "clear/aws-secret"],
  },
  slack: { value: join(["xo", "xb-", "2417365289-", "5139620481726-", "Zq8rT2vLm9xWp4kNy7bQ3sD6"]), rules: ["@secretlint/secretlint-rule-slack"] },
  privateKey: {
    value: join(["-----BEGIN RSA ", "PRIVATE KEY-----\n", "MIIEowIBAAKCAQEAy8Dbv8prpJ/0kKhlGeJYozo2t60EG8L0561g13R29LvMR5hy\n", "-----END RSA ", "PRIVATE KEY-----"]),
    rules: ["clear/private-key", "@secretlint/secretlint-rule-privatekey"],
  },
};
type SecretName = keyof typeof SECRETS;

const base64 = (text: string): string => Buffer.from(text).toString("base64");
const hex2 = (b: number): string => b.toString(16).padStart(2, "0");
const bytesOf = (text: string): number[] => [...Buffer.from(text)];
const codes = (text: string): number[] => [...text].map((ch) => ch.codePointAt(0) as number);
/** Lines of at most `width` characters joined by `lineBreak`. */
const wrapped = (text: string, width: number, lineBreak: string): string => (text.match(new RegExp(`[^]{1,${width}}`, "g")) ?? []).join(lineBreak);
const prose = (length: number): string => "The build ran the tests again, and the report says all passed. ".repeat(4).slice(0, length);
/** A secret among lines of a log, as a file or a command's output holds it. */
const inText = (secret: string, before = 0): string => `${prose(before)}\nexport TOKEN=${secret}\nexit status 0\n`;

/** Quoted-printable as a mail writes it: = and anything not printable as =XX, lines of 76 with soft breaks. */
function quotedPrintable(text: string, encodeAlso: (ch: string, i: number) => boolean = () => false): string {
  const encoded = [...text].map((ch, i) => (ch === "=" || ch > "~" || encodeAlso(ch, i) ? bytesOf(ch).map((b) => `=${hex2(b).toUpperCase()}`).join("") : ch));
  const lines: string[] = [];
  let line = "";
  for (const piece of encoded) {
    if (piece === "\n") {
      lines.push(`${line}\r\n`);
      line = "";
      continue;
    }
    if (line.length + piece.length > 75) {
      lines.push(`${line}=\r\n`);
      line = "";
    }
    line += piece;
  }
  return lines.join("") + line;
}

interface Case {
  file: string;
  secret: SecretName;
  encoded: string;
}

/** Each encoding of each secret, as a case named after both. */
function casesOf(encodings: Record<string, (secret: string) => string>): Case[] {
  return Object.entries(encodings).flatMap(([how, encode]) =>
    (Object.keys(SECRETS) as SecretName[]).map((secret) => ({ file: `${how}-${secret}.json`, secret, encoded: encode(SECRETS[secret].value) })),
  );
}

/** A hook payload holding the encoded text as a tool's output, pretty-printed so that it stands on a line of its own. */
const payloadOf = (encoded: string): string =>
  JSON.stringify({ session_id: "s-1", hook_event_name: "PostToolUse", tool_name: "Bash", tool_response: { stdout: encoded, stderr: "" } }, null, 2);

function placeOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split("\n");
  return { line: before.length, column: (before[before.length - 1] as string).length + 1 };
}

/** Windows of a text, none of which may be printed: a masked value shows four characters at most. */
function windowsOf(text: string, width = 12): string[] {
  const out: string[] = [];
  for (let i = 0; i + width <= text.length; i += 4) out.push(text.slice(i, i + width));
  return out;
}

/**
 * Runs `clear scan` on the cases, as --json and as a person reads it, and checks each case: a
 * finding of its secret's rules at the stdout member, inside the string's quotes, and nothing of
 * the secret or of its encoded form printed.
 */
function expectEachFound(cases: Case[]): void {
  const dir = tempDir("clear-encodings-");
  const texts = new Map<string, string>();
  for (const c of cases) {
    texts.set(c.file, payloadOf(c.encoded));
    writeFileSync(path.join(dir, c.file), texts.get(c.file) as string);
  }
  const r = clearJson(["scan", dir, "--root", dir]);
  expect(r.code).toBe(1);
  const findings = r.json.findings as ScanFinding[];
  const missed: string[] = [];
  for (const c of cases) {
    const text = texts.get(c.file) as string;
    const quoted = JSON.stringify(c.encoded);
    const start = placeOf(text, text.indexOf(`"stdout": ${quoted}`) + '"stdout": '.length);
    const end = placeOf(text, text.indexOf(`"stdout": ${quoted}`) + '"stdout": '.length + quoted.length);
    const found = findings.filter((f) => f.file === c.file && SECRETS[c.secret].rules.includes(f.rule));
    if (found.length === 0) missed.push(c.file);
    for (const f of found) {
      expect(f.pointer, c.file).toBe("/tool_response/stdout");
      expect([f.line, f.endLine], c.file).toEqual([start.line, end.line]);
      expect(f.column, c.file).toBeGreaterThan(start.column);
      expect(f.endColumn, c.file).toBeLessThan(end.column);
    }
    expect(findings.filter((f) => f.file === c.file && f.pointer !== "/tool_response/stdout"), c.file).toEqual([]);
  }
  expect(missed).toEqual([]);
  const human = clear(["scan", dir, "--root", dir, "--verbose"]);
  expect(human.code).toBe(1);
  for (const printed of [JSON.stringify(r.json), human.stdout + human.stderr]) {
    for (const c of cases) {
      const secret = SECRETS[c.secret].value;
      for (const w of [...windowsOf(secret.slice(4)), ...windowsOf(c.encoded)]) expect(printed.includes(w), `${c.file}: ${w}`).toBe(false);
    }
  }
}

describe("clear scan finds a key in base64 wrapped over lines", () => {
  it("at 76 characters with \\r\\n (MIME) and at 64 with \\n (PEM), the key across a line break or not", () => {
    const encodings: Record<string, (s: string) => string> = {};
    for (const before of [0, 13, 40, 75, 120]) {
      encodings[`mime-${before}`] = (s) => wrapped(base64(inText(s, before)), 76, "\r\n");
      encodings[`pem-${before}`] = (s) => `-----BEGIN DATA-----\n${wrapped(base64(inText(s, before)), 64, "\n")}\n-----END DATA-----\n`;
    }
    encodings["mime-indented"] = (s) => wrapped(base64(inText(s, 30)), 76, "\n    ");
    expectEachFound(casesOf(encodings));
  });
});

describe("clear scan finds a key in base64 that starts at any offset of a longer run", () => {
  it("glued to a prefix of base64 letters of any length, alone or inside base64 of text", () => {
    const encodings: Record<string, (s: string) => string> = {};
    for (const prefix of ["x", "ab", "v1/", "Zm9v", "data-", "path/to", "token_ab", "user/42/blob"]) {
      encodings[`key-${prefix.length}`] = (s) => `${prefix}${base64(s)}`;
      encodings[`text-${prefix.length}`] = (s) => `${prefix}${base64(inText(s, 21))}`;
    }
    encodings["middle-of-blob"] = (s) => `QmxvYi${base64(`${prose(31)} ${s} ${prose(57)}`)}`;
    encodings["base64url"] = (s) => `id-${Buffer.from(inText(s, 5)).toString("base64url")}`;
    // A run of one letter repeated (a placeholder of x's) decodes to noise alone, never glued to a key.
    for (const letter of ["x", "A", "w"]) {
      encodings[`after-${letter}s`] = (s) => `${letter.repeat(300)}${base64(s)}`;
      encodings[`before-${letter}s`] = (s) => `${base64(inText(s, 3))}${letter.repeat(301)}`;
      encodings[`wrapped-${letter}s`] = (s) => wrapped(`${letter.repeat(152)}${base64(inText(s, 3))}`, 76, "\r\n");
    }
    expectEachFound(casesOf(encodings));
  });
});

/** Bytes of a text in base32 (RFC 4648), in capitals, padded with '=' to whole groups of eight. */
function base32(text: string): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  const bits = [...Buffer.from(text)].map((b) => b.toString(2).padStart(8, "0")).join("");
  const out = (bits.match(/.{1,5}/g) ?? []).map((five) => alphabet[parseInt(five.padEnd(5, "0"), 2)]).join("");
  return out.padEnd(Math.ceil(out.length / 8) * 8, "=");
}

describe("clear scan finds a key written in base32", () => {
  it("in capitals or lower case, padded or not, glued to an id's prefix, a URL's path or letters of its own case, wrapped at 76 as base32(1) wraps it", () => {
    const encodings: Record<string, (s: string) => string> = {
      upper: (s) => base32(s),
      lower: (s) => base32(s).toLowerCase(),
      unpadded: (s) => base32(s).replace(/=+$/, ""),
      text: (s) => base32(inText(s, 17)),
      wrapped: (s) => wrapped(base32(inText(s, 40)), 76, "\n"),
    };
    for (const prefix of ["sess_", "id-", "v1/", "https://example.com/blob/", "ABC", "QWERTYUIOPASDF"]) {
      encodings[`after-${prefix.length}`] = (s) => `${prefix}${base32(s)}`;
    }
    expectEachFound(casesOf(encodings));
  });
});

describe("clear scan reads a run each place it stands", () => {
  it("the same base64 key twice in one string, among the same noise repeated, is found at both places", async () => {
    const rules = loadRules();
    const engine = scanEngine(rules.secrets, homeGrammar(rules.homes), null);
    const key = base64(inText(SECRETS.github.value, 9));
    // Each run stands alone (a line break after a long run would join the next line to it, as MIME wraps).
    const stdout = `${["claude-code_post_tool_use_2_1_261.1.json", "claude-code_post_tool_use_2_1_261.2.json", key, key].join(" ; ")} ;`;
    const r = await scanPass([{ file: "twice.json", text: JSON.stringify({ stdout }) }], engine, makeDisplay(rules, [], null));
    const found = r.findings.filter((f) => SECRETS.github.rules.includes(f.rule));
    expect(found.length).toBe(2);
    expect(new Set(found.map((f) => f.column)).size).toBe(2);
  });
});

describe("clear scan finds a key written as HTML or XML character references", () => {
  it("hexadecimal, decimal, the first letters only, named references around it, and escaped twice", () => {
    expectEachFound(
      casesOf({
        hex: (s) => codes(s).map((c) => `&#x${c.toString(16)};`).join(""),
        decimal: (s) => codes(s).map((c) => `&#${c};`).join(""),
        "first-letters": (s) => `${codes(s.slice(0, 3)).map((c, i) => (i % 2 ? `&#${c};` : `&#X${c.toString(16).padStart(4, "0")};`)).join("")}${s.slice(3)}`,
        named: (s) => `&lt;meta name=&quot;token&quot; content=&quot;${s.replace(/_/g, "&lowbar;").replace(/=/g, "&equals;").replace(/\n/g, "&NewLine;")}&quot;&gt;`,
        "escaped-twice": (s) => `&amp;lt;pre&amp;gt;${codes(s).map((c) => `&amp;#${c};`).join("")}`,
      }),
    );
  });
});

describe("clear scan finds a key written with escapes that are not JSON's", () => {
  it("\\x escapes as a log writes them (\\\\x67 in the raw JSON), \\u escapes doubled, %u escapes, \\u{..} and octal (\\147, as printf writes it)", () => {
    expectEachFound(
      casesOf({
        "backslash-x": (s) => bytesOf(s).map((b) => `\\x${hex2(b)}`).join(""),
        "backslash-x-first": (s) => `${bytesOf(s.slice(0, 5)).map((b) => `\\x${hex2(b).toUpperCase()}`).join("")}${s.slice(5)}`,
        "backslash-u-doubled": (s) => JSON.stringify(codes(s).map((c) => `\\u${c.toString(16).padStart(4, "0")}`).join("")).slice(1, -1),
        "percent-u": (s) => codes(s).map((c) => `%u${c.toString(16).padStart(4, "0").toUpperCase()}`).join(""),
        "braced-u": (s) => codes(s).map((c) => `\\u{${c.toString(16)}}`).join(""),
        "octal": (s) => `printf '${bytesOf(s).map((b) => `\\${b.toString(8).padStart(3, "0")}`).join("")}'`,
      }),
    );
  });
});

describe("clear scan finds a key written as quoted-printable", () => {
  it("every character as =XX, some of them, and a mail's lines of 76 with soft breaks (=\\r\\n) through the key", () => {
    const encodings: Record<string, (s: string) => string> = {
      every: (s) => quotedPrintable(s, () => true),
      some: (s) => quotedPrintable(s, (_ch, i) => i % 3 === 1),
      "split-by-a-soft-break": (s) => `${s.slice(0, 9)}=\n${s.slice(9)}`,
    };
    for (const before of [10, 45, 70]) encodings[`mail-${before}`] = (s) => quotedPrintable(`${prose(before)} ${s} ${prose(90)}`);
    expectEachFound(casesOf(encodings));
  });
});

describe("clear scan finds a key written as hex with separators", () => {
  it("colons, spaces, 0x bytes with commas, dashes, lines of xxd -p, and base64 of the key in a dump", () => {
    const dump = (s: string, separator: string, byte: (b: number) => string = hex2): string => bytesOf(s).map(byte).join(separator);
    expectEachFound(
      casesOf({
        colons: (s) => dump(s, ":"),
        spaces: (s) => dump(s, " ", (b) => hex2(b).toUpperCase()),
        "0x-commas": (s) => `{${dump(s, ",", (b) => `0x${hex2(b)}`)}}`,
        "0x-comma-space": (s) => `[${dump(s, ", ", (b) => `0x${hex2(b).toUpperCase()}`)}]`,
        dashes: (s) => dump(s, "-"),
        "xxd-p": (s) => wrapped(Buffer.from(inText(s, 20)).toString("hex"), 60, "\n"),
        "base64-in-a-dump": (s) => dump(base64(s), " "),
        "base64-in-hex": (s) => Buffer.from(base64(s)).toString("hex"),
      }),
    );
  });
});

describe("clear scan finds a key in a dump whose lines carry an offset and the text beside the digits", () => {
  it("xxd (words of two and four bytes, little-endian, eight bytes a line, upper case), hexdump -C, hexdump, od -x, od -tx1 and od -tx4, behind a comment's mark", () => {
    const text = (s: string): Buffer => Buffer.from(inText(s, 20));
    const octal = (at: number): string => `${at.toString(8).padStart(7, "0")} `;
    const even = (b: Buffer): Buffer => (b.length % 2 === 1 ? Buffer.concat([b, Buffer.alloc(1)]) : b);
    expectEachFound(
      casesOf({
        xxd: (s) => xxd(text(s)),
        "xxd-e": (s) => xxd(text(s), 4, true),
        "xxd-c8-g1-u": (s) => dumped(text(s), { perLine: 8, group: 1, offset: (at) => `${at.toString(16).padStart(8, "0")}: `, width: 25, beside: shown }).replace(/ [0-9a-f]{2}(?= )/g, (b) => b.toUpperCase()),
        "hexdump-C": (s) => hexdumpC(text(s)),
        hexdump: (s) => dumped(even(text(s)), { perLine: 16, group: 2, littleEndian: true, offset: (at) => `${at.toString(16).padStart(7, "0")} ` }),
        "od-x": (s) => od(text(s)),
        "od-tx1": (s) => dumped(text(s), { perLine: 16, group: 1, offset: octal }),
        "od-tx4": (s) => dumped(text(s), { perLine: 16, group: 4, littleEndian: true, offset: octal }),
        "xxd-commented": (s) => xxd(text(s)).replace(/^(?=.)/gm, "// "),
      }),
    );
  });
});

/** Bytes as od -c (octal offsets) and hexdump -c (hex offsets) print them: cells four columns wide, C escapes, other bytes in octal. */
function charDump(bytes: Buffer, radix: 8 | 16): string {
  const escapes: Record<number, string> = { 0: "\\0", 7: "\\a", 8: "\\b", 9: "\\t", 10: "\\n", 11: "\\v", 12: "\\f", 13: "\\r" };
  const cell = (b: number): string => (escapes[b] ?? (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : b.toString(8).padStart(3, "0"))).padStart(4);
  const lines: string[] = [];
  for (let at = 0; at < bytes.length; at += 16) lines.push(`${at.toString(radix).padStart(7, "0")}${[...bytes.subarray(at, at + 16)].map(cell).join("")}`);
  return `${[...lines, bytes.length.toString(radix).padStart(7, "0")].join("\n")}\n`;
}

describe("clear scan finds a key as a terminal, a viewer or a tool changed it in printing", () => {
  it("colours inside it (grep --color, written out as a log writes ESC, the one-unit CSI), a hyperlink around part of it, invisible characters in it, UTF-16 read as single bytes, percent-encoding two and three times, lines folded at a width, a byte list printed as JSON, od -c and hexdump -c", () => {
    const ESC = "\x1b";
    const cut = (s: string, between: string, end = ""): string => `${s.slice(0, 6)}${between}${s.slice(6)}${end}`;
    const fold = (text: string, width: number): string => text.split("\n").map((line) => (line.match(new RegExp(`.{1,${width}}`, "g")) ?? [""]).join("\n")).join("\n");
    expectEachFound(
      casesOf({
        "grep-color": (s) => `config: ${ESC}[01;31m${ESC}[K${cut(s, `${ESC}[m${ESC}[K`)}`,
        "escape-written-out": (s) => `GH=${cut(s, "\\x1b[1m", "\\033[0m")}`,
        "c1-csi": (s) => cut(s, "\u009b31m", "\u009b0m"),
        hyperlink: (s) => cut(s, `${ESC}]8;;https://example.com/docs${ESC}\\`, `${ESC}]8;;${ESC}\\`),
        "zero-width": (s) => cut(s, "\u200b\u200d"),
        "soft-hyphen": (s) => cut(s, "\u00ad"),
        "utf16-as-bytes": (s) => Buffer.from(inText(s, 10), "utf16le").toString("latin1"),
        "percent-twice": (s) => `https://mcp.example.com/connect/${encodeURIComponent(encodeURIComponent(s))}`,
        "percent-thrice": (s) => `https://example.com/?next=${encodeURIComponent(encodeURIComponent(encodeURIComponent(s)))}`,
        "folded-80": (s) => fold(`${"x".repeat(75)} ${s}\nexit status 0`, 80),
        "folded-crlf": (s) => fold(`${prose(70)} ${s} done`, 76).replace(/\n/g, "\r\n"),
        "byte-list-as-json": (s) => `[${bytesOf(s).join(", ")}]`,
        "od-c": (s) => charDump(Buffer.from(inText(s, 12)), 8),
        "hexdump-c": (s) => charDump(Buffer.from(`clé ${s}\n`), 16),
      }),
    );
  });
});

describe("clear scan finds a key with what shows nothing inside it", () => {
  it("every control but a tab and line breaks, and every default-ignorable character (direction overrides and isolates, variation selectors, tags, fillers, joiners), as it stands, as a character reference and percent-encoded", () => {
    const cut = (s: string, between: string): string => `${s.slice(0, 6)}${between}${s.slice(6)}`;
    const codePoints = [0x202e, 0x2066, 0x2069, 0xfe0f, 0xfe00, 0xe0041, 0xe007f, 0xe0100, 0x034f, 0x061c, 0x3164, 0x115f, 0xffa0, 0x180b, 0x180e, 0x1d173, 0x0085, 0x0007, 0x001f, 0x007f];
    const encodings: Record<string, (s: string) => string> = {};
    for (const cp of codePoints) {
      const ch = String.fromCodePoint(cp);
      encodings[`u${cp.toString(16)}`] = (s) => cut(s, ch);
      encodings[`u${cp.toString(16)}-twice`] = (s) => cut(s, ch + ch);
    }
    encodings["reference-u202e"] = (s) => cut(s, "&#x202E;");
    // A line end and what shows nothing beside it.
    for (const [name, cutBy] of Object.entries({ "lf-zwsp": "\n\u200b", "crlf-wj": "\r\n\u2060", "zwsp-crlf-zwsp": "\u200b\r\n\u200b", "lf-named": "\n&zwj;" })) encodings[`line-${name}`] = (s) => cut(s, cutBy);
    // HTML's names for what shows nothing.
    for (const name of ["zwj", "zwnj", "shy", "lrm", "rlm"]) encodings[`named-${name}`] = (s) => cut(s, `&${name};`);
    encodings["percent-tag"] = (s) => `https://example.com/x/${cut(s, encodeURIComponent(String.fromCodePoint(0xe0041)))}`;
    expectEachFound(casesOf(encodings));
  });
});

describe("clear scan finds a key in letters that show as ASCII ones", () => {
  it("full-width, in mathematics' styles, with Cyrillic or Greek look-alikes, with a Unicode dash, or those and a zero-width space", () => {
    const styled = (first: number, lower: number, digits: number | null) => (s: string): string =>
      [...s].map((ch) => (/[A-Z]/.test(ch) ? String.fromCodePoint(first + ch.charCodeAt(0) - 65) : /[a-z]/.test(ch) ? String.fromCodePoint(lower + ch.charCodeAt(0) - 97) : /[0-9]/.test(ch) && digits !== null ? String.fromCodePoint(digits + ch.charCodeAt(0) - 48) : ch)).join("");
    const lookAlike: Record<string, string> = { a: "\u0430", e: "\u0435", o: "\u043e", p: "\u0440", c: "\u0441", A: "\u0391", K: "\u039a", T: "\u03a4" };
    expectEachFound(
      casesOf({
        "full-width": (s) => [...s].map((ch) => (ch > " " && ch <= "~" ? String.fromCharCode(ch.charCodeAt(0) + 0xfee0) : ch)).join(""),
        "math-sans": styled(0x1d5a0, 0x1d5ba, 0x1d7e2),
        "math-bold": styled(0x1d400, 0x1d41a, 0x1d7ce),
        "look-alike": (s) => [...s].map((ch) => lookAlike[ch] ?? ch).join(""),
        "long-dash-and-double-low-line": (s) => s.replace(/-/g, "\u2e3a").replace(/_/g, "\u2017"),
        "heavy-minus-and-modifier-macron": (s) => s.replace(/-/g, "\u2796").replace(/_/g, "\u02cd"),
        "dash-and-zwsp": (s) => s.replace(/-/g, "\u2010").replace(/_/g, "\uff3f").slice(0, 8) + "\u200b" + s.replace(/-/g, "\u2010").replace(/_/g, "\uff3f").slice(8),
      }),
    );
  });

  it("spelt out character by character, a blank or two between each two (a key block's own blanks aside)", () => {
    expectEachFound(casesOf({ "spaced-out": (s) => `/srv/keys/${[...s].join(" ")}/x`, "spaced-twice": (s) => [...s].join("  ") }).filter((c) => !/\s/.test(SECRETS[c.secret].value)));
  });

  it("spelt out between other blanks (an em or ideographic space, three spaces, tabs, a braille blank), glued to a letter at either end, full-width, or percent-encoded", () => {
    const fullWidth = (s: string): string => [...s].map((ch) => String.fromCharCode(ch.charCodeAt(0) + 0xfee0)).join("");
    // Slack's rule finds its token only where it stands apart, as written plainly: a glued one is not its.
    expectEachFound(
      casesOf({
        "em-space": (s) => `/srv/keys/${[...s].join("\u2003")}/x`,
        "ideographic-space": (s) => [...s].join("\u3000"),
        "three-spaces": (s) => [...s].join("   "),
        "tabs": (s) => [...s].join("\t\t"),
        "braille-blank": (s) => [...s].join("\u2800"),
        "glued-before": (s) => `x${[...s].join(" ")}`,
        "glued-after": (s) => `${[...s].join(" ")}x`,
        "full-width-spaced": (s) => [...fullWidth(s)].join(" "),
        "percent-spaced": (s) => `/srv/keys/${[...s].map(encodeURIComponent).join("%20")}/x`,
        "percent-full-width": (s) => `/srv/keys/${encodeURIComponent(fullWidth(s))}/x`,
        "parenthesized": (s) => [...s].map((ch) => (/[a-z]/.test(ch) ? String.fromCodePoint(0x249c + ch.charCodeAt(0) - 97) : ch)).join(""),
      }).filter((c) => !/\s/.test(SECRETS[c.secret].value) && !(c.file.startsWith("glued") && c.secret === "slack")),
    );
  });
});

describe("clear scan finds a key a line end breaks", () => {
  it("every shape the scan knows, broken once by \\n, \\r\\n, \\r, U+2028 or an escaped \\n at its start, middle or end, in a path and in a tool's output; a GitHub token at every place", () => {
    const rules = loadRules();
    const values: [string, string][] = [
      ...rules.secrets.rules.filter((rule) => rule.target !== "raw").map((rule): [string, string] => [rule.id, join(rule.match[0]!)]),
      ...Object.entries(rules.secrets.preset).filter(([id]) => !id.endsWith("gcp")).map(([id, examples]): [string, string] => [id, join(examples.match[0]!)]),
    ];
    const lineEnds = ["\n", "\r\n", "\r", "\u2028", "\\n"];
    const breaks = (value: string, at: number, lineEnd: string): string | null => (/\S/.test(value[at - 1] ?? " ") && /\S/.test(value[at] ?? " ") ? `${value.slice(0, at)}${lineEnd}${value.slice(at)}` : null);
    const dir = tempDir("clear-line-ends-");
    const files: string[] = [];
    const write = (broken: string | null, n: number): void => {
      if (broken === null) return;
      const file = `b${files.length}.json`;
      writeFileSync(path.join(dir, file), JSON.stringify(n % 2 === 0 ? { cwd: `/work/${broken}` } : { tool_response: { stdout: `token: ${broken}\nexit 0` } }));
      files.push(file);
    };
    values.forEach(([, value], i) => {
      [3, Math.floor(value.length / 2), value.length - 3].forEach((at, k) => write(breaks(value, at, lineEnds[(i + k) % lineEnds.length] as string), i + k));
    });
    const github = (values.find(([id]) => id === "clear/github-token") as [string, string])[1];
    for (let at = 1; at < github.length; at++) lineEnds.forEach((lineEnd, k) => write(breaks(github, at, lineEnd), at + k));
    const r = clearJson(["scan", dir, "--root", dir]);
    const findings = r.json.findings as ScanFinding[];
    expect(files.length).toBeGreaterThan(250);
    expect(files.filter((file) => !findings.some((f) => f.file === file))).toEqual([]);
  });
});

describe("clear scan finds a key split over string literals that code joins", () => {
  it("every shape the scan knows, split at its start, middle or end into literals joined by +, ., .., ||, &, <<, .concat(), .append(), .plus(), +=, .=, a name's `t = t +` or `t <<` in the next statement, a list's comma, a template's ${}, or nothing (adjacent literals, a shell's \"a\"'b', $'a'$'b' and a quote inside a word), literals with a prefix (r\"…\", b\"…\", @\"…\", u8\"…\", R\"(…)\") or curly quotes, over a line end (VB's `& _`, PowerShell's backtick), a non-breaking space and comments (a doc comment too)", () => {
    const rules = loadRules();
    const values: string[] = [
      ...rules.secrets.rules.filter((rule) => rule.target !== "raw").map((rule) => join(rule.match[0]!)),
      ...Object.entries(rules.secrets.preset).filter(([id]) => !id.endsWith("gcp")).map(([, examples]) => join(examples.match[0]!)),
    ].filter((value) => !/["'`\n]/.test(value));
    const joins: ((a: string, b: string) => string)[] = [
      (a, b) => `const token = "${a}" + "${b}";`,
      (a, b) => `token = ('${a}'\n         '${b}')`,
      (a, b) => `$token = '${a}' . '${b}';`,
      (a, b) => `local token = "${a}" .. "${b}"`,
      (a, b) => `SELECT '${a}' || '${b}';`,
      (a, b) => `token = "${a}" & "${b}"`,
      (a, b) => `token = ["${a}", "${b}"].join("")`,
      (a, b) => `export TOKEN="${a}"'${b}'`,
      (a, b) => `String token = \`${a}\` +\n    \`${b}\`;`,
      (a, b) => `export TOKEN="${a}"\\\n"${b}"`,
      (a, b) => `export TOKEN=${a}"${b}"`,
      (a, b) => `TOKEN=$'${a}'$'${b}'`,
      (a, b) => `const token = \`${a}\${"${b}"}\`;`,
      (a, b) => `token = "${a}";\ntoken += "${b}";`,
      (a, b) => `token = "${a}" /* the rest */ + "${b}"`,
      (a, b) => `token = ("${a}"  # first part\n         "${b}")`,
      (a, b) => `String token = "${a}".concat("${b}");`,
      (a, b) => `token = "${a}" << "${b}"`,
      (a, b) => `token = (r"${a}" rb'${b}')`,
      (a, b) => `token = b"${a}" + f"${b}"`,
      (a, b) => `var token = @"${a}" + $@"${b}";`,
      (a, b) => `auto token = u8"${a}" L"${b}";`,
      (a, b) => `auto token = u"${a}" U"${b}";`,
      (a, b) => `auto token = R"(${a})" R"(${b})";`,
      (a, b) => `sb.append("${a}")\n  .append("${b}");`,
      (a, b) => `sb.append("${a}");\nsb.append("${b}");`,
      (a, b) => `val token = "${a}".plus("${b}")`,
      (a, b) => `$token = "${a}";\n$token .= "${b}";`,
      (a, b) => `token = "${a}";\ntoken = token + "${b}";`,
      (a, b) => `token << "${a}";\ntoken << "${b}";`,
      (a, b) => `o["token"] = "${a}";\no["token"] += "${b}";`,
      (a, b) => `token = "${a}" /* a * b */ + /**\n * the rest\n */ "${b}"`,
      (a, b) => `token = "${a}" & _\n    "${b}"`,
      (a, b) => `$token = "${a}" + \`\n"${b}"`,
      (a, b) => `token = \u201c${a}\u201d\u00a0+\u00a0\u2018${b}\u2019`,
    ];
    const dir = tempDir("clear-literals-");
    const files: string[] = [];
    values.forEach((value, i) => {
      [3, Math.floor(value.length / 2), value.length - 3].forEach((at, k) => {
        const file = `l${files.length}.json`;
        const write = joins[(i + k) % joins.length] as (a: string, b: string) => string;
        writeFileSync(path.join(dir, file), payloadOf(write(value.slice(0, at), value.slice(at))));
        files.push(file);
      });
    });
    const r = clearJson(["scan", dir, "--root", dir]);
    const findings = r.json.findings as ScanFinding[];
    expect(files.length).toBeGreaterThan(150);
    expect(files.filter((file) => !findings.some((f) => f.file === file && f.pointer === "/tool_response/stdout"))).toEqual([]);
  });

  it("a long source file a tool read, a few of its lines joining literals, is read whole: the joined reading holds those lines, not the file again", async () => {
    // A declaration file's doc comments (an entity, a line ending in =, a \\n, a list's commas):
    // each escape reading of it was joined whole again, and 200 KB of it ran out of its budget.
    const rules = loadRules();
    const engine = scanEngine(rules.secrets, homeGrammar(rules.homes), null);
    const block = [
      " * this &amp; that.",
      " * const encrypted =",
      " *   'e5f79c5915c02171eec6b212d5520d44' +",
      " *   '0d2e7c1b';",
      " * console.log(`done\\n`);",
      "type Cipher = 'aes-128-cbc' | 'aes-192-cbc', 'aes-256-cbc';",
      "function update(data: string, inputEncoding: Encoding, outputEncoding: Encoding): string;",
      "}",
      "}",
      "",
    ].join("\n");
    const half = block.repeat(Math.ceil(100_000 / block.length));
    const key = SECRETS.github.value;
    for (const [content, want] of [
      [`${half}${half}`, []],
      [`${half}const token = "${key.slice(0, 9)}" +\n  "${key.slice(9)}";\n${half}`, ["/tool_response/file/content"]],
    ] as const) {
      const text = JSON.stringify({ session_id: "s-1", hook_event_name: "PostToolUse", tool_name: "Read", tool_response: { file: { content } } });
      const r = await scanPass([{ file: "read.json", text }], engine, makeDisplay(rules, [], null));
      expect(r.findings.filter((f) => f.rule === "clear/escape-depth").map((f) => [f.rule, f.pointer])).toEqual([]);
      expect([...new Set(r.findings.map((f) => f.pointer))]).toEqual(want);
    }
  });
});

describe("clear scan finds a key written as UTF-16 under an encoding", () => {
  it("base64 or hex of UTF-16 in either byte order, with a byte order mark or none, and gzip of it", () => {
    const wide = (s: string, bigEndian: boolean, bom: boolean): Buffer => {
      const body = Buffer.from(s, "utf16le");
      if (bigEndian) body.swap16();
      return bom ? Buffer.concat([Buffer.from(bigEndian ? [0xfe, 0xff] : [0xff, 0xfe]), body]) : body;
    };
    expectEachFound(
      casesOf({
        "base64-utf16le": (s) => wide(s, false, false).toString("base64"),
        "base64-utf16le-bom": (s) => wide(inText(s, 10), false, true).toString("base64"),
        "base64-utf16be": (s) => wide(s, true, false).toString("base64"),
        "hex-utf16le": (s) => wide(inText(s, 4), false, false).toString("hex"),
        "gzip-base64-utf16le": (s) => gzipSync(wide(inText(s, 20), false, true)).toString("base64"),
      }),
    );
  });
});

describe("clear scan finds a key written as decimal numbers", () => {
  it("in a string: String.fromCharCode's code units, a byte list, od -tu1's lines with their offsets", () => {
    const odU1 = (b: Buffer): string => `${(([...b].map((x) => String(x).padStart(4)).join("").match(/.{1,64}/g) ?? []) as string[]).map((l, i) => `${(i * 16).toString(8).padStart(7, "0")}${l}`).join("\n")}\n`;
    expectEachFound(
      casesOf({
        "char-codes": (s) => `String.fromCharCode(${[...s].map((c) => c.charCodeAt(0)).join(", ")})`,
        "byte-list": (s) => `bytes=[${bytesOf(inText(s, 10)).join(",")}]`,
        "od-tu1": (s) => odU1(Buffer.from(inText(s, 20))),
      }),
    );
  });

  it("outside any string, where numbers are kept as the host sent them: a Buffer as JSON.stringify writes it, a byte array, Java's signed bytes; found at the array's pointer", () => {
    const dir = tempDir("clear-numbers-");
    const forms: Record<string, (s: string) => unknown> = {
      buffer: (s) => JSON.parse(JSON.stringify(Buffer.from(s))),
      bytes: (s) => [...Buffer.from(s)],
      signed: (s) => [...Buffer.from(`clé: ${s}`)].map((b) => (b > 127 ? b - 256 : b)),
    };
    const expected = new Map<string, { pointer: string; rules: string[] }>();
    for (const [how, form] of Object.entries(forms)) {
      for (const [name, secret] of Object.entries(SECRETS)) {
        const file = `${how}-${name}.json`;
        writeFileSync(path.join(dir, file), JSON.stringify({ hook_event_name: "PostToolUse", tool_response: { structuredContent: { blob: form(secret.value) }, isError: false } }, null, 2));
        // Member names no rule knows are masked where a pointer is printed.
        expected.set(file, { pointer: `/tool_response/[masked]/[masked]${how === "buffer" ? "/data" : ""}`, rules: secret.rules });
      }
    }
    // Numbers that spell no text are no finding.
    writeFileSync(path.join(dir, "data.json"), JSON.stringify({ points: Array.from({ length: 64 }, (_, i) => (i * 37) % 256), sizes: [1.5, 2.5, 3.5] }));
    const r = clearJson(["scan", dir, "--root", dir]);
    expect(r.code).toBe(1);
    const findings = r.json.findings as ScanFinding[];
    for (const [file, want] of expected) {
      const found = findings.filter((f) => f.file === file);
      expect(found.filter((f) => want.rules.includes(f.rule)).length, file).toBeGreaterThan(0);
      expect(found.map((f) => f.pointer), file).toEqual(found.map(() => want.pointer));
    }
    expect(findings.filter((f) => f.file === "data.json")).toEqual([]);
    for (const secret of Object.values(SECRETS)) expect(JSON.stringify(r.json)).not.toContain(bytesOf(secret.value).slice(4, 14).join(","));
  });
});

describe("clear scan finds a key in compressed bytes", () => {
  it("gzip or zlib, written as base64 or hex, alone or after a prefix", () => {
    expectEachFound(
      casesOf({
        "gzip-base64": (s) => gzipSync(inText(s, 20)).toString("base64"),
        "zlib-base64": (s) => `blob=${deflateSync(inText(s, 40)).toString("base64")}`,
        "gzip-hex": (s) => gzipSync(inText(s, 10)).toString("hex"),
        "gzip-wrapped": (s) => wrapped(gzipSync(inText(s, 60)).toString("base64"), 76, "\r\n"),
      }),
    );
  });

  it("brotli or raw deflate, which no header names, written as base64 or hex", () => {
    expectEachFound(
      casesOf({
        "brotli-base64": (s) => brotliCompressSync(inText(s, 20)).toString("base64"),
        "brotli-hex": (s) => `body=${brotliCompressSync(inText(s, 10)).toString("hex")}`,
        "deflate-raw-base64": (s) => deflateRawSync(inText(s, 30)).toString("base64"),
        "brotli-of-gzip-base64": (s) => brotliCompressSync(gzipSync(inText(s, 5))).toString("base64"),
      }),
    );
  });

  it("gzip or zlib glued after other characters of a base64 or hex run (a path, a word, an id), whatever its offset: each zlib level, a small window, a gzip member with a name", () => {
    const prefixes = ["/home/user/work/", "/srv/app/data/a", "toolu_01AbCd", "cacheblob", "x"];
    const encodings: Record<string, (s: string) => string> = {};
    prefixes.forEach((prefix, i) => {
      encodings[`gzip-after-${i}`] = (s) => `${prefix}${gzipSync(s).toString("base64")}`;
      encodings[`zlib-after-${i}`] = (s) => `${prefix}${deflateSync(inText(s, 10)).toString("base64")}`;
    });
    for (const level of [1, 2, 6, 9]) encodings[`zlib-level-${level}`] = (s) => `/home/user/w/${deflateSync(s, { level }).toString("base64")}`;
    encodings["zlib-window-10"] = (s) => `/var/cache/${deflateSync(inText(s, 5), { windowBits: 10 }).toString("base64")}`;
    encodings["gzip-named"] = (s) => `key=${Buffer.concat([Buffer.from([0x1f, 0x8b, 0x08, 0x08, 0, 0, 0, 0, 0, 0x03]), Buffer.from("token.txt\0"), gzipSync(s).subarray(10)]).toString("base64")}`;
    encodings["gzip-hex-after"] = (s) => `cafe${gzipSync(s).toString("hex")}`;
    encodings["zlib-hex-after"] = (s) => `0xdeadbeef1${deflateSync(s).toString("hex")}`;
    encodings["gzip-after-base64url"] = (s) => `dG9rZW4-${gzipSync(inText(s, 3)).toString("base64url")}`;
    expectEachFound(casesOf(encodings));
  });
});

describe("clear scan finds an encoded key in a file that is not JSON", () => {
  it("base64 alone, glued to a word or wrapped, hex alone or glued, and gzip as base64, in a log, a note and a record's line", () => {
    const encodings: Record<string, (s: string) => string> = {
      base64: (s) => base64(inText(s, 7)),
      "base64-glued": (s) => `toolu_${base64(inText(s, 2))}`,
      "base64-wrapped": (s) => wrapped(base64(inText(s, 30)), 76, "\n"),
      hex: (s) => Buffer.from(inText(s, 4)).toString("hex"),
      "hex-glued": (s) => `toolu_${Buffer.from(s).toString("hex")}`,
      "gzip-base64": (s) => gzipSync(inText(s, 20)).toString("base64"),
    };
    const dir = tempDir("clear-encodings-text-");
    const cases = casesOf(encodings).map((c, i) => ({ ...c, file: c.file.replace(/\.json$/, [".log", ".md", ".txt"][i % 3] as string) }));
    for (const c of cases) writeFileSync(path.join(dir, c.file), `${prose(40)}\n- not paired: its tool_use_id ${c.encoded} (seen once)\n`);
    const r = clearJson(["scan", dir, "--root", dir]);
    expect(r.code).toBe(1);
    const findings = r.json.findings as ScanFinding[];
    expect(cases.filter((c) => !findings.some((f) => f.file === c.file && SECRETS[c.secret].rules.includes(f.rule))).map((c) => c.file)).toEqual([]);
    const printed = JSON.stringify(r.json);
    for (const c of cases) for (const w of windowsOf(SECRETS[c.secret].value.slice(4))) expect(printed.includes(w), `${c.file}: ${w}`).toBe(false);
  });
});

describe("what only looks encoded stays clear", () => {
  const rules = loadRules();
  const engine = scanEngine(rules.secrets, homeGrammar(rules.homes), null);
  const display = makeDisplay(rules, [], null);
  const noise = (length: number, seed: number): Buffer => {
    const rnd = prng(seed);
    return Buffer.from(Array.from({ length }, () => Math.floor(rnd() * 256)));
  };

  it("digests, fingerprints, UUIDs, images in base64 (wrapped or not), a certificate, entities, escapes and mail text", async () => {
    const sha = ["9f86d081884c7d659a2feaa0c55ad015", "a3bf4f1b2b0b822cd15d6c15b0f00a08"].join("");
    const payload = {
      sha256: sha,
      fingerprint: (sha.match(/../g) ?? []).join(":").toUpperCase(),
      spaced: (sha.match(/../g) ?? []).join(" "),
      uuid: "1b4e28ba-2fa1-11d2-883f-0016d3cca427",
      mac: "00:1a:2b:3c:4d:5e",
      image: noise(3000, 1).toString("base64"),
      mime: wrapped(noise(3000, 2).toString("base64"), 76, "\r\n"),
      glued: `img${noise(400, 3).toString("base64")}`,
      certificate: `-----BEGIN CERTIFICATE-----\n${wrapped(noise(600, 4).toString("base64"), 64, "\n")}\n-----END CERTIFICATE-----`,
      html: "&lt;p&gt;Tom &amp; Jerry&#39;s &quot;cafe&quot; &#x263A; &copy; 2024&lt;/p&gt;",
      log: "\\x1b[32mPASS\\x1b[0m C:\\tools\\x64\\build \\u00e9t\\u00e9 %u00e9",
      cwd: "C:\\Users\\user\\x64\\proj",
      said: "\\x68\\x69 from C:\\Users\\user\\x64\\proj",
      octal: "\\033[1m\\101\\102 done\\033[0m in C:\\build\\123\\456",
      mail: quotedPrintable(`${prose(200)} caf\u00e9 = 3 + 4, r\u00e9sum\u00e9 ${prose(120)}`),
      dump: (noise(64, 5).toString("hex").match(/../g) ?? []).map((b) => `0x${b}`).join(", "),
      xxd: xxd(noise(512, 9)),
      hexdumpC: hexdumpC(noise(512, 10)),
      dates: "2024-01-15 10:30:45 12 34 56 78 90 ab cd ef",
      gzipped: gzipSync(prose(200)).toString("base64"),
      gzippedNoise: gzipSync(noise(2000, 8)).toString("base64"),
    };
    const r = await scanPass([{ file: "noise.json", text: JSON.stringify(payload, null, 2) }], engine, display);
    expect(r.findings).toEqual([]);
  });

  // How long it takes is the bench's to say (bench/scan.mjs); here, that it is read whole and found clear.
  it("a megabyte of base64 wrapped at 76, and of hex dumped with spaces, is read whole and found clear", async () => {
    const text = JSON.stringify({
      mime: wrapped(noise(750_000, 6).toString("base64"), 76, "\r\n"),
      dump: (noise(300_000, 7).toString("hex").match(/../g) ?? []).join(" "),
    });
    const r = await scanPass([{ file: "big.json", text }], engine, display);
    expect(r.findings).toEqual([]);
  });
});

/** A string built to multiply its readings: every escape reading copies the text, every copy decodes each run again, and what a run decodes to holds more of both. */
function manyReadings(): string {
  const escapes = "&amp; %41%42 \\x41\\x42 =41=42";
  const inner = base64(`inner ${escapes} words ${base64("deepest words of text here")}`);
  const unit = base64(`${escapes} ${inner} ${escapes} ${inner}`);
  return Array.from({ length: 400 }, () => unit).join(` ${escapes} `);
}

describe("the work of reading encodings is bounded", () => {
  it("a string built to multiply its readings is read within its budget and is a finding saying it cannot be read whole", async () => {
    const rules = loadRules();
    const engine = scanEngine(rules.secrets, homeGrammar(rules.homes), null);
    const text = JSON.stringify({ tool_response: manyReadings() });
    const r = await scanPass([{ file: "many.json", text }], engine, makeDisplay(rules, [], null));
    expect(r.findings.map((f) => [f.rule, f.pointer, f.line, f.column])).toEqual([["clear/escape-depth", "/tool_response", 1, 18]]);
  });

  it("a line that begins as a dump of characters and runs on in blanks is read once, not split every way (a megabyte took minutes)", async () => {
    const rules = loadRules();
    const engine = scanEngine(rules.secrets, homeGrammar(rules.homes), null);
    const text = JSON.stringify({ tool_response: { stdout: `0000000   a   b   c   d\n0000020${" ".repeat(1_000_000)}X` } });
    const started = performance.now();
    const r = await scanPass([{ file: "blanks.json", text }], engine, makeDisplay(rules, [], null));
    // A guard against a search that never ends, not a speed target: it takes well under a second.
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(r.findings).toEqual([]);
  });

  it("comment lines that each end in a quote are read for a join a few lines on from each quote, not to the last (a few hundred kilobytes of them took minutes)", async () => {
    const rules = loadRules();
    const engine = scanEngine(rules.secrets, homeGrammar(rules.homes), null);
    // From each quote, a join of literals with comments between reads on over every comment line after it.
    const stdout = (comment: string): string => `${comment}'\n`.repeat(Math.floor(200_000 / (comment.length + 2)));
    const text = JSON.stringify({ tool_response: { hash: stdout("#"), slashes: stdout("//"), dashes: stdout("--") } });
    // Read to the last comment from each quote, this text took minutes, past the test's limit; read a few lines on, well under a second.
    const r = await scanPass([{ file: "comments.json", text }], engine, makeDisplay(rules, [], null));
    expect(r.findings).toEqual([]);
  });

  it("tens of thousands of arrays of numbers that spell text are each placed once, not searched for among every value (it took minutes)", async () => {
    const rules = loadRules();
    const engine = scanEngine(rules.secrets, homeGrammar(rules.homes), null);
    const bytes = [...Buffer.from("plain notes here")];
    const text = JSON.stringify(Object.fromEntries(Array.from({ length: 40_000 }, (_, i) => [`k${i}`, bytes])));
    const started = Date.now();
    const r = await scanPass([{ file: "arrays.json", text }], engine, makeDisplay(rules, [], null));
    expect(r.findings).toEqual([]);
    // A guard against a search that never ends, not a speed target (that is the bench's).
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});

describe("a text that comes again in another file is read as it was the first time", () => {
  it("a key it spells is found in every file, and so is a budget it runs out of", async () => {
    const rules = loadRules();
    const engine = scanEngine(rules.secrets, homeGrammar(rules.homes), null);
    const many = manyReadings();
    const id = "5f3c9a1e-77aa-4b1c-9e2d-0c8f1b2a3d4e";
    const files = ["first", "again", "once more"].map((name) => ({ file: `${name}.json`, text: JSON.stringify({ session_id: id, note: base64(inText(SECRETS.github.value)), tool_response: many }) }));
    const r = await scanPass(files, engine, makeDisplay(rules, [], null));
    for (const f of files) {
      const found = r.findings.filter((x) => x.file === f.file);
      expect(found.map((x) => x.rule), f.file).toEqual(expect.arrayContaining([expect.stringMatching(/github/)]));
      expect(found.filter((x) => x.rule === "clear/escape-depth").map((x) => x.pointer), f.file).toEqual(["/tool_response"]);
    }
  });
});
