import { forEachByteRun } from "./byte-runs.js";
import { numberLists } from "../byte-lists.js";
import { compressedInsideReadings, numberListReadings, textReadings } from "./byte-text.js";
import { pushAll } from "../collections.js";
import { escapeReadings, literalsJoined, mayShowNothing, tokensJoined } from "./char-escapes.js";
import { lettersShown, spacedOut } from "./letters-shown.js";
import type { Reading } from "./reading-builder.js";

// What a string spells once an encoding in it is undone: a key pasted into a URL's path as %5F,
// written as HTML character references or \x escapes in a log, quoted-printable in a mail, a name
// or a token base64-encoded into a header or a data URL (wrapped over lines, or glued to other
// text), hex, a byte dump, or decimal numbers (a byte list, String.fromCharCode, od -tu1). Each is
// another reading of the string, with a way back to its raw place; a run that decodes to anything
// but text (an image, a hash, random bytes) is not one.
// One level of nesting is read too: base64 of base64, hex of base64, base64 of escapes.

/** A text of the letter x alone: the placeholder substitution writes a value over with (rule.ts). */
const PLACEHOLDER_RUN = /^x*$/;

/** Characters of readings an encoding may add to a string, by the string's own length: far more than any real payload needs. */
const BUDGET_PER_CHAR = 32;
const BUDGET_BASE = 1 << 20;
/** What a try at inflating bytes that may start a compressed stream costs, in characters of readings: about as long to run. */
const INFLATION_COST = 16_384;

/** The characters of readings a string may still be given; what is spent past it is not read. */
export class ReadingBudget {
  private left: number;
  constructor(length: number) {
    this.left = BUDGET_PER_CHAR * length + BUDGET_BASE;
  }

  /** Takes a try at inflating a stream from what is left, as many characters as a reading costs to read: false once it has run out. */
  spendInflation(): boolean {
    this.left -= INFLATION_COST;
    return this.left >= 0;
  }

  /** Takes a reading's length from what is left; false once it has run out. */
  spend(reading: Reading): boolean {
    this.left -= reading.text.length;
    return this.left >= 0;
  }

  get exhausted(): boolean {
    return this.left < 0;
  }
}

/** Decoded bytes this long or shorter that spell no text are remembered, so that a run repeated in a text (a file's base name, an id) is judged once. */
const MAX_REMEMBERED_NOISE = 192;
/** How many such runs one reading remembers: a text of a million distinct words holds no more than this in memory. */
const MAX_REMEMBERED = 4096;

/** Each run of a reading that encodes bytes spelling text (base64, hex, a byte dump), as a reading of its own. */
function decodedRuns(r: Reading, budget: ReadingBudget, into: Reading[]): Reading[] {
  const found: Reading[] = [];
  // What text decoded bytes spell depends on the bytes and their grouping alone.
  const noise = new Set<string>();
  forEachByteRun(r.text, (bytes) => {
    const key = bytes.bytes.length <= MAX_REMEMBERED_NOISE ? `${bytes.group}:${bytes.bytes.toString("latin1")}` : null;
    if (key !== null && noise.has(key)) return "next";
    const { readings, whole } = textReadings(bytes, r);
    // A stream glued after other characters of the run starts inside its bytes.
    if (!whole) pushAll(readings, compressedInsideReadings(bytes, r, () => budget.spendInflation()));
    if (key !== null && readings.length === 0 && !whole && noise.size < MAX_REMEMBERED) noise.add(key);
    for (const reading of readings) {
      if (!budget.spend(reading)) return "stop";
      found.push(reading);
      into.push(reading);
    }
    return whole ? "nextRun" : "next";
  });
  return found;
}

/** What each list of decimal numbers in a reading spells (a byte list, String.fromCharCode's code units, od -tu1), given to `into` while the budget lasts. */
export function numberListsRead(r: Reading, budget: ReadingBudget, into: Reading[]): Reading[] {
  const found: Reading[] = [];
  for (const list of numberLists(r.text)) {
    for (const reading of numberListReadings(list, r)) {
      if (!budget.spend(reading)) return found;
      found.push(reading);
      into.push(reading);
    }
  }
  return found;
}

/** A reading in the ASCII its letters show as, and that (or the reading itself) with a key spelt out written together. */
function shownReadings(r: Reading): Reading[] {
  const shown = lettersShown(r);
  const out = [shown, spacedOut(shown ?? r)].filter((x): x is Reading => x !== null);
  // Read from a reading whose controls were taken out, they were taken out of these too.
  if (r.controlsOutOf !== undefined) for (const x of out) x.controlsOutOf = r.controlsOutOf;
  return out;
}

/** Each escape reading of a reading, and each of those and the reading itself in the ASCII its letters show as and with a key spelt out written together, given to `into` while the budget lasts. */
function escapesUndone(r: Reading, budget: ReadingBudget, into: Reading[]): Reading[] {
  const found: Reading[] = [];
  const escaped = escapeReadings(r);
  for (const reading of [...escaped, ...[r, ...escaped].flatMap(shownReadings)]) {
    if (!budget.spend(reading)) return found;
    found.push(reading);
    into.push(reading);
  }
  return found;
}

/**
 * Readings with pieces of a token joined again (char-escapes.ts: line ends that broke it taken
 * out, string literals that code joins written as one), given to `into` while the budget lasts,
 * marked as joined: their text is read for key shapes, their runs are read in the reading itself
 * (byte-runs.ts joins wrapped base64).
 */
function joinedRead(readings: Reading[], budget: ReadingBudget, into: Reading[]): void {
  for (const reading of readings) {
    if (!budget.spend(reading)) return;
    into.push(Object.assign(reading, { joined: true as const }));
  }
}

/**
 * What a reading spells once each encoding in it is undone: each escape reading (percent, HTML
 * references, backslash escapes, quoted-printable), each encoded run in the reading or in them,
 * and one level more in what those runs decode to; and the reading with tokens a line end broke
 * joined again, and with string literals that code joins written as one. The budget bounds the
 * work; the caller says the string cannot be read whole once it runs out.
 */
export function encodedReadings(r: Reading, budget: ReadingBudget): Reading[] {
  // The placeholder a value is written over with spells nothing in any encoding: a long run of it is not tried at each of its places.
  if (PLACEHOLDER_RUN.test(r.text)) return [];
  const out: Reading[] = [];
  const escaped = escapesUndone(r, budget, out);
  const decoded: Reading[] = [];
  for (const source of [r, ...escaped]) {
    for (const d of decodedRuns(source, budget, out)) decoded.push(d);
    for (const d of numberListsRead(source, budget, out)) decoded.push(d);
  }
  for (const d of decoded) {
    if (budget.exhausted) break;
    decodedRuns(d, budget, out);
    escapesUndone(d, budget, out);
  }
  // A key broken by a line end and something that shows nothing beside it is joined in the reading without the latter.
  for (const source of mayShowNothing(r.text) ? [r, ...escaped] : [r]) joinedRead(tokensJoined(source), budget, out);
  for (const source of [r, ...escaped]) joinedRead(literalsJoined(source), budget, out);
  return out;
}
