import type { HomeGrammar } from "../homes.js";
import type { SecretRules } from "../types.js";

/**
 * What a scan engine is made from: the secret rules, the home grammar, the member list and the
 * source of the names pattern (empty without one). An engine made again from the very same four
 * runs the same code on the same rules: within one process its control is run once and its verdict kept.
 */
export type MadeFrom = readonly [SecretRules, HomeGrammar, ReadonlySet<string>, string];

/**
 * A verdict worked out elsewhere (a worker thread): `claim` asks for it, and gives the rules the
 * control left silent, or null where none came (the worker could not start, or failed), and the
 * control is then run here.
 */
export interface HandedVerdict {
  claim(): Promise<string[] | null>;
}

type Kept = Promise<string[]> | HandedVerdict;
const kept: WeakMap<object, WeakMap<object, WeakMap<object, Map<string, Kept>>>> = new WeakMap();

function slotOf([secrets, grammar, structure]: MadeFrom): Map<string, Kept> {
  const byGrammar = kept.get(secrets) ?? new WeakMap();
  kept.set(secrets, byGrammar);
  const byStructure = byGrammar.get(grammar) ?? new WeakMap();
  byGrammar.set(grammar, byStructure);
  const byNames = byStructure.get(structure) ?? new Map<string, Kept>();
  byStructure.set(structure, byNames);
  return byNames;
}

/** Keeps a verdict another thread works out for the engine made from `madeFrom`, unless one is kept already. */
export function handVerdict(madeFrom: MadeFrom, verdict: HandedVerdict): void {
  const slot = slotOf(madeFrom);
  if (!slot.has(madeFrom[3])) slot.set(madeFrom[3], verdict);
}

/** The rules the control leaves silent for the engine made from `madeFrom`: kept, handed, or `work` run once. */
export function verdictOf(madeFrom: MadeFrom, work: () => Promise<string[]>): Promise<string[]> {
  const slot = slotOf(madeFrom);
  const names = madeFrom[3];
  const held = slot.get(names);
  if (held instanceof Promise) return held;
  // Kept at once, before anything is awaited: a second caller meanwhile waits on the same verdict.
  const verdict = held === undefined ? work() : held.claim().then((got) => got ?? work());
  slot.set(names, verdict);
  return verdict;
}
