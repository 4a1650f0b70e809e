// Escapes that a text (not JSON) writes a character with, undone so that a home's root and owner are
// read whole: `\x69`, `\151`, `\u0069`, `\u{69}`, `\U00000069` (C, Python, shell and log text, after
// any number of backslashes, as text nested in strings doubles them), `&#105;`, `&#x69;` (also as
// `&amp;#105;`), `%69`, `%u0069`, and bash's ANSI-C quoting `$'...'`, whose quotes spell nothing. Bytes escaped
// one beside another are read as UTF-8 (one that is not, as Latin-1). Each unit of the reading keeps
// the range of the text it came from, so that an owner found in the reading is replaced whole.

export interface TextEscapeReading {
  text: string;
  /** For each UTF-16 unit of `text`, where it starts in the input, and where it ends. */
  starts: number[];
  ends: number[];
}

/** Whether a text may hold an escape `textEscapeReading` undoes: a cheap test before it. */
export const MAY_HOLD_ESCAPE = /\\(?:x[0-9A-Fa-f]{2}|[xu]\{[0-9A-Fa-f]|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|[0-3][0-7]{2})|&(?:amp;)*#[0-9xX]|%(?:[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4})|\$'/i;

const BACKSLASH_BODY = /x([0-9A-Fa-f]{2})|[xu]\{([0-9A-Fa-f]{1,8})\}|u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|([0-3][0-7]{2})/y;
const REFERENCE = /&(?:amp;)*#(?:[xX]([0-9A-Fa-f]{1,8})|([0-9]{1,10}));?/y;
const PERCENT = /%(?:([0-9A-Fa-f]{2})|[uU]([0-9A-Fa-f]{4}))/y;

/** What one escape spells: a byte (read with the bytes beside it) or a code point, and where it ends. */
interface Spelt {
  end: number;
  byte?: number;
  cp?: number;
}

function backslashAt(text: string, at: number): Spelt | null {
  let k = at;
  while (text.charCodeAt(k) === 0x5c) k++;
  BACKSLASH_BODY.lastIndex = k;
  const m = BACKSLASH_BODY.exec(text);
  if (!m) return null;
  const [, hex, braced, unit, long, octal] = m;
  const end = BACKSLASH_BODY.lastIndex;
  if (hex !== undefined) return { end, byte: parseInt(hex, 16) };
  if (octal !== undefined) return { end, byte: parseInt(octal, 8) };
  return { end, cp: parseInt((braced ?? unit ?? long) as string, 16) };
}

function escapeAt(text: string, at: number): Spelt | null {
  const c = text.charAt(at);
  if (c === "\\") return backslashAt(text, at);
  const re = c === "&" ? REFERENCE : c === "%" ? PERCENT : null;
  if (re === null) return null;
  re.lastIndex = at;
  const m = re.exec(text);
  if (!m) return null;
  if (re === PERCENT) return m[1] !== undefined ? { end: re.lastIndex, byte: parseInt(m[1], 16) } : { end: re.lastIndex, cp: parseInt(m[2] as string, 16) };
  return { end: re.lastIndex, cp: m[1] !== undefined ? parseInt(m[1], 16) : parseInt(m[2] as string, 10) };
}

/** The length of the UTF-8 sequence starting at `k` in `bytes`, and its code point; null where none is. */
function utf8At(bytes: number[], k: number): { length: number; cp: number } | null {
  const b = bytes[k] as number;
  const length = b >= 0xf0 && b <= 0xf4 ? 4 : b >= 0xe0 ? 3 : b >= 0xc2 ? 2 : 0;
  if (length === 0 || k + length > bytes.length) return null;
  let cp = b & (0xff >> (length + 1));
  for (let j = k + 1; j < k + length; j++) {
    const c = bytes[j] as number;
    if ((c & 0xc0) !== 0x80) return null;
    cp = (cp << 6) | (c & 0x3f);
  }
  return cp >= [0, 0, 0x80, 0x800, 0x10000][length]! && cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff) ? { length, cp } : null;
}

