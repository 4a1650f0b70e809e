import { isUtf8 } from "node:buffer";
import { sha256Hex } from "../digest.js";
import { RecordError } from "../errors.js";
import { ACCEPT_WORD, MARKER_START, SHAPES } from "./grammar.js";
import { blockLines, type BlockLine } from "./markdown.js";

// The one reader of CLEARANCE.md. A batch starts at its marker, a one-line comment carrying its
// id and digest; the digest covers every line after the marker up to the batch's acceptance
// heading, so editing any of them undoes the acceptance. A batch is accepted when ACCEPT stands
// alone on its line under its own "## User acceptance" heading: outside comments, raw HTML and
// code (fenced with backticks or tildes, or indented), as CommonMark reads the document. Line
// endings (CRLF, CR) and a byte order mark are normalised once, here.

export interface ListedFixture {
  path: string;
  sha256: string;
  bytes: number;
}

export interface ParsedBatch {
  id: string;
  /** 1-based line of the marker. */
  line: number;
  digestClaimed: string;
  digestActual: string;
  accepted: boolean;
  fixtures: ListedFixture[];
  /** Whether the batch names a kit, and how many transports it quotes. */
  kit: { named: boolean; transports: number };
  /** Where the batch is not accepted: the first line under its heading that reads like ACCEPT (1-based), and why it does not count. */
  acceptanceUnread?: { line: number; why: string };
}

export interface ParsedRecord {
  batches: ParsedBatch[];
  /** Offset in the text as given (byte order mark included) where each batch's marker starts. */
  offsets: number[];
  /** The line ending the record is written with. */
  eol: "\n" | "\r\n";
}

export { RecordError };

/**
 * A record's text from its bytes: UTF-8, as the tool writes it. Bytes of another encoding (saved as
 * UTF-16 or Latin-1 by an editor) are an error naming the first byte that is not UTF-8: decoded
 * they would read as other characters, and a batch appended to them would change the bytes before it.
 */
export function recordText(bytes: Uint8Array, file: string): string {
  if (isUtf8(bytes)) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  const utf16 = bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff));
  const at = new TextDecoder("utf-8", { fatal: false }).decode(bytes).indexOf("\ufffd");
  const said = utf16 ? "is UTF-16 (it starts with a UTF-16 byte order mark)" : `is not UTF-8${at >= 0 ? ` (a byte that is not UTF-8 near character ${at + 1})` : ""}`;
  throw new RecordError(`${file}: ${said}; the tool reads and appends to a record in UTF-8 only: save it as UTF-8, as the tool wrote it`);
}

/** The digest of a batch body: the lines between its marker and its acceptance heading, joined by LF. */
export function batchDigest(bodyLines: string[]): string {
  return sha256Hex(Buffer.from(bodyLines.join("\n"), "utf8"));
}

interface Lines {
  lines: string[];
  /** Offset of each line's start in the text as given. */
  starts: number[];
  eol: "\n" | "\r\n";
}

function splitLines(text: string): Lines {
  const bom = text.startsWith("\ufeff") ? 1 : 0;
  const lines: string[] = [];
  const starts: number[] = [];
  const ending = /\r\n|\r|\n/g;
  let at = bom;
  for (let m = ending.exec(text); m !== null; m = ending.exec(text)) {
    lines.push(text.slice(at, m.index));
    starts.push(at);
    at = m.index + m[0].length;
  }
  lines.push(text.slice(at));
  starts.push(at);
  return { lines, starts, eol: /\r\n/.test(text.slice(0, 4096)) ? "\r\n" : "\n" };
}

function markerLines(lines: string[], blocks: BlockLine[], file: string): number[] {
  const found: number[] = [];
  lines.forEach((line, i) => {
    if (!line.trimStart().startsWith(MARKER_START)) return;
    const where = `${file} line ${i + 1}`;
    if (SHAPES.marker.read(line) === null) throw new RecordError(`${where}: starts like a batch marker but is not one; restore it as the tool wrote it, or remove the batch`);
    const block = blocks[i] as BlockLine;
    if (block.kind !== "comment" || block.openedAt !== i + 1) {
      throw new RecordError(`${where}: a batch marker inside ${block.kind === "fence" || block.kind === "code" ? "a code block" : "a comment or raw HTML"} opened at line ${block.openedAt ?? i + 1}; close that block above it`);
    }
    found.push(i);
  });
  return found;
}

