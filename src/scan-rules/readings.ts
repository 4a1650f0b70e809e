import { numberLists } from "../byte-lists.js";
import { lastAtOrBelow, pushAll } from "../collections.js";
import { numberListReadings } from "./byte-text.js";
import { decodeLevel, inputOffset, type DecodedLevel } from "../json/escapes.js";
import { encodedReadings, numberListsRead, ReadingBudget } from "./encoded.js";
import type { Reading } from "./reading-builder.js";
import { scanJson, stringTokens, unescapePointerToken } from "../json/reader.js";
import type { WordFinder } from "../regex.js";
import type { JsonDocument } from "../types.js";

// What the scan reads in a text: every string value and member name as a JSON parser decodes it,
// JSON held in strings read as JSON again, and each further level of escapes, each reading with
// a way back to the raw offsets. Every decoded string that differs from its raw bytes is also
// written out, one per line with its member name beside it (the decoded text), for secretlint's
// preset and the rules that read context; every prefilter reads the raw and the decoded text.

/** Levels of decoding past the raw bytes the scan follows; a string still changing past them is a finding. */
export const MAX_LEVELS = 32;

export type { Reading };

/** A raw string token of the scanned text (the outermost, for JSON held in strings). */
export interface RawPlace {
  pointer: string | null;
  /** Raw offsets of the token, quotes included. */
  start: number;
  end: number;
}

export interface ScannedString {
  place: RawPlace;
  /** First as a JSON parser decodes it (the text itself outside JSON), then each further level of escapes. */
  readings: Reading[];
  /** The decoded name of the member this string is the value of. */
  member: string | null;
  isKey: boolean;
  /** Escapes still decode after MAX_LEVELS levels: the scan cannot read it whole. */
  tooDeep: boolean;
  /** What an encoding in a string spells (encoded.ts): its reading is never the raw text, in JSON or out of it. */
  encoded?: true;
  /** A reading with line ends taken out (Reading.joined): the rules for names and for what a text assigns pass it over. */
  keyShapesOnly?: true;
  /** It holds a JSON document, whose own strings are read one by one after it. */
  holdsDocument?: true;
}

export interface SourceReadings {
  raw: string;
  /** The raw text is one JSON document. */
  isJson: boolean;
  /** Each string that differs from its raw bytes, decoded, on lines of its own; empty when none does. */
  decoded: string;
  /** The words of a finder (the rules' prefilters) in the raw text and in the decoded text, in lower case; found once per finder. */
  words(finder: WordFinder): FoundWords;
  strings: ScannedString[];
  /** Raw string tokens in order, for placing a finding. */
  places: RawPlace[];
  /** A range of the decoded text as a range of the raw text. */
  rawRange(start: number, end: number): [number, number];
  /** The raw end of the innermost string (at any level) holding a raw offset: no secret runs past it. */
  stringEnd(offset: number): number | null;
}

/** Words found in lower case: in the raw text, and in the decoded text (none where it is empty). */
export interface FoundWords {
  raw: ReadonlySet<string>;
  decoded: ReadonlySet<string>;
}

