import { lastAtOrBelow } from "../collections.js";

// A reading of a string is its text with a way back to the raw offsets. Decoders that rewrite a
// few spots of a long text (a reference, an escape, an encoded byte) build one here: stretches
// copied as they stand and stretches rewritten, kept as breaks rather than one offset per
// character, so that a long string with few escapes stays cheap.

/** A text read from a string, with the raw offset each of its offsets comes from. */
export interface Reading {
  text: string;
  /** The raw offset a reading offset comes from; the reading's length maps to the end of its raw span. */
  rawAt(i: number): number;
  /** Line ends taken out to join a token they broke (char-escapes.ts): read for a key's shape only, since it also joins words a line end kept apart. */
  joined?: true;
  /**
   * Controls of ASCII taken out (char-escapes.ts): the reading they were taken from. A home's grammar
   * reads such a control as the end of an owner, as learning and substitution do.
   */
  controlsOutOf?: Reading;
}


/** A new reading of a source reading, written from left to right. */
export class ReadingBuilder {
  private readonly parts: string[] = [];
  private length = 0;
  private readonly breaksAt: number[] = [];
  private readonly sourceStarts: number[] = [];

  constructor(private readonly source: Reading) {}

  /** The source text from `from` to `to`, as it stands. */
  copy(from: number, to: number): void {
    if (to <= from) return;
    this.mark(from);
    this.parts.push(this.source.text.slice(from, to));
    this.length += to - from;
  }

  /** `text` in place of source text starting at `from`: each of its offsets maps there or just after. */
  put(text: string, from: number): void {
    if (text === "") return;
    this.mark(from);
    this.parts.push(text);
    this.length += text.length;
  }

  /** The reading, its end mapped to the source's `end`. */
  finish(end = this.source.text.length): Reading {
    this.mark(end);
    const text = this.parts.join("");
    const { breaksAt, sourceStarts, source } = this;
    const sourceAt = (i: number): number => {
      const k = lastAtOrBelow(breaksAt, i);
      return Math.min((sourceStarts[k] as number) + i - (breaksAt[k] as number), end);
    };
    return { text, rawAt: (i) => source.rawAt(i >= text.length ? end : sourceAt(i)) };
  }

  private mark(sourceAt: number): void {
    if (this.breaksAt[this.breaksAt.length - 1] === this.length) {
      this.sourceStarts[this.sourceStarts.length - 1] = sourceAt;
      return;
    }
    this.breaksAt.push(this.length);
    this.sourceStarts.push(sourceAt);
  }
}

/** Bytes decoded one escape at a time (%XX, \xHH, =HH): consecutive ones read together as UTF-8. */
export class PendingBytes {
  private bytes: number[] = [];
  private starts: number[] = [];

  constructor(private readonly into: ReadingBuilder) {}

  /** A byte whose escape starts at source offset `from`. */
  add(byte: number, from: number): void {
    this.bytes.push(byte);
    this.starts.push(from);
  }

  /** Writes the bytes held, each character at the escape of its first byte. */
  flush(): void {
    const { bytes, starts } = this;
    for (let i = 0; i < bytes.length; ) {
      const n = utf8SequenceLength(bytes, i);
      const text = n === 0 ? "\ufffd" : n === 1 ? String.fromCharCode(bytes[i] as number) : Buffer.from(bytes.slice(i, i + n)).toString("utf8");
      this.into.put(text, starts[i] as number);
      i += Math.max(n, 1);
    }
    this.bytes = [];
    this.starts = [];
  }
}

/** The length of the well-formed UTF-8 sequence starting at `bytes[i]`, or 0 where none starts. */
export function utf8SequenceLength(bytes: ArrayLike<number>, i: number): number {
  const b = bytes[i] as number;
  if (b < 0x80) return 1;
  const n = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
  if (n === 0 || i + n > bytes.length) return 0;
  const second = bytes[i + 1] as number;
  // No overlong form, no surrogate, nothing past U+10FFFF.
  if ((b === 0xe0 && second < 0xa0) || (b === 0xed && second > 0x9f) || (b === 0xf0 && second < 0x90) || (b === 0xf4 && second > 0x8f)) return 0;
  for (let k = 1; k < n; k++) if (((bytes[i + k] as number) & 0xc0) !== 0x80) return 0;
  return n;
}
