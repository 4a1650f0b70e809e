import type { DecodedBytes } from "./byte-text.js";
import { lastAtOrBelow } from "../collections.js";
import { hexDumps } from "../hex-dumps.js";
import { base32Bytes, base32Runs } from "../radix.js";

// Runs of a text that encode bytes, all found in one pass with no regular expression (a run may be
// megabytes long): base64 and base64url, also wrapped over lines as MIME and PEM wrap them and read
// from each of the four offsets a glued prefix may shift it by; hex, from either of its two
// offsets; and hex written as a byte dump (67:68:70, 67 68 70, 0x67, 0x68, lines of xxd -p). A dump
// whose lines carry an offset and the text beside the digits (xxd, hexdump -C, od -tx1) is read by
// the values floor's dump reader (hex-dumps.ts), line after line, each byte kept at its digits.
// Base32 (RFC 4648, either case, glued to a prefix or wrapped over lines) is read as well: an id or
// a URL's path may hold a key in it.

/** Shortest base64 and hex runs read: shorter ones decode to a handful of characters at most. */
const MIN_BASE64 = 8;
const MIN_HEX = 16;
/** Shortest base64 run read from its other offsets too: a prefix glued to the base64 of a key of twenty characters. */
const MIN_SHIFTED_BASE64 = 24;
/** A base64 run goes on past a line break only from a line this long: MIME wraps at 76, PEM at 64. */
const MIN_WRAPPED_LINE = 16;
/** Bytes a dump must spell before it is read. */
const MIN_DUMP_BYTES = 8;

// Character classes, one bit each, looked up in one table: the scans below read every character.
const BASE64 = 1;
const HEX = 2;
const WORD = 4;
const BLANK = 8;
const DUMP_SEPARATOR = 16;
const CLASSES = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  const bits: [number, boolean][] = [
    [BASE64, /[A-Za-z0-9+/_-]/.test(ch)],
    [HEX, /[0-9A-Fa-f]/.test(ch)],
    [WORD, /\w/.test(ch)],
    [BLANK, ch === " " || ch === "\t"],
    // What stands between the bytes of a dump: a space, a tab, a line break, a comma, a colon, a semicolon or a dash.
    [DUMP_SEPARATOR, /[ \t\r\n,:;-]/.test(ch)],
  ];
  for (const [bit, on] of bits) if (on) CLASSES[c] = (CLASSES[c] as number) | bit;
}

/** Whether the character at `at` is of a class (any of the bits of `classes`); past the end, none is. */
function isOf(text: string, at: number, classes: number): boolean {
  if (at >= text.length) return false;
  const c = text.charCodeAt(at);
  return c < 128 && ((CLASSES[c] as number) & classes) !== 0;
}

/** The character code at `at`, or -1 past the end. */
const codeAt = (text: string, at: number): number => (at < text.length ? text.charCodeAt(at) : -1);

/** [start, end) of a text. */
type Span = [number, number];

/** The end of the run of characters of a class from `at`. */
function runEnd(text: string, at: number, classes: number): number {
  let k = at;
  while (k < text.length && isOf(text, k, classes)) k++;
  return k;
}

/** Where the next line starts when a line break (blanks around it allowed) stands at `at`; -1 when none does. */
function nextLineAt(text: string, at: number): number {
  let k = runEnd(text, at, BLANK);
  if (codeAt(text, k) === 0x0d) k++;
  if (codeAt(text, k) !== 0x0a) return -1;
  return runEnd(text, k + 1, BLANK);
}

/** A base64 run: one piece per line where it is wrapped, and its end, padding included. */
interface Base64Run {
  pieces: Span[];
  end: number;
}

/** The runs of a text that may encode bytes. */
interface Runs {
  base64: Base64Run[];
  /** Hex runs at least MIN_HEX long. */
  hex: Span[];
  /** Byte dumps, as the spans of their words' hex digits. */
  dumps: Span[][];
}

