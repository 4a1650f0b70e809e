import { WordFinder } from "../regex.js";
import { PRESET_KEYWORDS } from "./preset-keywords.js";
import type { FoundWords, SourceReadings } from "./readings.js";

// The words every prefilter of the scan looks for, this project's patterns' keywords and the
// preset's words together: each text is searched for all of them in one pass, and each rule then
// asks whether one of its own words was found.

const words = new Set<string>(Object.values(PRESET_KEYWORDS).flat());
let finder: WordFinder | null = null;

/** Adds a rule's words (in lower case) to those looked for. */
export function addScanWords(list: readonly string[]): void {
  for (const w of list) {
    if (words.has(w)) continue;
    words.add(w);
    finder = null;
  }
}

/** Every word looked for that stands in the text's raw and decoded readings, found once per text. */
export function scanWordsIn(readings: SourceReadings): FoundWords {
  finder ??= new WordFinder(words);
  return readings.words(finder);
}
