import { classifyDocument, type Classifier } from "../classify.js";
import { placeOf, scanJson } from "../json/scan.js";
import type { ClearedFile, Exemption, Finding, JsonDocument, RuleApplication, Rules } from "../types.js";
import { findRefusals, memberNames, refusalFinding } from "../refusals.js";
import { displayPointer, escapeRegex, isUserName, USER_PLACEHOLDER, userNamePattern } from "../homes.js";

// Substitution: values, never structure. Each string token that a rule changes is rewritten inside
// its own span; every other byte of the capture is kept as it was.

export const HOME_RULE = "home-path-v1";
export const FREE_TEXT_RULE = "free-text-v1";
export const ENV_DUMP_RULE = "env-dump-v1";
export const ENV_DUMP_PLACEHOLDER = "[env-dump-v1]";

export interface Literal {
  name: string;
  value: string;
  placeholder: string;
}

export interface SubstituteOptions {
  users: string[];
  literals: Literal[];
  /** Present when clear.config.json opts into the env-dump-v1 policy. */
  envDump: { reason: string; pointers?: string[] } | null;
}

interface Replacer {
  rule: string;
  hint?: RegExp;
  pattern: RegExp;
  replace: (match: RegExpExecArray) => string;
}

export function homeReplacers(users: string[]): Replacer[] {
  // The placeholder is matched too, so a home already cleared is reported as covered, unchanged.
  const names = [...new Set([...users.filter(isUserName), USER_PLACEHOLDER])].sort((a, b) => b.length - a.length);
  const plain = names.map(escapeRegex).join("|");
  const slugs = [...new Set(names.map((n) => n.replace(/[^A-Za-z0-9-]/g, "-")))].map(escapeRegex).join("|");
  return [
    {
      rule: HOME_RULE,
      hint: /home|users/i,
      // absolute homes on Linux, macOS and Windows (either slash), file:// forms, and the relative home/<name> and Users/<name>
      pattern: new RegExp(`(?<![A-Za-z0-9_.-])(home|Users)([/\\\\]+)(?:${plain})(?![A-Za-z0-9_-])`, "gi"),
      replace: (m) => `${m[1]}${m[2]}${USER_PLACEHOLDER}`,
    },
    {
      rule: HOME_RULE,
      hint: /home|users/i,
      // Claude's project slugs: -home-u-, -Users-u-, C--Users-u-
      pattern: new RegExp(`-(home|Users)-(?:${slugs})(?=$|[-/\\\\])`, "gi"),
      replace: (m) => `-${m[1]}-${USER_PLACEHOLDER}`,
    },
  ];
}

function literalReplacers(literals: Literal[]): Replacer[] {
  return literals.map((l) => ({
    rule: `literal-v1:${l.name}`,
    pattern: new RegExp(escapeRegex(l.value), "gi"),
    replace: () => l.placeholder,
  }));
}

// ---- Editing inside one string token, keeping its escapes ----

/**
 * For raw string content (between the quotes), the decoded text and the raw offset where each
 * decoded UTF-16 unit starts; `starts` is null when the content has no escapes (offsets are equal).
 */
