import { leafValue, type Classifier } from "../classify.js";
import { pointerTokens } from "../json/reader.js";
import type { FieldRuleSet, JsonDocument } from "../types.js";

// What changed between the fixtures of two host versions, event by event: members added and
// removed (by JSON pointer, every item of an array taken as one shape), members whose class
// changed (string to object, enum to free text), and enum values new or gone. Where a member is
// added, removed or changes class, what lies under it is counted with it, not listed again.

/** A pointer's tokens, with null for "any item of an array". */
export type ShapeTokens = (string | null)[];

export interface MemberShape {
  tokens: ShapeTokens;
  /** The key of the member that holds it; null for a member of the top-level object. */
  parent: string | null;
  /** "object", "array", or a leaf's field class. */
  classes: Set<string>;
  /** The values of its leaves classed enum, each with whether its rule documents it and whether the rules spell it. */
  enumValues: Map<string, EnumValue>;
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
  /** Among the values its rule documents. */
  documented: boolean;
  /** Spelled by the project's own rules (documented here, or a value or example of any enum rule): a word that is not the payload's to keep private. */
  known: boolean;
}

/**
 * The words the field rules spell as enum values: each enum rule's documented values and the
 * values of its examples. The rules are the project's own published text, so a payload's value
 * that is one of them tells nothing private; any other value may be a person's own word.
 */
export function ruleWords(sets: readonly FieldRuleSet[]): Set<string> {
  const words = new Set<string>();
  for (const rule of sets.flatMap((s) => s.rules)) {
    if (rule.class !== "enum") continue;
    for (const v of rule.values ?? []) words.add(v);
    for (const e of rule.examples ?? []) if (typeof e.value === "string") words.add(e.value);
  }
  return words;
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

interface Container {
  kind: string;
  tokens: ShapeTokens;
  /** Its key in the shape; null for the top-level object. */
  key: string | null;
}

/** The shape of one fixture, classed by the harness's field rules (the top-level value is an object); `words` are the rules' own (ruleWords). */
export function shapeOf(doc: JsonDocument, event: string, classifier: Classifier, words: ReadonlySet<string> = new Set()): FixtureShape {
  const shape: FixtureShape = new Map();
  const containers = new Map<string, Container>([["", { kind: "object", tokens: [], key: null }]]);
  for (const span of doc.spans) {
    if (span.pointer === "") continue;
    const cut = span.pointer.lastIndexOf("/");
    const parent = containers.get(span.pointer.slice(0, cut)) as Container;
    const concrete = pointerTokens(span.pointer);
    const tokens = [...parent.tokens, parent.kind === "array" ? null : (concrete.at(-1) as string)];
    const key = keyOf(tokens);
    if (span.kind === "object" || span.kind === "array") containers.set(span.pointer, { kind: span.kind, tokens, key });
    let member = shape.get(key);
    if (!member) {
      member = { tokens, parent: parent.key, classes: new Set(), enumValues: new Map() };
      shape.set(key, member);
    }
    if (span.kind === "object" || span.kind === "array") {
      member.classes.add(span.kind);
      continue;
    }
    const value = leafValue(doc, span.kind, span.start, span.end);
    const judged = classifier.classify(event, concrete, span.kind, value);
    member.classes.add(judged.class);
    if (judged.class !== "enum") continue;
    const text = String(value);
    const documented = judged.rule?.values?.includes(text) ?? false;
    member.enumValues.set(text, { value: text, documented, known: documented || words.has(text) });
  }
  return shape;
}

const sameClasses = (a: Set<string>, b: Set<string>): boolean => a.size === b.size && [...a].every((c) => b.has(c));

/**
 * The members of `from` that `to` lacks, the topmost of each run, with what lies under each
 * counted; none under a member in `reported`. A member's parent comes before it in a shape, and
 * `to` holds every container on the way to a member it holds, so one pass, looking only at each
 * member's parent, finds them: linear in the members, however many a fixture has.
 */
function missingFrom(from: FixtureShape, to: FixtureShape, reported: ReadonlySet<string>): MemberChange[] {
  const tops = new Map<string, MemberChange>();
  // For each member missing or under a reported one: the key of the top it is counted with, or null when it is not counted.
  const topOf = new Map<string, string | null>();
  for (const [key, m] of from) {
    const parentTop = m.parent === null ? undefined : topOf.get(m.parent);
    if (reported.has(key) || parentTop === null) {
      topOf.set(key, null);
      continue;
    }
    if (to.has(key)) continue;
    if (parentTop === undefined) {
      tops.set(key, { tokens: m.tokens, classes: sorted(m.classes), members: 0 });
      topOf.set(key, key);
    } else {
      (tops.get(parentTop) as MemberChange).members++;
      topOf.set(key, parentTop);
    }
  }
  return [...tops.values()];
}

function enumChanges(a: MemberShape, b: MemberShape): EventComparison["enumValues"][number] | null {
  if (!a.classes.has("enum") || !b.classes.has("enum")) return null;
  const gone = [...a.enumValues.values()].filter((v) => !b.enumValues.has(v.value));
  const added = [...b.enumValues.values()].filter((v) => !a.enumValues.has(v.value));
  return added.length + gone.length === 0 ? null : { tokens: b.tokens, added, gone };
}

/** For each member whose class changed, how many members under it are on one side only (a walk up through parents, as deep as the nesting). */
function countOneSided(changed: Map<string, { members: number }>, a: FixtureShape, b: FixtureShape): void {
  if (changed.size === 0) return;
  for (const [side, other] of [[a, b], [b, a]] as const) {
    for (const [key, m] of side) {
      if (other.has(key)) continue;
      for (let up = m.parent; up !== null; up = (side.get(up) as MemberShape).parent) {
        const c = changed.get(up);
        if (c) c.members++;
      }
    }
  }
}

export function compareEvent(event: string, a: FixtureShape, b: FixtureShape): EventComparison {
  const out: EventComparison = { event, added: [], removed: [], classChanged: [], enumValues: [] };
  const changed = new Map<string, EventComparison["classChanged"][number]>();
  for (const [key, before] of a) {
    const after = b.get(key);
    if (!after) continue;
    if (!sameClasses(before.classes, after.classes)) {
      const change = { tokens: before.tokens, before: sorted(before.classes), after: sorted(after.classes), members: 0 };
      changed.set(key, change);
      out.classChanged.push(change);
      continue;
    }
    const values = enumChanges(before, after);
    if (values) out.enumValues.push(values);
  }
  countOneSided(changed, a, b);
  const reported = new Set(changed.keys());
  out.removed = missingFrom(a, b, reported);
  out.added = missingFrom(b, a, reported);
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
