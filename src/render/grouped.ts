import { pushAll } from "../collections.js";
import { adviceFor, type AdviceCase } from "../advice.js";
import { shortPointer } from "../display.js";
import { groupFindings, type Finding } from "../findings.js";

// Short human output: many like items said once, counted, with their first few and what to do.
// The more groups there are, the fewer examples each shows, so a summary stays on one screen
// however many files a sitting holds.

export interface Group {
  /** The group's first line: what it is and how many. */
  title: string;
  /** How many items the group holds (examples may show fewer). */
  count: number;
  /** A line said once for the whole group (the message every item shares), if any. */
  said?: string;
  /** The items as lines, in order; only the first few are printed. */
  items: string[];
  advice?: string | null;
}

/** The lines all groups of one summary may take, about; each group shows at least one example. */
const GROUP_LINES = 32;

/** How many examples each group shows: three for a few groups, one when there are many (a title and advice take two lines). */
export function examplesPerGroup(groups: number): number {
  return Math.max(1, Math.min(3, Math.floor(GROUP_LINES / Math.max(1, groups)) - 2));
}

export function groupLines(groups: Group[], indent = "  ", shown = examplesPerGroup(groups.length)): string[] {
  const lines: string[] = [];
  for (const g of groups) {
    lines.push(`${indent}${g.title}`);
    if (g.said) lines.push(`${indent}  ${g.said}`);
    // The title counts them all; here are the first few, the last saying how many more there are.
    const first = g.items.slice(0, shown);
    const more = g.items.length - first.length;
    pushAll(lines, first.map((item, i) => `${indent}  ${item}${more > 0 && i === first.length - 1 ? `, and ${more} more` : ""}`));
    if (g.advice) lines.push(`${indent}  What to do: ${g.advice}.`);
  }
  return lines;
}

/** Where a finding stands: its file, pointer and line and column, as far as it has them. */
export function findingPlace(f: Pick<Finding, "file" | "pointer" | "line" | "column">): string {
  const pointer = f.pointer === undefined ? undefined : f.pointer === "" ? "(whole document)" : shortPointer(f.pointer);
  const at = f.line === undefined ? undefined : f.column === undefined ? `line ${f.line}` : `line ${f.line}, column ${f.column}`;
  return [f.file, pointer, at].filter((x) => x !== undefined).join(" ");
}

export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** Findings grouped by code, blocking codes first: the count, the files they stand in, the first few, what to do. */
export function findingGroups(findings: Finding[], where: AdviceCase, placeOf: (f: Finding) => string = findingPlace): Group[] {
  return groupFindings(findings, Number.POSITIVE_INFINITY).map((g) => {
    const of = g.first;
    const first = of[0] as Finding;
    const files = new Set(of.flatMap((f) => (f.file === undefined ? [] : [f.file]))).size;
    const inFiles = files > 0 ? ` in ${plural(files, "file")}` : "";
    const title = `${g.severity === "block" ? "BLOCK" : "note "} ${g.code}: ${plural(g.count, "finding")}${inFiles}`;
    // A message every finding shares is said once, and the files follow.
    const uniform = of.every((f) => f.message === first.message);
    const placed = uniform && of.some((f) => placeOf(f) !== "");
    const items = !placed && uniform ? [first.message] : of.map((f) => {
      const place = placeOf(f);
      if (uniform) return place || first.message;
      return place ? `${place}: ${f.message}` : f.message;
    });
    // Two findings at one place with one message are one line.
    return { title, count: g.count, said: placed ? first.message : undefined, items: [...new Set(items)], advice: adviceFor(g.code, where) };
  });
}

/** The lines of findings by code, under a heading that counts what blocks and what is noted; zero is said as zero. */
export function findingsSummary(findings: Finding[], where: AdviceCase): string[] {
  const blocking = findings.filter((f) => f.severity === "block").length;
  const heading = `Findings by code: ${blocking} blocking, ${plural(findings.length - blocking, "note")}`;
  if (findings.length === 0) return [heading];
  return [heading, ...groupLines(findingGroups(findings, where))];
}
