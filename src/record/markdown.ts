// The block structure of a Markdown document, as CommonMark reads it, line by line: which lines
// are code (fenced or indented), raw HTML or comments, headings, blank, or paragraph text, and
// which paragraph lines start a paragraph. Only what the record's parser needs to decide where a
// batch marker, a heading or an ACCEPT line really stands; container blocks (lists, quotes) are
// not opened, so a line they would claim is never taken for one that stands alone.

export type LineKind = "blank" | "text" | "heading" | "setext" | "break" | "fence" | "code" | "html" | "comment";

export interface BlockLine {
  kind: LineKind;
  /** A text line that begins a paragraph (the line before it ended a block or was blank). */
  startsParagraph: boolean;
  /** For a heading (ATX or the text of a setext one): its level. */
  level?: number;
  /** For lines inside a block opened earlier (a fence, raw HTML): the 1-based line that opened it. */
  openedAt?: number;
}

interface Fence {
  char: "`" | "~";
  length: number;
  openedAt: number;
}

interface HtmlBlock {
  /** Ends on the line holding this text, or at a blank line when null. */
  end: RegExp | null;
  comment: boolean;
  openedAt: number;
}

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const ATX_HEADING = /^ {0,3}(#{1,6})(?:[ \t]|$)/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
const THEMATIC_BREAK = /^ {0,3}(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$/;

// CommonMark's HTML block start conditions 1 to 7, each with its end condition.
const BLOCK_TAGS =
  "address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h1|h2|h3|h4|h5|h6|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul";
const HTML_STARTS: { start: RegExp; end: RegExp | null; comment: boolean; interrupts: boolean }[] = [
  { start: /^ {0,3}<(?:script|pre|style|textarea)(?:[ \t>]|$)/i, end: /<\/(?:script|pre|style|textarea)>/i, comment: false, interrupts: true },
  { start: /^ {0,3}<!--/, end: /-->/, comment: true, interrupts: true },
  { start: /^ {0,3}<\?/, end: /\?>/, comment: true, interrupts: true },
  { start: /^ {0,3}<![A-Za-z]/, end: />/, comment: true, interrupts: true },
  { start: /^ {0,3}<!\[CDATA\[/, end: /\]\]>/, comment: true, interrupts: true },
  { start: new RegExp(`^ {0,3}</?(?:${BLOCK_TAGS})(?:[ \\t>]|\\/>|$)`, "i"), end: null, comment: false, interrupts: true },
  { start: /^ {0,3}<\/?[A-Za-z][A-Za-z0-9-]*(?:[ \t][^>]*)?\/?>[ \t]*$/, end: null, comment: false, interrupts: false },
];

/** Blank as CommonMark means it: spaces and tabs only. A no-break or ideographic space is text, though JavaScript's trim() takes it away. */
export const isBlank = (line: string): boolean => /^[ \t]*$/.test(line);

/** Columns of leading white space, a tab reaching the next multiple of four. */
function indentOf(line: string): number {
  let col = 0;
  for (const ch of line) {
    if (ch === " ") col++;
    else if (ch === "\t") col += 4 - (col % 4);
    else break;
  }
  return col;
}

function closesFence(line: string, fence: Fence): boolean {
  const m = /^ {0,3}(`+|~+)[ \t]*$/.exec(line);
  return m !== null && (m[1] as string)[0] === fence.char && (m[1] as string).length >= fence.length;
}

function openFence(line: string, at: number): Fence | null {
  const m = FENCE_OPEN.exec(line);
  if (!m) return null;
  const run = m[1] as string;
  // A backtick fence's info string holds no backtick; otherwise the line is inline code.
  if (run[0] === "`" && (m[2] as string).includes("`")) return null;
  return { char: run[0] as "`" | "~", length: run.length, openedAt: at };
}

function openHtml(line: string, inParagraph: boolean, at: number): HtmlBlock | null {
  for (const h of HTML_STARTS) {
    if (!h.start.test(line) || (inParagraph && !h.interrupts)) continue;
    return { end: h.end, comment: h.comment, openedAt: at };
  }
  return null;
}

/** Splits a document into its block lines. `lines` are already free of line-ending characters. */
export function blockLines(lines: string[]): BlockLine[] {
  const out: BlockLine[] = [];
  let fence: Fence | null = null;
  let html: HtmlBlock | null = null;
  let inParagraph = false;
  lines.forEach((line, i) => {
    const at = i + 1;
    if (fence) {
      out.push({ kind: "fence", startsParagraph: false, openedAt: fence.openedAt });
      if (closesFence(line, fence)) fence = null;
      return;
    }
    if (html) {
      const blank = isBlank(line);
      out.push({ kind: blank && html.end === null ? "blank" : html.comment ? "comment" : "html", startsParagraph: false, openedAt: html.openedAt });
      if (html.end === null ? blank : html.end.test(line)) html = null;
      return;
    }
    const next = classify(line, at, inParagraph, out);
    if (next.fence) fence = next.fence;
    if (next.html) html = next.html;
    inParagraph = next.inParagraph;
  });
  return out;
}

/** One line outside any open block: what it is, and what it opens. */
function classify(line: string, at: number, inParagraph: boolean, out: BlockLine[]): { inParagraph: boolean; fence?: Fence; html?: HtmlBlock } {
  if (isBlank(line)) {
    out.push({ kind: "blank", startsParagraph: false });
    return { inParagraph: false };
  }
  if (indentOf(line) >= 4) {
    // Indented code cannot interrupt a paragraph: there the line continues it.
    out.push(inParagraph ? { kind: "text", startsParagraph: false } : { kind: "code", startsParagraph: false });
    return { inParagraph };
  }
  const fence = openFence(line, at);
  if (fence) {
    out.push({ kind: "fence", startsParagraph: false, openedAt: at });
    return { inParagraph: false, fence };
  }
  const html = openHtml(line, inParagraph, at);
  if (html) {
    out.push({ kind: html.comment ? "comment" : "html", startsParagraph: false, openedAt: at });
    const endsHere = html.end !== null && html.end.test(line.slice(line.indexOf("<") + 2));
    return endsHere ? { inParagraph: false } : { inParagraph: false, html };
  }
  const atx = ATX_HEADING.exec(line);
  if (atx) {
    out.push({ kind: "heading", startsParagraph: false, level: (atx[1] as string).length });
    return { inParagraph: false };
  }
  if (inParagraph && SETEXT_UNDERLINE.test(line)) {
    const level = /^ {0,3}=/.test(line) ? 1 : 2;
    out.push({ kind: "setext", startsParagraph: false, level });
    markSetextHeading(out, level);
    return { inParagraph: false };
  }
  if (THEMATIC_BREAK.test(line)) {
    out.push({ kind: "break", startsParagraph: false });
    return { inParagraph: false };
  }
  out.push({ kind: "text", startsParagraph: !inParagraph });
  return { inParagraph: true };
}

/** The paragraph just above a setext underline is a heading, not text. */
function markSetextHeading(out: BlockLine[], level: number): void {
  for (let k = out.length - 2; k >= 0; k--) {
    const l = out[k] as BlockLine;
    if (l.kind !== "text") break;
    const starts = l.startsParagraph;
    out[k] = { kind: "heading", startsParagraph: false, level };
    if (starts) break;
  }
}
