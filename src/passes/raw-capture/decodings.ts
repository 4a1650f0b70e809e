import { inflatedThrough, isZip, readsAsText as isText, sealedKind } from "../../compressed.js";
import { bothCases, tailsOf } from "./base64-tails.js";
import { pushAll } from "../../collections.js";
import { inputOffset, type DecodedLevel } from "../../json/escapes.js";
import { byteLists, listBytes } from "../../byte-lists.js";
import { hexDumps } from "../../hex-dumps.js";
import { utf16Readings } from "./wide-text.js";

// What a text says once one way of writing it is undone: HTML or XML entities (the tags around
// them taken out, their attribute values kept), one level of backslash escapes (JSON escaped twice, three times ... in plain
// text), percent-encoding (a URL's query, a form's body), Markdown's quoting (blockquote markers,
// a table cell's \| and <br>), base64 runs (wrapped over lines or not), and hex as a person or a
// tool dumps bytes. Each is a reading of its own, with a way back to the raw offsets; the payload
// check reads each as it reads the text.

/** A text to search, with the offset in the file each of its offsets comes from, and how it was decoded. */
export interface Reading {
  text: string;
  rawAt(i: number): number | null;
  /** The decodings undone to get here, the outermost first. */
  decodings: string[];
}

export interface Edit {
  start: number;
  end: number;
  with: string;
}

/** The text with each edit made (edits in order, not overlapping), and where its pieces came from; null when there is none. */
export function applyEdits(text: string, edits: Edit[]): DecodedLevel | null {
  if (edits.length === 0) return null;
  const parts: string[] = [];
  const breaksAt = [0];
  const rawStarts = [0];
  let length = 0;
  let from = 0;
  for (const e of edits) {
    parts.push(text.slice(from, e.start), e.with);
    length += e.start - from + e.with.length;
    from = e.end;
    breaksAt.push(length);
    rawStarts.push(from);
  }
  parts.push(text.slice(from));
  return { decoded: parts.join(""), breaksAt, rawStarts };
}

export function derived(from: Reading, level: DecodedLevel | null, how: string): Reading | null {
  if (level === null || level.decoded === from.text) return null;
  return { text: level.decoded, rawAt: (i) => from.rawAt(inputOffset(level, i)), decodings: [...from.decodings, how] };
}

const ENTITIES: Record<string, string> = {
  quot: '"', apos: "'", amp: "&", lt: "<", gt: ">", nbsp: " ", lbrace: "{", lcub: "{", rbrace: "}", rcub: "}",
  lsqb: "[", lbrack: "[", rsqb: "]", rbrack: "]", colon: ":", comma: ",", lowbar: "_", UnderBar: "_", period: ".",
  sol: "/", bsol: "\\", num: "#", excl: "!", percnt: "%", plus: "+", equals: "=", Tab: "\t", NewLine: "\n",
  quest: "?", ast: "*", semi: ";", vert: "|", verbar: "|", grave: "`", dollar: "$", lpar: "(", rpar: ")",
};
const ENTITY_OR_TAG = /&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,15});|&(quot|amp|lt|gt)(?![A-Za-z0-9;])|<\/?[A-Za-z][^<>]*>/g;
/**
 * Any character reference (or one escaped again: &amp;quot;): a quote or a brace written so, and as
 * well a line break, a colon or a name's underscore (YAML's `hook&#95;event&#95;name: ...`).
 */
const ESCAPED_OPENING = /&(?:amp;)*(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,15});/;

function entityText(name: string): string | null {
  if (name.startsWith("#")) {
    const code = name[1] === "x" || name[1] === "X" ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : null;
  }
  return ENTITIES[name] ?? null;
}

