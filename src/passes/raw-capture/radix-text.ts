import { ascii85Blocks, base32Bytes, base32Runs } from "../../radix.js";
import { CannotRead, encodedText, type EncodedText, type Reading } from "./decodings.js";

// Readings beside those of decodings.ts: the text base32 runs and Ascii85 blocks spell (radix.ts finds
// them), read as base64's is; and a text turned over by rot13 or reversal, turned back where a
// signature's every member name shows turned in it.

type RadixText = EncodedText & { how: string };
let lastRadix: { text: string; out: RadixText[] } | null = null;

/** The text each base32 run and Ascii85 block of a text spells, as `encodedText` reads bytes, with the encoding's name; a run whose stream cannot be read whole gives `unchecked`. */
export function radixTexts(text: string): RadixText[] {
  // The cheap first look and the whole check ask this of the same text, one after the other.
  if (lastRadix !== null && lastRadix.text === text) return lastRadix.out;
  const spelt = [
    ...base32Runs(text).map((run) => ({ start: run.start, bytes: base32Bytes(run.body), how: "base32" })),
    ...ascii85Blocks(text).map((block) => ({ ...block, how: "Ascii85" })),
  ];
  const out: RadixText[] = [];
  for (const { start, bytes, how } of spelt) {
    const read = encodedText(bytes, how);
    if (read !== null) out.push({ start, text: read, how });
  }
  lastRadix = { text, out };
  return out;
}

/** Each base32 run or Ascii85 block of a reading that spells text, as a reading placed at the run's start; a run that cannot be read whole stops the search. */
export function radixDecoded(r: Reading): Reading[] {
  return radixTexts(r.text).map(({ start, text, how }) => {
    if (typeof text !== "string") throw new CannotRead(text.unchecked);
    return { text, rawAt: () => r.rawAt(start), decodings: [...r.decodings, how] };
  });
}

const ROT13 = (text: string): string => text.replace(/[A-Za-z]/g, (ch) => String.fromCharCode(((ch.charCodeAt(0) & 0x1f) + 12) % 26 + (ch.charCodeAt(0) & 0xe0) + 1));
/** A text's characters in the other order, a surrogate pair kept as one character. */
const REVERSED = (text: string): string => [...text].reverse().join("");
const LINES_REVERSED = (text: string): string => text.split("\n").map(REVERSED).join("\n");

/**
 * A text turned over whole: its letters rotated thirteen places (rot13), its characters in the other
 * order (as a string reversed), or each line's (as rev(1) writes it). Each turn is its own undoing,
 * so each also turns the signatures' member names: only where a signature's every name shows turned is the text turned back.
 */
export const TURNS: { how: string; turn: (text: string) => string }[] = [
  { how: "rot13", turn: ROT13 },
  { how: "reversed", turn: REVERSED },
  { how: "each line reversed", turn: LINES_REVERSED },
];

/** The signatures' member names as each turn writes them. */
export type TurnedWords = { how: string; bySignature: string[][] }[];

/** Each turn of a reading whose turned member names of a signature all show in it, turned back. */
export function turnedBack(r: Reading, turnedWords: TurnedWords): Reading[] {
  const out: Reading[] = [];
  for (const { how, turn } of TURNS) {
    const words = turnedWords.find((t) => t.how === how);
    if (words === undefined || !words.bySignature.some((names) => names.every((w) => r.text.includes(w)))) continue;
    const last = r.text.length - 1;
    out.push({ text: turn(r.text), rawAt: how === "reversed" ? (i) => r.rawAt(Math.max(0, last - i)) : r.rawAt, decodings: [...r.decodings, how] });
  }
  return out;
}
