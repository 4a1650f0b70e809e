import { append } from "../../collections.js";
import type { Display } from "../../display.js";
import { finding, type Finding } from "../../findings.js";
import type { HomeGrammar } from "../../homes.js";
import { decodeJsonString } from "../../json/escapes.js";
import { placeOf, scanJson } from "../../json/reader.js";
import { isUnder } from "../../refusals.js";
import type { Capture, ChangeExample, ClearedFile, ClearedReport, FieldClass, JsonDocument, RuleApplication, Rules } from "../../types.js";
import { withDocument } from "../../json/with-document.js";
import { changeExample } from "./example.js";
import { finalCheck, holdsContact, type KnownNames } from "./final-check.js";
import { HOME_RULE } from "./home-path.js";
import type { Leaf, SubstitutionRule } from "./rule.js";

// Clearing one capture, in named steps: substitute its leaves (classified and judged for refused
// classes by inventory) into a list of edits, splice, re-check the result, run the final check,
// report which rule changed each span. Pure: bytes in, bytes out.

export interface ClearContext {
  rules: Rules;
  registry: SubstitutionRule[];
  grammar: HomeGrammar;
  names: KnownNames;
  display: Display;
}

interface Edit {
  start: number;
  end: number;
  raw: string;
}

/** Letters of scripts written without spaces between words: four of them are a phrase, never a host's identifier or enum. */
const UNSPACED_LETTERS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Tibetan}\p{Script=Hangul}]/gu;

/** Several words, a long run of text, or a phrase in an unspaced script: what a prompt or a message looks like. */
export function looksLikeProse(value: string): boolean {
  if (value.trim().split(/\s+/).length >= 3 || (value.length > 64 && /\s/.test(value))) return true;
  return (value.match(UNSPACED_LETTERS)?.length ?? 0) >= 4;
}

/** Spaces, and the invisible characters that join words without one (zero-width, word joiner). */
const SPACE = /[\s\p{Cf}]/u;

