import type { SubstitutionRule } from "./rule.js";

// env-dump-v1: opt-in only. Every value under an admitted environment dump becomes a fixed
// placeholder; the member names remain, and the record says so.

import { ENV_DUMP_RULE } from "../../refusals.js";

export { ENV_DUMP_RULE };
export const ENV_DUMP_PLACEHOLDER = "[env-dump-v1]";

// A name written plainly before its "=": a name spelled in escapes, or an "=" written as one, keeps nothing.
const ASSIGNED_NAME = /^[A-Za-z_][A-Za-z0-9_]*(?:\([A-Za-z0-9_]+\))?=/;

export const envDumpRule: SubstitutionRule = {
  id: ENV_DUMP_RULE,
  prefilter: (_raw, leaf) => leaf.inDump,
  apply: (raw, leaf) => ({ raw: `${leaf.assignment === true ? (ASSIGNED_NAME.exec(raw)?.[0] ?? "") : ""}${ENV_DUMP_PLACEHOLDER}`, matched: true }),
};