const asText = (cp: number): string => (cp > 0x10ffff ? "\ufffd" : String.fromCodePoint(cp));

/** Printable ASCII, or a Latin-1 character from U+00A0 on. */
const isPrintable = (c: number): boolean => (c >= 0x20 && c < 0x7f) || (c >= 0xa0 && c <= 0xff);

class ReadingWriter {
  /** `placed`: whether each unit's range is kept (a reading only for its text keeps none). */
  constructor(
    private readonly source: string,
    private readonly placed: boolean,
  ) {}
  text = "";
  readonly starts: number[] = [];
  readonly ends: number[] = [];
  private bytes: { byte: number; start: number; end: number }[] = [];
  /** Where an opening quote that spells nothing began: the next unit starts there. */
  private opened: number | null = null;

  put(units: string, start: number, end: number): void {
    this.flush();
    this.text += units;
    for (let k = 0; this.placed && k < units.length; k++) {
      this.starts.push(k === 0 ? (this.opened ?? start) : start);
      this.ends.push(end);
    }
    this.opened = null;
  }

  /** A quote that spells nothing belongs to the unit after it (an opening one) or before it (a closing one), so that a range never cuts it off. */
  quote(start: number, end: number, opening: boolean): void {
    this.flush();
    if (opening) this.opened ??= start;
    else if (this.ends.length > 0) this.ends[this.ends.length - 1] = end;
  }

  byte(byte: number, start: number, end: number): void {
    this.bytes.push({ byte, start, end });
  }

  /** The pending bytes as UTF-8, each byte of no sequence as the Latin-1 character it is. */
  flush(): void {
    const run = this.bytes;
    if (run.length === 0) return;
    this.bytes = [];
    const values = run.map((b) => b.byte);
    for (let k = 0; k < run.length; ) {
      const seq = (values[k] as number) < 0x80 ? null : utf8At(values, k);
      const length = seq?.length ?? 1;
      const cp = seq?.cp ?? (values[k] as number);
      const first = run[k] as { start: number; end: number };
      // A byte that spells no printable character (a control, a lone byte of no UTF-8 sequence but a Latin-1 letter) is left as written.
      if (seq === null && !isPrintable(cp)) for (let j = first.start; j < first.end; j++) this.put(this.source.charAt(j), j, j + 1);
      else this.put(asText(cp), first.start, (run[k + length - 1] as { end: number }).end);
      k += length;
    }
  }
}

/**
 * An escape right after an owner that the reading above leaves as it stands, so that a part of the
 * name may be in it or after it: a letter as an HTML named reference (`&eacute;`); a quote, written
 * as itself, after backslashes, by name or around a space, before a letter (`o\'brien`,
 * `o'\''brien`, `o"'"brien`, `o&rsquo;brien`, `First' 'Last`); a character a Windows profile name
 * may hold before a letter or digit (`Tom&Jerry`, `ann(work)`, `bob#2`); and, where no backslash stands before the owner and the home is no Windows one,
 * whose backslash may be a separator: a backslash escape of a byte from 0x80 that spells no
 * printable character, of octal digits that spell a digit, "-" or ".", of octal digits the reading
 * does not take, of a character by name, a backslash before a small letter no C escape names (a
 * shell's `qu\illon`), and an escape of a control, a dot, a dash or an underscore before a letter or
 * digit (`jo\1hn`, `a\nnabelle`, `john\.smith`). A control with no small letter or digit after it
 * ends a name (`<owner>\n`, `\nREADME`), and a capital after a backslash begins a Windows folder.
 */
