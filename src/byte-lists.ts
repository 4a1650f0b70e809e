// Bytes written as a list of decimal numbers, found in a text and read back: what JSON.stringify
// writes for a Node Buffer ({"type":"Buffer","data":[123,34,...]}), a Uint8Array or a C# or Python
// byte list, Java's Arrays.toString of a byte[] (bytes above 127 as negative numbers), the
// arguments of String.fromCharCode (UTF-16 code units), and `od -tu1` with its offsets at the
// line starts. Numbers stand one to five digits long, apart by spaces, line breaks, one comma or
// semicolon, and what a writer sets among them (a comment, a cast, a YAML item's dash, od -z's
// text); a number with a decimal point or glued to a letter ends the list.
//
// A list of code units or code points (a number above 255) is read as the text they spell. What the
// bytes say is the payload check's to read (decodings.ts), as for base64 and hex.

/** Sixteen numbers in a row: no list of a payload's bytes is shorter. */
const MIN_ITEMS = 16;
/** Digits a number may have; a longer run at a line's start is an offset (od's seven), anywhere else it ends the list. */
const MAX_DIGITS = 5;
/** Cheap look for sixteen numbers, each a little apart (by separators, comments, casts), before the loop that reads them. */
const LIST_HINT = /(?:\d{1,5}\D{1,40}){15}\d/;

/** Where a list may start: a digit, or a minus sign before one, with nothing wordy (isWordy) just before it. */
const LIST_START = /(?<![0-9A-Za-z_.])(?:-(?=[0-9])|[0-9])/g;

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
/** What may not touch a number for it to stand alone: a letter, a digit, an underscore, a decimal point. */
const isWordy = (c: number): boolean => isDigit(c) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x2e;
const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/** The number at `at` (a minus sign first or not) and where it ends; null where none stands alone there. */
function numberAt(text: string, at: number): { value: number; digits: number; end: number } | null {
  let k = at;
  const negative = text.charCodeAt(k) === 0x2d;
  if (negative) k++;
  const first = k;
  while (isDigit(text.charCodeAt(k))) k++;
  if (k === first || (k < text.length && isWordy(text.charCodeAt(k)))) return null;
  const digits = k - first;
  const value = Number(text.slice(first, k));
  return { value: negative ? -value : value, digits, end: k };
}

/** A type cast before a number, as C, C# and Java write one in a byte array: (byte), (uint8_t). */
const CAST = /\([A-Za-z_][\w ]{0,15}\)/y;

/**
 * Where what stands at `k` between two numbers ends, past spaces: a comment (`//` or `#` to the
 * line's end, a C comment), the text od -tu1z sets beside a line (`>...<`), a YAML item's dash, or a
 * type cast; -1 where none stands there.
 */
function asideEnd(text: string, k: number): number {
  const c = text.charCodeAt(k);
  const next = text.charCodeAt(k + 1);
  if (c === 0x23 || (c === 0x2f && next === 0x2f)) {
    const nl = text.indexOf("\n", k);
    return nl === -1 ? -1 : nl;
  }
  if (c === 0x2f && next === 0x2a) {
    const close = text.indexOf("*/", k + 2);
    return close === -1 ? -1 : close + 2;
  }
  if (c === 0x3e) {
    const close = text.indexOf("<", k);
    const nl = text.indexOf("\n", k);
    return close !== -1 && (nl === -1 || close < nl) ? close + 1 : -1;
  }
  // A YAML item's dash, at a line's start: a minus sign stands glued to its number.
  if (c === 0x2d && next === 0x20 && /\n[ \t]*$/.test(text.slice(Math.max(0, k - 32), k))) return k + 1;
  CAST.lastIndex = k;
  return c === 0x28 && CAST.test(text) ? CAST.lastIndex : -1;
}

/** Where the next number may start after a number ending at `at`: spaces and line breaks, with one comma or semicolon among them, and comments, casts and the like (asideEnd); -1 where something else stands. */
function separatorEnd(text: string, at: number): number {
  let k = at;
  let marks = 0;
  while (k < text.length) {
    const c = text.charCodeAt(k);
    if (c === 0x2c || c === 0x3b) {
      if (++marks > 1) return -1;
      k++;
    } else if (isSpace(c)) k++;
    else {
      const end = asideEnd(text, k);
      if (end === -1) break;
      k = end;
    }
  }
  return k > at ? k : -1;
}

