import { displayPointer } from "./homes.js";
import { placeOf, pointerTokens, unescapePointerToken } from "./json/scan.js";
import { matchesPattern } from "./pointers.js";
import type { Finding, JsonDocument, Rules } from "./types.js";

// The refused classes: payloads substitution cannot clear. A tool response above the size limit;
// an environment dump (admitted only by the opt-in env-dump-v1 policy).

export interface Refusal {
  kind: "tool-response" | "env-dump";
  pointer: string;
  start: number;
  message: string;
}

/** Member names of each object in a document, by the object's pointer. */
export function memberNames(doc: JsonDocument): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const k of doc.keys) {
    const cut = k.pointer.lastIndexOf("/");
    const parent = k.pointer.slice(0, cut);
    const list = out.get(parent) ?? [];
    list.push(unescapePointerToken(k.pointer.slice(cut + 1)));
    out.set(parent, list);
  }
  return out;
}

export function findRefusals(doc: JsonDocument, rules: Rules): Refusal[] {
  const found: Refusal[] = [];
  const { toolResponse, envDump } = rules.refusals;
  // Only spans whose last token a pattern can end with are tried against the patterns.
  const lastTokens = toolResponse.pointers.map((p) => p.slice(p.lastIndexOf("/") + 1));
  const anyLast = lastTokens.some((t) => t === "*" || t === "**");
  for (const span of doc.spans) {
    if (!anyLast && !lastTokens.includes(span.pointer.slice(span.pointer.lastIndexOf("/") + 1))) continue;
    if (!toolResponse.pointers.some((p) => matchesPattern(p, pointerTokens(span.pointer)))) continue;
    const bytes = Buffer.byteLength(doc.text.slice(span.start, span.end), "utf8");
    if (bytes > toolResponse.maxBytes) {
      found.push({
        kind: "tool-response",
        pointer: span.pointer,
        start: span.start,
        message: `tool response of ${bytes} bytes, above the ${toolResponse.maxBytes}-byte limit; substitution cannot clear it (capture a smaller trigger)`,
      });
    }
  }
  const member = new RegExp(envDump.memberPattern);
  const objects = memberNames(doc);
  for (const span of doc.spans) {
    if (span.kind !== "object") continue;
    const envLike = (objects.get(span.pointer) ?? []).filter((k) => member.test(k)).length;
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
