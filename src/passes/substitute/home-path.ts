import { decodeWithOffsets, spliceDecoded } from "../../json/escapes.js";
import type { HomeGrammar } from "../../homes.js";
import { sameLengthPlaceholder, type SubstitutionRule } from "./rule.js";

// home-path-v1: every owner of a home directory becomes the placeholder, whoever it is, in every
// string value (free text included, so the rule is recorded where it applied).

export const HOME_RULE = "home-path-v1";

// The placeholder stands where a name stood, beside what followed it: a quote or an escaped space
// that joined nothing to the name may join something to the placeholder ("~user\ ~x"). The value is
// read again until it holds no owner but the placeholder, so a second run changes nothing; a few
// rounds settle any value the hosts write, and one they do not settle is written over whole.
const ROUNDS = 8;

export function homePathRule(grammar: HomeGrammar): SubstitutionRule {
  return {
    id: HOME_RULE,
    // First of the registry, the rule reads the text as the capture holds it: learning's answer is for that text.
    prefilter: (raw, leaf) => leaf.mayHoldHome ?? grammar.mayHold(raw),
    apply(raw) {
      const first = replaceOwners(grammar, raw);
      if (first === null) return { raw, matched: false };
      let out = first;
      for (let round = 1; round <= ROUNDS; round++) {
        const again = replaceOwners(grammar, out);
        if (again === null || again === out) return { raw: out, matched: true };
        out = again;
      }
      return { raw: sameLengthPlaceholder(raw), matched: true };
    },
  };
}

/** The raw content with every owner that is someone replaced by the placeholder; null where the grammar reads no owner at all. */
function replaceOwners(grammar: HomeGrammar, raw: string): string | null {
  const { decoded, starts } = decodeWithOffsets(raw);
  const owners = grammar.owners(decoded);
  if (owners.length === 0) return null;
  return spliceDecoded(raw, starts, owners.filter((x) => x.real).map((o) => ({ start: o.start, end: o.end, text: grammar.placeholder })));
}
