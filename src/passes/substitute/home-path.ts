import { decodeWithOffsets, encodeJsonString } from "../../json/escapes.js";
import type { HomeGrammar } from "../../homes.js";
import type { SubstitutionRule } from "./rule.js";

// home-path-v1: every owner of a home directory becomes the placeholder, whoever it is, in every
// string value (free text included, so the rule is recorded where it applied).

export const HOME_RULE = "home-path-v1";

export function homePathRule(grammar: HomeGrammar): SubstitutionRule {
  return {
    id: HOME_RULE,
    prefilter: (raw) => grammar.mayHold(raw),
    apply(raw) {
      const { decoded, starts } = decodeWithOffsets(raw);
      const owners = grammar.owners(decoded);
      if (owners.length === 0) return { raw, matched: false };
      const at = (i: number): number => (starts ? (starts[i] as number) : i);
      let out = "";
      let copied = 0;
      for (const o of owners.filter((x) => x.real)) {
        out += raw.slice(copied, at(o.start)) + encodeJsonString(grammar.placeholder);
        copied = at(o.end);
      }
      return { raw: out + raw.slice(copied), matched: true };
    },
  };
}
