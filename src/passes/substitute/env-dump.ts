import type { SubstitutionRule } from "./rule.js";
import type { RefusalRules } from "../../types.js";

// env-dump-v1: opt-in only. Every value under an admitted environment dump becomes a fixed
// placeholder; the member names remain, and the record says so. In a list of NAME=value strings
// each keeps its "NAME=", read as the refused class reads it.

import { assignedNameAsWritten, ENV_DUMP_RULE } from "../../refusals.js";

export { ENV_DUMP_RULE };
export const ENV_DUMP_PLACEHOLDER = "[env-dump-v1]";

export function envDumpRule(refusals: RefusalRules): SubstitutionRule {
  return {
    id: ENV_DUMP_RULE,
    prefilter: (_raw, leaf) => leaf.inDump,
    apply: (raw, leaf) => ({ raw: `${leaf.assignment === true ? assignedNameAsWritten(raw, refusals) : ""}${ENV_DUMP_PLACEHOLDER}`, matched: true }),
  };
}
