import type { FieldClass } from "../../types.js";

// A substitution rule: one small module with its id, the cheap prefilter it needs, and its
// replacement. Rules run in the registry's order on each string value's raw content (between the
// quotes); a rule returns new raw content and never touches any byte outside it.

export interface Leaf {
  pointer: string;
  class: FieldClass;
  known: boolean;
  /** Under an environment dump admitted by the env-dump-v1 policy. */
  inDump: boolean;
  /** A NAME=value string of an admitted dump that is a list of them: its name remains, as a member name does. */
  assignment?: boolean;
  /** Whether its text as the capture holds it may hold a home, as learning found (Capture.homeHints); unknown where learning did not read it. */
  mayHoldHome?: boolean;
  /** Its raw content as the capture holds it, before any rule ran: what a same-length placeholder is as long as. */
  asWritten?: string;
}

export interface RuleResult {
  raw: string;
  /** The rule found what it looks for here (already-cleared text counts: a second pass reports it). */
  matched: boolean;
}

export interface SubstitutionRule {
  id: string;
  /** A cheap look at the raw content; false means the rule has nothing to do here. */
  prefilter(raw: string, leaf: Leaf): boolean;
  apply(raw: string, leaf: Leaf): RuleResult;
}

export const unchanged = (raw: string): RuleResult => ({ raw, matched: false });

/**
 * Same raw length: the number of characters between the quotes as written in the file (an
 * escape counts as the characters it is written with), so length limits survive.
 */
export function sameLengthPlaceholder(raw: string, asWritten = raw): string {
  const length = codePoints(asWritten);
  return raw.length === length && /^x*$/.test(raw) ? raw : "x".repeat(length);
}

const SURROGATE = /[\ud800-\udfff]/;

/** How many characters a text holds, a surrogate pair counting once; counted without spreading it. */
export function codePoints(text: string): number {
  if (!SURROGATE.test(text)) return text.length;
  let n = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}
