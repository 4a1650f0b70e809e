// Hex as bytes are dumped, found in a text and read back to the bytes: plain digits, wrapped or not
// (xxd -p) or after a prefix (payload=7b22...); groups of digits behind an offset with the text
// beside them (xxd, hexdump -C, od -tx1, tcpdump -x), whatever stands before each line (a comment's
// mark, a quote's, a line number); words of two to eight bytes in the machine's byte order (od -x,
// hexdump, xxd -e); 0x7b items (xxd -i, a C array); 7b:22, 7B-22 and 7b_22 pairs; \x7b escapes.
//
// A line's digits are its longest run of words of whole bytes, once the text a dumping tool sets
// beside them is cut off; lines with digits, blank lines between them, are one dump, and so are the
// lines on either side of a `*` (where hexdump and od leave out lines that repeat the one before).
// Each dump is read with and without each line's offset (or first word), and where its words
// are of two to eight bytes, with each word's bytes in the other order too. Each reading keeps,
// for every byte, where its digits stand in the text. What the bytes say is the payload check's to
// read (passes/raw-capture/decodings.ts) and the secret scan's (scan-rules/byte-runs.ts).

/** Eight bytes of hex in some form, in a row: a dump's line holds no fewer (xxd -c 8, od -w8). */
const HEX_HINT = /(?:[xX]?[0-9a-fA-F]{2}[^0-9A-Za-z]{0,4}(?:0(?=[xX]))?){8}/;
/** Bytes a dump may spell a payload in. */
const MIN_DUMP_BYTES = 16;
/** A word of whole bytes: digits, after 0x or \x or not. */
const HEX_WORD = /^(?:0?[xX])?((?:[0-9a-fA-F]{2})+)$/;
/** What stands between words: anything but a letter or a digit. */
const SEPARATOR = /[^0-9A-Za-z]+/;
/** A word that may be a line's offset: four to sixteen digits, after 0x or not (od's are octal, of an odd count). */
const OFFSET_WORD = /^(?:0[xX])?[0-9a-fA-F]{4,16}$/;
/** What may stand before a dump's line: a comment's or a quote's mark, a line number. */
const BEFORE_LINE = "[^0-9A-Za-z\\n]*(?:[0-9]{1,9}[ \\t]+)?";
/** xxd's offset: the text beside its digits starts at one column in every line of a dump. */
const XXD_OFFSET = new RegExp(`^${BEFORE_LINE}[0-9a-fA-F]{4,16}: `);
/** hexdump -C's offset: the text beside its digits starts at the first bar. */
const CANONICAL_OFFSET = new RegExp(`^${BEFORE_LINE}[0-9a-fA-F]{4,16} {2}`);

/** A line of a dump: the digits of its run of byte words; the bytes of the words before its data (an offset); each word's bytes as a digit ("4444", "" where a word is longer than eight bytes); where each byte's digits stand in the text. */
interface DumpLine {
  digits: string;
  offset: number;
  widths: string;
  /** The line's words before the text beside them, where the line starts in the text, and which of the words are the run. */
  words: string[];
  at: number;
  run: [number, number];
}

/** The bytes one way of reading a dump gives, and where each byte's two digits start in the text (worked out when first asked: most dumps are read and put aside by their bytes alone). */
export interface DumpReading {
  bytes: Buffer;
  sources: () => number[];
}

/** A dump: where its first line starts, where its last byte's digits end, and the distinct readings of its bytes. */
export interface HexDump {
  start: number;
  end: number;
  readings: DumpReading[];
}

/** Where a line's offset stands among its words: after a line number, or first (an offset, or a row's number in a table); -1 where none may. */
function offsetIndex(words: string[]): number {
  const [first = "", second = ""] = words;
  // A line number is shorter than the offset after it (cat -n's against xxd's eight digits).
  const numbered = words.length > 2 && /^[0-9]{1,7}$/.test(first);
  if (numbered && OFFSET_WORD.test(second) && second.length >= 6 && second.length > first.length) return 1;
  return OFFSET_WORD.test(first) || numbered ? 0 : -1;
}

/** A line's longest run of byte words (the first of the longest); null where it has none. */
function lineRun(at: number, words: string[]): DumpLine | null {
  const bytes = words.map((w) => HEX_WORD.exec(w)?.[1] ?? null);
  let best: [number, number] = [0, 0];
  let length = 0;
  for (let k = 0, start = 0, digits = 0; k <= bytes.length; k++) {
    const word = k < bytes.length ? bytes[k] : null;
    if (typeof word === "string") {
      digits += word.length;
      continue;
    }
    if (digits > length) (best = [start, k]), (length = digits);
    start = k + 1;
    digits = 0;
  }
  const [from, to] = best;
  if (from === to) return null;
  const run = bytes.slice(from, to) as string[];
  const index = offsetIndex(words);
  // An offset inside the run, and a line number before it, are left out of one reading; od's octal offset stands outside the run.
  const lead = index >= from && index < to ? index - from + 1 : 0;
  const offset = run.slice(0, lead).reduce((n, w) => n + w.length / 2, 0);
  const widths = run.some((w) => w.length > 16) ? "" : run.map((w) => w.length / 2).join("");
  return { digits: run.join(""), offset, widths, words, at, run: best };
}

/** Where each byte of a line's run has its digits in the text: its words found in the line in order, the digits at each word's end. */
function sourcesOf(text: string, l: DumpLine): number[] {
  const sources: number[] = [];
  let from = l.at;
  for (let k = 0; k < l.run[1]; k++) {
    const word = l.words[k] as string;
    const at = text.indexOf(word, from);
    from = at + word.length;
    if (k < l.run[0]) continue;
    const digits = (HEX_WORD.exec(word) as RegExpExecArray)[1] as string;
    for (let i = word.length - digits.length; i < word.length; i += 2) sources.push(at + i);
  }
  return sources;
}

