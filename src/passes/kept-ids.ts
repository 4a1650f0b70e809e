import { escapeRegex } from "../regex.js";
import type { Pairing, Selection, Substitution } from "../types.js";

// What the record and the sidecars may say of an identifier: only what a committed fixture keeps.
// Pairing reads the raw captures, so an id that substitution changed (a member of an environment
// dump, a value a literal rule rewrote, a name) would otherwise reach committed text that no
// fixture holds. An id no committed member of its pair keeps, as a JSON string, is written as
// ID_NOT_KEPT, in the pairs, the reasons and the selection alike.

export const ID_NOT_KEPT = "[an id no fixture keeps]";

/** The pairing and selection as they may be written: every id a committed fixture does not keep replaced. Pure. */
export function pairingAsKept(pairing: Pairing, selection: Selection, substitution: Substitution): { pairing: Pairing; selection: Selection } {
  const chosen = new Set(selection.selected.map((s) => s.file));
  const texts = new Map(substitution.files.filter((f) => chosen.has(f.report.name)).map((f) => [f.report.name, f.cleared]));
  const keptIn = (id: string, file: string): boolean => texts.get(file)?.includes(JSON.stringify(id)) === true;
  const keptBy = (id: string, files: string[]): boolean => files.some((f) => keptIn(id, f));
  const idsOf = new Map<string, Set<string>>();
  const add = (file: string, id: string): void => {
    const set = idsOf.get(file) ?? new Set<string>();
    set.add(id);
    idsOf.set(file, set);
  };
  for (const p of pairing.pairs) for (const f of p.files) add(f, p.id);
  for (const f of pairing.finest) add(f.file, f.id);
  // A text about a file names its ids as words: each one that file's fixture does not keep is replaced where it stands alone.
  const hidden = (file: string, text: string): string => {
    let out = text;
    for (const id of idsOf.get(file) ?? []) {
      if (!keptIn(id, file) && out.includes(id)) out = out.replace(new RegExp(`(?<=^|[\\s(])${escapeRegex(id)}(?=$|[\\s,;:)])`, "gu"), ID_NOT_KEPT);
    }
    return out;
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