/** Collects the byte dumps of a text from its hex runs, in order: two words of hex or more, one to three separators apart. */
class DumpCollector {
  private dump: Span[] = [];
  private bytes = 0;
  private previousEnd = -1;

  constructor(
    private readonly text: string,
    private readonly into: Span[][],
  ) {}

  /** A hex run: one byte of a dump or more where it is a word of its own (6768, 0x67, 0x7). */
  hexRun(start: number, end: number): void {
    const { text } = this;
    if (isOf(text, end, WORD)) return;
    const prefixed = start >= 2 && (text[start - 1] === "x" || text[start - 1] === "X") && text[start - 2] === "0";
    const wordStart = prefixed ? start - 2 : start;
    if (wordStart > 0 && isOf(text, wordStart - 1, WORD)) return;
    const digits = end - start;
    if (digits % 2 === 1 && !(prefixed && digits === 1)) return;
    const gap = wordStart - this.previousEnd;
    const joined = this.previousEnd !== -1 && gap <= 3 && runEnd(text, this.previousEnd, DUMP_SEPARATOR) >= wordStart;
    if (!joined) this.close();
    this.dump.push([start, end]);
    this.bytes += Math.ceil(digits / 2);
    this.previousEnd = end;
  }

  close(): void {
    if (this.dump.length >= 2 && this.bytes >= MIN_DUMP_BYTES) this.into.push(this.dump);
    this.dump = [];
    this.bytes = 0;
  }
}

/** A hex run ends: a run to read where it is long, a dump's byte or more where it is a word of its own. */
function hexRunEnds(start: number, end: number, runs: Runs, dumps: DumpCollector): void {
  if (end - start >= MIN_HEX) runs.hex.push([start, end]);
  dumps.hexRun(start, end);
}

/** Whether a hex run inside a piece may begin a word of its own: no word character before it, or "0x" before it. */
function mayStartWord(text: string, start: number): boolean {
  const before = text.charCodeAt(start - 1);
  return before === 0x78 || before === 0x58 || ((CLASSES[before] as number) & WORD) === 0;
}

/**
 * Reads one line's piece of a base64 run from `at`, noting each hex run in it; returns the piece's
 * end. A short hex run inside a word ("a" of "alpha", "be" of "beta") is neither read nor a dump's byte: it is passed over.
 */
function readPiece(text: string, at: number, runs: Runs, dumps: DumpCollector): number {
  let hexStart = -1;
  let k = at;
  for (; k < text.length; k++) {
    const c = text.charCodeAt(k);
    const classes = c < 128 ? (CLASSES[c] as number) : 0;
    if ((classes & HEX) !== 0) {
      if (hexStart === -1) hexStart = k;
      continue;
    }
    if (hexStart !== -1 && (k - hexStart >= MIN_HEX || ((classes & WORD) === 0 && (hexStart === at || mayStartWord(text, hexStart))))) hexRunEnds(hexStart, k, runs, dumps);
    hexStart = -1;
    if ((classes & BASE64) === 0) break;
  }
  if (hexStart !== -1) hexRunEnds(hexStart, k, runs, dumps);
  return k;
}

/** The end of a base64 run's padding, at most two = after its last piece. */
function paddedEnd(text: string, end: number): number {
  let padded = end;
  while (codeAt(text, padded) === 0x3d && padded - end < 2) padded++;
  return padded;
}

/** Every run of a text that may encode bytes, in one pass: hex and dumps lie inside what base64's alphabet spans. */
function runsOf(text: string): Runs {
  const runs: Runs = { base64: [], hex: [], dumps: [] };
  const dumps = new DumpCollector(text, runs.dumps);
  let pieces: Span[] = [];
  let chars = 0;
  for (let at = 0; at < text.length; ) {
    if (!isOf(text, at, BASE64)) {
      at++;
      continue;
    }
    const end = readPiece(text, at, runs, dumps);
    chars += end - at;
    const next = end - at >= MIN_WRAPPED_LINE ? nextLineAt(text, end) : -1;
    const wrapped = next !== -1 && isOf(text, next, BASE64);
    if (wrapped || chars >= MIN_BASE64) pieces.push([at, end]);
    if (wrapped) {
      at = next;
      continue;
    }
    at = end;
    if (chars >= MIN_BASE64) {
      at = paddedEnd(text, end);
      runs.base64.push({ pieces, end: at });
      pieces = [];
    }
    chars = 0;
  }
  dumps.close();
  return runs;
}