/** A value worked out once, when first asked. */
function once<T>(work: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= work());
}

/** Each word's items (bytes, or their sources) in the other order, in place, the words as `widths` gives them line by line, each line's offset left out where `skipOffset`. */
function wordsReversed<T extends { [i: number]: number }>(items: T, lines: DumpLine[], skipOffset: boolean): T {
  let at = 0;
  for (const line of lines) {
    let skipped = skipOffset ? line.offset : 0;
    for (let k = 0; k < line.widths.length; k++) {
      const width = line.widths.charCodeAt(k) - 0x30;
      if (skipped > 0) {
        skipped -= width;
        continue;
      }
      for (let i = at, j = at + width - 1; i < j; i++, j--) [items[i], items[j]] = [items[j] as number, items[i] as number];
      at += width;
    }
  }
  return items;
}

/** The bytes of the lines, each line's offset left out where `skipOffset`. */
function linesBytes(lines: DumpLine[], skipOffset: boolean): Buffer {
  return Buffer.from(lines.map((l) => (skipOffset ? l.digits.slice(2 * l.offset) : l.digits)).join(""), "hex");
}

/** Where the bytes of the lines have their digits (each line's, `sources`), each line's offset left out where `skipOffset`. */
function linesSources(lines: DumpLine[], sources: number[][], skipOffset: boolean): number[] {
  // Pushed one by one: a dump of thousands of lines is hundreds of thousands of bytes, which flatMap gathers slowly.
  const all: number[] = [];
  lines.forEach((l, i) => {
    const own = sources[i] as number[];
    for (let k = skipOffset ? l.offset : 0; k < own.length; k++) all.push(own[k] as number);
  });
  return all;
}

/** A reading without a last zero byte. */
function unpadded(r: DumpReading): DumpReading {
  if (r.bytes.length === 0 || r.bytes[r.bytes.length - 1] !== 0) return r;
  return { bytes: r.bytes.subarray(0, -1), sources: once(() => r.sources().slice(0, -1)) };
}

/** The distinct bytes a dump's lines spell, read each way: with and without offsets, and with each word's bytes reversed where every word is of one to eight bytes and one is of more than one. */
function dumpReadings(text: string, lines: DumpLine[]): DumpReading[] {
  const out: DumpReading[] = [];
  const reversible = lines.every((l) => l.widths !== "") && lines.some((l) => /[2-8]/.test(l.widths));
  const lineSources = once(() => lines.map((l) => sourcesOf(text, l)));
  for (const skipOffset of [false, true]) {
    const bytes = linesBytes(lines, skipOffset);
    const sources = once(() => linesSources(lines, lineSources(), skipOffset));
    const reading: DumpReading = { bytes, sources };
    // od pads the last word of an odd count of bytes with a zero byte, which the word's bytes reversed put last.
    const reversed = (): DumpReading =>
      unpadded({ bytes: wordsReversed(Buffer.from(bytes), lines, skipOffset), sources: once(() => wordsReversed([...sources()], lines, skipOffset)) });
    for (const r of reversible ? [reading, reversed()] : [reading]) {
      if (r.bytes.length >= MIN_DUMP_BYTES && !out.some((o) => o.bytes.equals(r.bytes))) out.push(r);
    }
  }
  return out;
}

/** Where the text beside a dumping tool's digits starts in a line (the line's end where there is none); `column` is xxd's, once a line of the dump has set it. */
function besideAt(line: string, column: number): number {
  const xxd = XXD_OFFSET.exec(line);
  if (xxd !== null) {
    const at = column !== -1 ? column : line.indexOf("  ", xxd[0].length);
    return at === -1 ? line.length : at;
  }
  const bar = CANONICAL_OFFSET.test(line) ? line.indexOf("|") : -1;
  return bar === -1 ? line.length : bar;
}

/** Each hex dump of a text of sixteen bytes or more, as where it starts and the readings of its bytes. One pass over the lines, after one native search. */
export function hexDumps(text: string): HexDump[] {
  if (!HEX_HINT.test(text)) return [];
  const dumps: HexDump[] = [];
  let start = -1;
  let column = -1;
  let lines: DumpLine[] = [];
  const close = (): void => {
    const readings = start === -1 ? [] : dumpReadings(text, lines);
    // The first reading is every line's bytes in order, the last line's last byte last: the dump ends with its digits.
    if (readings.length > 0) dumps.push({ start, end: (sourcesOf(text, lines.at(-1) as DumpLine).at(-1) as number) + 2, readings });
    [start, column, lines] = [-1, -1, []];
  };
  for (let at = 0; at <= text.length; ) {
    const lineStart = at;
    const nl = text.indexOf("\n", at);
    const end = nl === -1 ? text.length : nl;
    const line = text.slice(at, end);
    at = end + 1;
    // A blank line goes on with the dump, and so does a line of `*`, which stands for lines like the one before (a string's run of one character, as a rule).
    if (start !== -1 && /^[^0-9A-Za-z]*$/.test(line)) continue;
    const beside = besideAt(line, column);
    const run = lineRun(lineStart, line.slice(0, beside).split(SEPARATOR).filter((w) => w !== ""));
    if (run === null) {
      close();
      continue;
    }
    if (start === -1) start = lineStart;
    if (column === -1 && XXD_OFFSET.test(line) && beside < line.length) column = beside;
    lines.push(run);
  }
  close();
  return dumps;
}
