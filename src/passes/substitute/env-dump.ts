import type { SubstitutionRule } from "./rule.js";

// env-dump-v1: opt-in only. Every value under an admitted environment dump becomes a fixed
// placeholder; the member names remain, and the record says so.

import { ENV_DUMP_RULE } from "../../refusals.js";

export { ENV_DUMP_RULE };
export const ENV_DUMP_PLACEHOLDER = "[env-dump-v1]";

export const envDumpRule: SubstitutionRule = {
  id: ENV_DUMP_RULE,
  prefilter: (_raw, leaf) => leaf.inDump,
  apply: () => ({ raw: ENV_DUMP_PLACEHOLDER, matched: true }),
};
