import { PendingBytes, ReadingBuilder, type Reading } from "./reading-builder.js";

// Escapes of one character at a time that are not JSON's, each undone in a reading of its own:
// percent-encoding (%5F, and the non-standard %u005F), HTML and XML character references
// (&#x67;, &#103;, &quot;), backslash escapes as a log or a language's string repr writes them
// (\x67, \u{67}) and quoted-printable (=5F, and soft line breaks). Each reading keeps the rest
// of the text as it stands, with a way back to the raw offsets. Percent-encoding is undone again
// while it still stands (%255F is %5F once undone, and _ twice), and a terminal's control
// sequences (grep --color's around a match, a prompt's colours) are taken out of a reading of
// their own, as the terminal shows the text; so are characters that show nothing, the line
// breaks of lines wrapped at a width, and line ends that break a token wherever they stand.

/** What an escape at an offset spells, and how long it is there. */
interface Escape {
  length: number;
  /** A byte, read as UTF-8 with the bytes escaped right beside it. */
  byte?: number;
  /** A text: "" for a soft line break, which spells nothing. */
  text?: string;
  /** An escape kept as it stands (an escaped backslash), so that what follows it is not read as one. */
  kept?: boolean;
}

type EscapeAt = (text: string, at: number) => Escape | null;

/** What a text held: its escapes undone, and its soft line breaks. */
interface Held {
  escapes: number;
  breaks: number;
}

/** The value of `length` hex digits at `at`, or -1 where any is not one. */
function hexAt(text: string, at: number, length: number): number {
  if (at + length > text.length) return -1;
  let value = 0;
  for (let k = at; k < at + length; k++) {
    const c = text.charCodeAt(k);
    const digit = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x41 && c <= 0x46 ? c - 0x37 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1;
    if (digit === -1) return -1;
    value = value * 16 + digit;
  }
  return value;
}

/** The number of characters from `at` that `accept` takes, at most `max`. */
function spanOf(text: string, at: number, max: number, accept: (c: number) => boolean): number {
  let k = at;
  while (k < text.length && k - at < max && accept(text.charCodeAt(k))) k++;
  return k - at;
}

const isHexDigit = (c: number): boolean => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isNameChar = (c: number): boolean => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);

/** A code point as text; one that is none (a surrogate, past U+10FFFF) as the replacement character. */
function codePointText(cp: number): string {
  return cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ? "\ufffd" : String.fromCodePoint(cp);
}

/** Writes a reading with escapes undone, a row of escapes right after one another at a time. */
class Undoing {
  private readonly out: ReadingBuilder;
  private readonly bytes: PendingBytes;
  readonly held: Held = { escapes: 0, breaks: 0 };
  /** The source offset written up to. */
  private from = 0;
  private row: { at: number; escape: Escape }[] = [];

  /** `minRow`: the fewest escapes in a row that are undone; shorter rows stay as they stand. */
  constructor(
    private readonly source: Reading,
    private readonly minRow: number,
  ) {
    this.out = new ReadingBuilder(source);
    this.bytes = new PendingBytes(this.out);
  }

  /** An escape at `at`: one more in the row when it follows the last one right away, else the first of a new row. */
  escape(at: number, escape: Escape): void {
    const last = this.row[this.row.length - 1];
    if (last && last.at + last.escape.length !== at) this.endRow();
    this.row.push({ at, escape });
  }

  finish(): Reading {
    this.endRow();
    this.bytes.flush();
    this.out.copy(this.from, this.source.text.length);
    return this.out.finish();
  }

  private endRow(): void {
    const { row } = this;
    this.row = [];
    const first = row[0];
    const last = row[row.length - 1];
    if (!first || !last || row.length < this.minRow) return;
    if (first.at > this.from) {
      this.bytes.flush();
      this.out.copy(this.from, first.at);
    }
    for (const { at, escape } of row) this.write(at, escape);
    this.from = last.at + last.escape.length;
  }

  private write(at: number, escape: Escape): void {
    if (escape.text === "") this.held.breaks++;
    else this.held.escapes++;
    if (escape.byte !== undefined) this.bytes.add(escape.byte, at);
    else if (escape.text !== "") {
      this.bytes.flush();
      this.out.put(escape.text as string, at);
    }
  }
}

/**
 * Every escape `escapeAt` reads (it is tried wherever `trigger` stands) undone where at least
 * `minRow` stand in a row, or null when the text holds fewer than `enough` asks for.
 */
