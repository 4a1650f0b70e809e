import { append } from "./collections.js";
import { pointerTokens, stringAt } from "./json/reader.js";
import { compilePattern, matchesPattern } from "./pointers.js";
import type { ClassifiedLeaf, FieldClass, FieldRule, FieldRuleSet, JsonDocument, ValueKind } from "./types.js";

export type { ClassifiedLeaf };

// Which class of value each leaf of a payload holds, by the harness's field rules; a leaf no rule
// knows gets a class guessed from its value and is flagged unknown.

const STRING_CLASSES: ReadonlySet<FieldClass> = new Set(["identifier", "path", "free-text", "enum", "timestamp", "url"]);

/**
 * What an enum's value may be to be kept as the host's word: one of its documented values where
 * the rule lists them; else a name's worth of characters, on one line, with no control character
 * (a model's or a tool's name, never a terminal's sequence or a pasted text).
 */
const ENUM_WORD = /^[^\x00-\x1f\x7f-\x9f\u2028\u2029]{0,200}$/;
const isEnumWord = (value: string, values: readonly string[] | undefined): boolean => (values ? values.includes(value) : ENUM_WORD.test(value));

const shapes = new Map<string, RegExp>();
function shapeOf(pattern: string): RegExp {
  let shape = shapes.get(pattern);
  if (!shape) shapes.set(pattern, (shape = new RegExp(pattern, "u")));
  return shape;
}

/** Whether a string is what its rule keeps: an enum's documented value (else a word of one), and of the shape the rule gives, where it gives one. */
function keepsValue(rule: FieldRule, value: string): boolean {
  if (rule.class === "enum" && !isEnumWord(value, rule.values)) return false;
  return rule.shape === undefined || shapeOf(rule.shape).test(value);
}

function classOfKind(kind: ValueKind): FieldClass | null {
  if (kind === "number") return "number";
  if (kind === "bool") return "bool";
  if (kind === "null") return "null";
  return null;
}

const URL_SHAPE = /^[a-z][a-z0-9+.-]*:\/\/\S*$/i;
const TIMESTAMP_SHAPE = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;
const PATH_SHAPE = /^(\/|~\/|\.\.?\/|[A-Za-z]:[\\/]|home\/|Users\/)[^\s\p{Cc}]*$/u;
const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A guess for a string no rule knows. Anything not clearly a UUID, path, url or time is free text:
 * a run of hex or a prefixed word ("toolu_01…", "pcsk_…") is what an id looks like and what a
 * provider's key looks like too, and no rule vouches for this one, so it is not kept as it stands.
 */
export function guessStringClass(value: string): FieldClass {
  if (URL_SHAPE.test(value)) return "url";
  if (TIMESTAMP_SHAPE.test(value)) return "timestamp";
  if (PATH_SHAPE.test(value)) return "path";
  if (UUID_SHAPE.test(value)) return "identifier";
  return "free-text";
}

export interface Classification {
  class: FieldClass;
  known: boolean;
  rule: FieldRule | null;
  /** An enum's value outside the values the host documents, or a value not of its rule's shape: classed free text, fail-closed. */
  undocumented?: boolean;
}

export interface Classifier {
  /** Whether a rule came from a repository's rules overlay. */
  overlaid(rule: FieldRule | null): boolean;
  classify(event: string, tokens: readonly string[], kind: ValueKind, value: unknown): Classification;
  /** The same, reading the value only where the class depends on it (an enum's value, a leaf no rule names). */
  classifyRead(event: string, tokens: readonly string[], kind: ValueKind, read: () => unknown): Classification;
  /** The rule a pointer falls under on an event, whatever its value: for an object or an array too. */
  ruleAt(event: string, tokens: readonly string[]): FieldRule | null;
}

/** An enum whose rule lists the values the host documents: what it keeps can only be one of them. */
const isClosedEnum = (r: FieldRule): boolean => r.class === "enum" && r.values !== undefined;

// What a tool returned, as subtrees: its member names are the tool's, so a rule for a name found
// anywhere ("/**/reason", "/**/version") says nothing of a member of that name in a tool's output.
// There the value is free text unless a rule spells the output's pointer or lists the values it keeps.
function toolOutputSubtrees(rules: readonly FieldRule[]): FieldRule[] {
  return rules.filter((r) => r.toolOutput === true && r.class === "free-text").map((r) => (r.pointer.endsWith("/**") ? r : { ...r, pointer: `${r.pointer}/**` }));
}