/** Where each piece of a wrapped run starts in the run joined, to map a joined offset back to the text. */
function joinedToText(pieces: Span[]): (c: number) => number {
  const joinedStarts: number[] = [];
  let length = 0;
  for (const [start, end] of pieces) {
    joinedStarts.push(length);
    length += end - start;
  }
  return (c) => {
    const k = lastAtOrBelow(joinedStarts, c);
    return (pieces[k] as Span)[0] + c - (joinedStarts[k] as number);
  };
}

// A run is decoded once from each of its offsets, most of them a few dozen characters: here, rather
// than by Buffer.from, whose every call crosses into the runtime. What either gives is the same
// (tests/scan-decoded.test.ts compares them).

/** Each base64 character's six bits, in either alphabet ("+/" and "-_"); -1 for any other. */
const SEXTET = new Int8Array(128).fill(-1);
"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".split("").forEach((ch, i) => (SEXTET[ch.charCodeAt(0)] = i));
SEXTET[0x2d] = 62;
SEXTET[0x5f] = 63;

const sextet = (text: string, at: number): number => {
  const c = text.charCodeAt(at);
  return c < 128 ? (SEXTET[c] as number) : -1;
};

/** Each hex digit's value; -1 for any other character. */
const NIBBLE = new Int8Array(128).fill(-1);
"0123456789abcdef".split("").forEach((ch, i) => (NIBBLE[ch.charCodeAt(0)] = NIBBLE[ch.toUpperCase().charCodeAt(0)] = i));

const nibble = (text: string, at: number): number => {
  const c = text.charCodeAt(at);
  return c < 128 ? (NIBBLE[c] as number) : -1;
};

/**
 * The bytes text[from, to) spells in base64 of either alphabet, as Buffer.from reads them: a last
 * group of two or three characters spells one or two bytes, a last lone character none. A run holds
 * only the alphabets' characters; were another among them, Buffer.from reads the run.
 */
export function decodeBase64(text: string, from: number, to: number): Buffer {
  const length = to - from;
  const rest = length % 4;
  const bytes = Buffer.allocUnsafe(((length - rest) / 4) * 3 + (rest === 0 ? 0 : rest - 1));
  let o = 0;
  let at = from;
  let stray = 0;
  for (; at + 4 <= to; at += 4) {
    const a = sextet(text, at);
    const b = sextet(text, at + 1);
    const c = sextet(text, at + 2);
    const d = sextet(text, at + 3);
    stray |= a | b | c | d;
    const v = (a << 18) | (b << 12) | (c << 6) | d;
    bytes[o++] = (v >> 16) & 0xff;
    bytes[o++] = (v >> 8) & 0xff;
    bytes[o++] = v & 0xff;
  }
  if (rest >= 2) {
    const a = sextet(text, at);
    const b = sextet(text, at + 1);
    const c = rest === 3 ? sextet(text, at + 2) : 0;
    stray |= a | b | c;
    const v = (a << 18) | (b << 12) | (c << 6);
    bytes[o++] = (v >> 16) & 0xff;
    if (rest === 3) bytes[o++] = (v >> 8) & 0xff;
  }
  if (rest === 1) stray |= sextet(text, to - 1);
  return stray < 0 ? Buffer.from(text.slice(from, to), "base64") : bytes;
}

