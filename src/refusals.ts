import type { Display } from "./display.js";
import { finding } from "./findings.js";
import { placeOf, stringAt, unescapePointerToken } from "./json/reader.js";
import { decodeJsonString } from "./json/escapes.js";
import { matchesPattern } from "./pointers.js";
import { tokensOf, type Classifier } from "./classify.js";
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
  /** An environment dump's variable names. */
  names?: string[];
  /** An environment dump that is a list of NAME=value strings, not an object. */
  assignments?: boolean;
}

/** A tool's output in bytes: a string's own UTF-8 bytes (its quotes and escapes are JSON's, not the output's); an object's or an array's JSON text as the host wrote it. */
function outputBytes(doc: JsonDocument, span: { kind: string; start: number; end: number }): number {
  const text = doc.text.slice(span.start, span.end);
  return Buffer.byteLength(span.kind === "string" ? decodeJsonString(text.slice(1, -1)) : text, "utf8");
}

type ResponsePattern = RefusalRules["toolResponse"]["pointers"][number];

/** The tool response an output belongs to: the shortest pointer above it (or itself) where a response sits; else the output alone. */
function responseOf(pointer: string, tokens: readonly string[], responses: readonly ResponsePattern[]): string {
  const escaped = pointer.split("/");
  for (let depth = 0; depth <= tokens.length; depth++) {
    if (responses.some((r) => matchesPattern(r.pointer, tokens.slice(0, depth)))) return escaped.slice(0, depth + 1).join("/");
  }
  return pointer;
}

/**
 * Tool responses above the size limit. What is tool output is the field rules' word (toolOutput):
 * each outermost value they mark is measured whole, and the values of one response are summed, so
 * an output split over members (output, metadata, preview) weighs what it weighs together.
 */
function toolResponses(doc: JsonDocument, where: { harness: string; event: string }, rules: RefusalRules, fields: Classifier): Refusal[] {
  const responses = rules.toolResponse.pointers.filter((p) => p.harness === where.harness && (p.events === undefined || p.events.includes(where.event)));
  const sums = new Map<string, { bytes: number; outputs: number; texts: Set<string> }>();
  let measured: string | null = null;
  for (const span of doc.spans) {
    // Spans come parent first: what lies under a measured output is in its bytes already.
    if (measured !== null && isUnder(span.pointer, measured)) continue;
    const tokens = tokensOf(span.pointer);
    if (fields.ruleAt(where.event, tokens)?.toolOutput !== true) continue;
    measured = span.pointer;
    const response = responseOf(span.pointer, tokens, responses);
    const sum = sums.get(response) ?? { bytes: 0, outputs: 0, texts: new Set<string>() };
    sums.set(response, sum);
    // One output a host writes twice in a response (OpenCode's state.output and metadata.output) is counted once.
    const text = doc.text.slice(span.start, span.end);
    if (sum.texts.has(text)) continue;
    sum.texts.add(text);
    sum.bytes += outputBytes(doc, span);
    sum.outputs += 1;
  }
  const found: Refusal[] = [];
  for (const [response, { bytes, outputs }] of sums) {
    if (bytes <= rules.toolResponse.maxBytes) continue;
    const summed = outputs > 1 ? ` (${outputs} values of one response, summed)` : "";
    const detail = `tool output of ${bytes} bytes${summed}, above the ${rules.toolResponse.maxBytes}-byte limit; substitution cannot clear it (capture a smaller trigger)`;
    const start = doc.spans.find((s) => s.pointer === response)?.start ?? 0;
    found.push({ kind: "tool-response", pointer: response, start, detail });
  }
  return found;
}

interface EnvNames {
  /** A name spelled the way environment variables conventionally are. */
  conventional: RegExp;
  /** Any name a variable may have. */
  variable: RegExp;
  /** Well-known names, upper-cased: compared without case, as Windows does. */
  known: Set<string>;
}

const envNamesOf = new WeakMap<RefusalRules, EnvNames>();

function envNames(rules: RefusalRules): EnvNames {
  let names = envNamesOf.get(rules);
  if (!names) {
    const { memberPattern, namePattern, knownNames } = rules.envDump;
    names = { conventional: new RegExp(memberPattern), variable: new RegExp(namePattern), known: new Set(knownNames.map((n) => n.toUpperCase())) };
    envNamesOf.set(rules, names);
  }
  return names;
}

/** A variable of a possible environment: its name, and whether its value is a string. */
interface Variable {
  name: string;
  isString: boolean;
}

/**
 * Whether these variables are an environment. minMembers names in the conventional spelling are
 * one, as they always were; names of any spelling are one only with string values and enough
 * well-known names among them, so that an object with many lower-case members (a JSON Schema's
 * properties, a tool's input) is not taken for one.
 */
