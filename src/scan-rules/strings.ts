import { decodeWithOffsets } from "../json/escapes.js";
import { scanJson, stringTokens } from "../json/reader.js";
import type { KeySpan, ValueSpan } from "../types.js";

// The strings of a scanned text, decoded, with a way back to raw offsets: every string value and
// member name of a JSON document, or the whole text when it is not JSON.

export interface ScannedString {
  /** Raw offset of the first character inside the quotes (0 for a whole text). */
  start: number;
  decoded: string;
  /** Raw offset (absolute) of a decoded offset. */
  rawAt(i: number): number;
  member: string | null;
  isKey: boolean;
}

// secretlint runs every rule on one source before the next, so the last reading serves them all.
let lastText: string | null = null;
let lastStrings: ScannedString[] = [];

export function stringsOf(text: string): ScannedString[] {
  if (text !== lastText) {
    lastStrings = read(text);
    lastText = text;
  }
  return lastStrings;
}

function read(text: string): ScannedString[] {
  let doc;
  try {
    doc = scanJson(text, { maxDepth: 10_000 });
  } catch {
    return [{ start: 0, decoded: text, rawAt: (i) => i, member: null, isKey: false }];
  }
  const memberOf = (pointer: string): string | null => (pointer.lastIndexOf("/") >= 0 ? pointer.slice(pointer.lastIndexOf("/") + 1) : null);
  const one = (span: ValueSpan | KeySpan, isKey: boolean): ScannedString => {
    const start = span.start + 1;
    const { decoded, starts } = decodeWithOffsets(text.slice(start, span.end - 1));
    return { start, decoded, rawAt: (i) => start + (starts ? (starts[i] as number) : i), member: memberOf(span.pointer), isKey };
  };
  return stringTokens(doc).map((t) => one(t.span, t.isKey));
}

let lowerText: string | null = null;
let lowered = "";

/** The text in lower case, for the rules' keyword prefilters; made once per source. */
export function lowerOf(text: string): string {
  if (text !== lowerText) {
    lowered = text.toLowerCase();
    lowerText = text;
  }
  return lowered;
}
