import { adviceFor } from "../advice.js";
import { groupFindings, type Finding } from "../findings.js";
import { dataSpan as d, proseText as p } from "../record/data.js";
import type { TransportState } from "./kit.js";
import type { Capture, FixtureOut, Inventory, Pairing, Rules, ScanResult, Selection, Sitting, Substitution } from "../types.js";

// What every part of the batch shares: its input, and how counts, places and grouped findings
// are written.

export interface BatchInput {
  sitting: Sitting;
  sittingShown: string;
  captures: Capture[];
  inventory: Inventory;
  pairing: Pairing;
  substitution: Substitution;
  selection: Selection;
  scan: ScanResult;
  /** The fixtures written: none when anything blocks. */
  fixtures: FixtureOut[];
  /** The fixtures the selection names, written or not: what a blocked batch would commit. */
  planned: FixtureOut[];
  blockers: Finding[];
  sidecarDigest: (f: FixtureOut) => string;
  /** The committed transports against the kit's, where a kit.json is present. */
  kitCheck: TransportState[] | null;
  /** Text from sitting.json as it may be written: homes and known names masked. */
  mask: (text: string) => string;
  /** What a person asked for on the command line (clear run --choose, --recipe): recorded as overrides. */
  overrides: { choose: string[]; recipes: string[] };
  /** The repository's rules laid over the bundled ones, with their digests. */
  overlay: { file: string; sha256: string }[];
  /** What the overlay added that decides what is kept: each field rule and fixed endpoint, with its file. */
  overlaid: Rules["overlaid"];
  /** The opt-in policies clear.config.json puts in force, with the reason a person gave. */
  policies: { name: string; reason: string }[];
}

export const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
export const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;
/** How many findings of a group each batch shows by name; the rest are counted. */
export const SHOWN = 3;

export function where(f: Finding): string {
  return [f.file !== undefined ? d(f.file) : "", f.pointer !== undefined ? d(f.pointer === "" ? "(whole document)" : f.pointer) : ""].filter(Boolean).join(" ");
}

/**
 * Findings grouped by code: the count, the message, where the first few stand, and what to do.
 * Where the first few say different things (an environment dump and tool output, both refused),
 * each place is given with its own message.
 * `label` stands where the severity would, for findings that do not block this batch (a refused capture).
 */
export function groupedLines(findings: Finding[], label?: string): string[] {
  return groupFindings(findings, SHOWN).flatMap((g) => {
    const places = g.first.map(where).filter(Boolean);
    const more = g.count > g.first.length ? `, and ${g.count - g.first.length} more` : "";
    const advice = g.severity === "block" && label === undefined ? adviceFor(g.code, "run") : null;
    const first = g.first[0] as Finding;
    const head = `- ${label ?? g.severity} ${d(g.code)}, ${plural(g.count, "finding", "findings")}:`;
    const alike = g.first.every((f) => f.message === first.message);
    const body = alike
      ? [`${head} ${p(first.message)}`, ...(places.length > 0 ? [`  - at ${places.join("; ")}${more}`] : [])]
      : [head, ...g.first.map((f) => `  - ${where(f) !== "" ? `at ${where(f)}: ` : ""}${p(f.message)}`), ...(more !== "" ? [`  - ${more.slice(2)}`] : [])];
    return [...body, ...(advice ? [`  - what to do: ${p(advice)}`] : [])];
  });
}

export const section = (heading: string, lines: string[]): string[] => (lines.length === 0 ? [] : [heading, "", ...lines, ""]);