/** What a tag says besides markup: its attribute values that could hold JSON (an XML attribute may), one a line; a class name is markup. */
function attributeValues(tag: string): string {
  const values = [...tag.matchAll(/=\s*(?:"([^"]*)"|'([^']*)')/g)].map((m) => (m[1] ?? m[2]) as string);
  return values.filter((v) => /[{[&]/.test(v)).join("\n");
}

/** Entities undone and tags taken out: JSON in an HTML page or an XML attribute. */
export function htmlDecoded(r: Reading): Reading | null {
  if (!ESCAPED_OPENING.test(r.text)) return null;
  const edits: Edit[] = [];
  for (const m of r.text.matchAll(ENTITY_OR_TAG)) {
    const name = m[1] ?? m[2];
    const replacement = name === undefined ? attributeValues(m[0]) : entityText(name);
    if (replacement !== null) edits.push({ start: m.index, end: m.index + m[0].length, with: replacement });
  }
  return derived(r, applyEdits(r.text, edits), "HTML-escaped");
}

const SIMPLE_ESCAPES: Record<string, string> = { '"': '"', "'": "'", "\\": "\\", "/": "/", n: "\n", r: "\r", t: "\t", b: "\b", f: "\f" };
/** A quote escaped where JSON or a literal opens a string: {\"a\":, [\\\"a ... */
const ESCAPED_QUOTE = /[{[,:]\s*\\+["']/;
/** A character written as an escape of its code (\u007b, \u{7b}, \U0000007B, \x7b, octal \173), for each of the codes given in hex. */
const codeEscapeOf = (...codes: string[]): string => {
  const hex = codes.map((c) => c.replace(/[a-f]/g, (l) => `[${l}${l.toUpperCase()}]`)).join("|");
  const octal = codes.map((c) => Number.parseInt(c, 16).toString(8).padStart(3, "0")).join("|");
  return String.raw`\\(?:u00(?:${hex})|u\{0*(?:${hex})\}|U0{6}(?:${hex})|x(?:${hex})|(?:${octal}))`;
};
/** A brace or a bracket written as an escape of its code, then a quote as it is (bracesUnescaped). */
const codedBrace = `${codeEscapeOf("7b", "5b")}\\s*["']`;
/** A quote written as an escape of its code where JSON or a literal opens a string: after a brace, a bracket, a comma or a colon, each as it is or written as an escape too (printf's \173\042, \u007b\u0022); or a brace written so before a quote as it is. */
const ESCAPED_OPENER = new RegExp(`(?:[{[,:]|${codeEscapeOf("7b", "5b", "2c", "3a")})\\s*${codeEscapeOf("22", "27")}|${codedBrace}`);
/** The escapes of a character by its code, and the base of their digits: \uXXXX, \u{X...}, \UXXXXXXXX, \xXX, and three octal digits. */
const CODE_ESCAPE = /^(?:u([0-9a-fA-F]{4})|u\{([0-9a-fA-F]{1,6})\}|U([0-9a-fA-F]{8})|x([0-9a-fA-F]{2})|([0-3][0-7]{2}))/;

/** The character an escape by code after a backslash spells, and its length; null where none stands there or the code is no character. */
function codeEscape(text: string, after: number): { with: string; length: number } | null {
  const m = CODE_ESCAPE.exec(text.slice(after, after + 10));
  if (m === null) return null;
  const [digits, base] = m[5] !== undefined ? [m[5], 8] : [(m[1] ?? m[2] ?? m[3] ?? m[4]) as string, 16];
  const code = Number.parseInt(digits, base);
  if (code > 0x10ffff) return null;
  // \u escapes of a surrogate pair are two escapes, each its own code unit, joined again in the text.
  return { with: m[1] !== undefined ? String.fromCharCode(code) : String.fromCodePoint(code), length: m[0].length };
}

/** A brace or a bracket written as an escape of its code, a quote after it as it is: where JSON opens, its structure escaped. */
const CODED_BRACE = new RegExp(codedBrace);
const BRACES = new Set(["{", "}", "[", "]"]);

/**
 * Only the braces and brackets written by their code undone: JSON whose structure a writer escaped
 * and whose strings keep JSON's own escapes (a brace by its code, then a name in
 * quotes, a string with an escaped quote in it), which one level of every escape undone would break.
 */
export function bracesUnescaped(r: Reading): Reading | null {
  const text = r.text;
  if (!CODED_BRACE.test(text)) return null;
  const edits: Edit[] = [];
  for (let at = text.indexOf("\\"); at !== -1; at = text.indexOf("\\", at + 1)) {
    if (text[at + 1] === "\\") {
      at++;
      continue;
    }
    const coded = codeEscape(text, at + 1);
    if (coded !== null && BRACES.has(coded.with)) edits.push({ start: at, end: at + 1 + coded.length, with: coded.with });
  }
  return derived(r, applyEdits(text, edits), "braces escaped");
}

/** One level of backslash escapes undone (JSON's, \' and escapes of a character by its code), in text that is not itself a string. */
export function unescaped(r: Reading): Reading | null {
  const text = r.text;
  if (!ESCAPED_QUOTE.test(text) && !ESCAPED_OPENER.test(text)) return null;
  const edits: Edit[] = [];
  for (let at = text.indexOf("\\"); at !== -1; at = text.indexOf("\\", at)) {
    const e = text[at + 1] ?? "";
    const coded = codeEscape(text, at + 1);
    if (coded !== null) {
      edits.push({ start: at, end: at + 1 + coded.length, with: coded.with });
      at += 1 + coded.length;
    } else if (SIMPLE_ESCAPES[e] !== undefined) {
      edits.push({ start: at, end: at + 2, with: SIMPLE_ESCAPES[e] });
      at += 2;
    } else at += 1;
  }
  return derived(r, applyEdits(text, edits), "backslash-escaped");
}

const HEX = (c: number): number => (c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x41 && c <= 0x46 ? c - 0x37 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1);
const isWhite = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/** Percent-encoding undone in each word that holds a %XX (a '+' there is a space, as a form writes it); UTF-8 sequences read whole. */
export function percentDecoded(r: Reading): Reading | null {
  const text = r.text;
  // A quote or a brace written so, and as well a line break, a colon or an equals sign (YAML and TOML written into a URL).
  if (!/%(?:25)*(?:7[Bb]|22|27|0[AaDd]|3[AaDd]|5[Ff])/.test(text)) return null;
  const edits: Edit[] = [];
  let word: Edit[] = [];
  let encoded = false;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 0x20;
    if (isWhite(c)) {
      if (encoded) pushAll(edits, word);
      word = [];
      encoded = false;
    } else if (c === 0x2b) word.push({ start: i, end: i + 1, with: " " });
    else if (c === 0x25 && HEX(text.charCodeAt(i + 1)) !== -1 && HEX(text.charCodeAt(i + 2)) !== -1) {
      const bytes: number[] = [];
      let j = i;
      while (text.charCodeAt(j) === 0x25 && HEX(text.charCodeAt(j + 1)) !== -1 && HEX(text.charCodeAt(j + 2)) !== -1) {
        bytes.push(HEX(text.charCodeAt(j + 1)) * 16 + HEX(text.charCodeAt(j + 2)));
        j += 3;
      }
      word.push({ start: i, end: j, with: Buffer.from(bytes).toString("utf8") });
      encoded = true;
      i = j - 1;
    }
  }
  return derived(r, applyEdits(text, edits), "URL-encoded");
}

/** A line that ends in a soft break: quoted-printable (a mail's body) wraps its lines so, mid-word. */
const SOFT_BREAK = /[^\s=]=\r?\n/;
/** A soft break, or a run of bytes written as =XX. */
const QP_PIECE = /=\r?\n|(?:=[0-9A-Fa-f]{2})+/g;

/** Of a text's lines, at least one in this many ends in a soft break where it is quoted-printable: a mail's body wraps each long line so. */
const SOFT_BREAK_SHARE = 4;

/**
 * Quoted-printable undone: soft line breaks joined, =XX bytes read as UTF-8 (=3D an equals sign,
 * =C3=BC a ü). Only where soft breaks end a good share of its lines: a document with a line that
 * happens to end in `=` (an assignment, an option) is no mail.
 */
export function quotedPrintable(r: Reading): Reading | null {
  if (!SOFT_BREAK.test(r.text)) return null;
  const edits: Edit[] = [];
  let soft = 0;
  for (const m of r.text.matchAll(QP_PIECE)) {
    const isSoft = m[0].charCodeAt(1) === 0x0a || m[0].charCodeAt(1) === 0x0d;
    if (isSoft) soft++;
    edits.push({ start: m.index, end: m.index + m[0].length, with: isSoft ? "" : Buffer.from(m[0].replace(/=/g, ""), "hex").toString("utf8") });
  }
  let lines = 1;
  for (let at = r.text.indexOf("\n"); at !== -1; at = r.text.indexOf("\n", at + 1)) lines++;
  return soft * SOFT_BREAK_SHARE >= lines ? derived(r, applyEdits(r.text, edits), "quoted-printable") : null;
}

/** A member name in doubled quotes after a brace, as a CSV cell writes JSON's quotes: {""name"": */
const DOUBLED_QUOTE = /[{,]\s*""[^"\s{,][^"\n{,]{0,200}""\s*:/;
/** A doubled quote; and the quote that opens or closes a cell around JSON (",{" or "}",), which the doubled ones are read inside. */
const DOUBLED = /""|(?<=^|[,;\t])"(?=[{[])|(?<=[}\]])"(?=$|[,;\t\r\n])/gm;

/** A CSV cell's doubled quotes read as one, and the cell's own quotes around JSON taken out: JSON in a spreadsheet's export. */
export function quotesUndoubled(r: Reading): Reading | null {
  if (!DOUBLED_QUOTE.test(r.text)) return null;
  const edits: Edit[] = [];
  for (const m of r.text.matchAll(DOUBLED)) edits.push({ start: m.index, end: m.index + m[0].length, with: m[0].length === 2 ? '"' : " " });
  return derived(r, applyEdits(r.text, edits), "quotes doubled");
}

const MARKDOWN = /^ {0,3}(?:> ?)+|\\\||<br\s*\/?>/gm;

/** Markdown's quoting undone: blockquote markers at line starts, a table cell's escaped '|' and its <br> line breaks. */
export function markdownUnquoted(r: Reading): Reading | null {
  const edits: Edit[] = [];
  for (const m of r.text.matchAll(MARKDOWN)) {
    if (m[0].length === 0) continue;
    edits.push({ start: m.index, end: m.index + m[0].length, with: m[0] === "\\|" ? "|" : m[0].startsWith("<") ? "\n" : "" });
  }
  return derived(r, applyEdits(r.text, edits), "quoted in Markdown");
}

/** A base64 line this long or longer, a multiple of four, may go on at the next line (MIME and base64(1) wrap at 76; base64 -w 24 and wider, as long as a run that starts one). */
const MIN_WRAPPED_LINE = 24;

/** The base64 characters of either alphabet. */
const IS_BASE64 = new Uint8Array(128);
for (const ch of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-") IS_BASE64[ch.charCodeAt(0)] = 1;

/** Where the run of base64 characters from `i` ends. A loop, not a pattern: a run megabytes long would overflow a pattern's backtracking stack. */
function runEnd(text: string, i: number): number {
  let k = i;
  for (let c = text.charCodeAt(k); c < 128 && IS_BASE64[c] === 1; c = text.charCodeAt(++k));
  return k;
}

/**
 * What stands between two pieces of a run: a line break (and the next line's indent), or the end of
 * one string literal and the start of the next (a list of them, `+`, `.`, `..` or `&` joining them,
 * or nothing), as code or JSON holds base64 cut into strings.
 */
const PIECE_BREAK = /\r?\n[ \t]*|["'`][ \t]*(?:,|\+|\.\.?|&)?[ \t]*(?:\r?\n[ \t]*)?["'`]/y;

/** A run's characters from `start` to `end`. */
interface Run {
  start: number;
  end: number;
  body: string;
}

/**
 * A run wrapped over lines or cut into string literals (a full piece, a multiple of four, long
 * enough; a line break or literals' join; the next piece of it): where it ends, and its pieces
 * joined. Where literals parted it, each literal is also a run of its own: a list of strings may
 * hold a payload beside other bytes, which joined to it would read as no text.
 */
function wrapped(text: string, start: number, end: number): { end: number; body: string; literals: Run[] } {
  const pieces: Run[] = [{ start, end, body: text.slice(start, end) }];
  let cutIntoLiterals = false;
  let at = end;
  for (let last = end - start; last >= MIN_WRAPPED_LINE && last % 4 === 0; ) {
    PIECE_BREAK.lastIndex = at;
    if (!PIECE_BREAK.test(text)) break;
    const next = PIECE_BREAK.lastIndex;
    const pieceEnd = runEnd(text, next);
    if (pieceEnd === next) break;
    cutIntoLiterals ||= /["'`]/.test(text.slice(at, next));
    pieces.push({ start: next, end: pieceEnd, body: text.slice(next, pieceEnd) });
    last = pieceEnd - next;
    at = pieceEnd;
  }
  return { end: at, body: pieces.map((p) => p.body).join(""), literals: cutIntoLiterals ? pieces : [] };
}

// The first 24 characters of a run of base64 characters (standard and URL-safe alphabets) at least
// that long, shorter than the smallest payload once encoded, from its first character: the
// look-behind keeps a short run from being tried at each of its characters, so the search is linear.
const BASE64_RUN = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{24}/g;

/** Each run of base64 characters long enough to hold a payload, as its start, end and characters (a wrapped run's lines joined; a run cut into literals, joined and literal by literal). One native search for where runs start. */
export function base64Runs(text: string): Run[] {
  const runs: Run[] = [];
  BASE64_RUN.lastIndex = 0;
  for (let m = BASE64_RUN.exec(text); m !== null; m = BASE64_RUN.exec(text)) {
    const run = wrapped(text, m.index, runEnd(text, m.index + m[0].length));
    BASE64_RUN.lastIndex = run.end;
    if (bothCases(run.body)) runs.push({ start: m.index, end: run.end, body: run.body }, ...tailsOf({ start: m.index, end: run.end, body: run.body }));
    for (const literal of run.literals) if (bothCases(literal.body)) runs.push(literal);
  }
  return runs;
}

/** A character (or byte) text never holds: a control character but a tab and line breaks, or what UTF-8 that is none reads as. */
const isNoise = (c: number): boolean => (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0x7f || c === 0xfffd;

/** A text the payload check cannot read whole (base64 of a stream that inflates past the bound, or is compressed too deep), with why. */
export class CannotRead extends Error {}

/** Bytes fewer than this in a format the check cannot open hold no payload: its smallest, compressed, takes more (a test's magic number is no archive). */
const MIN_SEALED_BYTES = 32;

/**
 * The text bytes an encoding spelt are (`how` says which), a compressed stream's inflated stream by
 * stream, text written as UTF-16 or UTF-32 as what it says; null when they are not text;
 * `unchecked` when the stream cannot be read whole.
 */
export function encodedText(bytes: Buffer, how: string): string | null | { unchecked: string } {
  if (isText(bytes)) return bytes.toString("utf8");
  const sealed = bytes.length < MIN_SEALED_BYTES ? null : (sealedKind(bytes) ?? (isZip(bytes) ? "zip" : null));
  if (sealed !== null) return { unchecked: `${how} there decodes to ${sealed === "zip" ? "a zip archive" : `${sealed}-compressed bytes`}, which the check does not open there` };
  const inner = inflatedThrough(bytes);
  if ("unchecked" in inner) return { unchecked: `${how} there decodes to a stream that ${inner.unchecked.replace(/^it is /, "is ")}` };
  if (isText(inner)) return inner.toString("utf8");
  // Text two or four bytes a character (UTF-16, UTF-32) is read as what it says, each way it may be read.
  const wide = utf16Readings(inner).filter(isText);
  return wide.length > 0 ? wide.map((b) => b.toString("utf8")).join("\n") : null;
}

/** The text a base64 run decodes to (standard or URL-safe alphabet), as `encodedText` reads bytes. */
export function base64Text(body: string): string | null | { unchecked: string } {
  const usable = body.length % 4 === 1 ? body.slice(0, -1) : body;
  return encodedText(Buffer.from(usable.replace(/-/g, "+").replace(/_/g, "/"), "base64"), "base64");
}

/** Each base64 run of a reading that decodes to text, as a reading placed at the run's start; a run that cannot be read whole stops the search. */
export function base64Decoded(r: Reading): Reading[] {
  const out: Reading[] = [];
  for (const run of base64Runs(r.text)) {
    const text = base64Text(run.body);
    if (text !== null && typeof text !== "string") throw new CannotRead(text.unchecked);
    if (text !== null) out.push({ text, rawAt: () => r.rawAt(run.start), decodings: [...r.decodings, "base64"] });
  }
  return out;
}

/** What share of the characters bytes read as text may be ones text never holds: a dump read with a word beside it (a heading's "cafe") is still read. */
const MAX_NOISE = 1 / 16;

/** The characters `isNoise` finds, to replace them. */
const NOISE = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ufffd]/g;

/** Bytes read as text where they are mostly text: what is not (a stray byte, a control character) read as U+FFFD; null where they are not, found as soon as they are not. */
function mostlyText(bytes: Buffer): string | null {
  let controls = 0;
  for (let i = 0; i < bytes.length; i++) if (isNoise(bytes[i] as number) && ++controls > bytes.length * MAX_NOISE) return null;
  const text = bytes.toString("utf8");
  const limit = text.length * MAX_NOISE;
  let noise = 0;
  for (let i = 0; i < text.length; i++) if (isNoise(text.charCodeAt(i)) && ++noise > limit) return null;
  return noise === 0 ? text : text.replace(NOISE, "\ufffd");
}

export type EncodedText = { start: number; text: string | { unchecked: string } };
let lastHex: { text: string; out: EncodedText[] } | null = null;

/** The text each hex dump of a text spells, as `encodedText` reads bytes, or as mostly text; a dump whose stream cannot be read whole gives `unchecked`. */
export function hexTexts(text: string): EncodedText[] {
  // The cheap first look and the whole check ask this of the same text, one after the other.
  if (lastHex !== null && lastHex.text === text) return lastHex.out;
  const out: EncodedText[] = [];
  for (const dump of hexDumps(text)) {
    for (const { bytes } of dump.readings) {
      const read = encodedText(bytes, "hex") ?? mostlyText(bytes);
      if (read !== null) out.push({ start: dump.start, text: read });
    }
  }
  lastHex = { text, out };
  return out;
}

/** Each hex dump of a reading that spells text, as a reading placed at the dump's first line; a dump that cannot be read whole stops the search. */
export function hexDecoded(r: Reading): Reading[] {
  return hexTexts(r.text).map(({ start, text }) => {
    if (typeof text !== "string") throw new CannotRead(text.unchecked);
    return { text, rawAt: () => r.rawAt(start), decodings: [...r.decodings, "hex"] };
  });
}

/** The text each list of decimal numbers in a text spells, as `encodedText` reads bytes; a list whose stream cannot be read whole gives `unchecked`. */
export function byteListTexts(text: string): EncodedText[] {
  const out: EncodedText[] = [];
  for (const list of byteLists(text)) {
    const read = encodedText(list.bytes, "a list of decimal bytes");
    if (read !== null) out.push({ start: list.start, text: read });
  }
  return out;
}

/** The text an array of numbers spells as bytes (a Buffer as JSON.stringify writes it: {"type":"Buffer","data":[123,34,...]}); null where it spells none; a stream that cannot be read whole stops the search. */
export function numbersText(values: unknown[]): string | null {
  if (!values.every(Number.isInteger)) return null;
  const bytes = listBytes(values as number[]);
  const read = bytes === null ? null : encodedText(bytes, "a list of decimal bytes");
  if (read !== null && typeof read !== "string") throw new CannotRead(read.unchecked);
  return read;
}

/** Each list of decimal numbers in a reading that spells text, as a reading placed at the list's start; a list that cannot be read whole stops the search. */
export function byteListDecoded(r: Reading): Reading[] {
  return byteListTexts(r.text).map(({ start, text }) => {
    if (typeof text !== "string") throw new CannotRead(text.unchecked);
    return { text, rawAt: () => r.rawAt(start), decodings: [...r.decodings, "decimal bytes"] };
  });
}

/** The decodings that leave member names as they are, in the one order they are undone in (each may repeat but Markdown's). */
const IN_ORDER: { how: string; decode: (r: Reading) => Reading | null }[] = [
  { how: "quoted in Markdown", decode: markdownUnquoted },
  { how: "quoted-printable", decode: quotedPrintable },
  { how: "HTML-escaped", decode: htmlDecoded },
  { how: "URL-encoded", decode: percentDecoded },
  { how: "quotes doubled", decode: quotesUndoubled },
  { how: "braces escaped", decode: bracesUnescaped },
  { how: "backslash-escaped", decode: unescaped },
];

/**
 * Every reading one decoding away from `r`. Entities, escapes, percent-encoding and Markdown's
 * quoting leave member names as they are: they are undone only where `namesShow` (the text holds
 * a signature's every name), and in one order (undone in another, two of them give the same
 * text), Markdown's only first. Base64, hex and decimal bytes hide the names, and what they decode to starts afresh.
 */
export function decodedReadings(r: Reading, namesShow: boolean): Reading[] {
  return [...(namesShow ? escapesUndone(r) : []), ...base64Decoded(r), ...hexDecoded(r), ...byteListDecoded(r)];
}

/** Each reading one decoding away from `r` that leaves member names as they are, in their one order. */
export function escapesUndone(r: Reading): Reading[] {
  const after = IN_ORDER.findIndex((d) => d.how === r.decodings[r.decodings.length - 1]);
  return IN_ORDER.filter((_, i) => (i === 0 ? after === -1 : i >= after))
    .map((d) => d.decode(r))
    .filter((d): d is Reading => d !== null);
}

/**
 * Quotes, braces, line breaks, colons and equals signs that no backslash escapes: a decoding that
 * adds none opens no string, object, YAML mapping or TOML table a reader could not read before.
 */
export function openings(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // A brace that is part of an escape (\u{22}, \x{7b}) opens nothing.
    const inEscape = c === 0x7b && (text.charCodeAt(i - 1) === 0x75 || text.charCodeAt(i - 1) === 0x78) && text.charCodeAt(i - 2) === 0x5c;
    if ((c === 0x22 || c === 0x27 || c === 0x7b || c === 0x0a || c === 0x3a || c === 0x3d) && text.charCodeAt(i - 1) !== 0x5c && !inEscape) n++;
  }
  return n;
}