// HTML's names of a letter with a mark: those it named before 2011, which it reads without their
// ";" too ("&eacuteric" is "éric"), and the later ones, which need it.
export const LEGACY_MARKS = "acute|grave|circ|uml|tilde|ring|cedil|slash";
export const LATER_MARKS = "caron|ogon|macr|dot|breve|strok|dblac";
export const LEGACY_LETTER_NAMES = `[A-Za-z](?:${LEGACY_MARKS})|[aA][eE]lig|szlig|eth|ETH|thorn|THORN`;
const UNREAD_REFERENCE = new RegExp(`&(?:amp;)*(?:(?:${LEGACY_LETTER_NAMES});?|(?:[A-Za-z](?:${LATER_MARKS})|[A-Za-z]{2}lig);)`, "y");
/**
 * Code units a text may hold that show nothing: the controls above ASCII (U+0080-U+009F) and the
 * default-ignorable code points of the BMP (the soft hyphen, zero-width spaces and joiners,
 * direction marks and isolates, variation selectors, U+FEFF). Before a root they are no letter,
 * and a name may begin with them.
 */
export const INVISIBLE = String.raw`\u0080-\u009f\u00ad\u034f\u061c\u115f-\u1160\u17b4-\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8`;
/**
 * Every unit above ASCII counts as a letter where a name is read, but the spaces `\s` names
 * (U+00A0, U+2028, U+3000 and the rest) and the invisible units above: those end a word and
 * begin one as " " does. For character classes of patterns that are not Unicode-mode.
 */