/** A control character or a line or paragraph separator: in no time a host sends. */
const NOT_IN_A_TIME = /[\p{Cc}\u2028\u2029]/u;
/** The words a date or a time is written with: months, weekdays, noon's sides, UTC and its letters. */
const TIME_WORDS = new Set(
  ["t", "z", "utc", "gmt", "am", "pm", "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "mon", "tue", "wed", "thu", "fri", "sat", "sun"].concat(
    ["january", "february", "march", "april", "june", "july", "august", "september", "october", "november", "december", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"],
  ),
);

/** Time zones as their abbreviations are written after a time. */
const ZONES = new Set(["PST", "PDT", "MST", "MDT", "CST", "CDT", "EST", "EDT", "AKST", "AKDT", "HST", "CET", "CEST", "EET", "EEST", "WET", "WEST", "BST", "IST", "JST", "KST", "HKT", "SGT", "AEST", "AEDT", "ACST", "AWST", "NZST", "NZDT", "MSK"]);

/**
 * Whether a value a rule classes as a time reads as one: digits on one line, short, its words only
 * a date's and a time's (ISO 8601, a Unix time, "Mon, 07 Dec 2026 12:00:00 GMT"), and one time
 * zone's abbreviation at most ("PST"); "Jane Roe fired for cause" and "PIN 4242" are no time.
 */
export function readsAsTimestamp(value: string): boolean {
  if (value === "") return true;
  if (value.length > 64 || NOT_IN_A_TIME.test(value) || !/\p{N}/u.test(value)) return false;
  const others = (value.match(/\p{L}+/gu) ?? []).filter((word) => !TIME_WORDS.has(word.toLowerCase()));
  return others.length === 0 || (others.length === 1 && ZONES.has(others[0] as string));
}

/** Under a rule a repository added, a value kept verbatim in any class holds no space, mailbox or phone number: "Alice Walker" is a name, not an id, a path or a time. */
const OVERLAY_MAILBOX = /[^\s@\uFF20]+[@\uFF20]\p{L}/u;
const OVERLAY_PHONE = /\+\d[\d().\s-]{6,}\d/u;
const overlayKeepsProse = (value: string): boolean => SPACE.test(value) || OVERLAY_MAILBOX.test(value) || OVERLAY_PHONE.test(value) || holdsContact(value);

/** What a path holds that words do not: a separator, a home's tilde, a glob's star, or a file's extension at its end. */
const PATH_MARK = /[/\\~*]|\.[\p{L}\p{N}]{1,8}$/u;

/**
 * Whether a value a rule classes as a path reads as one: words with a blank between them and
 * nothing of a path ("Jane Roe was fired for cause") are none. What else a path holds is not
 * judged here: the home grammar reads any text a path field carries, and the scan the rest.
 */
function readsAsPath(value: string): boolean {
  return !SPACE.test(value) || PATH_MARK.test(value);
}

/**
 * A value kept in its class that is not what the class holds: a blank in an enum or an id (a host's
 * word and a host's id are one word: "Jane Roe" is a name), words that are no time or no path.
 */
function readsAsProse(cls: FieldClass, value: string): boolean {
  if (cls === "timestamp") return !readsAsTimestamp(value);
  if (cls === "path") return !readsAsPath(value);
  return (cls === "enum" || cls === "identifier") && (SPACE.test(value) || looksLikeProse(value));
}

interface Leaves {
  edits: Edit[];
  kept: ClearedReport["kept"];
  keptByOverlay: number;
  examples: ChangeExample[];
  review: string[];
  undocumented: string[];
  refused: Finding[];
  spans: ClearedReport["spans"];
}

class Applications {
  readonly covered = new Map<string, string[]>();
  readonly changed = new Map<string, string[]>();
  touch(rule: string, pointer: string, changed: boolean): void {
    append(this.covered, rule, pointer);
    if (changed) append(this.changed, rule, pointer);
  }
  report(order: string[], display: Display): RuleApplication[] {
    return order.filter((r) => this.covered.has(r)).map((rule) => ({ rule, pointers: (this.covered.get(rule) ?? []).map(display.pointer), changed: (this.changed.get(rule) ?? []).map(display.pointer) }));
  }
}

/** One list for each sequence of rules that changed a span: thousands of spans share a handful of lists. */
const ruleLists = new Map<string, readonly string[]>();
function ruleList(rules: string[]): readonly string[] {
  const key = rules.join("\n");
  let list = ruleLists.get(key);
  if (!list) {
    list = Object.freeze(rules);
    ruleLists.set(key, list);
  }
  return list;
}

const noLeaves = (): Leaves => ({ edits: [], kept: {}, keptByOverlay: 0, examples: [], review: [], undocumented: [], refused: [], spans: [] });

function substituteLeaves(capture: Capture, dumps: string[], assignmentLists: string[], ctx: ClearContext, applied: Applications): Leaves {
  const out = noLeaves();
  const { doc } = capture;
  const hints = capture.homeHints?.rules === ctx.rules.homes ? capture.homeHints.mayHold : null;
  for (const l of capture.leaves) {
    if (l.kind !== "string") {
      out.kept[l.class] = (out.kept[l.class] ?? 0) + 1;
      if (l.overlay) out.keptByOverlay++;
      continue;
    }
    const assignment = assignmentLists.includes(l.pointer.slice(0, l.pointer.lastIndexOf("/")));
    const original = doc.text.slice(l.start + 1, l.end - 1);
    const leaf: Leaf = { pointer: l.pointer, class: l.class, known: l.known, inDump: dumps.some((d) => isUnder(l.pointer, d)), asWritten: original, ...(assignment && { assignment }), ...(hints && { mayHoldHome: hints[l.index] === 1 }) };
    let raw = original;
    const changedBy: string[] = [];
    for (const rule of ctx.registry) {
      if (!rule.prefilter(raw, leaf)) continue;
      const next = rule.apply(raw, leaf);
      if (next.matched || next.raw !== raw) applied.touch(rule.id, l.pointer, next.raw !== raw);
      if (next.raw !== raw) changedBy.push(rule.id);
      raw = next.raw;
    }
    if (changedBy.length > 0) out.spans.push({ index: l.index, class: l.class, rules: ruleList(changedBy) });
    else {
      out.kept[l.class] = (out.kept[l.class] ?? 0) + 1;
      if (l.overlay) out.keptByOverlay++;
    }
    const rule = changedBy.length === 1 ? (changedBy[0] as string) : null;
    // The shortest value each rule changed alone is the clearest example of it.
    const shorter = rule === null ? -1 : out.examples.findIndex((e) => e.rule === rule);
    if (rule !== null && (shorter === -1 || (out.examples[shorter] as ChangeExample).length > original.length)) {
      const example = changeExample(rule, ctx.display.pointer(l.pointer), decodeJsonString(original), decodeJsonString(raw));
      if (shorter === -1) out.examples.push(example);
      else out.examples[shorter] = example;
    }
    if (leaf.class === "free-text" && !leaf.known && !leaf.inDump) out.review.push(ctx.display.pointer(l.pointer));
    if (l.undocumented && !leaf.inDump) out.undocumented.push(ctx.display.pointer(l.pointer));
    // Prose kept verbatim means a rule classed it wrongly, on any event; under a rule a repository added, in any class.
    // A time is kept only where it reads as one.
    // A path the home rule changed held a home, so it reads as a path whatever else it holds.
    const pathKept = leaf.class === "path" && !changedBy.includes(HOME_RULE);
    const proseKept = !leaf.inDump && (leaf.class === "enum" || leaf.class === "identifier" || leaf.class === "timestamp" || pathKept || (l.overlay && leaf.class !== "free-text"));
    const decoded = proseKept ? decodeJsonString(raw) : "";
    if (proseKept && (readsAsProse(leaf.class, decoded) || (l.overlay && overlayKeepsProse(decoded)))) {
      out.refused.push(finding("unsubstituted-free-text", { file: capture.name, pointer: ctx.display.pointer(l.pointer), ...placeOf(doc.text, l.start) }, { event: capture.event, cls: leaf.class }));
    }
    if (raw !== original) out.edits.push({ start: l.start + 1, end: l.end - 1, raw });
  }
  return out;
}

/** The capture's text with each edit spliced in; every other byte kept. */
export function splice(text: string, edits: Edit[]): string {
  const parts: string[] = [];
  let at = 0;
  for (const e of edits) {
    parts.push(text.slice(at, e.start), e.raw);
    at = e.end;
  }
  parts.push(text.slice(at));
  return parts.join("");
}

function recheck(text: string, doc: JsonDocument, file: string): { cleared: JsonDocument | null; refused: Finding[] } {
  let cleared: JsonDocument;
  try {
    cleared = scanJson(text, { maxDepth: Number.MAX_SAFE_INTEGER });
  } catch {
    return { cleared: null, refused: [finding("substitution-broke-json", { file })] };
  }
  const same = cleared.spans.length === doc.spans.length && cleared.spans.every((s, i) => s.pointer === doc.spans[i]?.pointer && s.kind === doc.spans[i]?.kind);
  return same ? { cleared, refused: [] } : { cleared: null, refused: [finding("substitution-changed-shape", { file })] };
}

/** Clears one parsed capture. */
export function clearFile(capture: Capture, ctx: ClearContext): ClearedFile {
  const applied = new Applications();
  const exempt = capture.refusals;
  // A capture of a refused class is not cleared at all: no rule is said to have changed it, and nothing in it is for review.
  const leaves = exempt.refused.length > 0 ? noLeaves() : substituteLeaves(capture, exempt.dumps, exempt.assignmentLists, ctx, applied);
  // A capture substitution left as it is needs no second reading: its document is the cleared text's.
  const text = leaves.edits.length === 0 ? capture.doc.text : splice(capture.doc.text, leaves.edits);
  const checked = leaves.edits.length === 0 ? { cleared: capture.doc, refused: [] } : recheck(text, capture.doc, capture.name);
  const final = checked.cleared && exempt.refused.length === 0 ? finalCheck(checked.cleared, capture.doc, capture.name, ctx.grammar, ctx.names, ctx.display, ctx.rules.knownMembers) : [];
  const refused = [...exempt.refused, ...leaves.refused, ...checked.refused, ...final];
  const cleared = refused.length > 0 ? null : text;
  const file: ClearedFile = {
    cleared,
    report: {
      name: capture.name,
      rawBytes: capture.size,
      clearedBytes: cleared === null ? null : Buffer.byteLength(cleared, "utf8"),
      rules: applied.report(ctx.registry.map((r) => r.id), ctx.display),
      spans: leaves.spans,
      kept: leaves.kept,
      keptByOverlay: leaves.keptByOverlay,
      // An example shows text of the cleared value: only a capture that was cleared has one.
      examples: cleared === null ? [] : leaves.examples,
      review: leaves.review,
      undocumented: leaves.undocumented,
      exemptions: exempt.exemptions,
      refused,
    },
  };
  if (cleared !== null && leaves.edits.length === 0) withDocument(file, capture.doc);
  return file;
}
