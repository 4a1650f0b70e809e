import { pushAll } from "../collections.js";
import { MASKED_MEMBER, type Display } from "../display.js";
import type { Finding } from "../findings.js";
import { escapePointerToken } from "../json/reader.js";
import type { Comparison, EnumValue, EventComparison, ShapeTokens } from "../passes/compare.js";
import { printable } from "../record/data.js";
import { findingsText } from "./human.js";

// clear compare's two outputs, the same facts in each: pointers shown through the project's
// masking (a member name the rules do not spell is [masked]; `*` is any item of an array), an
// enum value shown only where the project's own rules spell it, and otherwise none of its
// characters, only its length: a folder compared may hold raw captures, whose values no clearance
// has read, and a short value (a PIN, initials) is private whole.

export interface ComparedSide {
  /** How the side is named: `claude-code 2.1.261`, or the folder as given. */
  label: string;
  folder: string;
  harness: string | null;
  events: number;
}

export interface ComparisonReport {
  a: ComparedSide;
  b: ComparedSide;
  comparison: Comparison;
  /** Entries of the folders that are neither a fixture nor a sidecar. */
  ignored: number;
  findings: Finding[];
}

// In a shape an array's item is `*`, so a token of digits is a member's name (a card number, a
// phone number as a key), never an index: masked, where the display would show it as an index.
const DIGITS = /^[0-9]+$/;

export function shownPointer(tokens: ShapeTokens, display: Display): string {
  return tokens.map((t) => (t === null ? "/*" : DIGITS.test(t) ? `/${MASKED_MEMBER}` : display.pointer(`/${escapePointerToken(t)}`))).join("");
}

/** A value the rules spell whole (names and homes taken out of one its rule does not document); any other said by its length alone. */
function shownValue(v: EnumValue, display: Display): string {
  if (v.documented) return v.value;
  if (v.known) return display.id(v.value);
  const length = [...v.value].length;
  return `[not in the rules: ${length} character${length === 1 ? "" : "s"}]`;
}

/** A value as the human output says it: one the rules spell quoted, any other its bracketed shape. */
const quotedValue = (v: EnumValue, display: Display): string => (v.known ? JSON.stringify(shownValue(v, display)) : shownValue(v, display));

function eventJson(e: EventComparison, display: Display): object {
  const p = (tokens: ShapeTokens): string => shownPointer(tokens, display);
  const values = (vs: EnumValue[]): object[] => vs.map((v) => ({ value: shownValue(v, display), documented: v.documented, known: v.known }));
  return {
    event: display.path(e.event),
    changed: e.added.length + e.removed.length + e.classChanged.length + e.enumValues.length > 0,
    added: e.added.map((m) => ({ pointer: p(m.tokens), classes: m.classes, members: m.members })),
    removed: e.removed.map((m) => ({ pointer: p(m.tokens), classes: m.classes, members: m.members })),
    classChanged: e.classChanged.map((c) => ({ pointer: p(c.tokens), before: c.before, after: c.after, members: c.members })),
    enumValues: e.enumValues.map((v) => ({ pointer: p(v.tokens), new: values(v.added), gone: values(v.gone) })),
  };
}

/** The --json body (the envelope adds schemaVersion). */
export function comparisonJson(report: ComparisonReport, display: Display): object {
  const { comparison: c } = report;
  return {
    command: "compare",
    ok: !report.findings.some((f) => f.severity === "block"),
    a: report.a,
    b: report.b,
    onlyInA: c.onlyInA.map((e) => display.path(e)),
    onlyInB: c.onlyInB.map((e) => display.path(e)),
    events: c.events.map((e) => eventJson(e, display)),
    ignored: report.ignored,
    findings: report.findings,
  };
}

const under = (members: number): string => (members === 0 ? "" : ` (${members} member${members === 1 ? "" : "s"} under it)`);

function eventLines(e: EventComparison, display: Display): string[] {
  const p = (tokens: ShapeTokens): string => shownPointer(tokens, display);
  const quoted = (vs: EnumValue[]): string => vs.map((v) => quotedValue(v, display)).join(", ");
  const values = (label: string, vs: EnumValue[]): string[] => (vs.length === 0 ? [] : [`${label} ${quoted(vs)}`]);
  return [
    ...e.added.map((m) => `  added    ${p(m.tokens)}  ${m.classes.join(" or ")}${under(m.members)}`),
    ...e.removed.map((m) => `  removed  ${p(m.tokens)}  ${m.classes.join(" or ")}${under(m.members)}`),
    ...e.classChanged.map((c) => `  class    ${p(c.tokens)}  ${c.before.join(" or ")} -> ${c.after.join(" or ")}${under(c.members)}`),
    ...e.enumValues.map((v) => `  values   ${p(v.tokens)}  ${[...values("new", v.added), ...values("gone", v.gone)].join("; ")}`),
  ];
}

/** Human output: the events in one side only, then each event that changed with its facts, then those that did not; findings grouped by code, or with --verbose a line each. */
export function renderComparison(report: ComparisonReport, display: Display, verbose = false): string {
  const { a, b, comparison: c } = report;
  const names = (events: string[]): string => (events.length === 0 ? "none" : events.map((e) => display.path(e)).join(", "));
  const lines = [`compare ${a.label} (${a.events} events) with ${b.label} (${b.events} events)`];
  for (const side of [a, b]) if (side.harness === null) lines.push(`note: no harness known for ${side.label}; classes are guessed from the values`);
  lines.push(`only in ${a.label}: ${names(c.onlyInA)}`, `only in ${b.label}: ${names(c.onlyInB)}`);
  const unchanged: string[] = [];
  for (const e of c.events) {
    const facts = eventLines(e, display);
    if (facts.length === 0) unchanged.push(e.event);
    else pushAll(lines, [`${display.path(e.event)}:`, ...facts]);
  }
  lines.push(`unchanged: ${names(unchanged)}`);
  if (report.ignored > 0) lines.push(`not compared: ${report.ignored} entr${report.ignored === 1 ? "y" : "ies"} neither a fixture nor a sidecar`);
  pushAll(lines, findingsText(report.findings, "verify", verbose));
  return `${lines.map(printable).join("\n")}\n`;
}
