import { holds, parseRecord, RecordError, type ParsedBatch } from "./parse.js";

// How a new batch joins the record: appended after everything already there, or in place of the
// last batch when that one still awaits acceptance. A batch that carries ACCEPT (even one whose
// digest no longer holds) is never rewritten, and no byte before the replaced batch changes. The
// new batch is written with the record's own line ending.

export const RECORD_PREAMBLE =
  "# Clearance record\n\nEach batch below was written by `clear run`. A person reads it and answers with ACCEPT under its acceptance heading.\n\n";

export interface NextRecord {
  text: string;
  /** The id of the pending batch this one replaces, if any. */
  replaced: string | null;
}

/** The record with `batch` added; `existing` null when there is no record yet. Throws RecordError on a record it cannot read. */
export function withBatch(existing: string | null, batch: string, file: string): NextRecord {
  if (existing === null || existing === "") return { text: `${RECORD_PREAMBLE}${batch}`, replaced: null };
  const parsed = parseRecord(existing, file);
  const last = parsed.batches.at(-1);
  const pending = last !== undefined && !last.accepted;
  const keep = pending ? existing.slice(0, parsed.offsets.at(-1)) : existing;
  const eol = parsed.eol;
  const gap = /(\r\n|\n|\r){2}$/.test(keep) ? "" : /(\r\n|\n|\r)$/.test(keep) ? eol : `${eol}${eol}`;
  return { text: `${keep}${gap}${eol === "\n" ? batch : batch.replace(/\n/g, "\r\n")}`, replaced: pending ? (last as ParsedBatch).id : null };
}

/**
 * A record about to be written reads back with the batch appended as its last batch, its digest
 * holding; otherwise (a comment or a code block left open above it would swallow it) nothing is
 * written, and the error names the line.
 */
export function readsBack(text: string, id: string, file: string): void {
  let last: ParsedBatch | undefined;
  try {
    last = parseRecord(text, file).batches.at(-1);
  } catch (err) {
    if (err instanceof RecordError) throw new RecordError(`${err.message}; the batch would be appended there, so nothing is written`);
    throw err;
  }
  if (last?.id !== id || last.digestClaimed !== last.digestActual) throw new RecordError(`${file}: the batch ${id} appended to it would not read back as its own batch (an open block above it?); nothing is written`);
}

/**
 * The accepted batch, still holding, that lists exactly these fixtures under this id, where no
 * later accepted batch lists any of them again: the run has nothing new to say.
 */
export function alreadyAccepted(existing: string | null, id: string, fixtures: { path: string; sha256: string }[], file: string): ParsedBatch | null {
  if (existing === null || fixtures.length === 0) return null;
  const key = (list: { path: string; sha256: string }[]): string => list.map((f) => `${f.path}\u0000${f.sha256}`).sort().join("\n");
  const holding = parseRecord(existing, file).batches.filter(holds);
  const latest = new Map<string, ParsedBatch>();
  for (const b of holding) for (const f of b.fixtures) latest.set(f.path, b);
  const same = holding.find((b) => b.id === id && key(b.fixtures) === key(fixtures));
  return same && fixtures.every((f) => latest.get(f.path) === same) ? same : null;
}

/**
 * The files the pending batch `replaced` listed that the new batch does not write and no accepted
 * batch (its digest holding) lists: the tool wrote them, no one accepted them, and once the batch
 * is replaced none lists them. Only a batch whose digest holds says what the tool wrote, and only
 * a fixture's or a sidecar's path under the fixtures folder (`fixtures`) is one: a row edited to
 * name another file of the repository, or one above it, names nothing.
 */
export function leftByReplaced(existing: string, replaced: string, writing: ReadonlySet<string>, file: string, fixtures: string): { path: string; sha256: string }[] {
  const batches = parseRecord(existing, file).batches;
  const last = batches.at(-1);
  if (last === undefined || last.id !== replaced || last.accepted || last.digestClaimed !== last.digestActual) return [];
  const accepted = new Set(batches.filter(holds).flatMap((b) => b.fixtures.map((f) => f.path)));
  return last.fixtures.filter((f) => isFixturePath(f.path, fixtures) && !writing.has(f.path) && !accepted.has(f.path)).map((f) => ({ path: f.path, sha256: f.sha256 }));
}

/** A path as the tool writes a fixture or its sidecar: <fixtures>/<harness>/<version>/<event>.json, in plain segments. */
function isFixturePath(p: string, fixtures: string): boolean {
  const parts = p.split("/");
  const base = fixtures.split("/");
  return (
    parts.length === base.length + 3 &&
    base.every((b, i) => parts[i] === b) &&
    parts.every((s) => s !== "" && s !== "." && s !== ".." && !s.includes("\\")) &&
    /\.json$/.test(parts.at(-1) as string)
  );
}
