import { sha256Hex } from "../digest.js";

// The one parser of CLEARANCE.md. A batch starts at its marker comment, which carries its id and
// digest; the digest covers every line after the marker up to the batch's acceptance heading, so
// editing any of them undoes the acceptance. A batch is accepted when ACCEPT stands alone on a
// line under its own "## User acceptance" heading, outside HTML comments and fenced code blocks.

export const BATCH_MARKER = /^<!-- clear:batch (\S+) sha256:([0-9a-f]{64}) -->$/;
export const ACCEPTANCE_HEADING = "## User acceptance";
const FIXTURE_ROW = /^\| `([^`]+)` \| [^|]* \| `[0-9a-f]{64}` \| \d+ \| `([0-9a-f]{64})` \| (\d+) \|$/;

export interface ParsedBatch {
  id: string;
  line: number;
  digestClaimed: string;
  digestActual: string;
  accepted: boolean;
  fixtures: { path: string; sha256: string; bytes: number }[];
  /** Whether the batch names a kit, and how many transports it quotes. */
  kit: { named: boolean; transports: number };
}

export class RecordError extends Error {}

/** The digest of a batch body: the lines between its marker and its acceptance heading. */
export function batchDigest(bodyLines: string[]): string {
  return sha256Hex(Buffer.from(bodyLines.join("\n"), "utf8"));
}

function accepted(lines: string[]): boolean {
  let inComment = false;
  let inFence = false;
  for (const raw of lines) {
    const line = raw.replace(/\r$/, "");
    if (inComment) {
      if (line.includes("-->")) inComment = false;
      continue;
    }
    if (/^\s*(```|~~~)/.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    if (line.includes("<!--")) {
      inComment = !line.slice(line.indexOf("<!--")).includes("-->");
      continue;
    }
    if (line === "ACCEPT") return true;
  }
  return false;
}

function parseBatch(lines: string[], start: number, end: number): ParsedBatch {
  const marker = BATCH_MARKER.exec(lines[start] as string) as RegExpExecArray;
  const body = lines.slice(start + 1, end);
  const headingAt = body.findIndex((l) => l.replace(/\r$/, "") === ACCEPTANCE_HEADING);
  if (headingAt === -1) throw new RecordError(`CLEARANCE.md line ${start + 1}: batch ${marker[1]} has no "${ACCEPTANCE_HEADING}" heading; the record was edited into a shape this tool does not know`);
  const afterHeading = body.slice(headingAt + 1);
  const nextHeading = afterHeading.findIndex((l) => /^## /.test(l));
  const acceptance = nextHeading === -1 ? afterHeading : afterHeading.slice(0, nextHeading);
  const fixtures = body.slice(0, headingAt).flatMap((l) => {
    const m = FIXTURE_ROW.exec(l);
    return m ? [{ path: m[1] as string, sha256: m[2] as string, bytes: Number(m[3]) }] : [];
  });
  const above = body.slice(0, headingAt);
  const kit = { named: above.some((l) => l.startsWith("- Kit head: ")), transports: above.filter((l) => /^- Transport `[^`]+`: kit sha256 /.test(l)).length };
  return { id: marker[1] as string, line: start + 1, digestClaimed: marker[2] as string, digestActual: batchDigest(above), accepted: accepted(acceptance), fixtures, kit };
}

export function parseRecord(text: string): { preamble: string; batches: ParsedBatch[]; starts: number[] } {
  const lines = text.split("\n");
  const starts = lines.flatMap((l, i) => (BATCH_MARKER.test(l.replace(/\r$/, "")) ? [i] : []));
  const stray = lines.findIndex((l, i) => l.includes("clear:batch") && !starts.includes(i));
  if (stray !== -1) throw new RecordError(`CLEARANCE.md line ${stray + 1}: a batch marker this tool does not know; restore it as written or remove the batch`);
  const batches = starts.map((s, k) => parseBatch(lines, s, starts[k + 1] ?? lines.length));
  return { preamble: lines.slice(0, starts[0] ?? lines.length).join("\n"), batches, starts };
}

/** A batch counts as accepted only when its ACCEPT stands and its digest still holds. */
export function holds(b: ParsedBatch): boolean {
  return b.accepted && b.digestClaimed === b.digestActual;
}
