// A payload whose member names a serializer wrote in another case style: camelCase
// ("hookEventName", "sessionId"), PascalCase, upper case ("HOOK_EVENT_NAME", "SESSIONID",
// "SESSION_ID") or kebab-case. Where every name of a signature shows in one style, and one of its
// names of several words differs, the search matches member names by their folded form (`foldedName`) in every object it reads after.
// (OpenCode's "sessionID" in snake_case is Claude Code's own "session_id": not a style of its own.)

/** The words of a member name: parted at underscores and dashes, and where a lower-case letter or a digit meets a capital. */
function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[\s_-]+/)
    .filter((w) => w !== "");
}

const capital = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();

/** The styles: camelCase, PascalCase, upper case as written and with underscores between words, kebab-case. */
const RECASINGS: ((name: string) => string)[] = [
  (n) => wordsOf(n).map((w, i) => (i === 0 ? w.toLowerCase() : capital(w))).join(""),
  (n) => wordsOf(n).map(capital).join(""),
  (n) => n.toUpperCase(),
  (n) => wordsOf(n).map((w) => w.toUpperCase()).join("_"),
  (n) => wordsOf(n).map((w) => w.toLowerCase()).join("-"),
];

/** For each style, the names of each signature it writes otherwise, as it writes them. */
export type RecasedWords = string[][][];

export function recasedWords(bySignature: string[][]): RecasedWords {
  // Only a name of several words is a style's to write: "Kind" and "VALUE" are any text's words.
  return RECASINGS.map((recase) => bySignature.filter((names) => names.some((n) => wordsOf(n).length > 1 && recase(n) !== n)).map((names) => names.map(recase)));
}

/** Whether a signature's every name shows in a text written in one of the other styles. */
export function namesRecased(text: { includes(w: string): boolean }, words: RecasedWords): boolean {
  return words.some((style) => style.some((names) => names.every((w) => text.includes(w))));
}

/** A member name as every case style writes it alike: letters in lower case, no underscore or dash ("hookEventName", "HOOK_EVENT_NAME" and "hook_event_name" are one). */
export function foldedName(name: string): string {
  return name.toLowerCase().replace(/[_-]/g, "");
}
