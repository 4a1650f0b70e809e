import { nameGrammar, parseCaptureName, type NameGrammar } from "../capture-name.js";
import { escapePointerToken, jsonValueEnd, JsonScanError, placeOf, pointerTokens } from "../json/reader.js";
import { finding, type Finding } from "../findings.js";
import type { HarnessCatalogue, PayloadRules } from "../types.js";
import { CannotRead, decodedReadings, escapesUndone, numbersText, openings, type Reading } from "./raw-capture/decodings.js";
import { keywordCalls, sqlRows } from "./raw-capture/calls.js";
import { goMaps, phpPrints, xmlElements } from "./raw-capture/dumps.js";
import { literalsJoined } from "./raw-capture/literal-joins.js";
import { literalObjects } from "./raw-capture/literal.js";
import { embeddedStarts, gzipMembers, inflated, isZip, kindOf, localEntry, MAX_EMBEDDED, MAX_INFLATED, MAX_INFLATIONS, packedHistory, sealedKind, stillCompressed, zipEntries } from "../compressed.js";
import { radixDecoded, turnedBack } from "./raw-capture/radix-text.js";
import { foldedName, namesRecased } from "./raw-capture/recased.js";
import { couldHoldPayload, namesTurned, payloadWords, type PayloadWords } from "./raw-capture/prefilter.js";
import { utf16Readings } from "./raw-capture/wide-text.js";
import { tomlDocuments } from "./raw-capture/toml.js";
import { yamlBlocks } from "./raw-capture/yaml.js";
import { pairObjects } from "./raw-capture/pairs.js";
import { tableObjects } from "./raw-capture/tables.js";
import { Alternatives, valuesOf, withRepeatedMembers } from "./raw-capture/repeated.js";

// Raw captures are recognised by what they are, not only where they are: a file whose name
// follows the capture grammar, or whose content holds a payload of a known host (an object that
// carries every member of one signature in rules/payloads.json). The payload is looked for in
// every form a person or a program writes it in: a JSON document, or any JSON value standing in
// other text (JSON Lines, a log line after its prefix, several documents in a row, a document
// followed by a comma or a comment); JSON with comments, JSON5, JavaScript, Python and Ruby
// literals; YAML (block and flow), TOML, name=value pairs and tables; at any depth, in a string that itself holds such text,
// and behind HTML entities, backslash escapes at any depth, percent-encoding, Markdown's quoting,
// base64, base32, Ascii85, hex dumps, rot13 and reversal. Bytes that are not UTF-8 do not hide it. Pure: bytes in, a verdict out.

export interface RawCaptureCheck {
  grammar: NameGrammar;
  signatures: { id: string; members: { tokens: string[]; is: string; pattern: RegExp | null; events: Set<string> }[] }[];
  /** The member names the signatures look for, for the cheap first look. */
  words: PayloadWords;
}

/** Where a payload stands (the JSON pointer of its object in what was read; the line where that starts, outside a whole JSON document) and how it was written. */
export type PayloadVerdict = { signature: string; pointer: string; line?: number; form?: string } | { unchecked: string } | null;

/** Above this a JSON-looking file is not parsed; it is refused as one that cannot be shown free of payloads. */
export const MAX_CHECKED_BYTES = 64 * 1024 * 1024;
/** Strings holding text are opened this many levels deep. */
const NESTED_LEVELS = 4;
/** Decodings undone one inside another (JSON escaped four times in a Markdown quote, base64 of HTML ...). */
const MAX_DECODINGS = 6;
/** A string shorter than this holds no payload in any form. */
const MIN_PAYLOAD_CHARS = 16;

export function rawCaptureCheck(harnesses: HarnessCatalogue[], rules: PayloadRules): RawCaptureCheck {
  const eventsOf = (names: string[]): Set<string> => new Set(harnesses.filter((h) => names.includes(h.harness)).flatMap((h) => h.events.map((e) => e.event)));
  const signatures = rules.signatures.map((s) => ({ id: s.id, members: s.members.map((m) => ({ tokens: pointerTokens(m.pointer), is: m.is, pattern: m.pattern === undefined ? null : new RegExp(m.pattern, "u"), events: eventsOf(s.harnesses) })) }));
  return { grammar: nameGrammar(harnesses), signatures, words: payloadWords(rules.signatures) };
}