function isEnvironment(variables: readonly Variable[], rules: RefusalRules): boolean {
  const { minMembers, minKnownNames } = rules.envDump;
  const names = envNames(rules);
  if (variables.filter((v) => names.conventional.test(v.name)).length >= minMembers) return true;
  const strings = variables.filter((v) => v.isString && (names.variable.test(v.name) || names.conventional.test(v.name)));
  return strings.length >= minMembers && strings.filter((v) => names.known.has(v.name.toUpperCase())).length >= minKnownNames;
}

/** "NAME=value": the name, where it reads as a variable's. */
function assignedName(item: string, names: EnvNames): string | null {
  const cut = item.indexOf("=");
  if (cut <= 0) return null;
  const name = item.slice(0, cut);
  return names.conventional.test(name) || names.variable.test(name) ? name : null;
}

/** The variables of each object and of each list of NAME=value strings that has at least `min` of them, by pointer. */
function possibleEnvironments(doc: JsonDocument, rules: RefusalRules): Map<string, Variable[]> {
  const min = rules.envDump.minMembers;
  const names = envNames(rules);
  const children = new Map<string, number>();
  for (const span of doc.spans) {
    const parent = span.pointer.slice(0, span.pointer.lastIndexOf("/"));
    if (span.pointer !== "") children.set(parent, (children.get(parent) ?? 0) + 1);
  }
  const kinds = new Map(doc.spans.filter((s) => (children.get(s.pointer) ?? 0) >= min).map((s) => [s.pointer, s.kind]));
  const out = new Map<string, Variable[]>();
  const add = (at: string, v: Variable): void => {
    const list = out.get(at);
    if (list) list.push(v);
    else out.set(at, [v]);
  };
  for (const span of doc.spans) {
    const cut = span.pointer.lastIndexOf("/");
    const parent = span.pointer.slice(0, cut);
    const parentKind = span.pointer === "" ? undefined : kinds.get(parent);
    if (parentKind === "object") {
      const token = span.pointer.slice(cut + 1);
      add(parent, { name: token.includes("~") ? unescapePointerToken(token) : token, isString: span.kind === "string" });
    } else if (parentKind === "array" && span.kind === "string") {
      const name = assignedName(stringAt(doc.text, span.start, span.end), names);
      if (name !== null) add(parent, { name, isString: true });
    }
  }
  return out;
}

function envDumps(doc: JsonDocument, rules: RefusalRules): Refusal[] {
  if (doc.spans.length < rules.envDump.minMembers) return [];
  const found: Refusal[] = [];
  for (const [pointer, variables] of possibleEnvironments(doc, rules)) {
    if (!isEnvironment(variables, rules)) continue;
    const span = doc.spans.find((s) => s.pointer === pointer);
    const detail = `environment dump: ${variables.length} environment variables; refused unless clear.config.json opts into the env-dump-v1 policy`;
    found.push({ kind: "env-dump", pointer, start: span?.start ?? 0, detail, names: variables.map((v) => v.name), assignments: span?.kind === "array" });
  }
  return found.sort((a, b) => a.start - b.start);
}

/** A NAME=value string's "NAME=" as written, where the name is written plainly (no escape in it) and reads as a variable's; else "". */
export function assignedNameAsWritten(raw: string, rules: RefusalRules): string {
  const cut = raw.indexOf("=");
  const written = raw.slice(0, cut + 1);
  return cut > 0 && !written.includes("\\") && assignedName(written, envNames(rules)) !== null ? written : "";
}

export function findRefusals(doc: JsonDocument, where: { harness: string; event: string }, rules: RefusalRules, fields: Classifier): Refusal[] {
  return [...toolResponses(doc, where, rules, fields), ...envDumps(doc, rules)];
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
export function judgeRefusals(doc: JsonDocument, where: { file: string; harness: string; event: string }, rules: RefusalRules, fields: Classifier, policy: EnvDumpPolicy | null, display: Display): JudgedRefusals {
  const out: JudgedRefusals = { refused: [], dumps: [], assignmentLists: [], envDumps: [], exemptions: [] };
  const found = findRefusals(doc, where, rules, fields);
  out.envDumps = found.filter((r) => r.kind === "env-dump").map((r) => r.pointer);
  for (const r of found) {
    const admitted = r.kind === "env-dump" && policy !== null && (policy.pointers === undefined || policy.pointers.includes(r.pointer));
    if (!admitted) {
      out.refused.push(finding("refused-class", { file: where.file, pointer: display.pointer(r.pointer), ...placeOf(doc.text, r.start) }, { detail: r.detail }));
      continue;
    }
    out.dumps.push(r.pointer);
    if (r.assignments === true) out.assignmentLists.push(r.pointer);
    const members = r.names ?? [];
    const known = envNames(rules).known;
    const remaining = members.filter((m) => known.has(m.toUpperCase())).sort();
    out.exemptions.push({ rule: ENV_DUMP_RULE, pointer: display.pointer(r.pointer), reason: policy.reason, remainingCount: members.length, remaining });
  }
  return out;
}