const ACCEPTANCE_NOTE = SHAPES.acceptanceNote.render({});
/** White space as any renderer may read it: a no-break, ideographic or zero-width space too. */
const LEADING_SPACE = /^[\s\u200b\ufeff]/u;
/** A list item's or a quote's first line, after any white space: a line a container may claim, with the lines that carry its paragraph on. */
const OPENS_CONTAINER = /^[\s\u200b\ufeff]*(?:>|[-+*](?:\s|$)|\d{1,9}[.)](?:\s|$))/u;
/**
 * What can open a block or an inline span that runs on over later lines (raw HTML or a comment, a
 * fence, code, a link's text, destination or title, math, a table's row), inside which a line
 * would not be text a reader sees.
 */
const OPENS_SPAN = /[<`~[$|]/;
/**
 * A table's delimiter row that holds no pipe (":-", "-:", ":-:"): GitHub's renderer makes a table of
 * one column of it, the line above it its head and the lines below it in its paragraph its rows.
 * Hyphens alone are a setext underline, which the block reader knows.
 */
const PIPELESS_DELIMITER_ROW = /^[ \t]*(?::-+:?|-+:)[ \t]*$/;

/** Whether ACCEPT stands under a batch's heading; where it does not, the first line there that reads like it, and why it does not count. */
interface Acceptance {
  accepted: boolean;
  unread?: { line: number; why: string };
}

const LOOKS_LIKE_ACCEPT = /accept/i;

/**
 * Whether ACCEPT stands under the heading, lines `from` to `to`: alone on its line, as text at the
 * top level of the section, outside comments, raw HTML and code, wherever in the section and
 * whatever a person wrote below it. Renderers differ on what opens raw HTML, so what stands above
 * it is trusted only while it opens nothing that runs on: no line above it but the tool's own note
 * holds a character that can open a block or a span, is a table's delimiter row, or starts
 * indented (a list item's later paragraph, which a line that carries it on stays in). In a
 * paragraph that a list item or a quote starts or interrupts, a line that carries it on may be the
 * container's. A line of a setext heading is a heading; a line below it in its paragraph that holds
 * a pipe, or is a delimiter row without one, may make it a table's head. One pass, however many
 * lines read ACCEPT.
 */
function acceptanceIn(lines: string[], blocks: BlockLine[], from: number, to: number): Acceptance {
  let topLevel = false;
  let spanAbove = false;
  let unread: Acceptance["unread"];
  for (let i = from; i < to; i++) {
    const line = lines[i] as string;
    if (line === ACCEPTANCE_NOTE) continue;
    const block = blocks[i] as BlockLine;
    if (block.kind === "text") {
      if (block.startsParagraph) topLevel = !LEADING_SPACE.test(line);
      if (OPENS_CONTAINER.test(line)) topLevel = false;
      if (!spanAbove && topLevel && line === ACCEPT_WORD && !headsTable(lines, blocks, i + 1, to)) return { accepted: true };
    }
    if (unread === undefined && LOOKS_LIKE_ACCEPT.test(line)) unread = { line: i + 1, why: whyNotCounted(line, block, spanAbove, topLevel) };
    if (OPENS_SPAN.test(line) || PIPELESS_DELIMITER_ROW.test(line) || (block.kind !== "blank" && LEADING_SPACE.test(line))) spanAbove = true;
  }
  return unread === undefined ? { accepted: false } : { accepted: false, unread };
}

/** Whether the line after ACCEPT carries its paragraph on with a pipe, or is a delimiter row without one: a table's delimiter row, which makes ACCEPT the table's head. */
function headsTable(lines: string[], blocks: BlockLine[], next: number, to: number): boolean {
  const line = lines[next] as string;
  return next < to && blocks[next]?.kind === "text" && blocks[next]?.startsParagraph === false && (line.includes("|") || PIPELESS_DELIMITER_ROW.test(line));
}

function whyNotCounted(line: string, block: BlockLine, spanAbove: boolean, topLevel: boolean): string {
  if (line !== ACCEPT_WORD) return "ACCEPT counts only in capitals, alone on its line, with nothing else on that line";
  if (block.kind !== "text") return "it stands inside a comment, raw HTML, code or a heading";
  if (spanAbove) return "a line above it in the section holds <, a backtick, ~, [, $ or |, is a table's delimiter row (:-, -: or :-:), or starts indented, which can open raw HTML, a comment, code, a link, math, a table or a list item's paragraph that a renderer shows it inside";
  return topLevel ? "it is not read as text at the top of the section" : "its paragraph starts indented, or as a list item or a quote, which a renderer may show it inside";
}

function readBatch(lines: string[], blocks: BlockLine[], start: number, end: number, file: string): ParsedBatch {
  const marker = SHAPES.marker.read(lines[start] as string) as { id: string; digest: string };
  let heading = -1;
  for (let i = start + 1; i < end && heading === -1; i++) if (blocks[i]?.kind === "heading" && SHAPES.acceptanceHeading.read(lines[i] as string)) heading = i;
  if (heading === -1) {
    throw new RecordError(`${file} line ${start + 1}: batch ${marker.id} has no "## User acceptance" heading standing as a heading; the record was edited into a shape this tool does not know`);
  }
  let sectionEnd = end;
  for (let i = heading + 1; i < end && sectionEnd === end; i++) {
    const b = blocks[i] as BlockLine;
    if (b.kind === "heading" && (b.level ?? 9) <= 2) sectionEnd = i;
  }
  const { accepted, unread } = acceptanceIn(lines, blocks, heading + 1, sectionEnd);
  const body = lines.slice(start + 1, heading);
  const fixtures: ListedFixture[] = [];
  let kitNamed = false;
  let transports = 0;
  for (let i = start + 1; i < heading; i++) {
    if (blocks[i]?.kind !== "text") continue;
    const line = lines[i] as string;
    // Only a line that starts as a shape does can be one: the rest are not matched at all.
    const row = line.startsWith(SHAPES.fixtureRow.prefix) ? SHAPES.fixtureRow.read(line) : null;
    if (row) fixtures.push({ path: row.path as string, sha256: row.sha as string, bytes: Number(row.bytes) });
    if (line.startsWith(SHAPES.kitHead.prefix) && SHAPES.kitHead.read(line)) kitNamed = true;
    if (line.startsWith(SHAPES.transportQuote.prefix) && SHAPES.transportQuote.read(line)) transports++;
  }
  const batch: ParsedBatch = { id: marker.id, line: start + 1, digestClaimed: marker.digest, digestActual: batchDigest(body), accepted, fixtures, kit: { named: kitNamed, transports } };
  return unread === undefined ? batch : { ...batch, acceptanceUnread: unread };
}

/** A control character but the tab, or a bidirectional control: the tool never writes one (a value's is written as an escape). */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** What a character CONTROL finds does to a reader of the record. */
function controlDoes(found: string): string {
  const code = `U+${found.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}`;
  if (found === "\u0000") return "a NUL character, which makes git show the record as a binary file";
  if (found >= "\u202a") return `the bidirectional control ${code}, which makes a renderer show the text after it in its paragraph (an ACCEPT too) in another order`;
  return `the control character ${code}, which can change what a terminal shows`;
}

/**
 * A NUL makes git take the record for a binary file, so a diff, a pull request and the repository's
 * page show none of its lines; an escape sequence makes a terminal (cat, git diff) show other text
 * or none; a bidirectional override turns the text after it around. Either way no one reading it
 * sees a batch or its ACCEPT as the tool reads them.
 */
function refuseControls(lines: string[], file: string): void {
  const at = lines.findIndex((line) => CONTROL.test(line));
  if (at === -1) return;
  const found = CONTROL.exec(lines[at] as string)?.[0] ?? "";
  throw new RecordError(`${file} line ${at + 1}: holds ${controlDoes(found)}, so a person would not read its batches and ACCEPT as the tool does; remove it`);
}

/** Reads a record; throws RecordError naming the line when it is in a shape this tool does not know. */
export function parseRecord(text: string, file = "CLEARANCE.md"): ParsedRecord {
  const { lines, starts, eol } = splitLines(text);
  refuseControls(lines, file);
  const blocks = blockLines(lines);
  const markers = markerLines(lines, blocks, file);
  const batches = markers.map((m, k) => readBatch(lines, blocks, m, markers[k + 1] ?? lines.length, file));
  return { batches, offsets: markers.map((m) => starts[m] as number), eol };
}

/** A batch counts as accepted only when its ACCEPT stands and its digest still holds. */
export function holds(b: ParsedBatch): boolean {
  return b.accepted && b.digestClaimed === b.digestActual;
}
