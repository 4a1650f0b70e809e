import { listDecoded, type NumberList } from "../byte-lists.js";
import { pushAll } from "../collections.js";
import { compressedStarts, inflated } from "../compressed.js";
import { utf8SequenceLength, type Reading } from "./reading-builder.js";

// What decoded bytes spell: all of them where they are text a person or a program wrote, else
// each long stretch of text among them (a base64 run read from an offset that lands inside a key's
// base64 glued to other text, a text blob after binary), each a reading with a way back to where
// its bytes were encoded. Bytes that are noise (an image, a hash, random bytes) spell none.
// Gzip or zlib bytes are inflated first (one level, a bounded size), and what they spell is
// placed at the whole run they were encoded in.

/** Bytes decoded from a run of a reading's text. */
export interface DecodedBytes {
  bytes: Buffer;
  /** The source offset where byte j's encoding starts; j = bytes.length gives the run's end. */
  sourceAt(j: number): number;
  /**
   * Bytes decode in groups this long (3 for base64). The first or last group of text may be noise
   * that happens to be printable: the tail of what a run was glued to, or of binary around text.
   */
  group: number;
}

/** Shortest decoded run read as text when all of it is text; a stretch among noise must be longer. */
const MIN_TEXT = 6;
const MIN_STRETCH = 16;
/** How much of a stretch's edge is read again without the groups that may be noise: more than any key is long. */
const EDGE = 256;

/** The length of the text character at `bytes[i]`: printable, a tab or a line break, or well-formed UTF-8; 0 for anything else. */
function textCharLength(bytes: Buffer, i: number): number {
  const b = bytes[i] as number;
  if (b >= 0x80) return utf8SequenceLength(bytes, i);
  return (b >= 0x20 && b !== 0x7f) || b === 0x09 || b === 0x0a || b === 0x0d ? 1 : 0;
}

/**
 * Each maximal stretch of text characters long enough to be read among noise, [start, end) in
 * bytes, and whether the bytes are one stretch whole. Noise holds a short stretch every few bytes:
 * those are counted, not kept.
 */
function textStretches(bytes: Buffer): { long: [number, number][]; whole: boolean } {
  const long: [number, number][] = [];
  let start = -1;
  let count = 0;
  for (let i = 0; i < bytes.length; ) {
    const n = textCharLength(bytes, i);
    if (n > 0 && start === -1) start = i;
    if (n === 0 && start !== -1) {
      count++;
      if (i - start >= MIN_STRETCH) long.push([start, i]);
      start = -1;
    }
    i += Math.max(n, 1);
  }
  if (start !== -1) {
    count++;
    if (bytes.length - start >= MIN_STRETCH) long.push([start, bytes.length]);
  }
  return { long, whole: count === 1 && start === 0 };
}

/** Whether every byte is part of a text character. */
function isAllText(bytes: Buffer): boolean {
  for (let i = 0; i < bytes.length; ) {
    const n = textCharLength(bytes, i);
    if (n === 0) return false;
    i += n;
  }
  return true;
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** At least half of the bytes are letters or digits: text that is mostly symbols is noise that happened to be printable. */
function mostlyLetters(text: string, byteLength: number): boolean {
  let letters = 0;
  for (const ch of text) {
    const c = ch.charCodeAt(0);
    if ((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0x80 && LETTER_OR_DIGIT.test(ch))) letters++;
  }
  return letters >= byteLength / 2;
}

/** The text of bytes [a, b) as a reading of `source`, or null when it is not mostly letters. */
function readingOf(d: DecodedBytes, source: Reading, a: number, b: number): Reading | null {
  const text = d.bytes.toString("utf8", a, b);
  if (!mostlyLetters(text, b - a)) return null;
  const end = source.rawAt(d.sourceAt(b));
  if (text.length === b - a) return { text, rawAt: (i) => (i >= text.length ? end : source.rawAt(d.sourceAt(a + i))) };
  // Where a character is more than one byte, each unit maps to its character's first byte.
  const byteAt = new Int32Array(text.length);
  let at = a;
  for (let i = 0; i < text.length; i++) {
    byteAt[i] = at;
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) continue;
    at += c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xdc00 && c <= 0xdfff ? 4 : 3;
  }
  return { text, rawAt: (i) => (i >= text.length ? end : source.rawAt(d.sourceAt(byteAt[i] as number))) };
}

const isAlphanumeric = (b: number | undefined): boolean => b !== undefined && ((b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a));

/** A group boundary inside a word: a key starting (or ending) there would read as glued to the letters before (or after) it. */
const gluedAt = (bytes: Buffer, g: number): boolean => isAlphanumeric(bytes[g - 1]) && isAlphanumeric(bytes[g]);

/**
 * A stretch of text, and its edges read again from each of the next group boundaries in that
 * stands inside a word: at its start always (a run may be glued to what it follows), at its end
 * where noise follows it.
 */
function stretchReadings(d: DecodedBytes, source: Reading, a: number, b: number): Reading[] {
  const spans: [number, number][] = [[a, b]];
  if (d.group > 1) {
    const firstIn = a + ((d.group - (a % d.group)) % d.group || d.group);
    for (let g = firstIn; g <= a + 3 * d.group; g += d.group) if (gluedAt(d.bytes, g)) spans.push([g, Math.min(b, g + EDGE)]);
    const lastIn = b - (b % d.group || d.group);
    for (let g = lastIn; b < d.bytes.length && g >= b - 3 * d.group; g -= d.group) if (gluedAt(d.bytes, g)) spans.push([Math.max(a, g - EDGE), g]);
  }
  const out: Reading[] = [];
  for (const [from, to] of spans) {
    const r = to - from >= MIN_STRETCH ? readingOf(d, source, from, to) : null;
    if (r) out.push(r);
  }
  return out;
}