function undone(r: Reading, trigger: string, escapeAt: EscapeAt, minRow: number, enough: (held: Held) => boolean): Reading | null {
  const text = r.text;
  let at = text.indexOf(trigger);
  if (at === -1) return null;
  const undoing = new Undoing(r, minRow);
  while (at !== -1) {
    const e = escapeAt(text, at);
    if (e && !e.kept) undoing.escape(at, e);
    at = text.indexOf(trigger, at + (e ? e.length : 1));
  }
  const reading = undoing.finish();
  return enough(undoing.held) ? reading : null;
}

/** %XX, a byte, and %uXXXX, a UTF-16 unit. */
const percentAt: EscapeAt = (text, at) => {
  const byte = hexAt(text, at + 1, 2);
  if (byte !== -1) return { length: 3, byte };
  const unit = text[at + 1] === "u" || text[at + 1] === "U" ? hexAt(text, at + 2, 4) : -1;
  return unit === -1 ? null : { length: 6, text: String.fromCharCode(unit) };
};

/** The named references that spell ASCII punctuation, a non-breaking space, a tab or a line break, and those of characters that show nothing. */
const NAMED = new Map(
  Object.entries({
    amp: "&", AMP: "&", lt: "<", LT: "<", gt: ">", GT: ">", quot: '"', QUOT: '"', apos: "'", nbsp: "\u00a0",
    sol: "/", bsol: "\\", lowbar: "_", UnderBar: "_", equals: "=", colon: ":", semi: ";", period: ".", comma: ",",
    plus: "+", num: "#", excl: "!", percnt: "%", commat: "@", dollar: "$", lpar: "(", rpar: ")", ast: "*",
    midast: "*", quest: "?", lsqb: "[", lbrack: "[", rsqb: "]", rbrack: "]", lcub: "{", lbrace: "{", rcub: "}",
    rbrace: "}", verbar: "|", vert: "|", VerticalLine: "|", grave: "`", Hat: "^", Tab: "\t", NewLine: "\n",
    shy: "\u00ad", zwnj: "\u200c", zwj: "\u200d", lrm: "\u200e", rlm: "\u200f", ZeroWidthSpace: "\u200b", NoBreak: "\u2060",
    ApplyFunction: "\u2061", af: "\u2061", InvisibleTimes: "\u2062", it: "\u2062", InvisibleComma: "\u2063", ic: "\u2063",
    NegativeVeryThinSpace: "\u200b", NegativeThinSpace: "\u200b", NegativeMediumSpace: "\u200b", NegativeThickSpace: "\u200b",
  }),
);

/** A numeric reference's digits and value after `&#` at `at`; the semicolon may be left out, as HTML allows. */
function numericReference(text: string, at: number): { length: number; cp: number } | null {
  const isHex = text[at] === "x" || text[at] === "X";
  const digitsAt = isHex ? at + 1 : at;
  const digits = spanOf(text, digitsAt, isHex ? 8 : 10, isHex ? isHexDigit : isDigit);
  if (digits === 0) return null;
  const cp = parseInt(text.slice(digitsAt, digitsAt + digits), isHex ? 16 : 10);
  const end = digitsAt + digits;
  return { length: end - at + (text[end] === ";" ? 1 : 0), cp };
}

/** A character reference (&#x67;, &#103;, &quot;), through any number of &amp; written over it. */
const referenceAt: EscapeAt = (text, at) => {
  let k = at + 1;
  while (text.startsWith("amp;", k) && k - at < 64) k += 4;
  if (text[k] === "#") {
    const numeric = numericReference(text, k + 1);
    if (numeric) return { length: k + 1 + numeric.length - at, text: codePointText(numeric.cp) };
  }
  const name = spanOf(text, k, 16, isNameChar);
  const named = name > 0 && text[k + name] === ";" ? NAMED.get(text.slice(k, k + name)) : undefined;
  if (named !== undefined) return { length: k + name + 1 - at, text: named };
  return k > at + 1 ? { length: k - at, text: "&" } : null;
};

const isOctalDigit = (c: number): boolean => c >= 0x30 && c <= 0x37;

/**
 * \xHH and \OOO (three octal digits, as printf, bash's $'...' and C write it), a byte; \u{H..},
 * \x{H..} and \UHHHHHHHH, characters; an escaped backslash kept. A \uHHHH is JSON's own, which the
 * readings of each level of escapes undo already.
 */
