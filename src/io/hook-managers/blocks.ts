// Blocks of lines this tool adds to a file the user owns (a husky hook, lefthook.yml,
// .pre-commit-config.yaml): each starts with the same comment line, so that it can be shown,
// found and taken out again without touching a byte around it. Pure.

export const BLOCK_MARK = "# clear: the gate (clear hooks install)";

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/**
 * The text with `block` (lines, without the mark) inserted as whole lines at `offset`. Added at
 * the end of a text whose last line has no line break, the block ends with none either, so that
 * removeBlock gives back the line break put before it and the text comes back byte for byte.
 */
export function insertBlock(text: string, offset: number, indent: number, block: string[]): string {
  const pad = " ".repeat(indent);
  const before = text.slice(0, offset);
  const lead = before === "" || before.endsWith("\n") ? "" : "\n";
  const lines = [BLOCK_MARK, ...block].map((l) => (l === "" ? "" : `${pad}${l}`));
  const end = lead !== "" && offset === text.length ? "" : "\n";
  return `${before}${lead}${lines.join("\n")}${end}${text.slice(offset)}`;
}

export interface FoundBlock {
  start: number;
  end: number;
  indent: number;
  /** The block's lines below the mark, with the mark's indentation taken off. */
  lines: string[];
}

/**
 * Every block in the text: the mark, the line after it at the same indentation, and every line
 * after that indented deeper (blank lines inside included, trailing ones not).
 */
export function findBlocks(text: string): FoundBlock[] {
  const lines = text.split("\n");
  const found: FoundBlock[] = [];
  let offset = 0;
  const starts = lines.map((l) => {
    const at = offset;
    offset += l.length + 1;
    return at;
  });
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trim() !== BLOCK_MARK) continue;
    const indent = indentOf(lines[i]!);
    let last = i + 1;
    if (last >= lines.length || lines[last]!.trim() === "" || indentOf(lines[last]!) !== indent) continue;
    for (let j = last + 1; j < lines.length; j++) {
      if (lines[j]!.trim() === "") continue;
      if (indentOf(lines[j]!) <= indent) break;
      last = j;
    }
    const end = Math.min(text.length, starts[last]! + lines[last]!.length + 1);
    found.push({ start: starts[i]!, end, indent, lines: lines.slice(i + 1, last + 1).map((l) => l.slice(indent)) });
    i = last;
  }
  return found;
}

/**
 * The text without the block; one that ends the text with no line break takes the line break
 * before it too (see insertBlock). Blocks are taken out last first, so a block that ran up to one
 * taken out with its line break now ends past the text's end.
 */
export function removeBlock(text: string, block: FoundBlock): string {
  const unbroken = block.end >= text.length && !text.endsWith("\n") && block.start > 0 && text[block.start - 1] === "\n";
  return text.slice(0, unbroken ? block.start - 1 : block.start) + text.slice(block.end);
}

type Op = { kind: " " | "-" | "+"; line: string; at: number };

function diffOps(a: string[], b: string[]): Op[] {
  // Longest common subsequence of lines; the files edited here are a few hundred lines at most.
  const n = a.length;
  const m = b.length;
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) ops.push({ kind: " ", line: a[i++]!, at: j++ });
    else if (j < m && (i >= n || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) ops.push({ kind: "+", line: b[j++]!, at: j });
    else ops.push({ kind: "-", line: a[i++]!, at: j + 1 });
  }
  return ops;
}

/** The change as a person reads it: each place that changes, lines taken out "-", put in "+". */
export function showChange(before: string, after: string): string[] {
  const ops = diffOps(before.split("\n"), after.split("\n"));
  const out: string[] = [];
  let open = false;
  for (const op of ops) {
    if (op.kind === " ") {
      open = false;
      continue;
    }
    if (!open) out.push(`@@ line ${op.at}`);
    open = true;
    out.push(`${op.kind}${op.line}`);
  }
  return out;
}
