import { decodeWithOffsets, encodeJsonString } from "../../json/escapes.js";
import { escapeRegex } from "../../regex.js";
import type { SubstitutionRule } from "./rule.js";

// literal-v1:<name>: a value named in clear.config.json (a host name, an organisation) becomes its
// placeholder wherever it stands, in any letter case.

export interface Literal {
  name: string;
  value: string;
  placeholder: string;
}

export function literalRule(literal: Literal): SubstitutionRule {
  const pattern = new RegExp(escapeRegex(literal.value), "giu");
  const lower = literal.value.toLowerCase();
  return {
    id: `literal-v1:${literal.name}`,
    prefilter: (raw) => raw.includes("\\") || raw.toLowerCase().includes(lower),
    apply(raw) {
      const { decoded, starts } = decodeWithOffsets(raw);
      const at = (i: number): number => (starts ? (starts[i] as number) : i);
      let out = "";
      let copied = 0;
      let matched = false;
      pattern.lastIndex = 0;
      for (let m = pattern.exec(decoded); m !== null; m = pattern.exec(decoded)) {
        matched = true;
        out += raw.slice(copied, at(m.index)) + encodeJsonString(literal.placeholder);
        copied = at(m.index + m[0].length);
      }
      return matched ? { raw: out + raw.slice(copied), matched } : { raw, matched };
    },
  };
}
