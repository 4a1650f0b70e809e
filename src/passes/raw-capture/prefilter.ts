import { embeddedStarts, headlessInflated, isZip, kindOf, packedHistory, sealedKind } from "../../compressed.js";
import { base64Runs, base64Text, byteListTexts, escapesUndone, hexTexts } from "./decodings.js";
import { literalsJoined } from "./literal-joins.js";
import { radixTexts, TURNS, type TurnedWords } from "./radix-text.js";
import { namesRecased, recasedWords, type RecasedWords } from "./recased.js";
import { utf16Readings } from "./wide-text.js";

// Whether a text could hold a payload at all, answered cheaply from the signatures' member names,
// before anything is parsed: the gate's fast path asks it of every file a commit brings (with no
// other rules loaded), and the payload check asks it first.

/** The member names the signatures look for: each signature's names, and the first name of each member. */
export interface PayloadWords {
  /** For each signature, every name in its members' pointers: a payload written in any form holds them all. */
  bySignature: string[][];
  /** The first name of each member: a JSON payload's text holds one, as written or behind an escape. */
  first: string[];
  /** Each signature's names as rot13 and reversal write them: a payload turned so holds them all. */
  turned: TurnedWords;
  /** Each signature's names as other case styles write them (hookEventName, SESSION_ID): a payload a serializer renamed so holds them all. */
  recased: RecasedWords;
}

/** The words of signatures given as member pointers (/input/sessionID). */
export function payloadWords(signatures: { members: { pointer: string }[] }[]): PayloadWords {
  const tokens = (pointer: string): string[] => pointer.slice(1).split("/").map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
  const bySignature = signatures.map((s) => [...new Set(s.members.flatMap((m) => tokens(m.pointer)))]);
  const first = [...new Set(signatures.flatMap((s) => s.members.map((m) => tokens(m.pointer)[0] as string)))];
  const turned = TURNS.map(({ how, turn }) => ({ how, bySignature: bySignature.map((names) => names.map(turn)) }));
  return { bySignature, first, turned, recased: recasedWords(bySignature) };
}

/** Whether a signature's every name shows turned by rot13 or reversal in a text. */
export function namesTurned(text: { includes(w: string): boolean }, words: PayloadWords): boolean {
  return words.turned.some((t) => t.bySignature.some((names) => names.every((w) => text.includes(w))));
}

const ENCODED_BRACE = /%7[Bb]|%257[Bb]|&#123;|&#[xX]7[Bb];|&lbrace;|&lcub;/;
const ENTITY = /&(?:#[0-9]|#[xX][0-9a-fA-F]|[A-Za-z][A-Za-z0-9]{1,15};)/;
/** Levels of base64 inside base64 looked into here: as many decodings as the payload check undoes one inside another. */
const BASE64_LEVELS = 6;

/**
 * False only where no form the payload check reads could hold a payload: no brace with a member
 * name or an escape beside it, no signature's every name, no brace written as %7B or an entity,
 * no signature's every name turned by rot13 or reversal, no base64 or base32 run, Ascii85 block, hex dump
 * or list of decimal bytes that decodes to text that could, no compressed stream. Linear in the text.
 */
export function couldHoldPayload(bytes: Uint8Array, words: PayloadWords, level = 0, utf16 = level === 0): boolean {
  // Compressed bytes could hold one: the whole check reads what they inflate to.
  if (kindOf(bytes) !== null || sealedKind(bytes) !== null || isZip(bytes) || packedHistory(bytes) !== null) return true;
  // A stream no header names (brotli, raw deflate) in bytes that are not text: undone here, as the whole check would.
  if (headlessInflated(bytes, 1 << 16) !== null) return true;
  // So could one inside the file (a tar's member, a stream after a prefix).
  if (level === 0 && embeddedStarts(bytes)?.length !== 0) return true;
  if (utf16 && utf16Readings(bytes).some((text) => couldHoldPayload(text, words, level, false))) return true;
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const brace = buf.includes(0x7b);
  if (brace && (buf.includes(0x5c) || words.first.some((w) => buf.includes(w)))) return true;
  if (words.bySignature.some((names) => names.every((w) => buf.includes(w)))) return true;
  if (namesTurned(buf, words) || namesRecased(buf, words.recased)) return true;
  const text = buf.toString("latin1");
  if (ENCODED_BRACE.test(text) || (brace && ENTITY.test(text))) return true;
  // Every name of a signature, one of them written with an escape (hook&#95;event&#95;name, %5F): undone by the payload check's own decoders.
  for (const d of escapesUndone({ text, rawAt: () => 0, decodings: [] })) if (words.bySignature.some((names) => names.every((w) => d.text.includes(w)))) return true;
  // Every name of a signature once the literals code joins are read as one string (a name cut in two by a join).
  const joined = literalsJoined({ text, rawAt: () => 0, decodings: [] });
  if (joined !== null && words.bySignature.some((names) => names.every((w) => joined.text.includes(w)))) return true;
  if (level >= BASE64_LEVELS) return false;
  for (const run of base64Runs(text)) {
    const decoded = base64Text(run.body);
    // A stream that cannot be read whole here is left to the whole check, which refuses it.
    if (decoded !== null && (typeof decoded !== "string" || couldHoldPayload(Buffer.from(decoded, "utf8"), words, level + 1))) return true;
  }
  for (const dump of [...hexTexts(text), ...byteListTexts(text), ...radixTexts(text)]) if (typeof dump.text !== "string" || couldHoldPayload(Buffer.from(dump.text, "utf8"), words, level + 1)) return true;
  return false;
}
