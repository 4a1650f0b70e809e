import { displayPointer } from "./homes.js";
import { escapePointerToken, placeOf, pointerTokens } from "./json/scan.js";
import { findMatches, valueAt } from "./pointers.js";
import type { Finding, JsonDocument, Rules } from "./types.js";

// The refused classes: payloads substitution cannot clear. A tool response above the size limit;
// an environment dump (admitted only by the opt-in env-dump-v1 policy).

export interface Refusal {
  kind: "tool-response" | "env-dump";
  pointer: string;
  start: number;
  message: string;
}

export function findRefusals(doc: JsonDocument, rules: Rules): Refusal[] {
  const found: Refusal[] = [];
  const { toolResponse, envDump } = rules.refusals;
  const spanAt = new Map(doc.spans.map((s) => [s.pointer, s]));
  for (const pattern of toolResponse.pointers) {
    for (const m of findMatches(doc.value, pattern)) {
      const pointer = m.tokens.map((t) => `/${escapePointerToken(t)}`).join("");
      const span = spanAt.get(pointer);
      if (!span) continue;
      const bytes = Buffer.byteLength(doc.text.slice(span.start, span.end), "utf8");
      if (bytes > toolResponse.maxBytes) {
        found.push({
          kind: "tool-response",
          pointer,
          start: span.start,
          message: `tool response of ${bytes} bytes, above the ${toolResponse.maxBytes}-byte limit; substitution cannot clear it (capture a smaller trigger)`,
        });
      }
    }
  }
  const member = new RegExp(envDump.memberPattern);
  for (const span of doc.spans) {
    if (span.kind !== "object") continue;
    const names = Object.keys(valueAt(doc.value, pointerTokens(span.pointer)) as object);
    const envLike = names.filter((k) => member.test(k)).length;
    if (envLike >= envDump.minMembers) {
      found.push({
        kind: "env-dump",
        pointer: span.pointer,
        start: span.start,
        message: `environment dump: ${envLike} environment-variable-like members; refused unless clear.config.json opts into the env-dump-v1 policy`,
      });
    }
  }
  return found;
}

export function refusalFinding(r: Refusal, doc: JsonDocument, file: string, users: string[] = []): Finding {
  return { code: "refused-class", severity: "block", file, pointer: displayPointer(r.pointer, users), ...placeOf(doc.text, r.start), message: r.message };
}
