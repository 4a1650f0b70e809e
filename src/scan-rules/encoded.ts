import { isUtf8 } from "node:buffer";
import { pushAll } from "../collections.js";

// What a string spells once percent-decoding, base64 or hex is undone: a key pasted into a URL's
// path as %5F, a name or a token base64-encoded into a header or a data URL. Each is another
// reading of the string, with a way back to its raw place; a run that decodes to anything but
// text (an image, a hash, random bytes) is not one.

/** A text read from a string, with the raw offset each of its offsets comes from (a reading, in readings.ts). */
interface Reading {
  text: string;
  rawAt(i: number): number;
}

/** Shortest base64 and hex runs read: shorter ones decode to a handful of characters at most. */
const MIN_BASE64 = 8;
const MIN_HEX = 16;

const isBase64Char = (c: number): boolean => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2f || c === 0x5f || c === 0x2d;
const isHexChar = (c: number): boolean => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);

/** Each maximal run of characters `inRun` accepts, at least `min` long: one pass, no regular expression (a run may be megabytes long). */
function runsOf(text: string, inRun: (c: number) => boolean, min: number): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const inside = i < text.length && inRun(text.charCodeAt(i));
    if (inside && start === -1) start = i;
    else if (!inside && start !== -1) {
      if (i - start >= min) out.push({ start, end: i });
      start = -1;
    }
  }
  return out;
}
const PERCENT = /%[0-9A-Fa-f]{2}/;

/** Text a person or a program wrote: printable, tabs and line breaks allowed, no other control character. */
function isText(bytes: Buffer): boolean {
  if (bytes.length < 6 || !isUtf8(bytes)) return false;
  for (const b of bytes) if (b < 0x20 ? b !== 0x09 && b !== 0x0a && b !== 0x0d : b === 0x7f) return false;
  // A decoded run that is mostly symbols is noise that happened to be printable.
  const letters = bytes.toString("utf8").match(/[\p{L}\p{N}]/gu)?.length ?? 0;
  return letters >= bytes.length / 2;
}

/** The reading with every %XX undone (UTF-8 sequences of them too), or null when none stands in it. */
function percentDecoded(r: Reading): Reading | null {
  if (!PERCENT.test(r.text)) return null;
  const bytes: number[] = [];
  const from: number[] = [];
  const text = r.text;
  for (let i = 0; i < text.length; ) {
    if (text.charCodeAt(i) === 0x25 && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 1, i + 3))) {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
      from.push(i);
      i += 3;
      continue;
    }
    const cp = text.codePointAt(i) as number;
    const units = cp > 0xffff ? 2 : 1;
    for (const b of Buffer.from(text.slice(i, i + units), "utf8")) {
      bytes.push(b);
      from.push(i);
    }
    i += units;
  }
  const decoded = Buffer.from(bytes).toString("utf8");
  // Each decoded character starts at the byte its UTF-8 form starts at.
  const starts: number[] = [];
  let at = 0;
  for (const ch of decoded) {
    for (let u = 0; u < ch.length; u++) starts.push(from[Math.min(at, from.length - 1)] as number);
    at += Buffer.byteLength(ch === "\ufffd" ? "\u0000" : ch, "utf8");
  }
  return { text: decoded, rawAt: (i) => r.rawAt(i >= starts.length ? text.length : (starts[i] as number)) };
}

/** Each base64 or hex run of a reading that decodes to text, as a reading of its own. */
function decodedRuns(r: Reading): Reading[] {
  const out: Reading[] = [];
  const add = (start: number, end: number, bytes: Buffer): void => {
    if (!isText(bytes)) return;
    const text = bytes.toString("utf8");
    const span = end - start;
    out.push({ text, rawAt: (i) => r.rawAt(i >= text.length ? end : start + Math.floor((i * span) / text.length)) });
  };
  for (const run of runsOf(r.text, isHexChar, MIN_HEX)) {
    const even = run.end - ((run.end - run.start) % 2);
    add(run.start, even, Buffer.from(r.text.slice(run.start, even), "hex"));
  }
  for (const run of runsOf(r.text, isBase64Char, MIN_BASE64)) {
    let end = run.end;
    while (r.text.charCodeAt(end) === 0x3d && end - run.end < 2) end++;
    const body = r.text.slice(run.start, run.end);
    if (body.length % 4 === 1) continue;
    add(run.start, end, Buffer.from(body.replace(/-/g, "+").replace(/_/g, "/"), "base64"));
  }
  return out;
}

/** What a reading spells once each encoding in it is undone: percent-decoded, and each base64 or hex run in either. */
export function encodedReadings(r: Reading): Reading[] {
  const percent = percentDecoded(r);
  const out = percent ? [percent] : [];
  const decoded = decodedRuns(r);
  if (percent) pushAll(decoded, decodedRuns(percent));
  pushAll(out, decoded);
  // One level more: base64 of base64, hex of base64 and the like.
  for (const d of decoded) pushAll(out, decodedRuns(d));
  return out;
}
