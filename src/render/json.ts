import type { Io } from "../types.js";

// The --json envelope: exactly one object on stdout, with schemaVersion 1.

// What JSON.stringify leaves as it is and a terminal reads as an order or shows as nothing: a C1
// control (U+009B starts a sequence as ESC [ does), a bidi override or isolate, a zero-width or
// other format character, a line or paragraph separator, a private or unassigned code point. The
// one control JSON.stringify writes as it is, the line break of its indentation, stands outside strings.
const UNSHOWN = /[\p{C}\p{Zl}\p{Zp}]/gu;
// None of those is printable ASCII or the line break: only the runs of other characters are read
// for them (a few in a report of megabytes, which the Unicode classes would read character by character).
const NOT_PRINTABLE_ASCII = /[^\n\x20-\x7e]+/g;

/** A character as JSON's \u escapes, one for each of its UTF-16 units (two for one above U+FFFF). */
const escaped = (c: string): string => c.split("").map((unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");

/**
 * A value as JSON text whose every character shows itself: what would move a terminal or hide
 * text is written as a \u escape. Outside strings JSON is ASCII, so the text parses to the same value.
 */
export function jsonText(value: unknown, indent = 2): string {
  return JSON.stringify(value, null, indent).replace(NOT_PRINTABLE_ASCII, (run) => run.replace(UNSHOWN, escaped));
}

export function writeJson(io: Io, value: object): void {
  io.stdout(`${jsonText({ schemaVersion: 1, ...value })}\n`);
}
