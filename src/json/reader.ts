import { lastAtOrBelow } from "../collections.js";
import { decodeJsonString } from "./escapes.js";
import type { JsonDocument, KeySpan, SourcePlace, ValueSpan } from "../types.js";

// A strict JSON reader that records the exact span of every value and member name, finds
// duplicate member names, and bounds nesting depth with an explicit stack (no recursion), so a
// hostile file cannot overflow the call stack.

export class JsonScanError extends Error {
  constructor(
    readonly code: "invalid-json" | "duplicate-key" | "too-deep",
    message: string,
    readonly offset: number,
    readonly pointer?: string,
  ) {
    super(message);
  }
}

export function escapePointerToken(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

export function unescapePointerToken(token: string): string {
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

export function pointerTokens(pointer: string): string[] {
  if (pointer === "") return [];
  return pointer.slice(1).split("/").map(unescapePointerToken);
}

// Line starts of the last text asked about: findings for one document come together, so one
// index serves them all and a place costs a binary search, not a scan from the start.
let indexedText: string | null = null;
let lineStarts: number[] = [0];

function indexLines(text: string): void {
  if (text === indexedText) return;
  lineStarts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lineStarts.push(i + 1);
  indexedText = text;
}

export function placeOf(text: string, offset: number): SourcePlace {
  indexLines(text);
  const at = Math.min(Math.max(offset, 0), text.length);
  const lo = lastAtOrBelow(lineStarts, at);
  return { line: lo + 1, column: at - (lineStarts[lo] as number) + 1 };
}

/** The offset of a 1-based line and column (UTF-16 units) in `text`: placeOf read backwards, on the same index. */
export function offsetOf(text: string, line: number, column: number): number {
  indexLines(text);
  return Math.min((lineStarts[line - 1] ?? text.length) + column - 1, text.length);
}

interface Frame {
  isObject: boolean;
  pointer: string;
  start: number;
  count: number;
  keys: Set<string> | null;
  memberPointer: string; // pointer of the member or item being read
}

const WS = new Uint8Array(128);
WS[0x20] = 1;
WS[0x09] = 1;
WS[0x0a] = 1;
WS[0x0d] = 1;

function describe(text: string, i: number): string {
  if (i >= text.length) return "end of input";
  const c = text[i] as string;
  return `'${c === "\n" ? "\\n" : c}'`;
}

// The next quote, backslash or control character: looked for a few characters ahead first (a
// member name, an id, the gap between two escapes), then with one native search from there, so a
// string made of many escapes is read in time linear in its length.
const STRING_STOP = /["\\\u0000-\u001f]/g;
const NEAR_STOP = 16;

/** The offset of the next quote, backslash or control character at or after `j`; -1 where none is. */
function nextStop(text: string, j: number): number {
  const near = Math.min(text.length, j + NEAR_STOP);
  for (let k = j; k < near; k++) {
    const c = text.charCodeAt(k);
    if (c === 0x22 || c === 0x5c || c < 0x20) return k;
  }
  if (near >= text.length) return -1;
  STRING_STOP.lastIndex = near;
  return STRING_STOP.exec(text)?.index ?? -1;
}

/** Reads one string token starting at the opening quote; returns the offset after the closing quote. */
function scanString(text: string, i: number): number {
  let j = i + 1;
  for (;;) {
    j = nextStop(text, j);
    if (j === -1) throw new JsonScanError("invalid-json", "unterminated string", i);
    const c = text.charCodeAt(j);
    if (c === 0x22) return j + 1;
    if (c !== 0x5c) throw new JsonScanError("invalid-json", "control character inside a string", j);
    const e = text.charCodeAt(j + 1);
    if (e === 0x75) {
      for (let h = 2; h < 6; h++) {
        const d = text.charCodeAt(j + h);
        const hex = (d >= 0x30 && d <= 0x39) || (d >= 0x41 && d <= 0x46) || (d >= 0x61 && d <= 0x66);
        if (!hex) throw new JsonScanError("invalid-json", "bad \\u escape in string", j);
      }
      j += 6;
    } else if (e === 0x22 || e === 0x5c || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) {
      j += 2;
    } else {
      throw new JsonScanError("invalid-json", `bad escape ${describe(text, j + 1)} in string`, j);
    }
  }
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

function scanScalar(text: string, i: number): { end: number; kind: ValueSpan["kind"] } {
  const c = text.charCodeAt(i);
  if (c === 0x22) return { end: scanString(text, i), kind: "string" };
  if (c === 0x74 && text.startsWith("true", i)) return { end: i + 4, kind: "bool" };
  if (c === 0x66 && text.startsWith("false", i)) return { end: i + 5, kind: "bool" };
  if (c === 0x6e && text.startsWith("null", i)) return { end: i + 4, kind: "null" };
  if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (m && m[0].length > 0 && m[0] !== "-") return { end: i + m[0].length, kind: "number" };
  }
  throw new JsonScanError("invalid-json", `unexpected ${describe(text, i)}`, i);
}

/** The string a string token (quotes included, from `start` to `end`) spells. */
export function stringAt(text: string, start: number, end: number): string {
  return decodeJsonString(text.slice(start + 1, end - 1));
}

export interface ScanOptions {
  maxDepth: number;
  /** Read a member name that appears twice in one object instead of refusing the document (the secret scan reads every string). */
  allowDuplicateKeys?: boolean;
}

function skipWs(text: string, i: number): number {
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c < 128 && WS[c] === 1) i++;
    else break;
  }
  return i;
}

// The captures of a sitting share their shape: each pointer string is kept once, not once per document.
const pointers = new Map<string, string>();
function interned(pointer: string): string {
  const known = pointers.get(pointer);
  if (known !== undefined) return known;
  if (pointers.size < 200_000 && pointer.length <= 256) pointers.set(pointer, pointer);
  return pointer;
}

let parseWatcher: ((text: string) => void) | null = null;

/** Tells `watch` of every parse of a text from here on (a scan, or the native parse behind `value`); null stops. */
export function watchParses(watch: ((text: string) => void) | null): void {
  parseWatcher = watch;
}

/** Reads a member's name at `i` and the colon after it into its object's frame and `keys`; returns the offset after the colon. */
function memberName(text: string, i: number, frame: Frame, options: ScanOptions, keys: KeySpan[]): number {
  if (text.charCodeAt(i) !== 0x22) {
    throw new JsonScanError("invalid-json", `expected a member name but found ${describe(text, i)}`, i);
  }
  const keyEnd = scanString(text, i);
  const name = stringAt(text, i, keyEnd);
  const pointer = interned(`${frame.pointer}/${escapePointerToken(name)}`);
  if ((frame.keys as Set<string>).has(name) && options.allowDuplicateKeys !== true) {
    throw new JsonScanError("duplicate-key", "a member name appears twice in one object", i, pointer);
  }
  (frame.keys as Set<string>).add(name);
  const colon = skipWs(text, keyEnd);
  if (text.charCodeAt(colon) !== 0x3a) {
    throw new JsonScanError("invalid-json", `expected ':' but found ${describe(text, colon)}`, colon);
  }
  keys.push({ pointer, start: i, end: keyEnd });
  return colon + 1;
}

/** Reads a value at `i` into `spans` and returns the offset after it; a container only opens a frame on `stack`. */
function readValue(text: string, i: number, pointer: string, spans: ValueSpan[], stack: Frame[], maxDepth: number): number {
  const c = text.charCodeAt(i);
  if (c === 0x7b || c === 0x5b) {
    if (stack.length >= maxDepth) throw new JsonScanError("too-deep", `nesting deeper than ${maxDepth} levels`, i, pointer);
    const isObject = c === 0x7b;
    spans.push({ pointer, kind: isObject ? "object" : "array", start: i, end: -1 });
    stack.push({ isObject, pointer, start: spans.length - 1, count: 0, keys: isObject ? new Set() : null, memberPointer: "" });
    return i + 1;
  }
  const { end, kind } = scanScalar(text, i);
  spans.push({ pointer, kind, start: i, end });
  return end;
}

/** Scans `text`; throws JsonScanError with the offending offset. */
export function scanJson(text: string, options: ScanOptions): JsonDocument {
  parseWatcher?.(text);
  const spans: ValueSpan[] = [];
  const keys: KeySpan[] = [];
  const stack: Frame[] = [];
  const n = text.length;

  let i = skipWs(text, 0);
  if (i >= n) throw new JsonScanError("invalid-json", "empty document", 0);
  const { maxDepth } = options;
  i = readValue(text, i, "", spans, stack, maxDepth);

  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    i = skipWs(text, i);
    const c = text.charCodeAt(i);
    if (c === (frame.isObject ? 0x7d : 0x5d)) {
      i++;
      (spans[frame.start] as ValueSpan).end = i;
      stack.pop();
      continue;
    }
    if (frame.count > 0) {
      if (c !== 0x2c) {
        throw new JsonScanError("invalid-json", `expected ',' or '${frame.isObject ? "}" : "]"}' but found ${describe(text, i)}`, i);
      }
      i = skipWs(text, i + 1);
    }
    if (frame.isObject) {
      i = memberName(text, i, frame, options, keys);
      frame.count++;
      i = readValue(text, skipWs(text, i), (keys[keys.length - 1] as KeySpan).pointer, spans, stack, maxDepth);
    } else {
      const itemPointer = interned(`${frame.pointer}/${frame.count}`);
      frame.count++;
      if (i >= n) throw new JsonScanError("invalid-json", "unexpected end of input", i);
      i = readValue(text, i, itemPointer, spans, stack, maxDepth);
    }
  }

  i = skipWs(text, i);
  if (i < n) throw new JsonScanError("invalid-json", `unexpected ${describe(text, i)} after the document`, i);

  return new ScannedDocument(text, spans, keys);
}

