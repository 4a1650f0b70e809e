import type { Pairing, Selection, Substitution } from "../types.js";

// What the record and the sidecars may say of an identifier: only what a committed fixture keeps.
// Pairing reads the raw captures, so an id that substitution changed (a member of an environment
// dump, a value a literal rule rewrote, a name) would otherwise reach committed text that no
// fixture holds. An id no committed member of its pair keeps, as a JSON string, is written as
// ID_NOT_KEPT, in the pairs, the reasons and the selection alike.

export const ID_NOT_KEPT = "(an id no fixture keeps)";

/** A reason that still names such an id after the replacement (it stood where no word boundary is) is not written at all. */
export const REASON_NOT_KEPT = "(a reason that names an id no fixture keeps)";

// An id named as a word in a text about a file: after the text's start, a space or an opening
// bracket, and before its end, a space, a closing bracket or punctuation.
const BEFORE_ID = /[\s([]/;
const AFTER_ID = /[\s,;:)\]]/;

/**
 * `text` with each of `ids` that stands as a word replaced by `by`, read from the start: at each
 * place, the first of `ids` that stands there (the caller lists the longer first). Found by
 * comparing, not by a pattern made for each text.
 */
export function replaceIdWords(text: string, ids: readonly string[], by: string): string {
  const words = ids.filter((x) => x !== "");
  let out = "";
  let kept = 0;
  for (let at = 0; at < text.length; ) {
    const id = at === 0 || BEFORE_ID.test(text.charAt(at - 1)) ? words.find((x) => text.startsWith(x, at) && (at + x.length === text.length || AFTER_ID.test(text.charAt(at + x.length)))) : undefined;
    if (id === undefined) {
      at++;
      continue;
    }
    out += text.slice(kept, at) + by;
    at += id.length;
    kept = at;
  }
  return out + text.slice(kept);
}

/**
 * The pairing and selection as they may be written: every id a committed fixture does not keep
 * replaced. `idsOfFile` holds every identifier value pairing read from each capture, any scope:
 * every pair's id and every finest id is one of them. Pure.
 */
export function pairingAsKept(pairing: Pairing, selection: Selection, substitution: Substitution, idsOfFile: Map<string, string[]>): { pairing: Pairing; selection: Selection } {
  const chosen = new Set(selection.selected.map((s) => s.file));
  const texts = new Map(substitution.files.filter((f) => chosen.has(f.report.name)).map((f) => [f.report.name, f.cleared]));
  const keptIn = (id: string, file: string): boolean => texts.get(file)?.includes(JSON.stringify(id)) === true;
  const keptBy = (id: string, files: string[]): boolean => files.some((f) => keptIn(id, f));
  // A text about a file names its ids as words: those its fixture does not keep are replaced, the longest first,
  // in one pass; should one still stand in it, the text is not written.
  const hidden = (file: string, text: string): string => {
    const ids = [...new Set(idsOfFile.get(file) ?? [])].filter((id) => id !== "" && !keptIn(id, file) && text.includes(id)).sort((a, b) => b.length - a.length);
    if (ids.length === 0) return text;
    const out = replaceIdWords(text, ids, ID_NOT_KEPT);
    return ids.some((id) => out.includes(id)) ? REASON_NOT_KEPT : out;
  };
  const pairs = pairing.pairs.map((p) => (keptBy(p.id, p.files) ? p : { ...p, id: ID_NOT_KEPT }));
  return {
    pairing: {
      ...pairing,
      pairs,
      finest: pairing.finest.map((f) => (keptIn(f.id, f.file) ? f : { ...f, id: ID_NOT_KEPT })),
      unpaired: pairing.unpaired.map((u) => ({ ...u, reason: hidden(u.file, u.reason) })),
    },
    selection: { ...selection, selected: selection.selected.map((s) => ({ ...s, why: hidden(s.file, s.why) })) },
  };
}