// Outside a \u escape and an encoding undone, decoding writes only a quote, a backslash, a slash or
// a control character, and the decoded text puts quotes, a colon, a space and a line break around
// each string; everything else it copies from the raw text. A word holding none of these stands in
// the decoded text only where it stands in the raw text.
const DECODING_WRITES = /["\\/:\s\x00-\x1f]/;
const writtenWords = new WeakMap<WordFinder, readonly string[]>();

/** The words of a finder the decoded text may hold where the raw text does not. */
function wordsDecodingWrites(finder: WordFinder): readonly string[] {
  let words = writtenWords.get(finder);
  if (words === undefined) writtenWords.set(finder, (words = finder.words.filter((w) => DECODING_WRITES.test(w))));
  return words;
}

/** Words looked up in the decoded text one by one at most; past them one search of it costs less. */
const MAX_LOOKED_UP = 8;

/**
 * A finder's words in the raw and the decoded text. Where the decoded text can hold no word the
 * raw text lacks but those `wordsDecodingWrites` gives, it is not searched: each of those and of
 * the raw text's words is looked up in it.
 */
function findWords(finder: WordFinder, rawLower: string, decodedLower: string, copiesRaw: boolean): FoundWords {
  const raw = finder.in(rawLower);
  if (decodedLower === "") return { raw, decoded: new Set() };
  if (!copiesRaw || raw.size + wordsDecodingWrites(finder).length > MAX_LOOKED_UP) return { raw, decoded: finder.in(decodedLower) };
  const decoded = new Set<string>();
  for (const list of [raw, wordsDecodingWrites(finder)]) for (const w of list) if (decodedLower.includes(w)) decoded.add(w);
  return { raw, decoded };
}

interface Collector {
  isJson: boolean;
  strings: ScannedString[];
  places: RawPlace[];
  /** Strings whose decoded readings differ from their raw bytes: the decoded text. */
  shown: ScannedString[];
  /** Strings that hold a JSON document, whose own strings are read one by one. */
  documents: Set<ScannedString>;
  /** The raw text's document, where it is one. */
  whole: JsonDocument | null;
  /** Readings of lists of numbers (withNumberLists): text the raw text does not hold as it stands. */
  numbered: number;
}

/** How a JSON text starts, after blanks: a text that starts otherwise is none, and is not read as one (a failed read throws, and throwing costs). */
const JSON_START = /^[ \t\n\r]*(?:[{["\-0-9]|true|false|null)/;

function parse(text: string): JsonDocument | null {
  if (!JSON_START.test(text)) return null;
  try {
    return scanJson(text, { maxDepth: 10_000, allowDuplicateKeys: true });
  } catch {
    return null;
  }
}

const reading = (level: DecodedLevel, toRaw: (i: number) => number): Reading => ({ text: level.decoded, rawAt: (i) => toRaw(inputOffset(level, i)) });

/**
 * Each further level of escapes of a string's last reading, up to MAX_LEVELS in all. Real nesting
 * halves a string's backslashes at each level; readings that add up to more than a few times the
 * string's own length come from escapes built to decode one character per level, and are refused.
 */
function deeperReadings(s: ScannedString, level: number): void {
  let last = s.readings[s.readings.length - 1] as Reading;
  let budget = 4 * last.text.length + 4096;
  for (let k = level; last.text.includes("\\"); k++) {
    const next = decodeLevel(last.text, false);
    if (next.decoded === last.text) return;
    budget -= next.decoded.length;
    if (k >= MAX_LEVELS || budget < 0) {
      s.tooDeep = true;
      return;
    }
    last = reading(next, last.rawAt);
    s.readings.push(last);
  }
}

const looksLikeDocument = (text: string): boolean => /^\s*[[{]/.test(text);

/** The name of the member a value at `pointer` is in; null at the root and for an array's items. */
function memberOf(pointer: string): string | null {
  const token = pointer.slice(pointer.lastIndexOf("/") + 1);
  return pointer === "" || /^(?:0|[1-9][0-9]*)$/.test(token) ? null : unescapePointerToken(token);
}

/** The strings of one JSON document at `level` (1 for the raw text's own strings). */
function readDocument(doc: JsonDocument, toRaw: (i: number) => number, outer: RawPlace | null, level: number, into: Collector): void {
  const text = doc.text;
  const anyEscape = text.includes("\\");
  const escapedKeys = new Set(anyEscape ? doc.keys.filter((k) => text.slice(k.start, k.end).includes("\\")).map((k) => k.pointer) : []);
  for (const { span, isKey } of stringTokens(doc)) {
    const contentStart = span.start + 1;
    const rawContent = text.slice(contentStart, span.end - 1);
    const place = outer ?? { pointer: span.pointer, start: toRaw(span.start), end: toRaw(span.end) };
    if (!outer) into.places.push(place);
    const member = isKey ? null : memberOf(span.pointer);
    const escaped = anyEscape && rawContent.includes("\\");
    const at = (i: number): number => toRaw(contentStart + i);
    const first = escaped ? reading(decodeLevel(rawContent, true), at) : { text: rawContent, rawAt: at };
    const s: ScannedString = { place, readings: [first], member, isKey, tooDeep: false };
    into.strings.push(s);
    if (escaped || (!isKey && escapedKeys.has(span.pointer))) into.shown.push(s);
    const inner = level < MAX_LEVELS && looksLikeDocument(first.text) ? parse(first.text) : null;
    if (inner) {
      into.documents.add(s);
      s.holdsDocument = true;
      readDocument(inner, first.rawAt, place, level + 1, into);
    } else if (escaped && level >= MAX_LEVELS && first.text.includes("\\")) s.tooDeep = true;
    else if (escaped) deeperReadings(s, level + 1);
  }
}

/** A text that is not JSON: itself, and each level of escapes in it. */
function readPlain(text: string, offset: number, into: Collector): void {
  const place = { pointer: null, start: offset, end: offset + text.length };
  const s: ScannedString = { place, readings: [{ text, rawAt: (i) => offset + i }], member: null, isKey: false, tooDeep: false };
  into.strings.push(s);
  deeperReadings(s, 1);
  if (s.readings.length > 1) into.shown.push(s);
}

/**
 * The pointer of the array a list of numbers outside any string stands in: its first number's
 * parent. Spans are in the order they start, so the number is found by halving (`starts`).
 */
function arrayPointer(doc: JsonDocument, starts: number[], offset: number): string | null {
  const span = doc.spans[lastAtOrBelow(starts, offset)];
  if (span === undefined || span.start !== offset) return null;
  return span.pointer.slice(0, span.pointer.lastIndexOf("/"));
}

/**
 * Each list of decimal numbers in a JSON document outside its strings that spells text (a key kept
 * as a Buffer's bytes, a byte array), as a reading at its numbers' places: numbers are kept as the
 * host sent them, and no string's reading holds them.
 */
function withNumberLists(raw: string, doc: JsonDocument, into: Collector): void {
  // The strings' places, in order: a list in a string is read with the string's encodings (encoded.ts).
  const strings = [...into.places].sort((a, b) => a.start - b.start);
  let starts: number[] | null = null;
  for (const list of numberLists(raw)) {
    if (placeAt(strings, list.start) !== null) continue;
    const found = numberListReadings(list, { text: raw, rawAt: (i) => i });
    if (found.length === 0) continue;
    // Its own place, the numbers' stretch and no more: it overlaps no string's.
    starts ??= doc.spans.map((s) => s.start);
    const place = { pointer: arrayPointer(doc, starts, list.start), start: list.start, end: list.end };
    into.places.push(place);
    for (const reading of found) {
      const s: ScannedString = { place, readings: [reading], member: null, isKey: false, tooDeep: false, encoded: true };
      into.strings.push(s);
      into.shown.push(s);
      into.numbered++;
    }
  }
}

/** One JSON document (`document` where it was read already), or one per line (JSON Lines), or plain text; and the lists of numbers in it. */
function collect(raw: string, document?: JsonDocument): Collector {
  const into = collectStrings(raw, document);
  if (into.whole !== null) withNumberLists(raw, into.whole, into);
  return into;
}

/** One JSON document, or one per line (JSON Lines), or plain text. */
function collectStrings(raw: string, document?: JsonDocument): Collector {
  const into: Collector = { isJson: false, strings: [], places: [], shown: [], documents: new Set(), whole: null, numbered: 0 };
  const whole = document !== undefined && document.text === raw ? document : parse(raw);
  if (whole) {
    into.isJson = true;
    into.whole = whole;
    readDocument(whole, (i) => i, null, 1, into);
    return into;
  }
  const lines: { doc: JsonDocument; at: number }[] = [];
  for (let at = 0; at < raw.length; ) {
    const nl = raw.indexOf("\n", at);
    const end = nl === -1 ? raw.length : nl + 1;
    const line = raw.slice(at, end);
    const doc = line.trim() === "" ? null : parse(line);
    if (!doc && line.trim() !== "") {
      readPlain(raw, 0, into);
      return into;
    }
    if (doc) lines.push({ doc, at });
    at = end;
  }
  for (const { doc, at } of lines) readDocument(doc, (i) => at + i, null, 1, into);
  return into;
}

interface Segment {
  at: number;
  length: number;
  /** The reading a segment spells, or null for the quotes and member names around it. */
  reading: Reading | null;
  rawStart: number;
}

/** The decoded text: each shown string's readings on lines of their own. */
function decodedTextOf(shown: ScannedString[]): { decoded: string; segments: Segment[] } {
  const parts: string[] = [];
  const segments: Segment[] = [];
  let at = 0;
  const push = (text: string, r: Reading | null, rawStart: number): void => {
    parts.push(text);
    segments.push({ at, length: text.length, reading: r, rawStart });
    at += text.length;
  };
  for (const s of shown) {
    // Outside JSON the first reading is the raw text, which the rules read as it is.
    for (const r of s.place.pointer === null && s.encoded !== true ? s.readings.slice(1) : s.readings) {
      const rawStart = r.rawAt(0);
      const plain = s.place.pointer === null;
      if (!plain) push(s.isKey || s.member === null ? '"' : `"${s.member}": "`, null, rawStart);
      push(r.text, r, rawStart);
      push(plain ? "\n" : s.isKey ? '":\n' : '"\n', null, r.rawAt(r.text.length));
    }
  }
  return { decoded: parts.join(""), segments };
}

function segmentAt(segments: Segment[], starts: number[], i: number): Segment | null {
  if (segments.length === 0 || i < (segments[0] as Segment).at) return null;
  return segments[lastAtOrBelow(starts, i)] as Segment;
}

/**
 * Texts of strings in which undoing every encoding found nothing, within their budget: what it
 * finds hangs on the text alone (a fresh budget for each string, sized by its length), so a text
 * that comes again (an id, a path in every capture of a sitting) is not decoded again. Bounded in
 * characters: a process reading millions of distinct texts keeps no more than this.
 */
const spellsNothing = new Set<string>();
let spellsNothingChars = 0;
const MAX_SPELLS_NOTHING_CHARS = 1 << 22;
const MAX_REMEMBERED_TEXT = 512;

function rememberSpellsNothing(key: string): void {
  if (spellsNothingChars + key.length > MAX_SPELLS_NOTHING_CHARS) {
    spellsNothing.clear();
    spellsNothingChars = 0;
  }
  spellsNothing.add(key);
  spellsNothingChars += key.length;
}

/**
 * Each string's readings once an encoding in it is undone (encoded.ts): strings of their own at
 * the same place, read by every rule and written into the decoded text. A string holding a JSON
 * document is read through its own strings. A string whose readings outgrow their budget cannot
 * be read whole, and is a finding.
 */
function withEncodedReadings(into: Collector): number {
  const found: ScannedString[] = [];
  for (const s of into.strings) {
    const first = s.readings[0] as Reading;
    if (into.documents.has(s)) {
      // A JSON document in a string is read through its own strings; the numbers outside them (a byte list printed as JSON) are read here.
      for (const e of numberListsRead(first, new ReadingBudget(first.text.length), [])) found.push({ place: s.place, readings: [e], member: s.member, isKey: false, tooDeep: false, encoded: true });
      continue;
    }
    const last = s.readings[s.readings.length - 1] as Reading;
    // The first text's length leads the key: no text, whatever characters it holds, is another's two.
    // A long text is seldom seen again, and its key would copy it: it is read each time.
    const short = first.text.length + (last === first ? 0 : last.text.length) <= MAX_REMEMBERED_TEXT;
    const key = !short ? null : last === first ? `${first.text.length}:${first.text}` : `${first.text.length}:${first.text}\u0000${last.text}`;
    if (key !== null && spellsNothing.has(key)) continue;
    const budget = new ReadingBudget(first.text.length);
    const before = found.length;
    for (const r of last === first ? [first] : [first, last]) {
      for (const e of encodedReadings(r, budget)) found.push({ place: s.place, readings: [e], member: s.member, isKey: false, tooDeep: false, encoded: true, ...(e.joined ? { keyShapesOnly: true as const } : {}) });
    }
    if (budget.exhausted) s.tooDeep = true;
    else if (key !== null && found.length === before) rememberSpellsNothing(key);
  }
  pushAll(into.strings, found);
  pushAll(into.shown, found);
  return found.length;
}

export function readSource(raw: string, document?: JsonDocument): SourceReadings {
  const collected = collect(raw, document);
  const encoded = withEncodedReadings(collected);
  const { isJson, strings, places, shown } = collected;
  places.sort((a, b) => a.start - b.start);
  const { decoded, segments } = decodedTextOf(shown);
  const rawLower = raw.toLowerCase();
  const decodedLower = decoded.toLowerCase();
  const copiesRaw = !raw.includes("\\u") && encoded === 0 && collected.numbered === 0;
  const found = new Map<WordFinder, FoundWords>();
  const starts = segments.map((s) => s.at);
  const byPlace = new Map<RawPlace, ScannedString[]>();
  for (const s of strings) {
    const list = byPlace.get(s.place);
    if (list) list.push(s);
    else byPlace.set(s.place, [s]);
  }
  const toRaw = (i: number, isEnd: boolean): number => {
    const seg = segmentAt(segments, starts, isEnd ? Math.max(0, i - 1) : i);
    if (!seg) return 0;
    return seg.reading ? seg.reading.rawAt(Math.min(i - seg.at, seg.length)) : seg.rawStart;
  };
  return {
    raw,
    isJson,
    decoded,
    words(finder) {
      let words = found.get(finder);
      if (words === undefined) found.set(finder, (words = findWords(finder, rawLower, decodedLower, copiesRaw)));
      return words;
    },
    strings,
    places,
    rawRange(start, end) {
      const s = toRaw(start, false);
      const e = toRaw(end, true);
      return [s, Math.max(e, Math.min(s + 1, raw.length))];
    },
    stringEnd(offset) {
      const place = placeAt(places, offset);
      let end: number | null = null;
      for (const s of place ? (byPlace.get(place) ?? []) : []) {
        const r = s.readings[0] as Reading;
        const [from, to] = [r.rawAt(0), r.rawAt(r.text.length)];
        if (from <= offset && offset < to && (end === null || to <= end)) end = to;
      }
      return end;
    },
  };
}

/** The raw string token holding an offset. */
export function placeAt(places: RawPlace[], offset: number): RawPlace | null {
  let lo = 0;
  let hi = places.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const p = places[mid] as RawPlace;
    if (offset < p.start) hi = mid - 1;
    else if (offset >= p.end) lo = mid + 1;
    else return p;
  }
  return null;
}

// secretlint runs every rule on one source before the next, so one reading serves them all.
let last: SourceReadings | null = null;

/** The readings of a raw text the engine is given: prepared by the scan, or read here. */
export function readingsOf(raw: string): SourceReadings {
  if (last === null || last.raw !== raw) last = readSource(raw);
  return last;
}

// The reach control's texts are the same in every scan of a process: they are read once.
const kept = new Map<string, SourceReadings>();
const MAX_KEPT = 8;

/** Reads a raw text once, for every rule that runs on it; with `keep` (the control's texts), once for every scan of it. */
export function prepareSource(raw: string, keep = false, document?: JsonDocument): SourceReadings {
  const known = keep ? kept.get(raw) : undefined;
  last = known ?? readSource(raw, document);
  if (keep && !known) {
    if (kept.size >= MAX_KEPT) kept.clear();
    kept.set(raw, last);
  }
  return last;
}
