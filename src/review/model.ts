import { adviceFor } from "../advice.js";
import type { Finding, FindingCode } from "../findings.js";
import { decodeJsonString } from "../json/escapes.js";
import { scanJson } from "../json/reader.js";
import { alreadyAccepted } from "../record/write.js";
import { parseRecord, type ParsedBatch } from "../record/parse.js";
import type { Cleared, ClearedReport, FixtureOut, ScanResult, Selection } from "../types.js";

// What the review page shows, built from a cleared sitting: where the batch stands (what blocks
// it and what to do, or whether it is accepted), the coverage grid, each selected fixture under
// the path it will be committed at with every substituted span marked and its provenance sidecar,
// the pairs, the scan. Raw values stay on the server side of `reveal`; nothing here carries one.

export interface MarkedSpan {
  index: number;
  start: number;
  end: number;
  /** Every rule that changed the span, in the order they applied (a home's path, then a literal inside it). */
  rules: string[];
}

export interface ReviewFixture {
  /** The capture's name: what a reveal names. */
  file: string;
  /** The repository path the fixture will be committed at; "" when the page was given none. */
  path: string;
  sidecarPath: string;
  /** The sidecar's text as it will be written; null when it is not written (the batch blocks). */
  sidecar: string | null;
  harness: string;
  event: string;
  version: string;
  cleared: string;
  spans: MarkedSpan[];
  /** Why the cleared text is not shown (the scan found a secret shape in it), or null. */
  withheld: string | null;
}

/** A finding as the page shows it, with what to do about it. */
export interface ExplainedFinding {
  code: FindingCode;
  file: string | null;
  pointer: string | null;
  line: number | null;
  column: number | null;
  message: string;
  advice: string | null;
}

/** A pair member: a link to its fixture when it is one, else why it is not. */
export interface PairMember {
  file: string;
  fixture: number | null;
  why: string | null;
}

/** Where the batch stands against the repository's record. */
export type Acceptance =
  | { state: "blocked" }
  | { state: "outside" }
  | { state: "unreadable"; detail: string; advice: string | null }
  | { state: "not-run" }
  | { state: "pending"; line: number }
  | { state: "accepted"; line: number }
  | { state: "superseded"; line: number }
  | { state: "edited"; line: number; advice: string | null }
  | { state: "changed"; line: number; accepted: boolean };

/** What the command knows beyond the cleared sitting: the fixtures as written, the blockers, the record's verdict. */
export interface ReviewContext {
  batch: { id: string; digest: string };
  fixtures: FixtureOut[];
  /** Whether the fixtures' sidecars are written (nothing blocks); only then are they shown. */
  sidecarsWritten: boolean;
  blockers: Finding[];
  acceptance: Acceptance;
  /** The record's path in the repository, and how to run clear run on this sitting there. */
  recordPath: string;
  runCommand: string;
}

export interface ReviewModel {
  grid: { harness: string; events: { event: string; state: "selected" | "captured" | "missing" | "refused" }[] }[];
  fixtures: ReviewFixture[];
  pairs: { scope: string; id: string; files: string[]; members: PairMember[] }[];
  scan: ScanResult;
  /** The batch when nothing blocks it (what ACCEPT would accept); null when blocked. */
  batch: { id: string; digest: string } | null;
  /** The batch's id whether or not it blocks; "" when the page was given none. */
  batchId: string;
  blockers: ExplainedFinding[];
  /** Captures the rules refused (left out of the batch), with why. */
  refusals: ExplainedFinding[];
  acceptance: Acceptance;
  recordPath: string;
  runCommand: string;
}

