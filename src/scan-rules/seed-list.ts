import type { SecretLintRuleCreator } from "@secretlint/types";
import { eachMatch } from "../regex.js";
import { readingsOf, type ScannedString } from "./readings.js";

// A wallet's seed phrase with no word beside it that names it (clear/seed-phrase reads those): its
// words numbered as a wallet shows them (`1. abandon 2. ability …`, one a line, `1) abandon`, or a
// file of them numbered by cat -n or a Read tool, `     1\tabandon`), 12
// to 24 of them in order; or a list of exactly 12 or 24 words in lower case, as JSON writes it, in
// a text (`["abandon", "ability", …]`) or as the capture's own array. A seed word has three to
// eight letters.

export const SEED_LIST_RULE = "clear/seed-list";
export const SEED_LIST_DESCRIPTION = "A wallet's seed phrase with no name beside it: 12 to 24 words numbered in order, or a list of exactly 12 or 24 words in lower case";

const WORD = "[a-z]{3,8}";
/** A number's mark before its word: 1. 1) 1: (a blank or none after), or a tab or an arrow as cat -n and a Read tool number a file's lines. */
const MARK = "(?:[.):] ?|\\t|\u2192)";
/** Words numbered from 1, on one line or one a line, their numbers read after. */
const NUMBERED = new RegExp(`(?<![0-9A-Za-z])1${MARK}${WORD}(?:[ \\t,;]{0,4}(?:\\r?\\n[ \\t]{0,16})?[0-9]{1,2}${MARK}${WORD}){11,23}(?![a-z])`, "g");
const NUMBER = new RegExp(`([0-9]{1,2})${MARK}[a-z]`, "g");
/** A JSON list of words in a text. */
const LISTED = new RegExp(`\\[\\s{0,16}"${WORD}"(?:\\s{0,16},\\s{0,16}"${WORD}"){11,23}\\s{0,16}\\]`, "g");
const SEED_LENGTHS = new Set([12, 15, 18, 21, 24]);
const LIST_LENGTHS = new Set([12, 24]);
const ONLY_A_WORD = new RegExp(`^${WORD}$`);

/** Whether a run of numbered words is numbered 1, 2, 3 … in order, 12 to 24 in steps of three. */
function numberedInOrder(run: string): boolean {
  const numbers = [...run.matchAll(NUMBER)].map((m) => Number(m[1]));
  return SEED_LENGTHS.has(numbers.length) && numbers.every((n, i) => n === i + 1);
}

/** What a numbered list starts with, its first word's number and mark; a JSON list, its bracket: a text without them holds no list, and its words are not tried. */
const FIRST_NUMBER = new RegExp(`1${MARK}`);

/** Each seed list in a text, as a range of it. */
export function seedLists(text: string): [number, number][] {
  const found: [number, number][] = [];
  if (FIRST_NUMBER.test(text)) for (const m of eachMatch(NUMBERED, text)) if (numberedInOrder(m[0])) found.push([m.index, m.index + m[0].length]);
  if (text.includes("[")) for (const m of eachMatch(LISTED, text)) if (LIST_LENGTHS.has(m[0].split(",").length)) found.push([m.index, m.index + m[0].length]);
  return found;
}

/** The capture's own arrays of 12 or 24 strings, each a word in lower case: their strings, by the array's pointer. */
function wordArrays(strings: ScannedString[]): ScannedString[][] {
  const byArray = new Map<string, ScannedString[] | null>();
  for (const s of strings) {
    const pointer = s.place.pointer;
    if (pointer === null || s.isKey || s.encoded || s.member !== null || !/\/[0-9]+$/.test(pointer)) continue;
    const array = pointer.slice(0, pointer.lastIndexOf("/"));
    const words = byArray.get(array);
    if (words === null) continue;
    byArray.set(array, ONLY_A_WORD.test(s.readings[0]?.text ?? "") ? [...(words ?? []), s] : null);
  }
  return [...byArray.values()].filter((w): w is ScannedString[] => w !== null && LIST_LENGTHS.has(w.length));
}

export const seedListRule: SecretLintRuleCreator = {
  messages: { FOUND: { en: () => "a list of 12 to 24 words in lower case, numbered or listed: a wallet's seed phrase" } },
  meta: { id: SEED_LIST_RULE, type: "scanner", recommended: true, supportedContentTypes: ["text"] },
  create(context) {
    const t = context.createTranslator(seedListRule.messages);
    return {
      file(source) {
        const { strings } = readingsOf(source.content);
        for (const s of strings) {
          if (s.keyShapesOnly) continue;
          for (const r of s.readings) for (const [start, end] of seedLists(r.text)) context.report({ message: t("FOUND"), range: [r.rawAt(start), r.rawAt(end)] });
        }
        for (const words of wordArrays(strings)) {
          const first = words[0] as ScannedString;
          const last = words[words.length - 1] as ScannedString;
          context.report({ message: t("FOUND"), range: [first.place.start, last.place.end] });
        }
      },
    };
  },
};

/** A numbered list of twelve words the reach control plants. */
export function seedListExample(): string {
  return ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima"].map((w, i) => `${i + 1}. ${w}`).join(" ");
}
