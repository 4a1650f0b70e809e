import type { Display } from "./display.js";
import { finding } from "./findings.js";
import { placeOf, pointerTokens, unescapePointerToken } from "./json/reader.js";
import { decodeJsonString } from "./json/escapes.js";
import { compilePattern, matchesPattern } from "./pointers.js";
import type { JsonDocument, JudgedRefusals, RefusalRules } from "./types.js";

// The refused classes: payloads substitution cannot clear. A tool response above the size limit,
// wherever the host carries tool output; an environment dump (admitted only by the opt-in
// env-dump-v1 policy). This module is their one owner: it finds them and judges them against the
// policy in force, once per capture, and every command reads that one verdict.

export interface Refusal {
  kind: "tool-response" | "env-dump";
  pointer: string;
  start: number;
  detail: string;
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

/** A tool's output in bytes: a string's own UTF-8 bytes (its quotes and escapes are JSON's, not the output's); an object's or an array's JSON text as the host wrote it. */
function outputBytes(doc: JsonDocument, span: { kind: string; start: number; end: number }): number {
  const text = doc.text.slice(span.start, span.end);
  return Buffer.byteLength(span.kind === "string" ? decodeJsonString(text.slice(1, -1)) : text, "utf8");
}

function toolResponses(doc: JsonDocument, harness: string, event: string, rules: RefusalRules): Refusal[] {
  const patterns = rules.toolResponse.pointers.filter((p) => p.harness === harness && (p.events === undefined || p.events.includes(event)));
  if (patterns.length === 0) return [];
  // Only spans whose last token a pattern can end with are tried against the patterns.
  const lastTokens = new Set(patterns.map((p) => compilePattern(p.pointer).at(-1) ?? ""));
  const anyLast = lastTokens.has("*") || lastTokens.has("**");
  const found: Refusal[] = [];
  for (const span of doc.spans) {
    if (!anyLast && !lastTokens.has(span.pointer.slice(span.pointer.lastIndexOf("/") + 1))) continue;
    const tokens = pointerTokens(span.pointer);
    if (!patterns.some((p) => matchesPattern(p.pointer, tokens))) continue;
    const bytes = outputBytes(doc, span);
    if (bytes > rules.toolResponse.maxBytes) {
      const detail = `tool output of ${bytes} bytes, above the ${rules.toolResponse.maxBytes}-byte limit; substitution cannot clear it (capture a smaller trigger)`;
      found.push({ kind: "tool-response", pointer: span.pointer, start: span.start, detail });
    }
  }
  return found;
}

const memberPatterns = new WeakMap<RefusalRules, RegExp>();

function envDumps(doc: JsonDocument, rules: RefusalRules): Refusal[] {
  if (doc.keys.length < rules.envDump.minMembers) return [];
  let member = memberPatterns.get(rules);
  if (!member) memberPatterns.set(rules, (member = new RegExp(rules.envDump.memberPattern)));
  // How many environment-variable-like member names each object holds; no list of names is built.
  const envLike = new Map<string, number>();
  for (const k of doc.keys) {
    const cut = k.pointer.lastIndexOf("/");
    const token = k.pointer.slice(cut + 1);
    if (!member.test(token.includes("~") ? unescapePointerToken(token) : token)) continue;
    const parent = k.pointer.slice(0, cut);
    envLike.set(parent, (envLike.get(parent) ?? 0) + 1);
  }
  const found: Refusal[] = [];
  for (const span of doc.spans) {
    if (span.kind !== "object") continue;
    const count = envLike.get(span.pointer) ?? 0;
    if (count >= rules.envDump.minMembers) {
      const detail = `environment dump: ${count} environment-variable-like members; refused unless clear.config.json opts into the env-dump-v1 policy`;
      found.push({ kind: "env-dump", pointer: span.pointer, start: span.start, detail });
    }
  }
  return found;
}

export function findRefusals(doc: JsonDocument, harness: string, event: string, rules: RefusalRules): Refusal[] {
  return [...toolResponses(doc, harness, event, rules), ...envDumps(doc, rules)];
}

export function isUnder(pointer: string, parent: string): boolean {
  return pointer === parent || pointer.startsWith(`${parent}/`);
}

export const ENV_DUMP_RULE = "env-dump-v1";

/** The opt-in policy of clear.config.json that admits an environment dump. */
export interface EnvDumpPolicy {
  reason: string;
  pointers?: string[];
}

/** Every refused class in one capture, judged: refused unless the env-dump-v1 policy admits it. */
export function judgeRefusals(doc: JsonDocument, where: { file: string; harness: string; event: string }, rules: RefusalRules, policy: EnvDumpPolicy | null, display: Display): JudgedRefusals {
  const out: JudgedRefusals = { refused: [], dumps: [], envDumps: [], exemptions: [] };
  const found = findRefusals(doc, where.harness, where.event, rules);
  out.envDumps = found.filter((r) => r.kind === "env-dump").map((r) => r.pointer);
  for (const r of found) {
    const admitted = r.kind === "env-dump" && policy !== null && (policy.pointers === undefined || policy.pointers.includes(r.pointer));
    if (!admitted) {
      out.refused.push(finding("refused-class", { file: where.file, pointer: display.pointer(r.pointer), ...placeOf(doc.text, r.start) }, { detail: r.detail }));
      continue;
    }
    out.dumps.push(r.pointer);
    const members = memberNames(doc).get(r.pointer) ?? [];
    const known = new Set(rules.envDump.knownNames);
    const remaining = members.filter((m) => known.has(m)).sort();
    out.exemptions.push({ rule: ENV_DUMP_RULE, pointer: display.pointer(r.pointer), reason: policy.reason, remainingCount: members.length, remaining });
  }
  return out;
}
