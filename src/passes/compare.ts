import { leafValue, type Classifier } from "../classify.js";
import { pointerTokens } from "../json/reader.js";
import type { JsonDocument } from "../types.js";

// What changed between the fixtures of two host versions, event by event: members added and
// removed (by JSON pointer, every item of an array taken as one shape), members whose class
// changed (string to object, enum to free text), and enum values new or gone. Where a member is
// added, removed or changes class, what lies under it is counted with it, not listed again.

/** A pointer's tokens, with null for "any item of an array". */
export type ShapeTokens = (string | null)[];

export interface MemberShape {
  tokens: ShapeTokens;
  /** "object", "array", or a leaf's field class. */
  classes: Set<string>;
  /** The values of its leaves classed enum, each with whether its rule documents it. */
  enumValues: Map<string, boolean>;
}

/** A fixture's shape: every member but the top-level object, by its shape's key. */
export type FixtureShape = Map<string, MemberShape>;

export interface MemberChange {
  tokens: ShapeTokens;
  classes: string[];
  /** How many members lie under it, added or removed with it. */
  members: number;
}

export interface EnumValue {
  value: string;
  documented: boolean;
}

export interface EventComparison {
  event: string;
  added: MemberChange[];
  removed: MemberChange[];
  classChanged: { tokens: ShapeTokens; before: string[]; after: string[]; members: number }[];
  enumValues: { tokens: ShapeTokens; added: EnumValue[]; gone: EnumValue[] }[];
}

export interface Comparison {
  onlyInA: string[];
  onlyInB: string[];
  events: EventComparison[];
}

const keyOf = (tokens: ShapeTokens): string => JSON.stringify(tokens);
const sorted = (values: Iterable<string>): string[] => [...values].sort();

/** The shape of one fixture, classed by the harness's field rules (the top-level value is an object). */
export function shapeOf(doc: JsonDocument, event: string, classifier: Classifier): FixtureShape {
  const shape: FixtureShape = new Map();
  const containers = new Map<string, { kind: string; tokens: ShapeTokens }>([["", { kind: "object", tokens: [] }]]);
  for (const span of doc.spans) {
    if (span.pointer === "") continue;
    const cut = span.pointer.lastIndexOf("/");
    const parent = containers.get(span.pointer.slice(0, cut)) as { kind: string; tokens: ShapeTokens };
    const concrete = pointerTokens(span.pointer);
    const tokens = [...parent.tokens, parent.kind === "array" ? null : (concrete.at(-1) as string)];
    if (span.kind === "object" || span.kind === "array") containers.set(span.pointer, { kind: span.kind, tokens });
    const key = keyOf(tokens);
    let member = shape.get(key);
    if (!member) {
      member = { tokens, classes: new Set(), enumValues: new Map() };
      shape.set(key, member);
    }
    if (span.kind === "object" || span.kind === "array") {
      member.classes.add(span.kind);
      continue;
    }
    const value = leafValue(doc, span.kind, span.start, span.end);
    const judged = classifier.classify(event, concrete, span.kind, value);
    member.classes.add(judged.class);
    if (judged.class === "enum") member.enumValues.set(String(value), judged.rule?.values?.includes(String(value)) ?? false);
  }
  return shape;
}

const sameClasses = (a: Set<string>, b: Set<string>): boolean => a.size === b.size && [...a].every((c) => b.has(c));

function isUnder(tokens: ShapeTokens, above: ShapeTokens): boolean {
  return tokens.length > above.length && above.every((t, i) => t === tokens[i]);
}

/** The members of `from` that `to` lacks, the topmost of each run, with what lies under each counted. */
function missingFrom(from: FixtureShape, to: FixtureShape, reported: ShapeTokens[]): MemberChange[] {
  const missing = [...from.values()].filter((m) => !to.has(keyOf(m.tokens)));
  const out: MemberChange[] = [];
  for (const m of missing) {
    if (reported.some((r) => isUnder(m.tokens, r)) || missing.some((o) => isUnder(m.tokens, o.tokens))) continue;
    out.push({ tokens: m.tokens, classes: sorted(m.classes), members: missing.filter((o) => isUnder(o.tokens, m.tokens)).length });
  }
  return out;
}

function enumChanges(a: MemberShape, b: MemberShape): EventComparison["enumValues"][number] | null {
  if (!a.classes.has("enum") || !b.classes.has("enum")) return null;
  const gone = [...a.enumValues].filter(([v]) => !b.enumValues.has(v)).map(([value, documented]) => ({ value, documented }));
  const added = [...b.enumValues].filter(([v]) => !a.enumValues.has(v)).map(([value, documented]) => ({ value, documented }));
  return added.length + gone.length === 0 ? null : { tokens: b.tokens, added, gone };
}

export function compareEvent(event: string, a: FixtureShape, b: FixtureShape): EventComparison {
  const out: EventComparison = { event, added: [], removed: [], classChanged: [], enumValues: [] };
  for (const [key, before] of a) {
    const after = b.get(key);
    if (!after) continue;
    if (!sameClasses(before.classes, after.classes)) {
      const oneSided = (s: FixtureShape, other: FixtureShape): number =>
        [...s.values()].filter((m) => isUnder(m.tokens, before.tokens) && !other.has(keyOf(m.tokens))).length;
      const members = oneSided(a, b) + oneSided(b, a);
      out.classChanged.push({ tokens: before.tokens, before: sorted(before.classes), after: sorted(after.classes), members });
      continue;
    }
    const values = enumChanges(before, after);
    if (values) out.enumValues.push(values);
  }
  const changed = out.classChanged.map((c) => c.tokens);
  out.removed = missingFrom(a, b, changed);
  out.added = missingFrom(b, a, changed);
  return out;
}

/** Every event of either side: those in one only, and each event in both compared. */
export function comparePass(a: Map<string, FixtureShape>, b: Map<string, FixtureShape>): Comparison {
  const events = sorted(new Set([...a.keys(), ...b.keys()]));
  return {
    onlyInA: events.filter((e) => !b.has(e)),
    onlyInB: events.filter((e) => !a.has(e)),
    events: events.filter((e) => a.has(e) && b.has(e)).map((e) => compareEvent(e, a.get(e) as FixtureShape, b.get(e) as FixtureShape)),
  };
}
