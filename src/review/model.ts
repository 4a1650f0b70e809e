import { decodeJsonString } from "../json/escapes.js";
import { scanJson } from "../json/reader.js";
import type { Cleared, ClearedReport, ScanResult, Selection } from "../types.js";

// What the review page shows, built from a cleared sitting: the coverage grid, each selected
// fixture as it will be committed with every substituted span marked, the pairs, the scan. Raw
// values stay on the server side of `reveal`; nothing here carries one.

export interface MarkedSpan {
  index: number;
  start: number;
  end: number;
  rule: string;
}

export interface ReviewFixture {
  file: string;
  harness: string;
  event: string;
  version: string;
  cleared: string;
  spans: MarkedSpan[];
}

export interface ReviewModel {
  grid: { harness: string; events: { event: string; state: "selected" | "captured" | "missing" | "refused" }[] }[];
  fixtures: ReviewFixture[];
  pairs: { scope: string; id: string; files: string[] }[];
  scan: ScanResult;
  batch: { id: string; digest: string } | null;
}

/** Each string substitution changed, marked with the rule that made it what it is now (the last that changed it). */
export function markedSpans(report: ClearedReport, cleared: string): MarkedSpan[] {
  const spans = scanJson(cleared, { maxDepth: 10_000 }).spans;
  return report.spans.flatMap((s) => {
    const span = spans[s.index];
    return span ? [{ index: s.index, start: span.start, end: span.end, rule: s.rules.at(-1) as string }] : [];
  });
}

function grid(cleared: Cleared, selection: Selection): ReviewModel["grid"] {
  const refused = new Set(cleared.substitution.files.filter((f) => f.cleared === null).map((f) => f.report.name));
  const harnesses = [...new Set([...cleared.inventory.files.map((f) => f.harness), ...cleared.inventory.missing.map((m) => m.harness)])].sort();
  return harnesses.map((harness) => {
    const events = [...new Set([...cleared.inventory.files.filter((f) => f.harness === harness).map((f) => f.event), ...cleared.inventory.missing.filter((m) => m.harness === harness).map((m) => m.event)])].sort();
    return {
      harness,
      events: events.map((event) => {
        const files = cleared.inventory.files.filter((f) => f.harness === harness && f.event === event);
        if (selection.selected.some((s) => s.harness === harness && s.event === event)) return { event, state: "selected" as const };
        if (files.length === 0) return { event, state: "missing" as const };
        return { event, state: files.every((f) => !f.valid || refused.has(f.name)) ? ("refused" as const) : ("captured" as const) };
      }),
    };
  });
}

export function reviewModel(cleared: Cleared, selection: Selection, scan: ScanResult, batch: ReviewModel["batch"]): ReviewModel {
  const fixtures = selection.selected.map((s) => {
    const file = cleared.substitution.files.find((f) => f.report.name === s.file);
    const text = file?.cleared ?? "";
    return { file: s.file, harness: s.harness, event: s.event, version: s.version, cleared: text, spans: file ? markedSpans(file.report, text) : [] };
  });
  return { grid: grid(cleared, selection), fixtures, pairs: cleared.pairing.pairs.map((p) => ({ scope: p.scope, id: p.id, files: p.files })), scan, batch };
}

/** The raw value behind one marked span, decoded: sent only on an explicit reveal. */
export function rawValue(cleared: Cleared, file: string, index: number): string | null {
  const capture = cleared.captures.find((c) => c.name === file);
  const span = capture?.doc.spans[index];
  if (!capture || !span || span.kind !== "string") return null;
  return decodeJsonString(capture.doc.text.slice(span.start + 1, span.end - 1));
}
