import { detached } from "../../collections.js";
import type { ChangeExample } from "../../types.js";

// One changed value as a person may read it in the batch: what the fixture holds now, and the
// value before with the words that changed masked. The text both share is already in the
// fixture; the part that differed is never shown, nor its length.

const WINDOW = 24;
// Three dots: what reads as elided to a person, and, starting with a dot, never as a home's owner.
const MASK = "...";

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

function commonSuffix(a: string, b: string, floor: number): number {
  let i = 0;
  while (i < a.length - floor && i < b.length - floor && a[a.length - 1 - i] === b[b.length - 1 - i]) i++;
  return i;
}

const head = (s: string): string => (s.length > WINDOW ? `…${s.slice(-WINDOW)}` : s);
const tail = (s: string): string => (s.length > WINDOW ? `${s.slice(0, WINDOW)}…` : s);

const WORD = /[\p{L}\p{N}_]/u;

/** The before-and-after of one value, both decoded; the changed part of `before` masked, long runs shortened. */
export function changeExample(rule: string, pointer: string, before: string, after: string): ChangeExample {
  let p = commonPrefix(before, after);
  let s = commonSuffix(before, after, p);
  // The mask covers whole words: letters a name shares with its placeholder are not shown either.
  while (p > 0 && WORD.test(after[p - 1] as string)) p--;
  while (s > 0 && WORD.test(after[after.length - s] as string)) s--;
  const kept = { start: head(after.slice(0, p)), end: tail(after.slice(after.length - s)) };
  const changed = after.slice(p, after.length - s);
  // Kept with the batch to the end of the run: copied, so that they do not hold the capture's text alive.
  return { rule, pointer: detached(pointer), before: detached(`${kept.start}${MASK}${kept.end}`), after: detached(`${kept.start}${tail(changed)}${kept.end}`), length: before.length };
}