/** The bytes text[from, to) spells in hex, their count even. A run holds only hex digits; were another among them, Buffer.from reads the run. */
export function decodeHex(text: string, from: number, to: number): Buffer {
  const bytes = Buffer.allocUnsafe((to - from) >> 1);
  let stray = 0;
  for (let at = from, o = 0; at + 1 < to; at += 2) {
    const high = nibble(text, at);
    const low = nibble(text, at + 1);
    stray |= high | low;
    bytes[o++] = (high << 4) | low;
  }
  return stray < 0 ? Buffer.from(text.slice(from, to), "hex") : bytes;
}

/** The bytes of a base64 run of `length` characters read from `shift` characters into it. */
function base64Bytes(text: string, run: Base64Run, length: number, shift: number): DecodedBytes {
  const [first] = run.pieces as [Span];
  const single = run.pieces.length === 1;
  let bytes: Buffer;
  if (single) bytes = decodeBase64(text, first[0] + shift, first[1]);
  else {
    const joined = run.pieces.map((p) => text.slice(p[0], p[1])).join("");
    bytes = decodeBase64(joined, shift, joined.length);
  }
  const textAt = single ? (c: number) => first[0] + c : joinedToText(run.pieces);
  const sourceAt = (j: number): number => (j >= bytes.length ? run.end : textAt(Math.min(length - 1, shift + 4 * Math.floor(j / 3) + (j % 3))));
  return { bytes, sourceAt, group: 3 };
}

/** The bytes of a hex run read from `shift` characters into it, a last odd digit left out. */
function hexBytes(text: string, [start, end]: Span, shift: number): DecodedBytes {
  const from = start + shift;
  const even = end - ((end - from) % 2);
  const bytes = decodeHex(text, from, even);
  return { bytes, sourceAt: (j) => (j >= bytes.length ? end : from + 2 * j), group: 1 };
}

/** A base32 character of either case. */
const BASE32_CHAR = /[A-Za-z2-7]/;
/** Shortest base32 run read: the base32 of a key of twenty characters. */
const MIN_BASE32 = 32;
/** A run of base32 characters of one case on one line, wherever it starts: glued to a prefix (an id's "sess_", a URL's path) too. */
const BASE32_LINE_RUN = new RegExp(`[A-Z2-7]{${MIN_BASE32},}|[a-z2-7]{${MIN_BASE32},}`, "g");

/**
 * Gives `visit` each base32 run of a text, decoded: a run on one line from each of the eight
 * offsets a glued prefix of its own letters may shift it by, and a run wrapped over lines
 * (radix.ts) from its first character. A run of letters alone is a word, not base32.
 */
function forEachBase32Run(text: string, visit: (bytes: DecodedBytes) => Visited): Visited {
  // Found before any is visited: a visit reads what the run spells, and so this search again.
  const lineRuns = [...text.matchAll(BASE32_LINE_RUN)].filter((m) => /[2-7]/.test(m[0]));
  for (const m of lineRuns) {
    for (let shift = 0; shift < 8 && m[0].length - shift >= MIN_BASE32; shift++) {
      const visited = visit(base32Read(text, { start: m.index + shift, body: m[0].slice(shift) }));
      if (visited === "stop") return visited;
      if (visited === "nextRun") break;
    }
  }
  for (const run of base32Runs(text)) {
    const wrapped = text.slice(run.start, run.start + run.body.length) !== run.body;
    if (wrapped && visit(base32Read(text, run)) === "stop") return "stop";
  }
  return "next";
}

/** The bytes of a base32 run (radix.ts), each byte mapped to the character its bits start in (a wrapped run's line breaks stepped over). */
function base32Read(text: string, run: { start: number; body: string }): DecodedBytes {
  const bytes = base32Bytes(run.body);
  const at: number[] = [];
  for (let k = run.start; at.length < run.body.length && k < text.length; k++) if (BASE32_CHAR.test(text.charAt(k))) at.push(k);
  const end = (at[at.length - 1] ?? run.start) + 1;
  return { bytes, sourceAt: (j) => (j >= bytes.length ? end : (at[Math.floor((8 * j) / 5)] ?? end)), group: 5 };
}