/**
 * A scanned document. The scan accepts exactly JSON's grammar, so the native parser cannot
 * disagree; the parsed value is made only when asked for, since the passes mostly read spans.
 */
class ScannedDocument implements JsonDocument {
  #value: unknown;
  #parsed = false;

  constructor(
    readonly text: string,
    readonly spans: ValueSpan[],
    readonly keys: KeySpan[],
  ) {}

  get value(): unknown {
    if (!this.#parsed) {
      parseWatcher?.(this.text);
      this.#value = JSON.parse(this.text);
      this.#parsed = true;
    }
    return this.#value;
  }
}

export interface StringToken {
  span: KeySpan | ValueSpan;
  isKey: boolean;
  /** Its index in `doc.keys` or `doc.spans`, which line up one for one between a capture and its cleared text. */
  index: number;
}

/** Every string token of a document: member names first, then string values. */
export function stringTokens(doc: JsonDocument): StringToken[] {
  const keys = doc.keys.map((span, index) => ({ span, isKey: true, index }));
  const values = doc.spans.flatMap((span, index) => (span.kind === "string" ? [{ span, isKey: false, index }] : []));
  return [...keys, ...values];
}

/**
 * The end of the JSON value that starts at `start`, read by JSON's grammar up to its last
 * character and no further: what stands after it (the rest of a log line, another document, a
 * comma) is not looked at. Throws JsonScanError at the first character that breaks the grammar,
 * with its offset, so a caller searching text for embedded JSON knows how far each try read.
 * No recursion: nesting costs memory, bounded by `maxDepth`.
 */