/** True when a file's own name (the last path segment) follows the capture grammar of a known harness. */
export function namedLikeCapture(path: string, check: RawCaptureCheck): boolean {
  const kind = parseCaptureName(path.slice(path.lastIndexOf("/") + 1), check.grammar).kind;
  return kind === "capture" || kind === "unknown-event";
}

/** Every value at a member's tokens: a member named more than once in one object gives each of its values. With `fold`, a member whose name differs only in case style counts ("hookEventName", "HOOK_EVENT_NAME"). */
function valuesAt(value: unknown, tokens: string[], fold: boolean): unknown[] {
  let found: unknown[] = [value];
  for (const t of tokens) {
    const next: unknown[] = [];
    for (const cur of found) {
      if (cur === null || typeof cur !== "object" || Array.isArray(cur)) continue;
      const name = Object.hasOwn(cur, t) ? t : fold ? Object.keys(cur).find((k) => foldedName(k) === foldedName(t)) : undefined;
      if (name === undefined) continue;
      for (const v of valuesOf((cur as Record<string, unknown>)[name])) next.push(v);
    }
    found = next;
  }
  return found;
}

function fits(v: unknown, m: RawCaptureCheck["signatures"][number]["members"][number]): boolean {
  if (m.is === "object") return v !== null && typeof v === "object";
  if (typeof v !== "string") return false;
  return m.is === "string" ? m.pattern === null || m.pattern.test(v) : m.events.has(v);
}

function matchesSignature(value: unknown, check: RawCaptureCheck, fold = false): string | null {
  for (const s of check.signatures) if (s.members.every((m) => valuesAt(value, m.tokens, fold).some((v) => fits(v, m)))) return s.id;
  return null;
}

/** The value of a JSON text, with a member named twice in one object read as each of its values (JSON.parse keeps the last). */
function jsonValue(text: string, words: PayloadWords): unknown {
  const value = JSON.parse(text) as unknown;
  // A repeated name can hide a payload only where each of its names is written, as it is or behind an escape.
  if (!text.includes("\\u") && !hasAllWords(text, words)) return value;
  return withRepeatedMembers(text, 512) ?? value;
}

/** A text too costly to search: it cannot be shown free of payloads. */
class SearchTooCostly extends Error {}

/** How far the searches may read, all told, as a multiple of the text's length. */
const SEARCH_FACTOR = 16;
/** How much text decodings may give, all told, as a multiple of the text's length: an ordinary file gives less than twice its length, a long Markdown document that quotes escapes of every kind (this README) about four. */
const DECODE_FACTOR = 6;

interface Spent {
  chars: number;
  limit: number;
  /** Texts decodings gave already, and how long they are all told. */
  decoded: Set<string>;
  decodedChars: number;
  decodedLimit: number;
  /** Whether a text read so far writes a signature's names in another case style: member names are then matched so too. */
  recased: boolean;
}

function charge(spent: Spent, chars: number): void {
  spent.chars += Math.max(chars, 1);
  if (spent.chars > spent.limit) throw new SearchTooCostly();
}

/**
 * Every JSON object or array standing anywhere in a text that is not one JSON document: after a
 * log line's prefix, several in a row, followed by a comma or a comment, or quoted as a JSON
 * string. Each opening brace, bracket or quote before one is tried in turn; a value read whole is
 * taken (a string is searched in its turn) and the search goes on after it.
 */
