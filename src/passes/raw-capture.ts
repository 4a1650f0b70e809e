import { nameGrammar, parseCaptureName, type NameGrammar } from "../capture-name.js";
import { escapePointerToken, jsonValueEnd, JsonScanError, pointerTokens } from "../json/reader.js";
import type { HarnessCatalogue, PayloadRules } from "../types.js";

// Raw captures are recognised by what they are, not only where they are: a file whose name
// follows the capture grammar, or whose content holds a payload of a known host (an object that
// carries every member of one signature in rules/payloads.json), in a JSON document, or in any
// JSON value standing in other text (JSON Lines, a log line after its prefix, several documents in
// a row, a document followed by a comma or a comment), at any depth, or in a string that itself
// holds such text; bytes that are not UTF-8 do not hide it. Pure: bytes in, a verdict out.

export interface RawCaptureCheck {
  grammar: NameGrammar;
  signatures: { id: string; members: { tokens: string[]; is: string; events: Set<string> }[] }[];
  /** Words one of which any payload's text holds, as written or behind an escape. */
  keywords: string[];
}

export type PayloadVerdict = { signature: string; pointer: string } | { unchecked: string } | null;

/** Above this a JSON-looking file is not parsed; it is refused as one that cannot be shown free of payloads. */
export const MAX_CHECKED_BYTES = 64 * 1024 * 1024;
/** Strings holding JSON are opened this many levels deep. */
const NESTED_JSON_LEVELS = 4;

export function rawCaptureCheck(harnesses: HarnessCatalogue[], rules: PayloadRules): RawCaptureCheck {
  const eventsOf = (names: string[]): Set<string> => new Set(harnesses.filter((h) => names.includes(h.harness)).flatMap((h) => h.events.map((e) => e.event)));
  const signatures = rules.signatures.map((s) => ({ id: s.id, members: s.members.map((m) => ({ tokens: pointerTokens(m.pointer), is: m.is, events: eventsOf(s.harnesses) })) }));
  const keywords = [...new Set(rules.signatures.flatMap((s) => s.members.map((m) => pointerTokens(m.pointer)[0] as string)))];
  return { grammar: nameGrammar(harnesses), signatures, keywords };
}

/** True when a file's own name (the last path segment) follows the capture grammar of a known harness. */
export function namedLikeCapture(path: string, check: RawCaptureCheck): boolean {
  const kind = parseCaptureName(path.slice(path.lastIndexOf("/") + 1), check.grammar).kind;
  return kind === "capture" || kind === "unknown-event";
}

function memberAt(value: unknown, tokens: string[]): unknown {
  let cur: unknown = value;
  for (const t of tokens) {
    if (cur === null || typeof cur !== "object" || Array.isArray(cur) || !Object.hasOwn(cur, t)) return undefined;
    cur = (cur as Record<string, unknown>)[t];
  }
  return cur;
}

function matchesSignature(value: unknown, check: RawCaptureCheck): string | null {
  for (const s of check.signatures) {
    const all = s.members.every((m) => {
      const v = memberAt(value, m.tokens);
      if (m.is === "object") return v !== null && typeof v === "object";
      if (typeof v !== "string") return false;
      return m.is === "string" || m.events.has(v);
    });
    if (all) return s.id;
  }
  return null;
}

/** A text too costly to search for embedded JSON: it cannot be shown free of payloads. */
class SearchTooCostly extends Error {}

/** How far the searches for embedded JSON may read, all told, as a multiple of the text's length. */
const SEARCH_FACTOR = 16;

/**
 * Every JSON object or array standing anywhere in a text that is not one JSON document: after a
 * log line's prefix, several in a row, followed by a comma or a comment, or quoted as a JSON
 * string. Each opening brace, bracket or quote before one is tried in turn; a value read whole is
 * taken (a string is searched in its turn) and the search goes on after it.
 */
function embedded(text: string, spent: { chars: number; limit: number }): unknown[] {
  const docs: unknown[] = [];
  // An object, an array, or a JSON string literal holding one (a payload logged after JSON.stringify).
  const opening = /[{[]|"(?=[{[])/g;
  for (let m = opening.exec(text); m !== null; m = opening.exec(text)) {
    let end = -1;
    try {
      end = jsonValueEnd(text, m.index, 512);
    } catch (err) {
      if (!(err instanceof JsonScanError)) throw err;
      spent.chars += Math.max(err.offset - m.index, 1);
    }
    if (end !== -1) {
      spent.chars += end - m.index;
      docs.push(JSON.parse(text.slice(m.index, end)));
      opening.lastIndex = end;
    }
    if (spent.chars > spent.limit) throw new SearchTooCostly();
  }
  return docs;
}

/** The documents a text holds: itself as one JSON document, else every JSON value standing in it. */
function parsed(text: string, spent: { chars: number; limit: number }): unknown[] {
  const t = text.trimStart();
  if (t.startsWith("{") || t.startsWith("[")) {
    try {
      return [JSON.parse(t)];
    } catch {
      return embedded(text, spent);
    }
  }
  return embedded(text, spent);
}

/** The first object carrying a signature, searched without recursion through every value and nested JSON string. */
function findPayload(roots: unknown[], check: RawCaptureCheck, spent: { chars: number; limit: number }): { signature: string; pointer: string } | null {
  const stack: { value: unknown; pointer: string; level: number }[] = roots.map((value, i) => ({ value, pointer: roots.length > 1 ? `/${i}` : "", level: 0 }));
  while (stack.length > 0) {
    const { value, pointer, level } = stack.pop() as { value: unknown; pointer: string; level: number };
    if (typeof value === "string") {
      const t = value.trimStart();
      if (level < NESTED_JSON_LEVELS && (t.startsWith("{") || t.startsWith("[") || value.includes("{")) && value.length <= MAX_CHECKED_BYTES) {
        for (const inner of parsed(value, spent)) stack.push({ value: inner, pointer, level: level + 1 });
      }
      continue;
    }
    if (value === null || typeof value !== "object") continue;
    const hit = matchesSignature(value, check);
    if (hit) return { signature: hit, pointer };
    const entries: [string, unknown][] = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
    for (const [k, v] of entries.reverse()) stack.push({ value: v, pointer: `${pointer}/${escapePointerToken(k)}`, level });
  }
  return null;
}

/** Whether these bytes hold a payload of a known host; `unchecked` when a file is too large to read. */
export function payloadIn(bytes: Uint8Array, check: RawCaptureCheck): PayloadVerdict {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // Cheap first: a payload's text holds one of the signatures' member names, or an escape that could spell one.
  if (buf.indexOf(0x5c) === -1 && !check.keywords.some((k) => buf.includes(k))) return null;
  if (buf.indexOf(0x7b) === -1) return null;
  // A text too large to parse cannot be shown free of payloads.
  if (buf.length > MAX_CHECKED_BYTES) return { unchecked: `${buf.length} bytes, above the ${MAX_CHECKED_BYTES}-byte limit of the payload check` };
  // A byte that is not UTF-8 (a binary log, one stray byte) is read as U+FFFD: the payload beside it is still read.
  const text = buf.toString("utf8");
  const spent = { chars: 0, limit: SEARCH_FACTOR * text.length + (1 << 20) };
  try {
    return findPayload(parsed(text.startsWith("\ufeff") ? text.slice(1) : text, spent), check, spent);
  } catch (err) {
    if (!(err instanceof SearchTooCostly)) throw err;
    return { unchecked: "its braces and brackets open so much JSON that is never closed that it cannot be searched for payloads in reasonable time" };
  }
}
