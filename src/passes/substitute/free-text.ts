import { sameLengthPlaceholder, type SubstitutionRule } from "./rule.js";

// free-text-v1: prompts, messages, tool input and output, summaries, titles become placeholder
// text of the same raw length.

export const FREE_TEXT_RULE = "free-text-v1";

export const freeTextRule: SubstitutionRule = {
  id: FREE_TEXT_RULE,
  prefilter: (_raw, leaf) => leaf.class === "free-text" && !leaf.inDump,
  apply: (raw) => ({ raw: sameLengthPlaceholder(raw), matched: true }),
};