function embedded(text: string, spent: Spent, words: PayloadWords): Found[] {
  const docs: Found[] = [];
  // An object, an array, or a JSON string literal holding one (a payload logged after JSON.stringify).
  const opening = /[{[]|"(?=[{[])/g;
  for (let m = opening.exec(text); m !== null; m = opening.exec(text)) {
    let end = -1;
    if (!mayOpenJson(text, m.index)) {
      charge(spent, 1);
      continue;
    }
    try {
      end = jsonValueEnd(text, m.index, 512);
    } catch (err) {
      if (!(err instanceof JsonScanError)) throw err;
      charge(spent, err.offset - m.index);
    }
    if (end !== -1) {
      charge(spent, end - m.index);
      docs.push({ value: jsonValue(text.slice(m.index, end), words), at: m.index, end });
      opening.lastIndex = end;
    }
  }
  return docs;
}

/**
 * False where what follows an opening brace or bracket cannot start a member name or an item (a
 * block of code, an index): most braces in source code stop here, without a read that throws.
 */
function mayOpenJson(text: string, open: number): boolean {
  let i = open + 1;
  for (let c = text.charCodeAt(i); c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09; c = text.charCodeAt(++i));
  const next = text[i] ?? "";
  if (text[open] === "{") return next === '"' || next === "}";
  if (text[open] === "[") return next !== "" && '"-0123456789tfn{[]'.includes(next);
  return true;
}

/** The JSON a text holds: itself as one JSON document (`whole`), else every JSON value standing in it. */
function jsonIn(text: string, spent: Spent, words: PayloadWords): { whole: boolean; found: Found[] } {
  const t = text.trimStart();
  if (t.startsWith("{") || t.startsWith("[")) {
    try {
      return { whole: true, found: [{ value: jsonValue(t, words), at: text.length - t.length, end: text.length }] };
    } catch {
      return { whole: false, found: embedded(text, spent, words) };
    }
  }
  return { whole: false, found: embedded(text, spent, words) };
}

/** A JSON value read in a text: the value, where it starts and ends. */
interface Found {
  value: unknown;
  at: number;
  end: number;
}

/** A value to look at, with where it stands: its pointer, its offset in the file (null inside the file as one JSON document), how it was written. */
interface Candidate {
  value: unknown;
  pointer: string;
  level: number;
  at: number | null;
  reader: string;
  decodings: string[];
}

/** Work left to do, last in first out: a value, a text to read for values, or a text to decode. */
type Task = { kind: "value"; candidate: Candidate } | ReadingTask;

interface ReadingTask {
  kind: "text" | "forms" | "decode";
  reading: Reading;
  pointer: string;
  level: number;
  /** The JSON values read in the text already, by where they start: the other forms do not read them again. */
  json?: Map<number, number>;
}

const FORMS: Record<string, string> = { json: "", literal: "a JavaScript, JSON5 or Python literal", call: "Python's dict(name=value, ...)", sql: "SQL's INSERT of a row under named columns", yaml: "YAML", toml: "TOML", pairs: "name=value pairs", table: "a table (CSV, TSV or Markdown)" };

function formOf(c: Candidate): string {
  return [FORMS[c.reader] ?? c.reader, ...c.decodings].filter((p) => p !== "").join(", ");
}

function hasAllWords(text: string, words: PayloadWords): boolean {
  return words.bySignature.some((names) => names.every((w) => text.includes(w)));
}

const asName = new Map<string, RegExp>();
/** After a member name: a closing quote (two, in a CSV cell), spaces, then what follows a name (':', '=', '=>', a dotted name's '.', a TOML table's ']', a form's brackets, as they are or as %5B and %5D, the last of SQL's columns' ')', an XML tag's '>'), or a table's next cell or line. */
const AFTER_NAME = "[\"'`]{0,2}[ \\t]*(?:[:=.[\\](),;|>\\t\\r\\n]|%5[BbDd]|$)";

/** Whether `name` stands as a member name somewhere. One native search. */
function standsAsName(text: string, name: string): boolean {
  let pattern = asName.get(name);
  if (pattern === undefined) asName.set(name, (pattern = new RegExp(name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") + AFTER_NAME)));
  return pattern.test(text);
}

/** Whether every member name of one signature, written in another case style, stands as a member name. */
function recasedNamesStand(text: string, words: PayloadWords): boolean {
  return words.recased.some((style) => style.some((names) => names.every((w) => standsAsName(text, w))));
}

/** Whether every member name of one signature stands as a member name: else no form but JSON could hold a payload. */
function namesStand(text: string, words: PayloadWords): boolean {
  return words.bySignature.some((names) => names.every((w) => standsAsName(text, w)));
}

/** Reads a text: its JSON now (the likeliest, and cheap), the other forms and its decodings queued after. */
function readText(task: ReadingTask, check: RawCaptureCheck, spent: Spent, tasks: Task[]): void {
  const { reading, pointer, level } = task;
  const text = reading.text;
  // Names a serializer wrote in another case style are matched so from here on (see valuesAt).
  if (!spent.recased && namesRecased(text, check.words.recased)) spent.recased = true;
  const jsonLike = text.includes("{") && (text.includes("\\") || check.words.first.some((w) => text.includes(w)) || spent.recased);
  const json = jsonLike ? jsonIn(text, spent, check.words) : { whole: false, found: [] };
  // A JSON document is decoded no further, but one turned by rot13 is JSON still, its names turned.
  if ((!json.whole || namesTurned(text, check.words)) && reading.decodings.length < MAX_DECODINGS) tasks.push({ kind: "decode", reading, pointer, level });
  if (!json.whole && (namesStand(text, check.words) || (spent.recased && recasedNamesStand(text, check.words)))) tasks.push({ kind: "forms", reading, pointer, level, json: new Map(json.found.map((f) => [f.at, f.end])) });
  const many = json.found.length > 1;
  // The file itself as one JSON document: the pointer says where, no line.
  const isFile = json.whole && level === 0 && reading.decodings.length === 0;
  json.found.forEach((f, i) => {
    const at = isFile ? null : reading.rawAt(f.at);
    tasks.push({ kind: "value", candidate: { value: f.value, pointer: many ? `${pointer}/${i}` : pointer, level, at, reader: "json", decodings: reading.decodings } });
  });
}

/** The objects a text writes in the forms that are not JSON: literals, YAML, TOML, name=value pairs, tables, Go's and PHP's prints, XML. */
function readForms(task: ReadingTask, spent: Spent, tasks: Task[]): void {
  const { reading, pointer, level } = task;
  const text = reading.text;
  const add = (reader: string, found: { value: unknown; at: number }[]): void => {
    for (const f of found) tasks.push({ kind: "value", candidate: { value: f.value, pointer, level, at: reading.rawAt(f.at), reader, decodings: reading.decodings } });
  };
  const counted = { chars: 0 };
  // Five passes over the text (a table's, once for each separator it holds), counted as one more reading of it.
  charge(spent, text.length);
  const json = task.json ?? new Map<number, number>();
  add("toml", tomlDocuments(text, (n) => charge(spent, n)));
  add("yaml", yamlBlocks(text, (n) => charge(spent, n), json));
  add("literal", literalObjects(text, counted, json));
  add("call", keywordCalls(text));
  add("sql", sqlRows(text));
  add("pairs", pairObjects(text));
  add("table", tableObjects(text));
  add("go", goMaps(text));
  add("php", phpPrints(text));
  add("xml", xmlElements(text));
  charge(spent, counted.chars);
}

/** Decodings whose readings are always read for values: what they decode starts afresh (base64, hex, decimal bytes, base32, Ascii85, a turned text), or they take quotes and line breaks out rather than open them. */
const READ_WHOLE = new Set(["base64", "hex", "decimal bytes", "base32", "Ascii85", "rot13", "reversed", "each line reversed", "quoted in Markdown", "quoted-printable", "quotes doubled", "string literals joined"]);

/**
 * Queues each reading one decoding away from a text, once. A reading is read for values only
 * where the decoding opened a quote or a brace, or is one of READ_WHOLE; else it is only
 * decoded further (JSON escaped twice opens its quotes at the second level).
 */
function decode(task: ReadingTask, check: RawCaptureCheck, spent: Spent, tasks: Task[]): void {
  let before: number | null = null;
  const shown = hasAllWords(task.reading.text, check.words);
  // Names written with an escape (hook&#95;event&#95;name, %5F) show once one decoding is undone.
  const behind = !shown && namesBehindEscapes(task.reading, check.words);
  const readings = [...decodedReadings(task.reading, shown || behind), ...radixDecoded(task.reading), ...turnedBack(task.reading, check.words.turned), ...joinedShowingNames(task.reading, check.words)];
  for (const reading of readings) {
    if (spent.decoded.has(reading.text)) continue;
    const how = reading.decodings[reading.decodings.length - 1];
    // A dump is read several ways (offsets in or out, words' bytes in either order), most of them noise: only a reading that could hold a payload is searched.
    if ((how === "hex" || how === "decimal bytes") && !couldHoldPayload(Buffer.from(reading.text, "utf8"), check.words)) continue;
    spent.decoded.add(reading.text);
    spent.decodedChars += reading.text.length;
    if (spent.decodedChars > spent.decodedLimit) throw new SearchTooCostly();
    charge(spent, reading.text.length);
    before ??= openings(task.reading.text);
    const opens = READ_WHOLE.has(how as string) || openings(reading.text) > before || (behind && hasAllWords(reading.text, check.words));
    const next = { reading, pointer: task.pointer, level: task.level };
    if (opens) tasks.push({ kind: "text", ...next });
    else if (reading.decodings.length < MAX_DECODINGS) tasks.push({ kind: "decode", ...next });
  }
}

/** The text literals that code joins make, where it shows a signature's every name (as it is, or behind one more escape): a name cut in two by the join shows only once they are joined. */
function joinedShowingNames(r: Reading, words: PayloadWords): Reading[] {
  if (r.decodings.includes("string literals joined")) return [];
  const joined = literalsJoined(r);
  return joined !== null && (hasAllWords(joined.text, words) || namesBehindEscapes(joined, words)) ? [joined] : [];
}

/** Whether one decoding that leaves names as they are (entities, percent-encoding, backslash escapes) makes a signature's every name show. */
function namesBehindEscapes(r: Reading, words: PayloadWords): boolean {
  return escapesUndone(r).some((d) => hasAllWords(d.text, words));
}

/** The text an array spells: its numbers as bytes, or its strings as lines; null where it is neither. */
function arrayText(items: unknown[]): { text: string; how: string } | null {
  if (items.length >= 2 && items.every((v) => typeof v === "string")) return { text: items.join("\n"), how: "lines of an array" };
  const text = numbersText(items);
  return text === null ? null : { text, how: "decimal bytes" };
}

/** Looks at one value: a payload, or its members and items queued, or (a string) its text queued for reading. */
function lookAt(c: Candidate, check: RawCaptureCheck, tasks: Task[], fold: boolean): { signature: string; recased: boolean } | null {
  const { value, pointer, level, at } = c;
  if (value instanceof Alternatives) {
    for (const v of [...value.values].reverse()) tasks.push({ kind: "value", candidate: { ...c, value: v } });
    return null;
  }
  if (typeof value === "string") {
    if (level < NESTED_LEVELS && value.length >= MIN_PAYLOAD_CHARS && value.length <= MAX_CHECKED_BYTES) {
      tasks.push({ kind: "text", reading: { text: value, rawAt: () => at, decodings: c.decodings }, pointer, level: level + 1 });
    }
    return null;
  }
  if (value === null || typeof value !== "object") return null;
  // An array of numbers may be bytes (a Buffer as JSON.stringify writes it), and an array of strings
  // the lines of one text (a log kept as its lines, a dump line by line): what they spell is read as a string's is.
  const spelt = Array.isArray(value) && level < NESTED_LEVELS ? arrayText(value) : null;
  if (spelt !== null && spelt.text.length >= MIN_PAYLOAD_CHARS) tasks.push({ kind: "text", reading: { text: spelt.text, rawAt: () => at, decodings: [...c.decodings, spelt.how] }, pointer, level: level + 1 });
  const hit = matchesSignature(value, check);
  if (hit) return { signature: hit, recased: false };
  const folded = fold ? matchesSignature(value, check, true) : null;
  if (folded) return { signature: folded, recased: true };
  const entries: [string, unknown][] = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
  for (const [k, v] of entries.reverse()) tasks.push({ kind: "value", candidate: { ...c, value: v, pointer: `${pointer}/${escapePointerToken(k)}` } });
  return null;
}

/** The first object carrying a signature, searched without recursion through every reading, value and string. */
function findPayload(text: string, check: RawCaptureCheck, spent: Spent): PayloadVerdict {
  const tasks: Task[] = [{ kind: "text", reading: { text, rawAt: (i) => i, decodings: [] }, pointer: "", level: 0 }];
  while (tasks.length > 0) {
    const task = tasks.pop() as Task;
    if (task.kind === "text") readText(task, check, spent, tasks);
    else if (task.kind === "forms") readForms(task, spent, tasks);
    else if (task.kind === "decode") decode(task, check, spent, tasks);
    else if (task.kind === "value") {
      const hit = lookAt(task.candidate, check, tasks, spent.recased);
      if (hit === null) continue;
      const { pointer, at } = task.candidate;
      const form = [formOf(task.candidate), ...(hit.recased ? ["member names in another case style"] : [])].filter((p) => p !== "").join(", ");
      return { signature: hit.signature, pointer, ...(at !== null ? { line: placeOf(text, at).line } : {}), ...(form !== "" ? { form } : {}) };
    }
  }
  return null;
}

/** Whether these bytes hold a payload of a known host; `unchecked` when a file is too large or too costly to read. */
/** What the streams found inside a file (not at its start) may inflate to, all told, at every level of one file's check. */
interface Inflation {
  left: number;
  /** Streams inside the file that failed to inflate so far. */
  failed: number;
}

export function payloadIn(bytes: Uint8Array, check: RawCaptureCheck, inflations = 0, embedded: Inflation = { left: MAX_INFLATED, failed: 0 }): PayloadVerdict {
  // Compressed bytes are read as what they inflate to, MAX_INFLATIONS streams deep; a stream that
  // inflates past the bound, or one still there at the last level, cannot be shown free of one.
  if (inflations >= MAX_INFLATIONS && stillCompressed(bytes)) return { unchecked: `it is compressed more than ${MAX_INFLATIONS} streams deep` };
  // A gzip file is read member by member, as zcat reads it; where its members end, what follows is read as embedded.
  const gzip = inflations < MAX_INFLATIONS && kindOf(bytes) === "gzip";
  const members = gzip ? gzipMembers(bytes) : null;
  const inner = inflations >= MAX_INFLATIONS ? null : !gzip ? inflated(bytes) : members === null || members === "too large" ? members : members.bytes;
  if (inner === "too large") return { unchecked: `it is compressed and inflates past ${MAX_INFLATED} bytes` };
  if (inner !== null) {
    const verdict = payloadIn(inner, check, inflations + 1, embedded);
    // A line of the inflated text is no line of the file: the form says where it was found.
    if (verdict !== null) return "unchecked" in verdict ? verdict : { signature: verdict.signature, pointer: verdict.pointer, form: [verdict.form, "compressed"].filter(Boolean).join(", ") };
  }
  const archive = archiveVerdict(bytes, check, inflations, embedded);
  if (archive !== undefined) return archive;
  const inside = embeddedVerdict(bytes, check, inflations, embedded, members !== null && members !== "too large" ? members.end : 1);
  if (inside !== undefined) return inside;
  // Text written as UTF-16 or UTF-32 is read as what it says, as well as byte for byte.
  for (const text of utf16Readings(bytes)) {
    const verdict = payloadText(text, check);
    if (verdict !== null) return { ...verdict, ...("signature" in verdict ? { form: `UTF-16 or UTF-32${verdict.form ? `, ${verdict.form}` : ""}` } : {}) };
  }
  return payloadText(bytes, check);
}

/**
 * A compressed format the check cannot open is unchecked; a zip archive is read entry by entry (an
 * entry named by the capture grammar is a capture, as a file is), one level of nesting counted as
 * a stream. Undefined for any other bytes.
 */
function archiveVerdict(bytes: Uint8Array, check: RawCaptureCheck, inflations: number, embedded: Inflation): PayloadVerdict | undefined {
  const sealed = sealedKind(bytes);
  if (sealed !== null) return { unchecked: `it is ${sealed}-compressed, which the check cannot open` };
  const packed = packedHistory(bytes);
  if (packed !== null) return { unchecked: `it is ${packed}, packed history whose objects the check does not read` };
  if (!isZip(bytes)) return undefined;
  if (inflations >= MAX_INFLATIONS) return { unchecked: `it is an archive more than ${MAX_INFLATIONS} levels deep` };
  const zip = zipEntries(bytes);
  if ("unchecked" in zip) return zip;
  for (const entry of zip.entries) {
    if (namedLikeCapture(entry.name, check)) return { signature: "the capture grammar", pointer: "", form: "an entry of a zip archive named <harness>_<event>_<version>.<n>.json" };
    const verdict = payloadIn(entry.bytes, check, inflations + 1, embedded);
    if (verdict !== null) return "unchecked" in verdict ? verdict : { signature: verdict.signature, pointer: verdict.pointer, form: [verdict.form, "an entry of a zip archive"].filter(Boolean).join(", ") };
  }
  return null;
}

/** Streams inside one file that fail to inflate, all told, at every level: each may have cost a whole inflation. */
const MAX_FAILED_READS = 16;

/**
 * What starts compressed or packed inside the bytes rather than at their start (a tar's member, a
 * stream or a zip after a prefix), each read as a file of its own, within one inflation bound and
 * MAX_FAILED_READS failures for the whole file; a format the check cannot open there is unchecked.
 * Undefined where none holds a payload. A gzip file's own members are not read again (a zip read
 * whole through its directory never comes here: archiveVerdict has its verdict).
 */
function embeddedVerdict(bytes: Uint8Array, check: RawCaptureCheck, inflations: number, budget: Inflation, from: number): PayloadVerdict | undefined {
  const starts = embeddedStarts(bytes, from);
  if (starts === null) return { unchecked: `more than ${MAX_EMBEDDED} compressed streams or archives start inside it` };
  for (const e of starts) {
    if (e.kind === "sealed") return { unchecked: `${e.name} start ${e.at} bytes into it, which the check cannot open` };
    if (inflations >= MAX_INFLATIONS) return { unchecked: `it holds a compressed stream or an archive more than ${MAX_INFLATIONS} levels deep` };
    const inner = budget.left <= 0 ? "too large" : e.kind === "zip" ? localEntry(bytes, e.at, budget.left) : inflated(bytes.subarray(e.at), budget.left);
    if (inner === "too large") return { unchecked: `the streams inside it inflate past ${MAX_INFLATED} bytes` };
    // A stream that fails may have inflated almost to the bound first, uncounted: few are tried.
    if (inner === null && ++budget.failed > MAX_FAILED_READS) return { unchecked: `more than ${MAX_FAILED_READS} streams start inside it and fail to inflate` };
    if (inner === null) continue;
    if (!Buffer.isBuffer(inner) && "unchecked" in inner) return inner;
    const where = `${e.kind === "zip" ? "a zip entry" : `a ${e.kind} stream`} ${e.at} bytes into the file`;
    if (!Buffer.isBuffer(inner) && namedLikeCapture(inner.name, check)) return { signature: "the capture grammar", pointer: "", form: `${where}, named <harness>_<event>_<version>.<n>.json` };
    const read = Buffer.isBuffer(inner) ? inner : inner.bytes;
    budget.left -= read.length;
    const verdict = payloadIn(read, check, inflations + 1, budget);
    if (verdict !== null) return "unchecked" in verdict ? verdict : { signature: verdict.signature, pointer: verdict.pointer, form: [verdict.form, where].filter(Boolean).join(", ") };
  }
  return undefined;
}

function payloadText(bytes: Uint8Array, check: RawCaptureCheck): PayloadVerdict {
  // Cheap first: a payload's text holds the signatures' member names, a brace beside one, or an encoding that could hide them.
  if (!couldHoldPayload(bytes, check.words)) return null;
  // A text too large to parse cannot be shown free of payloads.
  if (bytes.byteLength > MAX_CHECKED_BYTES) return { unchecked: `${bytes.byteLength} bytes, above the ${MAX_CHECKED_BYTES}-byte limit of the payload check` };
  // A byte that is not UTF-8 (a binary log, one stray byte) is read as U+FFFD: the payload beside it is still read.
  const raw = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  const text = raw.startsWith("\ufeff") ? raw.slice(1) : raw;
  const spent = { chars: 0, limit: SEARCH_FACTOR * text.length + (1 << 20), decoded: new Set<string>(), decodedChars: 0, decodedLimit: DECODE_FACTOR * text.length + (1 << 20), recased: false };
  try {
    return findPayload(text, check, spent);
  } catch (err) {
    if (err instanceof CannotRead) return { unchecked: err.message };
    if (!(err instanceof SearchTooCostly)) throw err;
    return { unchecked: "it opens so much that is never closed, or is written in so many layers, that it cannot be searched for payloads in reasonable time" };
  }
}

/** A file (or a commit's or tag's text) that is a raw capture by its name or by what it holds, as a finding naming where; null when it is not one. */
export function rawCaptureFinding(path: string, bytes: Uint8Array, check: RawCaptureCheck): Finding | null {
  if (namedLikeCapture(path, check)) return finding("raw-capture-committed", { file: path }, { why: "its name follows the capture grammar <harness>_<event>_<version>.<n>.json" });
  const verdict = payloadIn(bytes, check);
  if (verdict === null) return null;
  if ("unchecked" in verdict) return finding("raw-capture-committed", { file: path }, { why: `it cannot be shown to hold no payload (${verdict.unchecked})` });
  const how = verdict.form === undefined ? "" : `, written as ${verdict.form}`;
  // A payload standing at a line, not as the file's whole document: the line says where, and a pointer under it if any.
  const pointer = verdict.line !== undefined && verdict.pointer === "" ? undefined : verdict.pointer;
  return finding("raw-capture-committed", { file: path, pointer, line: verdict.line }, { why: `it holds a payload of a known host (${verdict.signature}${how})` });
}