function rawOffsets(raw: string): { decoded: string; starts: number[] | null } {
  if (!raw.includes("\\")) return { decoded: raw, starts: null };
  const starts: number[] = [];
  let decoded = "";
  let i = 0;
  while (i < raw.length) {
    starts.push(i);
    if (raw.charCodeAt(i) === 0x5c) {
      const e = raw[i + 1] as string;
      if (e === "u") {
        decoded += String.fromCharCode(parseInt(raw.slice(i + 2, i + 6), 16));
        i += 6;
      } else {
        decoded += ({ '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" } as Record<string, string>)[e] ?? e;
        i += 2;
      }
    } else {
      decoded += raw[i];
      i++;
    }
  }
  starts.push(raw.length);
  return { decoded, starts };
}

/** Encodes replacement text for a JSON string, writing `/` the way the replaced text wrote it. */
function encodeLike(text: string, replacedRaw: string): string {
  const slash = /\\u002[fF]|\\\//.exec(replacedRaw)?.[0] ?? "/";
  let out = "";
  for (const ch of text) {
    const c = ch.charCodeAt(0);
    if (ch === '"') out += '\\"';
    else if (ch === "\\") out += "\\\\";
    else if (ch === "/") out += slash;
    else if (c < 0x20) out += `\\u${c.toString(16).padStart(4, "0")}`;
    else out += ch;
  }
  return out;
}

/** Applies one replacer to raw string content: the new raw content, and whether the pattern matched at all. */
function replaceInRaw(raw: string, r: Replacer): { raw: string; matched: boolean } {
  // A cheap look first; only valid on content without escapes, which could spell the letters.
  if (r.hint && !raw.includes("\\") && !r.hint.test(raw)) return { raw, matched: false };
  const { decoded, starts: table } = rawOffsets(raw);
  const start = (i: number): number => (table ? (table[i] as number) : i);
  r.pattern.lastIndex = 0;
  let out = "";
  let at = 0; // decoded index copied up to
  let changed = false;
  let matched = false;
  for (let m = r.pattern.exec(decoded); m !== null; m = r.pattern.exec(decoded)) {
    if (m[0].length === 0) {
      r.pattern.lastIndex++;
      continue;
    }
    matched = true;
    const replacement = r.replace(m);
    if (replacement === m[0]) continue;
    const rawStart = start(m.index);
    const rawEnd = start(m.index + m[0].length);
    out += raw.slice(start(at), rawStart) + encodeLike(replacement, raw.slice(rawStart, rawEnd));
    at = m.index + m[0].length;
    changed = true;
  }
  if (!changed) return { raw, matched };
  return { raw: out + raw.slice(start(at)), matched };
}

function isPlaceholderText(raw: string): boolean {
  return /^x*$/.test(raw);
}

/** Several words, or a long run of text: what a prompt or a message looks like. */
export function looksLikeProse(value: string): boolean {
  return value.trim().split(/\s+/).length >= 3 || (value.length > 64 && /\s/.test(value));
}

// ---- One file ----

export interface FileToClear {
  name: string;
  event: string;
  doc: JsonDocument;
  rawBytes: number;
}

function under(pointer: string, parent: string): boolean {
  return pointer === parent || pointer.startsWith(`${parent}/`);
}

/** Clears one parsed capture. Pure: bytes in, bytes (or refusals) out. */
export function clearFile(file: FileToClear, c: Classifier, rules: Rules, options: SubstituteOptions): ClearedFile {
  const { doc, name } = file;
  const refused: Finding[] = [];
  const homes = homeReplacers(options.users);
  const literals = literalReplacers(options.literals);
  const userName = userNamePattern(options.users);

  // Home spellings in member names cannot be cleared: keys are structure, never rewritten.
  for (const k of doc.keys) {
    const raw = doc.text.slice(k.start + 1, k.end - 1);
    if ([...homes, ...literals].some((r) => replaceInRaw(raw, r).raw !== raw) || (userName?.test(rawOffsets(raw).decoded) ?? false)) {
      refused.push({
        code: "home-in-key",
        severity: "block",
        file: name,
        pointer: displayPointer(k.pointer, options.users),
        ...placeOf(doc.text, k.start),
        message: "a member name carries the user's home or name; member names are structure and are never rewritten",
      });
    }
  }

  // Refused classes; an environment dump is admitted only under the opt-in policy.
  const envDumps: string[] = [];
  const exemptions: Exemption[] = [];
  for (const r of findRefusals(doc, rules)) {
    const policy = options.envDump;
    const admitted = r.kind === "env-dump" && policy !== null && (policy.pointers === undefined || policy.pointers.includes(r.pointer));
    if (admitted) {
      envDumps.push(r.pointer);
      const members = memberNames(doc).get(r.pointer) ?? [];
      exemptions.push({ rule: ENV_DUMP_RULE, pointer: displayPointer(r.pointer, options.users), reason: policy.reason, remaining: members });
    } else refused.push(refusalFinding(r, doc, name, options.users));
  }

  const leaves = classifyDocument(doc, file.event, c);
  const promptEvent = rules.refusals.promptEvents.includes(file.event);
  // Per rule, the pointers it covers (a placeholder already in place is covered, unchanged) and
  // the pointers whose bytes it changed.
  const applied = new Map<string, Set<string>>();
  const changedBy = new Map<string, Set<string>>();
  const touch = (rule: string, pointer: string, changed: boolean): void => {
    for (const [map, add] of [[applied, true], [changedBy, changed]] as const) {
      if (!add) continue;
      const set = map.get(rule) ?? new Set<string>();
      set.add(pointer);
      map.set(rule, set);
    }
  };
  const review: string[] = [];
  const edits: { start: number; end: number; raw: string }[] = [];
  const placeholders = new Set<string>(); // values that are placeholder now: nothing of the user's is left in them

  for (const leaf of leaves) {
    if (leaf.kind !== "string") continue;
    const original = doc.text.slice(leaf.start + 1, leaf.end - 1);
    let raw = original;
    for (const r of [...homes, ...literals]) {
      const next = replaceInRaw(raw, r);
      if (next.matched) touch(r.rule, leaf.pointer, next.raw !== raw);
      raw = next.raw;
    }
    const inDump = envDumps.some((p) => under(leaf.pointer, p));
    if (inDump) {
      touch(ENV_DUMP_RULE, leaf.pointer, raw !== ENV_DUMP_PLACEHOLDER);
      raw = ENV_DUMP_PLACEHOLDER;
    } else if (leaf.class === "free-text") {
      // Same raw length as written (UTF-8 bytes between the quotes), so sizes and limits survive.
      const placeholder = isPlaceholderText(raw) ? raw : "x".repeat(Buffer.byteLength(raw, "utf8"));
      touch(FREE_TEXT_RULE, leaf.pointer, placeholder !== raw);
      raw = placeholder;
      if (!leaf.known) review.push(leaf.pointer);
    }
    if (raw === ENV_DUMP_PLACEHOLDER || (leaf.class === "free-text" && !inDump)) placeholders.add(leaf.pointer);
    // On a prompt or message event, prose kept verbatim means a rule classed it wrongly.
    if (promptEvent && !placeholders.has(leaf.pointer) && (leaf.class === "enum" || leaf.class === "identifier") && looksLikeProse(rawOffsets(raw).decoded)) {
      refused.push({
        code: "unsubstituted-free-text",
        severity: "block",
        file: name,
        pointer: displayPointer(leaf.pointer, options.users),
        ...placeOf(doc.text, leaf.start),
        message: `reads as free text on a ${file.event} event but its field rule classes it ${leaf.class}; fix the rule in rules/fields`,
      });
    }
    if (raw !== original) edits.push({ start: leaf.start + 1, end: leaf.end - 1, raw });
  }

  // Joined rather than concatenated: a flat string, which the check below reads much faster.
  const parts: string[] = [];
  let at = 0;
  for (const e of edits) {
    parts.push(doc.text.slice(at, e.start), e.raw);
    at = e.end;
  }
  parts.push(doc.text.slice(at));
  const text = parts.join("");

  // Check the result: it parses, keeps the input's shape, and carries no user name or home.
  let cleared: JsonDocument | null = null;
  try {
    cleared = scanJson(text, { maxDepth: Number.MAX_SAFE_INTEGER });
  } catch (err) {
    refused.push({ code: "substitution-broke-json", severity: "block", file: name, message: `cleared text does not parse (${(err as Error).message}); nothing written` });
  }
  if (cleared) {
    const sameShape =
      cleared.spans.length === doc.spans.length &&
      cleared.spans.every((s, i) => s.pointer === (doc.spans[i] as { pointer: string }).pointer && s.kind === (doc.spans[i] as { kind: string }).kind);
    if (!sameShape) refused.push({ code: "substitution-changed-shape", severity: "block", file: name, message: "cleared payload does not have the capture's shape; nothing written" });
    const residues = [...(userName ? [userName] : []), ...literals.map((l) => new RegExp(l.pattern.source, "i"))];
    // Spans of the cleared text line up one for one with the capture's; places are given in the capture.
    const keyAt = new Map(doc.keys.map((k) => [k.pointer, k.start]));
    const valueAt = new Map(doc.spans.map((v) => [v.pointer, v.start]));
    const candidates = [
      ...cleared.keys.map((k) => ({ span: k, rawStart: keyAt.get(k.pointer) ?? 0 })),
      ...cleared.spans.filter((v) => v.kind === "string" && !placeholders.has(v.pointer)).map((v) => ({ span: v, rawStart: valueAt.get(v.pointer) ?? 0 })),
    ];
    for (const { span, rawStart } of candidates) {
      const token = cleared.text.slice(span.start, span.end);
      if (residues.some((re) => re.test(rawOffsets(token.slice(1, -1)).decoded))) {
        const pointer = displayPointer(span.pointer, options.users);
        if (refused.some((f) => f.code === "home-in-key" && f.pointer === pointer)) continue;
        refused.push({
          code: "user-name-left",
          severity: "block",
          file: name,
          pointer,
          ...placeOf(doc.text, rawStart),
          message: "the user's name (or a configured literal) is still here outside any substituted span; add a field rule or a literal rule",
        });
      }
    }
  }

  const rulesApplied: RuleApplication[] = [];
  const order = [HOME_RULE, ...literals.map((l) => l.rule), ENV_DUMP_RULE, FREE_TEXT_RULE];
  for (const rule of order) {
    const pointers = applied.get(rule);
    const shown = (set: Set<string> | undefined): string[] => [...(set ?? [])].map((p) => displayPointer(p, options.users));
    if (pointers) rulesApplied.push({ rule, pointers: shown(pointers), changed: shown(changedBy.get(rule)) });
  }

  const blocked = refused.length > 0;
  const bytes = blocked ? null : Buffer.from(text, "utf8");
  return {
    name,
    rawBytes: file.rawBytes,
    clearedBytes: bytes ? bytes.length : null,
    cleared: bytes,
    rules: rulesApplied,
    review: review.map((p) => displayPointer(p, options.users)),
    exemptions,
    refused,
  };
}
