// Text taken from an input (a file name, an identifier, a line of sitting.json or kit.json, a
// message that quotes one) is data in the record, never markup. It is written as an inline code
// span whose content can open nothing: no line break, no backtick, no angle bracket, no table
// pipe, no control, bidirectional or invisible character. Such characters are written as JSON
// escapes inside double quotes, so the span reads back to exactly what was written.

/** Characters never written as themselves in the record or on a terminal. */
// Controls, format characters (bidirectional overrides, zero-width and tag characters), line and
// paragraph separators, lone surrogates, private-use and unassigned code points, invisible fillers.
const UNSAFE_CLASS = String.raw`\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\u115f\u1160\u3164\uffa0`;
const UNSAFE = new RegExp(`[${UNSAFE_CLASS}]`, "gu");
const SPAN_UNSAFE = new RegExp(`[\`<>|\\\\"${UNSAFE_CLASS}]`, "u");

/** The most characters of one value the record shows; longer values are cut, and say so. */
export const MAX_DATA_CHARS = 200;

/** A character as JSON escapes: one \uXXXX per UTF-16 unit, so a surrogate pair reads back whole. */
const hex4 = (ch: string): string => [...Array(ch.length).keys()].map((i) => `\\u${ch.charCodeAt(i).toString(16).padStart(4, "0")}`).join("");

/** Text safe to print on one line: every unsafe character (a newline too) as a visible \uXXXX escape. */
export function printable(text: string): string {
  return text.replace(UNSAFE, hex4);
}

/** The value as the record shows it: cut to MAX_DATA_CHARS code points, with a count of the rest. */
export function shownValue(value: string): string {
  const chars = [...value];
  if (chars.length <= MAX_DATA_CHARS) return value;
  return `${chars.slice(0, MAX_DATA_CHARS).join("")}…(${chars.length - MAX_DATA_CHARS} more characters)`;
}

function quoted(value: string): string {
  let out = '"';
  for (const ch of value) {
    if (ch === '"') out += '\\"';
    else if (ch === "\\") out += "\\\\";
    else if (SPAN_UNSAFE.test(ch)) out += hex4(ch);
    else out += ch;
  }
  return `${out}"`;
}

/** One value as an inline code span: bare when every character is plain, else JSON-quoted with escapes. */
export function dataSpan(value: string): string {
  const shown = shownValue(value);
  const bare = shown !== "" && !SPAN_UNSAFE.test(shown) && !/^\s|\s$/.test(shown);
  return `\`${bare ? shown : quoted(shown)}\``;
}

/** Reads a code span written by dataSpan back to its value; null when the text is not one. */
export function readDataSpan(span: string): string | null {
  if (span.length < 3 || span[0] !== "`" || span[span.length - 1] !== "`") return null;
  const content = span.slice(1, -1);
  if (content.includes("`")) return null;
  if (!content.startsWith('"')) return content;
  try {
    const value: unknown = JSON.parse(content);
    return typeof value === "string" ? value : null;
  } catch {
    return null;
  }
}

/**
 * What a GitHub-flavoured renderer makes a link of in bare text: a URL's "://", "www." and a mail
 * address's "@". A value a message quotes (an identifier, an event from a capture's name) could be
 * "www.example.invalid" or "a@example.invalid"; written so, it would be a link out of the record.
 */
const AUTOLINK = /:(?=\/\/)|(?<=www)\.|@(?=[A-Za-z0-9_-])/gi;

/**
 * Where a character reference could start: "&#x202E;", "&#8203;", "&lt;" are decoded by a renderer
 * outside code spans, so a value written with one would show a bidirectional override, an
 * invisible character or an angle bracket that printable() never lets through as itself.
 */
const REFERENCE = /&(?=[#A-Za-z0-9])/g;

/** The tool's own prose with values in it: printable, and with nothing that reads as markup inline (no code, HTML, character reference, table cell, link, autolink or image). */
export function proseText(text: string): string {
  return printable(text).replace(/[`<>|[\]]/g, hex4).replace(REFERENCE, hex4).replace(AUTOLINK, hex4);
}