/** Each string substitution changed, marked with the rule that made it what it is now (the last that changed it). */
export function markedSpans(report: ClearedReport, cleared: string): MarkedSpan[] {
  // A capture substitution left as it is has no span to mark: its text is not read again.
  if (report.spans.length === 0) return [];
  const spans = scanJson(cleared, { maxDepth: 10_000 }).spans;
  return report.spans.flatMap((s) => {
    const span = spans[s.index];
    return span ? [{ index: s.index, start: span.start, end: span.end, rules: [...s.rules] }] : [];
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

export function explained(f: Finding): ExplainedFinding {
  const where = { file: f.file ?? null, pointer: f.pointer ?? null, line: f.line ?? null, column: f.column ?? null };
  return { code: f.code, ...where, message: f.message, advice: adviceFor(f.code, "run") };
}

/** Why a capture in a pair has no fixture on the page: not chosen for its event (and why), or refused. */
function pairMembers(cleared: Cleared, selection: Selection, files: string[]): PairMember[] {
  const shown = new Map(selection.selected.map((s, i) => [s.file, i]));
  const notChosen = new Map(selection.selected.flatMap((s) => s.notChosen.map((n) => [n.file, n.why] as const)));
  const refused = new Map(cleared.substitution.files.filter((f) => f.cleared === null).map((f) => [f.report.name, f.report.refused[0]?.code ?? "refused"]));
  return files.map((file) => {
    const fixture = shown.get(file);
    if (fixture !== undefined) return { file, fixture, why: null };
    const passed = notChosen.get(file);
    if (passed !== undefined) return { file, fixture: null, why: `not selected: ${passed}` };
    const code = refused.get(file);
    return { file, fixture: null, why: code !== undefined ? `refused (${code})` : "not selected" };
  });
}

function fixtureOf(cleared: Cleared, s: Selection["selected"][number], context: ReviewContext | null, scan: ScanResult): ReviewFixture {
  const file = cleared.substitution.files.find((f) => f.report.name === s.file);
  const out = context?.fixtures.find((f) => f.captureName === s.file);
  const path = out?.path ?? "";
  // A fixture the scan found a secret shape in is not shown: the finding names where it stands.
  // Without the fixture's path the findings cannot be told apart: any finding withholds every fixture.
  const found = scan.findings.filter((f) => path === "" || f.file === path || f.file === s.file).length;
  const shapes = found === 1 ? "a secret shape" : `${found} secret shapes`;
  const withheld = found > 0 ? `not shown: the scan found ${shapes} in it (see what blocks this batch)` : null;
  const text = withheld === null ? (file?.cleared ?? "") : "";
  const sidecar = out && context?.sidecarsWritten ? Buffer.from(out.sidecar).toString("utf8") : null;
  return {
    file: s.file,
    path,
    sidecarPath: out?.sidecarPath ?? "",
    sidecar,
    harness: s.harness,
    event: s.event,
    version: s.version,
    cleared: text,
    spans: file && withheld === null ? markedSpans(file.report, text) : [],
    withheld,
  };
}

/** The page's model. `context` null: no repository facts (no paths, sidecars or record verdict), as a pure view of the sitting. */
export function reviewModel(cleared: Cleared, selection: Selection, scan: ScanResult, context: ReviewContext | null): ReviewModel {
  const blockers = context?.blockers ?? [];
  const refused = cleared.substitution.files.filter((f) => f.cleared === null);
  const refusals = refused.flatMap((f) => f.report.refused.map((r) => explained({ ...r, file: r.file ?? f.report.name })));
  return {
    grid: grid(cleared, selection),
    fixtures: selection.selected.map((s) => fixtureOf(cleared, s, context, scan)),
    pairs: cleared.pairing.pairs.map((p) => ({ scope: p.scope, id: p.id, files: p.files, members: pairMembers(cleared, selection, p.files) })),
    scan,
    batch: context && blockers.length === 0 ? context.batch : null,
    batchId: context?.batch.id ?? "",
    blockers: blockers.map(explained),
    refusals,
    acceptance: context?.acceptance ?? { state: blockers.length > 0 ? "blocked" : "outside" },
    recordPath: context?.recordPath ?? "CLEARANCE.md",
    runCommand: context?.runCommand ?? "clear run",
  };
}

/** The repository's record as read: its text, absent (null), or why it could not be read. */
export type RecordRead = { text: string } | { error: string } | null;

/**
 * Where a batch of this id stands in the record: accepted (as clear run would find it: its digest
 * holds and it lists these very fixtures), pending, written differently from what a run writes
 * now (the sitting or the rules changed), edited after ACCEPT, or not there.
 */
export function acceptanceOf(
  record: RecordRead,
  batch: { id: string; digest: string; blocked: boolean },
  listed: { path: string; sha256: string }[],
  file: string,
): Acceptance {
  if (batch.blocked) return { state: "blocked" };
  if (record === null) return { state: "not-run" };
  if ("error" in record) return { state: "unreadable", detail: record.error, advice: adviceFor("record-unreadable", "run") };
  let batches: ParsedBatch[];
  try {
    batches = parseRecord(record.text, file).batches;
  } catch (err) {
    return { state: "unreadable", detail: (err as Error).message, advice: adviceFor("record-unreadable", "run") };
  }
  const accepted = alreadyAccepted(record.text, batch.id, listed, file);
  if (accepted) return { state: "accepted", line: accepted.line };
  const same = batches.filter((b) => b.id === batch.id).at(-1);
  if (!same) return { state: "not-run" };
  if (same.accepted && same.digestClaimed !== same.digestActual) return { state: "edited", line: same.line, advice: adviceFor("batch-edited", "run") };
  if (same.digestClaimed !== batch.digest) return { state: "changed", line: same.line, accepted: same.accepted };
  return same.accepted ? { state: "superseded", line: same.line } : { state: "pending", line: same.line };
}

/** The raw value behind one marked span, decoded: sent only on an explicit reveal. */
export function rawValue(cleared: Cleared, file: string, index: number): string | null {
  const capture = cleared.captures.find((c) => c.name === file);
  const span = capture?.doc.spans[index];
  if (!capture || !span || span.kind !== "string") return null;
  return decodeJsonString(capture.doc.text.slice(span.start + 1, span.end - 1));
}
