import { lastAtOrBelow } from "../collections.js";

// The one decoder of JSON string escapes. Every reader of string content (the positioned reader,
// substitution, the final check, the secret scan) decodes through here.

const SIMPLE: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

export interface DecodedString {
  decoded: string;
  /** Raw offset where each decoded UTF-16 unit starts, plus the raw length; null when nothing is escaped. */
  starts: number[] | null;
}

/** Decodes raw string content (between the quotes), keeping where each decoded unit came from. */
export function decodeWithOffsets(raw: string): DecodedString {
  if (!raw.includes("\\")) return { decoded: raw, starts: null };
  const starts: number[] = [];
  const parts: string[] = [];
  let i = 0;
  while (i < raw.length) {
    starts.push(i);
    if (raw.charCodeAt(i) === 0x5c) {
      const e = raw[i + 1] as string;
      if (e === "u") {
        parts.push(String.fromCharCode(parseInt(raw.slice(i + 2, i + 6), 16)));
        i += 6;
      } else {
        parts.push(SIMPLE[e] ?? e);
        i += 2;
      }
    } else {
      parts.push(raw[i] as string);
      i++;
    }
  }
  starts.push(raw.length);
  return { decoded: parts.join(""), starts };
}

/** The text raw string content spells. */
export function decodeJsonString(raw: string): string {
  return raw.includes("\\") ? decodeWithOffsets(raw).decoded : raw;
}

/** Encodes text as string content, writing `/` the way `like` (the raw text it replaces) wrote it. */
export function encodeJsonString(text: string, like = ""): string {
  const slash = /\\u002[fF]|\\\//.exec(like)?.[0] ?? "/";
  let out = "";
  for (const ch of text) {
    const c = ch.charCodeAt(0);
    if (ch === '"') out += '\\"';
    else if (ch === "\\") out += "\\\\";
    else if (ch === "/") out += slash;
    else if (c < 0x20) out += `\\u${c.toString(16).padStart(4, "0")}`;
    else out += ch;
  }
  return out;
}

/** Raw string content with each range of the text it spells (in order, apart) written as `text`, encoded; every other byte as written. */
export function spliceDecoded(raw: string, starts: number[] | null, edits: readonly { start: number; end: number; text: string }[]): string {
  const at = (i: number): number => (starts ? (starts[i] as number) : i);
  let out = "";
  let copied = 0;
  for (const e of edits) {
    out += raw.slice(copied, at(e.start)) + encodeJsonString(e.text);
    copied = at(e.end);
  }
  return out + raw.slice(copied);
}

// One level of escapes as text that is itself JSON (or a shell's quoting of it) writes them.
const NESTED_ESCAPE = /\\(?:u([0-9a-fA-F]{4})|(["\\/bfnrt]))/g;

/**
 * A decoded string and every deeper reading of it: JSON inside a string, inside a string, ...
 * each level unescaped once more, until nothing changes (at most `depth` levels).
 */
export function nestedReadings(decoded: string, depth = 8): string[] {
  const out = [decoded];
  let cur = decoded;
  for (let k = 0; k < depth && cur.includes("\\"); k++) {
    const next = cur.replace(NESTED_ESCAPE, (_m, hex: string | undefined, ch: string | undefined) =>
      hex !== undefined ? String.fromCharCode(parseInt(hex, 16)) : (SIMPLE[ch as string] as string),
    );
    if (next === cur) break;
    out.push(next);
    cur = next;
  }
  return out;
}

/** Decoded text and where it came from: at each break, a decoded offset and the raw offset it starts at. */
export interface DecodedLevel {
  decoded: string;
  /** Decoded offsets of the breaks, ascending; the first is 0. */
  readonly breaksAt: number[];
  /** Raw offsets the breaks start at. */
  readonly rawStarts: number[];
  /** The input's length, where the decoded text's start and end are known to map to the input's (no escape decodes to nothing). */
  readonly inputLength?: number;
}

const isHex = (c: number): boolean => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);

/** The length of the escape at `at` (a backslash), or 0 where it starts none. */
function escapeLength(text: string, at: number): number {
  const e = text[at + 1];
  if (e === "u") {
    for (let k = at + 2; k < at + 6; k++) if (!isHex(text.charCodeAt(k))) return 0;
    return 6;
  }
  return e !== undefined && SIMPLE[e] !== undefined ? 2 : 0;
}

/**
 * One level of escapes with a map back to the input, kept as breaks rather than per character
 * so that long strings with few escapes stay cheap. `strict` reads string content the reader
 * has already checked; otherwise a backslash that starts no escape is kept as it stands.
 */
export function decodeLevel(text: string, strict: boolean): DecodedLevel {
  if (strict && text.includes("\\")) return new CheckedLevel(text);
  const breaksAt = [0];
  const rawStarts = [0];
  let decoded = "";
  let from = 0;
  for (let at = text.indexOf("\\"); at !== -1; at = text.indexOf("\\", at)) {
    const length = strict ? (text[at + 1] === "u" ? 6 : 2) : escapeLength(text, at);
    if (length === 0) {
      at += 1;
      continue;
    }
    const e = text[at + 1] as string;
    decoded += text.slice(from, at) + (e === "u" ? String.fromCharCode(parseInt(text.slice(at + 2, at + 6), 16)) : (SIMPLE[e] ?? e));
    // Between breaks decoded and raw offsets advance together; an escape's unit maps to where it starts.
    breaksAt.push(decoded.length);
    from = at + length;
    rawStarts.push(from);
    at = from;
  }
  if (from === 0) return { decoded: text, breaksAt, rawStarts };
  return { decoded: decoded + text.slice(from), breaksAt, rawStarts };
}

/**
 * Checked string content: the native parser decodes it. The breaks are worked out when an offset
 * inside is first asked for: most strings are only read, and each escape decodes to one unit, so
 * the start and the end map to the input's without them.
 */
class CheckedLevel implements DecodedLevel {
  #breaks: { breaksAt: number[]; rawStarts: number[] } | null = null;
  readonly decoded: string;

  constructor(private readonly text: string) {
    this.decoded = JSON.parse(`"${text}"`) as string;
  }

  get inputLength(): number {
    return this.text.length;
  }

  get breaksAt(): number[] {
    return this.#read().breaksAt;
  }

  get rawStarts(): number[] {
    return this.#read().rawStarts;
  }

  #read(): { breaksAt: number[]; rawStarts: number[] } {
    if (this.#breaks !== null) return this.#breaks;
    const { text } = this;
    const breaksAt = [0];
    const rawStarts = [0];
    let length = 0;
    let from = 0;
    for (let at = text.indexOf("\\"); at !== -1; at = text.indexOf("\\", from)) {
      length += at - from + 1;
      from = at + (text[at + 1] === "u" ? 6 : 2);
      breaksAt.push(length);
      rawStarts.push(from);
    }
    return (this.#breaks = { breaksAt, rawStarts });
  }
}

/** The input offset a decoded offset comes from (the decoded length maps to the input's length). */
export function inputOffset(level: DecodedLevel, i: number): number {
  if (level.inputLength !== undefined && (i === 0 || i === level.decoded.length)) return i === 0 ? 0 : level.inputLength;
  const lo = lastAtOrBelow(level.breaksAt, i);
  return (level.rawStarts[lo] as number) + (i - (level.breaksAt[lo] as number));
}

/** A text with its percent-escapes undone, where they are whole; the text as it is where one is broken. */
export function percentDecoded(text: string): string {
  if (!text.includes("%")) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
