import type { Reading } from "./decodings.js";

// A payload whose member names a serializer wrote in another case style: camelCase
// ("hookEventName", "sessionId"), PascalCase, upper case ("HOOK_EVENT_NAME", "SESSIONID", "SESSION_ID") or kebab-case. Where
// every name of a signature shows in one style, and one of its names of several words differs, the text
// is read again with those names written as the host writes them. (OpenCode's "sessionID" in
// snake_case is Claude Code's own "session_id", which any text about the hosts holds: not a style.)

/** The words of a member name: parted at underscores and dashes, and where a lower-case letter or a digit meets a capital. */
function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[\s_-]+/)
    .filter((w) => w !== "");
}

const capital = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();

export const RECASINGS: { how: string; recase: (name: string) => string }[] = [
  { how: "names in camelCase", recase: (n) => wordsOf(n).map((w, i) => (i === 0 ? w.toLowerCase() : capital(w))).join("") },
  { how: "names in PascalCase", recase: (n) => wordsOf(n).map(capital).join("") },
  { how: "names in upper case", recase: (n) => n.toUpperCase() },
  { how: "names in upper snake case", recase: (n) => wordsOf(n).map((w) => w.toUpperCase()).join("_") },
  { how: "names in kebab-case", recase: (n) => wordsOf(n).map((w) => w.toLowerCase()).join("-") },
];

/** For each style, the signatures some of whose names it writes otherwise: each name as the style writes it, and as the host does. */
export type RecasedWords = { how: string; bySignature: { recased: string; name: string }[][]; names: RegExp | null }[];

const escaped = (word: string): string => word.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&");

export function recasedWords(bySignature: string[][]): RecasedWords {
  return RECASINGS.map(({ how, recase }) => {
    // Only a name of several words is a style's to write: "Kind" and "VALUE" are any text's words.
    const signatures = bySignature.filter((names) => names.some((n) => wordsOf(n).length > 1 && recase(n) !== n)).map((names) => names.map((name) => ({ recased: recase(name), name })));
    const changed = [...new Map(signatures.flat().filter((w) => w.recased !== w.name).map((w) => [w.recased, w.name])).keys()].sort((a, b) => b.length - a.length);
    // A name stands as a word of its own: "sessionId" in "mySessionIdCache" is no member's.
    const names = changed.length === 0 ? null : new RegExp(`(?<![A-Za-z0-9_])(?:${changed.map(escaped).join("|")})(?![A-Za-z0-9_])`, "g");
    return { how, bySignature: signatures, names };
  });
}

/** Whether a signature's every name shows in a text written in one of the other styles. */
export function namesRecased(text: { includes(w: string): boolean }, words: RecasedWords): boolean {
  return words.some((style) => style.bySignature.some((names) => names.every((w) => text.includes(w.recased))));
}

/** A reading in each style whose names of a signature all show in it, with those names written as the host writes them. */
export function recasedBack(r: Reading, words: RecasedWords): Reading[] {
  const out: Reading[] = [];
  for (const style of words) {
    if (style.names === null || !style.bySignature.some((names) => names.every((w) => r.text.includes(w.recased)))) continue;
    const back = new Map(style.bySignature.flat().map((w) => [w.recased, w.name]));
    // Names change length: each place of the reading is placed at the raw place of the text before it, near enough to name its line.
    const shifts: { at: number; by: number }[] = [];
    let by = 0;
    const text = r.text.replace(style.names, (found: string, at: number) => {
      const name = back.get(found) as string;
      by += found.length - name.length;
      shifts.push({ at: at + found.length - by, by });
      return name;
    });
    if (text === r.text) continue;
    const rawAt = (i: number): number | null => {
      let shift = 0;
      for (const s of shifts) if (s.at <= i) shift = s.by;
      return r.rawAt(i + shift);
    };
    out.push({ text, rawAt, decodings: [...r.decodings, style.how] });
  }
  return out;
}