/** The rule a pointer falls under on an event: the first whose pattern and events match, but where what a model or a person wrote, or what a tool returned, overrules it. */
function ruleFinder(rules: readonly FieldRule[]): (event: string, tokens: readonly string[]) => FieldRule | null {
  // Rules indexed by the member name their pattern ends with; a pattern ending in a wildcard is
  // tried for every leaf. Order is kept: the first rule that matches wins.
  const byLast = new Map<string, number[]>();
  const open: number[] = [];
  rules.forEach((r, i) => {
    const last = compilePattern(r.pointer).at(-1) ?? "";
    if (last === "*" || last === "**") open.push(i);
    else append(byLast, last, i);
  });
  const candidates = new Map<string, number[]>();
  const candidatesFor = (last: string): number[] => {
    let list = candidates.get(last);
    if (!list) {
      list = [...(byLast.get(last) ?? []), ...open].sort((a, b) => a - b);
      candidates.set(last, list);
    }
    return list;
  };
  const applies = (r: FieldRule, event: string, tokens: readonly string[]): boolean => (r.events === undefined || r.events.includes(event)) && matchesPattern(r.pointer, tokens);
  // A subtree of what a model or a person wrote: its member names are theirs, so a rule for a name
  // found anywhere ("/**/path") says nothing of a tool's argument called path.
  const authored = rules.filter((r) => r.authored === true && r.class === "free-text" && r.pointer.endsWith("/**"));
  const outputs = toolOutputSubtrees(rules);
  const spells = (r: FieldRule, subtree: FieldRule): boolean => r.pointer.startsWith(subtree.pointer.slice(0, -2));
  const ruleFor = (event: string, tokens: readonly string[]): FieldRule | null => {
    const under = authored.filter((s) => applies(s, event, tokens));
    const inOutput = outputs.filter((s) => applies(s, event, tokens));
    for (const i of candidatesFor(tokens.at(-1) ?? "")) {
      const r = rules[i] as FieldRule;
      if (!applies(r, event, tokens)) continue;
      // A number's, a switch's or null's rule keeps no string, so it needs no overruling.
      if (r.class === "free-text" || !STRING_CLASSES.has(r.class)) return r;
      if (under.every((s) => spells(r, s)) && (isClosedEnum(r) || inOutput.every((s) => spells(r, s)))) return r;
    }
    return null;
  };
  return ruleFor;
}

export function classifier(ruleSet: FieldRuleSet | undefined, overlay: ReadonlyMap<FieldRule, string> = new Map()): Classifier {
  const ruleFor = ruleFinder(ruleSet?.rules ?? []);
  // The rule a pointer falls under depends on the event and the pointer alone: found once for each,
  // keyed by the tokens array that tokensOf hands out once per pointer.
  const found = new WeakMap<readonly string[], Map<string, FieldRule | null>>();
  const ruleAt = (event: string, tokens: readonly string[]): FieldRule | null => {
    let byEvent = found.get(tokens);
    if (!byEvent) found.set(tokens, (byEvent = new Map()));
    let rule = byEvent.get(event);
    if (rule === undefined) byEvent.set(event, (rule = ruleFor(event, tokens)));
    return rule;
  };
  const classifyRead = (event: string, tokens: readonly string[], kind: ValueKind, read: () => unknown): Classification => {
    const rule = ruleAt(event, tokens);
    const byKind = classOfKind(kind);
    if (rule) {
      // A string class on a number, bool or null leaf means the leaf's own type.
      if (byKind !== null && STRING_CLASSES.has(rule.class)) return { class: byKind, known: true, rule };
      // A string where the rule expects a number, a switch or null is not kept on the rule's word.
      if (byKind === null && !STRING_CLASSES.has(rule.class)) return { class: "free-text", known: true, rule };
      if ((rule.class === "enum" || rule.shape !== undefined) && !keepsValue(rule, String(read()))) return { class: "free-text", known: true, rule, undocumented: true };
      return { class: rule.class, known: true, rule };
    }
    if (byKind !== null) return { class: byKind, known: false, rule: null };
    return { class: guessStringClass(String(read())), known: false, rule: null };
  };
  return {
    overlaid: (rule) => rule !== null && overlay.has(rule),
    classify: (event, tokens, kind, value) => classifyRead(event, tokens, kind, () => value),
    classifyRead,
    ruleAt,
  };
}

/** Every scalar leaf of a document with its class, in document order. */
export function classifyDocument(doc: JsonDocument, event: string, c: Classifier): ClassifiedLeaf[] {
  const out: ClassifiedLeaf[] = [];
  doc.spans.forEach((span, index) => {
    if (span.kind === "object" || span.kind === "array") return;
    const tokens = tokensOf(span.pointer);
    const { class: cls, known, undocumented, rule } = c.classifyRead(event, tokens, span.kind, () => leafValue(doc, span.kind, span.start, span.end));
    out.push({ pointer: span.pointer, tokens, kind: span.kind, start: span.start, end: span.end, index, class: cls, known, undocumented: undocumented === true, overlay: c.overlaid(rule) });
  });
  return out;
}

/** A leaf's value: strings decoded, other scalars read without a JSON parse. */
export function leafValue(doc: JsonDocument, kind: ValueKind, start: number, end: number): unknown {
  if (kind === "string") return stringAt(doc.text, start, end);
  if (kind === "bool") return doc.text.charCodeAt(start) === 0x74;
  if (kind === "null") return null;
  return Number(doc.text.slice(start, end));
}

// Pointers repeat across the captures of a sitting: each one's tokens are made once.
const tokenCache = new Map<string, readonly string[]>();
export function tokensOf(pointer: string): readonly string[] {
  let t = tokenCache.get(pointer);
  if (!t) {
    t = Object.freeze(pointerTokens(pointer));
    if (tokenCache.size < 100_000) tokenCache.set(pointer, t);
  }
  return t;
}
