import { sameLengthPlaceholder, type SubstitutionRule } from "./rule.js";

// free-text-v1: prompts, messages, tool input and output, summaries, titles become placeholder
// text of the same raw length as the capture holds them: a home an earlier rule replaced in the
// text does not shorten it.

export const FREE_TEXT_RULE = "free-text-v1";

export const freeTextRule: SubstitutionRule = {
  id: FREE_TEXT_RULE,
  prefilter: (_raw, leaf) => leaf.class === "free-text" && !leaf.inDump,
  apply: (raw, leaf) => ({ raw: sameLengthPlaceholder(raw, leaf.asWritten), matched: true }),
};