const backslashAt: EscapeAt = (text, at) => {
  const kind = text[at + 1];
  if (kind === "\\") return { length: 2, kept: true };
  const c = text.charCodeAt(at + 1);
  if (c >= 0x30 && c <= 0x33 && spanOf(text, at + 2, 2, isOctalDigit) === 2) return { length: 4, byte: parseInt(text.slice(at + 1, at + 4), 8) };
  if ((kind === "x" || kind === "u") && text[at + 2] === "{") {
    const digits = spanOf(text, at + 3, 8, isHexDigit);
    return digits > 0 && text[at + 3 + digits] === "}" ? { length: digits + 4, text: codePointText(hexAt(text, at + 3, digits)) } : null;
  }
  if (kind === "x") {
    const byte = hexAt(text, at + 2, 2);
    return byte === -1 ? null : { length: 4, byte };
  }
  const cp = kind === "U" ? hexAt(text, at + 2, 8) : -1;
  return cp === -1 ? null : { length: 10, text: codePointText(cp) };
};

/** =HH, a byte; = at the end of a line (spaces or tabs may follow it), a soft line break. */
const quotedPrintableAt: EscapeAt = (text, at) => {
  const byte = hexAt(text, at + 1, 2);
  if (byte !== -1) return { length: 3, byte };
  let k = at + 1 + spanOf(text, at + 1, 64, (c) => c === 0x20 || c === 0x09);
  if (text[k] === "\r") k++;
  return text[k] === "\n" ? { length: k + 1 - at, text: "" } : null;
};

/** Whether a text may hold a backslash escape that is not JSON's: most backslashes in a reading are a path's or JSON's. */
const hasBackslashEscape = (text: string): boolean => text.includes("\\x") || text.includes("\\u{") || text.includes("\\U") || /\\[0-3][0-7]{2}/.test(text);

const any = (held: Held): boolean => held.escapes > 0;
// A lone \x64 is what a folder named x64 looks like in a Windows path; escapes a log writes come in a row.
const BACKSLASH_ROW = 2;
// A single =HH is what a URL's query or an assignment looks like; quoted-printable text has more, or a soft break.
const quotedPrintable = (held: Held): boolean => held.escapes >= 2 || held.breaks > 0;

/** The reading with every %XX and %uXXXX undone (UTF-8 sequences of %XX together), or null when none stands in it. */
export function percentDecoded(r: Reading): Reading | null {
  return undone(r, "%", percentAt, 1, any);
}

/** Levels of percent-encoding undone: a URL put in a query, and that URL in another, is three. */
const PERCENT_LEVELS = 4;

/** The reading with percent-encoding undone, then undone again while any still stands, one reading a level. */
function percentLevels(r: Reading): Reading[] {
  const out: Reading[] = [];
  for (let next = percentDecoded(r); next !== null && out.length < PERCENT_LEVELS; next = percentDecoded(next)) out.push(next);
  return out;
}

/**
 * A terminal's control sequence: CSI (ESC [, or its one-unit form) with its parameters, OSC up to
 * BEL or ST (a hyperlink's target, a window's title), ESC and one character (a character set
 * chosen); ESC written out as a log writes it (\x1b, \033, \e, \u001b) before a CSI's bracket.
 */
const TERMINAL = /(?:\x1b|\\(?:x1[bB]|033|e|u001[bB])(?=\[))(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\|$)|[ -/]*[0-~])?|\u009b[0-?]*[ -/]*[@-~]/g;

/** The reading with each match of a global pattern taken out; null where none stands. */
function takenOut(r: Reading, pattern: RegExp): Reading | null {
  const out = new ReadingBuilder(r);
  let from = 0;
  let found = false;
  for (const m of r.text.matchAll(pattern)) {
    out.copy(from, m.index);
    from = m.index + m[0].length;
    found = true;
  }
  if (!found) return null;
  out.copy(from, r.text.length);
  return out.finish();
}