export function jsonValueEnd(text: string, start: number, maxDepth: number): number {
  const closers: number[] = [];
  const counts: number[] = [];
  const open = (i: number): number => {
    const c = text.charCodeAt(i);
    if (c !== 0x7b && c !== 0x5b) return scanScalar(text, i).end;
    if (closers.length >= maxDepth) throw new JsonScanError("too-deep", `nesting deeper than ${maxDepth} levels`, i);
    closers.push(c === 0x7b ? 0x7d : 0x5d);
    counts.push(0);
    return i + 1;
  };
  let i = open(start);
  while (closers.length > 0) {
    const closer = closers[closers.length - 1] as number;
    i = skipWs(text, i);
    const c = text.charCodeAt(i);
    if (c === closer) {
      closers.pop();
      counts.pop();
      i++;
      continue;
    }
    if ((counts[counts.length - 1] as number) > 0) {
      if (c !== 0x2c) throw new JsonScanError("invalid-json", `expected ',' but found ${describe(text, i)}`, i);
      i = skipWs(text, i + 1);
    }
    counts[counts.length - 1] = (counts[counts.length - 1] as number) + 1;
    if (closer === 0x7d) {
      if (text.charCodeAt(i) !== 0x22) throw new JsonScanError("invalid-json", `expected a member name but found ${describe(text, i)}`, i);
      i = skipWs(text, scanString(text, i));
      if (text.charCodeAt(i) !== 0x3a) throw new JsonScanError("invalid-json", `expected ':' but found ${describe(text, i)}`, i);
      i = skipWs(text, i + 1);
    }
    if (i >= text.length) throw new JsonScanError("invalid-json", "unexpected end of input", i);
    i = open(i);
  }
  return i;
}