/** Inflated at most this far: past it the stream is read no further. */
const MAX_SCAN_INFLATED = 1 << 20;

/** The bytes a compressed run inflates to, each placed at the whole run; null when they are not compressed or do not inflate within the bound. */
function inflatedRun(d: DecodedBytes): DecodedBytes | null {
  const bytes = inflated(d.bytes, MAX_SCAN_INFLATED);
  if (!(bytes instanceof Buffer)) return null;
  const end = d.sourceAt(d.bytes.length);
  const start = d.sourceAt(0);
  return { bytes, sourceAt: (j) => (j >= bytes.length ? end : start), group: 1 };
}

/**
 * What each compressed stream inside decoded bytes spells (glued after what stood before it:
 * `/work/H4sI…`, whose base64 run starts at the path), each placed from its start to the run's
 * end, all inflated within the one bound. `mayTry` is asked before each start is tried, and ends
 * the search when it says no.
 */
export function compressedInsideReadings(d: DecodedBytes, source: Reading, mayTry: () => boolean): Reading[] {
  const readings: Reading[] = [];
  let left = MAX_SCAN_INFLATED;
  const end = d.sourceAt(d.bytes.length);
  for (const at of compressedStarts(d.bytes, d.group)) {
    if (left <= 0 || !mayTry()) break;
    const bytes = inflated(d.bytes.subarray(at), left);
    if (!(bytes instanceof Buffer) || bytes.length === 0) continue;
    left -= bytes.length;
    const start = d.sourceAt(at);
    pushAll(readings, spelt({ bytes, sourceAt: (j) => (j >= bytes.length ? end : start), group: 1 }, source).readings);
  }
  return readings;
}

/**
 * Bytes that are text two bytes a character (UTF-16 in either byte order, as Windows writes it,
 * with a byte order mark or none: a zero byte in one of each two places, at least a third of the
 * time), as UTF-8, each byte placed at the first byte of its character; null for other bytes.
 */
function wideText(d: DecodedBytes): DecodedBytes | null {
  const b = d.bytes;
  if (b.length < 2 * MIN_TEXT) return null;
  const zeros = [0, 0];
  for (let i = 0; i < b.length; i++) if (b[i] === 0) (zeros[i % 2] as number)++;
  const [even, odd] = zeros as [number, number];
  const bigEndian = even * 3 >= b.length / 2 && even > odd;
  if (!bigEndian && !(odd * 3 >= b.length / 2 && odd > even)) return null;
  const bom = (b[0] === 0xff && b[1] === 0xfe) || (b[0] === 0xfe && b[1] === 0xff) ? 2 : 0;
  const body = Buffer.from(b.subarray(bom, bom + ((b.length - bom) & ~1)));
  if (bigEndian) body.swap16();
  const text = body.toString("utf16le");
  const bytes = Buffer.from(text, "utf8");
  // Each UTF-8 byte's unit of the text, character by character (a pair of surrogates is one, a lone one three bytes of U+FFFD).
  const unitOf = new Int32Array(bytes.length);
  let unit = 0;
  let o = 0;
  for (const ch of text) {
    const n = Buffer.byteLength(ch, "utf8");
    unitOf.fill(unit, o, o + n);
    o += n;
    unit += ch.length;
  }
  return { bytes, sourceAt: (j) => d.sourceAt(j >= bytes.length ? b.length : bom + 2 * (unitOf[j] as number)), group: 1 };
}

/** What a list of decimal numbers in a reading spells (as bytes, code units or code points), each character at its number. */
export function numberListReadings(list: NumberList, source: Reading): Reading[] {
  const decoded = listDecoded(list.values);
  if (decoded === null) return [];
  const sourceAt = (j: number): number => (j >= decoded.from.length ? list.end : (list.ats[decoded.from[j] as number] as number));
  return textReadings({ bytes: decoded.bytes, sourceAt, group: 1 }, source).readings;
}

/** What decoded bytes spell as text: all of them, or each long stretch of text among noise (and what they spell as UTF-16, where they may be that); and whether they were text whole. */
export function textReadings(d: DecodedBytes, source: Reading): { readings: Reading[]; whole: boolean } {
  const inner = inflatedRun(d);
  const found = spelt(inner ?? d, source);
  return { readings: found.readings, whole: inner === null && found.whole };
}

/** What bytes spell as text, and as UTF-16 where they are not text whole. */
function spelt(bytes: DecodedBytes, source: Reading): { readings: Reading[]; whole: boolean } {
  const found = textOf(bytes, source);
  const wide = found.whole ? null : wideText(bytes);
  return { readings: wide === null ? found.readings : [...found.readings, ...textOf(wide, source).readings], whole: found.whole };
}

function textOf(d: DecodedBytes, source: Reading): { readings: Reading[]; whole: boolean } {
  // Most runs are words and identifiers that decode to a few bytes of noise: one look settles them.
  if (d.bytes.length < MIN_STRETCH && !isAllText(d.bytes)) return { readings: [], whole: false };
  const { long, whole } = textStretches(d.bytes);
  if (whole && !(d.group > 1 && d.bytes.length >= MIN_STRETCH)) {
    const reading = d.bytes.length >= MIN_TEXT ? readingOf(d, source, 0, d.bytes.length) : null;
    return { readings: reading ? [reading] : [], whole: reading !== null };
  }
  const readings: Reading[] = [];
  for (const [a, b] of long) for (const r of stretchReadings(d, source, a, b)) readings.push(r);
  return { readings, whole: whole && readings.length > 0 };
}