export const ABOVE_ASCII_LETTER = String.raw`\u00a1-\u00ac\u00ae-\u034e\u0350-\u061b\u061d-\u115e\u1161-\u167f\u1681-\u17b3\u17b6-\u180a\u1810-\u1fff\u2010-\u2027\u2030-\u205e\u2070-\u2fff\u3001-\u3163\u3165-\ufdff\ufe10-\ufefe\uff00-\uff9f\uffa1-\uffef\ufff9-\uffff`;
const UNREAD_QUOTE = new RegExp(String.raw`(?:\\*['"]|['"][ \t]+['"]|&(?:amp;)*(?:[rl]squo|apos|quot);)+(?=[A-Za-z0-9${ABOVE_ASCII_LETTER}\\])`, "y");
// A character a Windows profile name may hold that ends a path segment here ("Tom&Jerry", "ann(work)", "bob#2"), before a letter or digit.
const CLOSERS: Record<string, string> = { ")": "(", "}": "{", "]": "[" };
const UNREAD_PUNCTUATION = new RegExp(String.raw`(?:&(?![A-Za-z]+;|#|[A-Za-z]:)|[(#{[])(?=[A-Za-z0-9${ABOVE_ASCII_LETTER}])`, "y");
const UNREAD_BACKSLASH = /\\+(?:([0-7]{1,3})|([abefnrtv])|([.\-_])|[xu]|U(?=[0-9A-Fa-f]{8})|N\{[^}\n]{0,64}\}?|[c-z\u0080-\uffff])/y;
// After a control the name goes on unless the path or the text does: a separator, a space, a quote,
// a bracket, the end, or a capital, which begins a line's next word ("\nREADME", "\x1b[0m").
const NAME_ENDS = /^$|[\/\sA-Z"`<>|:;,=?*()[\]{}]/;
const goesOnAt = (text: string, k: number): boolean => !NAME_ENDS.test(text.charAt(k));

/** Where an escape the reading above does not undo ends, that stands at `at` right after an owner that starts at `from`; -1 where none does. */
export function unreadEscapeEnd(text: string, from: number, at: number, windows = false): number {
  for (const re of [UNREAD_REFERENCE, UNREAD_QUOTE, UNREAD_PUNCTUATION]) {
    re.lastIndex = at;
    if (re.test(text)) return re.lastIndex;
  }
  // The bracket that closes one the owner opened ("ann(work)").
  const opener = CLOSERS[text.charAt(at)];
  if (opener !== undefined && text.slice(from, at).includes(opener)) return at + 1;
  if (windows || text.charAt(from - 1) === "\\") return -1;
  UNREAD_BACKSLASH.lastIndex = at;
  const m = UNREAD_BACKSLASH.exec(text);
  if (m === null) return -1;
  const end = UNREAD_BACKSLASH.lastIndex;
  const goesOn = goesOnAt(text, end);
  const [, octal, control, punctuation] = m;
  // One or two octal digits spell no letter: a name goes on through one as a digit, "-" or ".", or where a letter follows.
  if (octal !== undefined && octal.length < 3) return goesOn || /[0-9.-]/.test(String.fromCharCode(parseInt(octal, 8))) ? end : -1;
  if (control !== undefined) return goesOn ? end : -1;
  if (punctuation !== undefined) return goesOn ? end : -1;
  const read = backslashAt(text, at);
  if (read === null) return end;
  const spelt = read.byte ?? (read.cp as number);
  // A control ends a name unless a letter follows it; a byte from 0x80 that spells nothing alone may be part of one.
  if (spelt < 0x20 || spelt === 0x7f) return goesOnAt(text, read.end) ? read.end : -1;
  return read.byte !== undefined && read.byte >= 0x80 && !isPrintable(read.byte) ? read.end : -1;
}

/** The text with every escape above undone, or null where it holds none. */
export function textEscapeReading(text: string, placed = true): TextEscapeReading | null {
  if (!MAY_HOLD_ESCAPE.test(text)) return null;
  const out = new ReadingWriter(text, placed);
  let quoted = false;
  let undid = false;
  for (let at = 0; at < text.length; ) {
    const c = text.charAt(at);
    // Bash's $'...': the quotes spell nothing, and inside them \' is a quote.
    if (c === "$" && text.charAt(at + 1) === "'" && !quoted) {
      out.quote(at, at + 2, true);
      [quoted, undid, at] = [true, true, at + 2];
      continue;
    }
    if (c === "'" && quoted) {
      out.quote(at, at + 1, false);
      [quoted, at] = [false, at + 1];
      continue;
    }
    const e = escapeAt(text, at);
    if (e === null) {
      const units = quoted && c === "\\" && text.charAt(at + 1) === "'" ? 2 : 1;
      out.put(units === 2 ? "'" : c, at, at + units);
      at += units;
      continue;
    }
    undid = true;
    if (e.byte !== undefined) out.byte(e.byte, at, e.end);
    else out.put(asText(e.cp as number), at, e.end);
    at = e.end;
  }
  out.flush();
  return undid ? { text: out.text, starts: out.starts, ends: out.ends } : null;
}

/** A name with the escapes above undone. */
export function undoTextEscapes(name: string): string {
  return textEscapeReading(name, false)?.text ?? name;
}

// Terminal styling ("\x1b[1;32m", as itself or escaped), which spells nothing; after a backslash
// a root's separator took, the rest of its escape.
const TERMINAL_STYLE = /(?:\x1b|\\+(?:e|x1[bB]|u001[bB]|u\{1[bB]\}|0?33))\[[0-9;]*[A-Za-z]/y;
const STYLE_AFTER_BACKSLASH = /(?:e|x1[bB]|u001[bB]|u\{1[bB]\}|0?33)\[[0-9;]*[A-Za-z]/y;

/**
 * Where the escapes the reading above leaves as they stand end, that begin an owner at `at` (a
 * letter as an HTML named reference: `/home/&eacute;ric`; terminal styling before the name:
 * `/home/\x1b[1mann`); `at` where none does.
 */
export function unreadLeadEnd(text: string, at: number): number {
  let end = at;
  for (let next = leadAt(text, end); next > end; next = leadAt(text, end)) end = next;
  return end;
}

function leadAt(text: string, at: number): number {
  const patterns = text.charAt(at - 1) === "\\" ? [UNREAD_REFERENCE, TERMINAL_STYLE, STYLE_AFTER_BACKSLASH] : [UNREAD_REFERENCE, TERMINAL_STYLE];
  for (const re of patterns) {
    re.lastIndex = at;
    if (re.test(text)) return re.lastIndex;
  }
  return at;
}