/** Skips an offset at the start of a line (six digits or more, then spaces), as od writes it. */
function afterOffset(text: string, at: number): number {
  if (at > 0 && text.charCodeAt(at - 1) !== 0x0a) return at;
  const n = numberAt(text, at);
  if (n === null || n.digits <= MAX_DIGITS || !isSpace(text.charCodeAt(n.end)) || text.charCodeAt(n.end) === 0x0a) return at;
  const next = separatorEnd(text, n.end);
  return next === -1 ? at : next;
}

/** A list of numbers in a text: where it starts and ends, its numbers, and where each stands. */
export interface NumberList {
  start: number;
  end: number;
  values: number[];
  ats: number[];
}

/** The numbers of one list from `start`. */
function listFrom(text: string, start: number): NumberList {
  const list: NumberList = { start, end: start, values: [], ats: [] };
  let at = afterOffset(text, start);
  for (;;) {
    const n = numberAt(text, at);
    if (n === null || n.digits > MAX_DIGITS) break;
    list.values.push(n.value);
    list.ats.push(at);
    list.end = n.end;
    const next = separatorEnd(text, n.end);
    if (next === -1) break;
    at = afterOffset(text, next);
  }
  return list;
}

/** What a list of numbers is: bytes (signed or not), UTF-16 code units, code points; null where none of these. */
function kindOf(values: number[]): "bytes" | "units" | "points" | null {
  let min = 0;
  let max = 0;
  for (const v of values) (min = Math.min(min, v)), (max = Math.max(max, v));
  if (min >= -128 && max <= 255) return "bytes";
  if (min < 0 || max > 0x10ffff) return null;
  return max <= 0xffff ? "units" : "points";
}

/**
 * The bytes a list of sixteen numbers or more spells (bytes as they are, code units or code points
 * as UTF-8), and for each byte the index of the number it comes from; null where it spells none.
 */
export function listDecoded(values: number[]): { bytes: Buffer; from: number[] } | null {
  const kind = values.length < MIN_ITEMS ? null : kindOf(values);
  if (kind === null) return null;
  if (kind === "bytes") return { bytes: Buffer.from(values.map((v) => v & 0xff)), from: values.map((_, i) => i) };
  const parts: Buffer[] = [];
  const from: number[] = [];
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    const low = values[i + 1] ?? 0;
    // A surrogate pair in code units is one character, from its first number.
    const pair = kind === "units" && v >= 0xd800 && v <= 0xdbff && low >= 0xdc00 && low <= 0xdfff;
    const char = pair ? String.fromCharCode(v, low) : kind === "units" ? String.fromCharCode(v) : String.fromCodePoint(v);
    const bytes = Buffer.from(char, "utf8");
    parts.push(bytes);
    for (let k = 0; k < bytes.length; k++) from.push(i);
    if (pair) i++;
  }
  return { bytes: Buffer.concat(parts), from };
}

/** The bytes a list of sixteen numbers or more spells, as listDecoded gives them; null where it spells none. */
export function listBytes(values: number[]): Buffer | null {
  return listDecoded(values)?.bytes ?? null;
}

/** Each list of sixteen numbers or more in a text, and where its numbers stand. One pass after one native search. */
export function numberLists(text: string): NumberList[] {
  // Sixteen numbers take sixteen digits and fifteen marks between them at least: most strings are shorter.
  if (text.length < 2 * MIN_ITEMS - 1 || !LIST_HINT.test(text)) return [];
  const out: NumberList[] = [];
  for (let at = 0; at < text.length; ) {
    LIST_START.lastIndex = at;
    const start = LIST_START.exec(text);
    if (start === null) break;
    at = start.index;
    const list = listFrom(text, at);
    if (list.values.length >= MIN_ITEMS) out.push(list);
    at = Math.max(list.end, at + 1);
    while (at < text.length && isWordy(text.charCodeAt(at))) at++;
  }
  return out;
}

/** Each list of sixteen numbers or more in a text that spells bytes, as where it starts and the bytes. */
export function byteLists(text: string): { start: number; bytes: Buffer }[] {
  return numberLists(text).flatMap((list) => {
    const bytes = listBytes(list.values);
    return bytes === null ? [] : [{ start: list.start, bytes }];
  });
}