/** The bytes of a dump's words, each byte mapped to its digits. */
function dumpBytes(text: string, words: Span[]): DecodedBytes {
  const bytes: number[] = [];
  const starts: number[] = [];
  for (const [digitsAt, end] of words) {
    if (end - digitsAt === 1) {
      bytes.push(parseInt(text[digitsAt] as string, 16));
      starts.push(digitsAt);
    }
    for (let k = digitsAt + ((end - digitsAt) % 2); k < end; k += 2) {
      bytes.push(parseInt(text.slice(k, k + 2), 16));
      starts.push(k);
    }
  }
  const last = words[words.length - 1] as Span;
  return { bytes: Buffer.from(bytes), sourceAt: (j) => (j >= starts.length ? last[1] : (starts[j] as number)), group: 1 };
}

/** Whether a byte is a control character that text never holds (a tab and line breaks are text). */
const isControlByte = (b: number): boolean => (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d) || b === 0x7f;

/** The base64 characters that, repeated, decode to a group of three bytes holding a control character. */
const REPEATS_TO_NOISE = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  if (((CLASSES[c] as number) & BASE64) === 0) continue;
  REPEATS_TO_NOISE[c] = Buffer.from(String.fromCharCode(c).repeat(4), "base64").some(isControlByte) ? 1 : 0;
}

/**
 * Whether a base64 run is one character repeated whose bytes hold a control character: from any
 * offset it decodes to one group of three bytes repeated, so no three bytes in a row are all text
 * and no stretch of it spells anything (a placeholder of x's is one).
 */
function repeatsNoise(text: string, run: Base64Run): boolean {
  const [first] = run.pieces as [Span];
  const code = text.charCodeAt(first[0]);
  if (REPEATS_TO_NOISE[code] !== 1) return false;
  for (const [start, end] of run.pieces) for (let k = start; k < end; k++) if (text.charCodeAt(k) !== code) return false;
  return true;
}

/**
 * What a visit of decoded bytes says: stop, go on, or go on to the next run (these bytes were
 * text whole, so the run read from its other offsets can only be noise).
 */
export type Visited = "stop" | "next" | "nextRun";

/**
 * Gives `visit` every run of a text that encodes bytes, decoded: base64 from each of four
 * offsets, hex from each of two, byte dumps, dumps of lines (each of their readings), and base32.
 */
export function forEachByteRun(text: string, visit: (bytes: DecodedBytes) => Visited): void {
  if (text.length < MIN_BASE64) return;
  const runs = runsOf(text);
  for (const run of runs.base64) {
    if (repeatsNoise(text, run)) continue;
    const length = run.pieces.reduce((n, [start, end]) => n + end - start, 0);
    const shifts = length >= MIN_SHIFTED_BASE64 ? 4 : 1;
    for (let shift = 0; shift < shifts && length - shift >= MIN_BASE64; shift++) {
      const visited = visit(base64Bytes(text, run, length, shift));
      if (visited === "stop") return;
      if (visited === "nextRun") break;
    }
  }
  for (const run of runs.hex) {
    for (let shift = 0; shift < 2 && run[1] - run[0] - shift >= MIN_HEX; shift++) {
      const visited = visit(hexBytes(text, run, shift));
      if (visited === "stop") return;
      if (visited === "nextRun") break;
    }
  }
  for (const dump of runs.dumps) if (visit(dumpBytes(text, dump)) === "stop") return;
  if (forEachBase32Run(text, visit) === "stop") return;
  // A dump of lines is a dump of words in each line: where the text holds none, it holds no dump of lines.
  // Its readings put its bytes in other orders (each word's reversed, offsets left out): one that is text whole says nothing of the next.
  for (const dump of runs.dumps.length === 0 ? [] : hexDumps(text)) {
    for (const { bytes, sources } of dump.readings) {
      const sourceAt = (j: number): number => (j >= bytes.length ? dump.end : (sources()[j] as number));
      if (visit({ bytes, sourceAt, group: 1 }) === "stop") return;
    }
  }
}