/** The reading as a terminal shows it, its control sequences taken out; null where it holds none. */
function terminalShown(r: Reading): Reading | null {
  const { text } = r;
  if (!text.includes("\x1b") && !text.includes("\u009b") && !/\\(?:x1[bB]|033|e|u001[bB])\[/.test(text)) return null;
  return takenOut(r, TERMINAL);
}

/**
 * Characters that show nothing: the controls but a tab and line breaks (NUL, each second byte of
 * UTF-16 text read as single bytes; DEL; the C1 controls, U+0085 among them) and every code point
 * Unicode names default-ignorable (soft hyphens, zero-width spaces and joiners, direction marks,
 * embeddings, overrides and isolates, variation selectors, fillers, tags, U+FEFF), which a font
 * draws as nothing: all of them may stand inside a key a person copies and shows it whole.
 */
export const SHOWS_NOTHING_CLASS = String.raw`[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\p{Default_Ignorable_Code_Point}]`;
const SHOWS_NOTHING = new RegExp(SHOWS_NOTHING_CLASS, "u");
// A terminal's sequence goes whole, never its ESC alone: "user\x1b[0m" shows as "user", not "user[0m".
const SHOWS_NOTHING_G = new RegExp(`${TERMINAL.source}|${SHOWS_NOTHING_CLASS}`, "gu");

/** Whether a text holds a character that shows nothing (or a character reference, which may spell one). */
export const mayShowNothing = (text: string): boolean => SHOWS_NOTHING.test(text) || text.includes("&");

/** The controls of ASCII among them: a home's grammar ends an owner at one (home-shown.ts). */
const ASCII_CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/;

/** The reading without the characters that show nothing; null where it holds none. */
function invisiblesOut(r: Reading): Reading | null {
  const out = SHOWS_NOTHING.test(r.text) ? takenOut(r, SHOWS_NOTHING_G) : null;
  if (out !== null && ASCII_CONTROL.test(r.text)) out.controlsOutOf = r;
  return out;
}

/** The width a terminal or a tool wraps lines at, fewest: a shorter line ending is the text's own. */
const MIN_WRAP_WIDTH = 40;
/** Widths tools wrap at (PEM, textwrap, fmt, MIME and base64, a terminal's 80 and the like): one line that long is wrapped; at another width, two lines of the longest are. */
const WRAP_WIDTHS = new Set([64, 70, 72, 75, 76, 78, 79, 80, 100, 120, 132]);
const BASE64_LINE = /^[A-Za-z0-9+/_=-]*$/;

/**
 * The reading with lines wrapped at a width joined again: where the longest line is of
 * MIN_WRAP_WIDTH or more, and of a width tools wrap at or not alone, each line that long goes on
 * in the next (a terminal's wrap at 80, a tool's at 76) unless it is base64 alone; null where no
 * line is so wrapped.
 */
function unwrapped(r: Reading): Reading | null {
  const { text } = r;
  if (!text.includes("\n")) return null;
  const lines: [number, number][] = [];
  let width = 0;
  for (let at = 0; at <= text.length; ) {
    const nl = text.indexOf("\n", at);
    const end = nl === -1 ? text.length : nl;
    const contentEnd = end > at && text[end - 1] === "\r" ? end - 1 : end;
    lines.push([at, contentEnd]);
    width = Math.max(width, contentEnd - at);
    if (nl === -1) break;
    at = nl + 1;
  }
  if (width < MIN_WRAP_WIDTH) return null;
  if (!WRAP_WIDTHS.has(width) && lines.filter(([start, end]) => end - start === width).length < 2) return null;
  const out = new ReadingBuilder(r);
  let joined = 0;
  lines.forEach(([start, end], i) => {
    const next = lines[i + 1];
    // A line of base64 alone goes on in the next as the encoded runs read it (byte-runs.ts), each piece in place.
    const wraps = next !== undefined && end - start === width && next[1] > next[0] && !BASE64_LINE.test(text.slice(start, end));
    out.copy(start, wraps ? end : (next?.[0] ?? text.length));
    if (wraps) joined++;
  });
  return joined === 0 ? null : out.finish();
}

/**
 * A line end between two characters that show something, as it stands (\n, \r\n, \r, U+2028,
 * U+2029) or escaped in text (`\n`, `\r\n`, `\r`): where a tool broke a token, at any width and
 * wherever in it. A line end beside a blank, or a blank line, broke no token.
 */
const LINE_END_IN_TOKEN = /(?<=\S)(?:\r\n|[\n\r\u2028\u2029]|\\r\\n|\\[nr])(?=\S)/g;
const MAY_END_LINE = /[\n\r\u2028\u2029]|\\[nr]/;
const NO_BLANK = /\S*/y;
/** Words of small letters, this many at least and each this long, beside a line end name something (`risk-admin-dashboard`): a key's letters are mixed with capitals and digits. */
const NAME_WORDS = 3;
const NAME_WORD_LENGTH = 4;
/** How far from a line end its words are read. */
const NAME_REACH = 64;
const isSmallLetter = (c: number): boolean => c >= 0x61 && c <= 0x7a;
const isWordMark = (c: number): boolean => c === 0x2d || c === 0x2e || c === 0x5f;

/** Whether the small letters and word marks from `from` (stepping by `step`) hold NAME_WORDS words of NAME_WORD_LENGTH letters. */
function namesWords(text: string, from: number, step: 1 | -1): boolean {
  let [words, letters] = [0, 0];
  for (let k = from, n = 0; n < NAME_REACH && k >= 0 && k < text.length; k += step, n++) {
    const c = text.charCodeAt(k);
    if (isSmallLetter(c)) letters++;
    else if (!isWordMark(c)) break;
    else letters = 0;
    if (letters === NAME_WORD_LENGTH && ++words === NAME_WORDS) return true;
  }
  return false;
}

/** Whether a line end at [start, end) stands beside a name of words, which it ends or begins rather than breaks. */
const besideName = (text: string, start: number, end: number): boolean => namesWords(text, start - 1, -1) || namesWords(text, end, 1);

/**
 * The reading with line ends that may break a token taken out (not one beside a name of words), the token
 * joined again: every second one from the first, every second one from the second (a token broken
 * once keeps the line ends around it, and what it ends at), and, where a line between two of them
 * holds no blank (the middle of a token broken more than once), all of them; none where no line
 * end stands between two characters that show something.
 */
export function tokensJoined(r: Reading): Reading[] {
  const { text } = r;
  if (!MAY_END_LINE.test(text)) return [];
  const ends: number[] = [];
  let brokenTwice = false;
  for (const m of text.matchAll(LINE_END_IN_TOKEN)) {
    if (besideName(text, m.index, m.index + m[0].length)) continue;
    const last = ends[ends.length - 1];
    if (!brokenTwice && last !== undefined) {
      NO_BLANK.lastIndex = last;
      NO_BLANK.exec(text);
      brokenTwice = NO_BLANK.lastIndex >= m.index;
    }
    ends.push(m.index, m.index + m[0].length);
  }
  const joined = (taken: (k: number) => boolean): Reading => {
    const out = new ReadingBuilder(r);
    let from = 0;
    for (let k = 0; k < ends.length / 2; k++) {
      if (!taken(k)) continue;
      out.copy(from, ends[2 * k] as number);
      from = ends[2 * k + 1] as number;
    }
    out.copy(from, text.length);
    return out.finish();
  };
  if (ends.length === 0) return [];
  if (ends.length === 2) return [joined(() => true)];
  const alternate = [joined((k) => k % 2 === 0), joined((k) => k % 2 === 1)];
  return brokenTwice ? [...alternate, joined(() => true)] : alternate;
}

/**
 * Blanks (a non-breaking space too) and line ends, after what continues a line too: a shell's
 * backslash, PowerShell's backtick, VB's `_`.
 */
const BLANKS = String.raw`(?:[ \t\r\n\u00a0]|[\\\x60_](?=\r?\n))*`;
/**
 * How many comments may stand between two literals. A join is looked for from every quote, and
 * comment lines that each end in a quote (`#'`) would otherwise be read from each of them to the
 * last: bounded, the reading stays linear in the text.
 */
const COMMENTS_BETWEEN = 8;
/**
 * What stands between a literal and what joins it to the next: blanks, line ends, and a few
 * comments (a block comment over lines too, though not one holding `/*`: a block comment is read
 * from the quote before it, and text dense with `'/*` would be read on from each quote).
 */
const BETWEEN = String.raw`${BLANKS}(?:(?:/\*(?:[^*/]|\*(?!/)|/(?!\*)){0,200}\*/|(?://|#|--)[^\n]{0,200}\n)${BLANKS}){0,${COMMENTS_BETWEEN}}`;
/** A name a statement adds to: `token`, `$token`, `this.token`, `o["token"]`. */
const NAME = String.raw`[A-Za-z_$][\w$.]{0,64}(?:\[(?:"[\w$.-]{0,64}"|'[\w$.-]{0,64}'|[\w$.]{0,64})\])?`;
/**
 * What joins two string literals: `+`, PHP's and Perl's `.`, Lua's `..`, SQL's `||`, VB's `&`, a
 * list's `,` that `join` undoes, Ruby's `<<`, `.concat(`, `.append(` and `.plus(` (after a call's
 * `)` too, and on a name in the next statement), a shell's `$` before its next `$'…'`, or a name
 * added to in the next statement (`+=`, PHP's `.=`, `<<`, `t = t +`); or nothing (C's and
 * Python's adjacent literals, a shell's `"a"'b'`).
 */
const JOIN = String.raw`(?:\+|\.\.?|\|\||&|,|<<|\$(?=')|(?:\)${BETWEEN})?(?:;${BETWEEN}${NAME})?\.(?:concat|append|plus)\(|(?:;${BETWEEN})?${NAME}[ \t]*(?:\+=|\.=|<<|=[ \t]*${NAME}[ \t]*\+))`;
const QUOTE = "[\"'`]";
/** A quote that opens or closes a literal: a straight one, or a curly one (a word processor's). */
const EDGE_QUOTE = "[\"'`\u201c\u201d\u2018\u2019]";
/** A literal's prefix written in letters: Python's `r`, `b`, `f`, `u` (`rb`, `Rb`…), C++'s `L`, `u`, `U`, `u8`. */
const LETTER_PREFIX = "(?:[rRbBfFuU]{1,2}|L|u8)";
/**
 * A literal's opening quote, with what may stand before it (a letter prefix, C#'s `@` and `$`), or
 * the `R"(` of a C++ raw string (its `)"` is taken before the join).
 */
const OPENING = String.raw`(?:(?<raw>(?:u8|[uUL])?R"\()|(?:${LETTER_PREFIX}|[@$]{1,2})?${EDGE_QUOTE})`;
/** A character a key is written with (base64's and base64url's, a prefix's, a JWT's dots), or an assignment's `=`. */
const KEYISH = "[A-Za-z0-9_+/=.-]";
/**
 * Where code joins string literals: a quote that closes one, what joins it to the next, and a quote
 * (with its prefix) that opens that one; a template's `${"…"}` (its two edges); and a quote inside
 * a shell's word, which the shell joins to what stands on either side (`T=ghp_ab"cd"`), though not
 * after a literal's prefix standing as a word (`r"…"`). Each begins at a quote or a `$`, and looks
 * back only from one.
 */
const LITERALS_MEET = new RegExp(
  [
    `${EDGE_QUOTE}${BETWEEN}(?:${JOIN}${BETWEEN})?${OPENING}`,
    `\\$\\{[ \\t]*${QUOTE}`,
    `${QUOTE}(?=[ \\t]*\\})(?<=\\$\\{[ \\t]*${QUOTE}[^"'\`\\n]{0,256}${QUOTE})[ \\t]*\\}`,
    `${QUOTE}(?<=${KEYISH}${QUOTE})(?<!(?<![\\w$])${LETTER_PREFIX}${QUOTE})(?=${KEYISH})`,
  ].join("|"),
  "g",
);

/** A quote of any kind, straight or curly: every way LITERALS_MEET finds holds one (QUOTE is among them). */
const ANY_QUOTE = new RegExp(EDGE_QUOTE);

/** How far along its line a join's reading reaches either side of it: farther than any key is long. */
const JOIN_REACH = 8192;

/**
 * The reading with string literals that code joins written as one (`'gh' + 'p_…'`), a key split
 * over them joined again; none where no two literals meet. It holds only the lines the joins stand
 * in (at most JOIN_REACH either side), each stretch after a blank line: a long file with a few
 * joins, read once for each of its escape readings, is not copied again whole each time.
 */
export function literalsJoined(r: Reading): Reading[] {
  const { text } = r;
  // Each way literals meet holds a quote: a text without one is not searched (most strings a host sends).
  if (!ANY_QUOTE.test(text)) return [];
  const out = new ReadingBuilder(r);
  let from = -1;
  let end = -1;
  for (const m of text.matchAll(LITERALS_MEET)) {
    // Each look for a line's start or end goes no farther back than the stretch's end, nor forward than its reach: linear in the text.
    const start = lineEdge(text, m.index, Math.max(end, m.index - JOIN_REACH, 0), -1);
    if (start > end) {
      // A stretch of its own: the one before it ends, and a blank line keeps the two apart.
      if (end !== -1) {
        out.copy(from, end);
        out.put("\n\n", end);
      }
      from = start;
    }
    // A C++ raw string's `)"` is taken with its quote where the next literal is one too.
    const at = m.groups?.raw !== undefined && m.index > from && text.charCodeAt(m.index - 1) === 0x29 ? m.index - 1 : m.index;
    out.copy(from, at);
    from = m.index + m[0].length;
    if (end < from || (end < text.length && text.charCodeAt(end) !== 0x0a)) end = lineEdge(text, Math.max(from, end), Math.min(from + JOIN_REACH, text.length), 1);
  }
  if (end === -1) return [];
  out.copy(from, end);
  return [out.finish()];
}

/** Where the line of `at` starts (step -1) or ends (step 1), looking no farther than `bound`. */
function lineEdge(text: string, at: number, bound: number, step: -1 | 1): number {
  let k = at;
  if (step === -1) while (k > bound && text.charCodeAt(k - 1) !== 0x0a) k--;
  else while (k < bound && text.charCodeAt(k) !== 0x0a) k++;
  return k;
}

/** A line of a dump of characters (od -c, hexdump -c): an offset, then cells four columns wide (blank ones too, so fewer than four spaces may end it: a run of spaces is read one way). */
const CHAR_DUMP_LINE = /^[0-9a-fA-F]{7,8}((?: {4}| {3}[^ \n]| {2}\\[0abfnrtv]| [0-7]{3}| {2}\*\*)+) {0,3}$/gm;
const CHAR_DUMP_HINT = /^[0-9a-fA-F]{7,8}(?: {3}[^ \n]| {2}\\[0abfnrtv]| [0-7]{3}){4}/m;
const C_ESCAPES: Record<string, string> = { "0": "\0", a: "\x07", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v" };

/**
 * The characters a dump of characters spells, read cell by cell: a character as it stands, a C
 * escape, a byte in octal (UTF-8 read together), a space (a blank cell) and "**" (a character's
 * further bytes, shown before it); null where the text holds no such dump.
 */
function charDumped(r: Reading): Reading | null {
  const { text } = r;
  if (!CHAR_DUMP_HINT.test(text)) return null;
  const out = new ReadingBuilder(r);
  const bytes = new PendingBytes(out);
  let lines = 0;
  for (const m of text.matchAll(CHAR_DUMP_LINE)) {
    lines++;
    const cells = m[1] as string;
    const at = m.index + m[0].indexOf(cells);
    for (let k = 0; k + 4 <= cells.length; k += 4) {
      const cell = cells.slice(k, k + 4);
      if (/^ [0-7]{3}$/.test(cell)) {
        bytes.add(parseInt(cell, 8), at + k);
        continue;
      }
      bytes.flush();
      if (cell === "  **") continue;
      out.put(cell === "    " ? " " : cell[2] === "\\" ? (C_ESCAPES[cell[3] as string] as string) : (cell[3] as string), at + k);
    }
    bytes.flush();
  }
  return lines === 0 ? null : out.finish();
}

/**
 * A reading of a text with each escape that is not JSON's undone: percent-encoding (each level),
 * a terminal's control sequences, characters that show nothing, lines wrapped at a width, a dump
 * of characters (od -c), HTML and XML character references, backslash escapes and
 * quoted-printable, each a reading of its own. What shows nothing is taken out of each of those
 * too, where one spells it (`&#x200B;`, `%E2%80%8B`, `\u{200B}`).
 */
export function escapeReadings(r: Reading): Reading[] {
  const out: Reading[] = [];
  const invisibles = invisiblesOut(r);
  for (const reading of [
    ...percentLevels(r),
    terminalShown(r),
    invisibles,
    unwrapped(r),
    charDumped(r),
    undone(r, "&", referenceAt, 1, any),
    hasBackslashEscape(r.text) ? undone(r, "\\", backslashAt, BACKSLASH_ROW, any) : null,
    undone(r, "=", quotedPrintableAt, 1, quotedPrintable),
  ]) {
    if (!reading) continue;
    out.push(reading);
    const shown = reading === invisibles ? null : invisiblesOut(reading);
    if (shown) out.push(shown);
  }
  return out;
}
