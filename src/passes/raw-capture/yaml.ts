import { LiteralError, plainValue, readLiteral } from "./literal.js";
import { fillMember, putMember } from "./repeated.js";

// YAML's block style wherever it stands in a text (a .yaml file, a fence in Markdown, a string):
// lines of `name: value` at one indent are the members of one mapping, a `name:` line opens
// the mapping or sequence indented under it, `- ` lines are the items of a sequence; flow
// collections, quoted, block (| >) and plain scalars are values. A line that is none of these
// ends the mappings open above it. Lines indented under a line of code that opens a block
// (ending in '{', '(' or ',') are code, not YAML: a TypeScript interface is no mapping.
// Plain scalars are read by plainValue: prose and type names are no value. One pass.

/** A mapping or sequence read from a block of YAML, and where its first line starts. */
export interface YamlRoot {
  value: unknown;
  at: number;
}

type Container = Record<string, unknown> | unknown[];

interface Open {
  indent: number;
  value: Container;
  /** A mapping's member, or a sequence's next item (""), waiting for the block indented under it. */
  pending: string | null;
}

/** A value read after `name:` or `- `: nothing yet (a block follows), or a value and where it ends. */
type ValueRead = { nested: true } | { nested: false; value: unknown; end: number };

const INDICATORS = "[]{},#&*!|>'\"%@`";
const isBlankTo = (text: string, from: number, end: number): boolean => {
  const rest = text.slice(from, end).trimStart();
  return rest === "" || rest.startsWith("#");
};

function nullObject(): Record<string, unknown> {
  return Object.create(null) as Record<string, unknown>;
}

class BlockReader {
  readonly roots: YamlRoot[] = [];
  private stack: Open[] = [];
  /** Lines indented at least this far stand in code: skipped. -1 when none. */
  private codeFrom = -1;
  /** The last character of the last line that was not blank. */
  private lastTail = "\n";

  constructor(
    private readonly text: string,
    private readonly charge: (chars: number) => void,
    private readonly json: Map<number, number>,
  ) {}

  /** Reads one line; returns where the text it took ends (further than the line for a value that spans lines). */
  line(start: number, end: number): number {
    const text = this.text;
    let p = start;
    while (p < end && text.charCodeAt(p) === 0x20) p++;
    const indent = p - start;
    if (p === end) {
      this.lastTail = "\n";
      return end;
    }
    if (text[p] === "#") return end;
    if (this.codeFrom !== -1 && indent >= this.codeFrom) return this.tail(end, end);
    this.codeFrom = -1;
    if (text[p] === "\t" || (indent === 0 && /^(?:---|\.\.\.)(?:\s|$)/.test(text.slice(p, p + 4)))) return this.tail(this.close(end), end);
    const taken = this.entry(indent, p, end);
    return this.tail(taken === -1 ? this.close(end) : taken, end);
  }

  private tail(taken: number, end: number): number {
    const line = this.text.slice(Math.max(0, end - 200), end).trimEnd();
    if (line !== "") this.lastTail = line[line.length - 1] as string;
    return taken;
  }

  private close(end: number): number {
    this.stack = [];
    return end;
  }

  private entry(col: number, p: number, end: number): number {
    const text = this.text;
    const top = this.stack[this.stack.length - 1];
    const isItem = text[p] === "-" && (p + 1 === end || text[p + 1] === " ");
    const key = isItem ? null : this.keyAt(p, end);
    if (top && col > top.indent && top.pending === null) {
      // Indented under a member that has its value: the next line of a plain scalar, or (a member or an item) a new block.
      if (!isItem && !key) return end;
      this.stack = [];
    }
    if (top && col > top.indent && top.pending !== null && !Array.isArray(top.value) && !isItem && !key) return this.nextLineValue(top, p, end, col);
    if (isItem) return this.item(col, p, end);
    if (key) return this.member(col, key.name, key.valueAt, end);
    if ((text[p] === "{" || text[p] === "[") && this.stack.length === 0) {
      const jsonEnd = this.json.get(p);
      if (jsonEnd !== undefined) return jsonEnd;
      const read = this.value(p, end, col);
      if (read === null || read.nested) return -1;
      this.roots.push({ value: read.value, at: p });
      return read.end;
    }
    return -1;
  }

  /** A member's scalar written on the line under its name (`name:` then `  Stop`). */
  private nextLineValue(top: Open, p: number, end: number, col: number): number {
    const read = this.value(p, end, col);
    if (read === null || read.nested) return -1;
    fillMember(top.value as Record<string, unknown>, top.pending as string, read.value);
    top.pending = null;
    return read.end;
  }

  /** `name: value` at column `col`. */
  private member(col: number, name: string, valueAt: number, end: number): number {
    const read = this.value(valueAt, end, col);
    if (read === null) return -1;
    this.popTo(col, true);
    const top = this.stack[this.stack.length - 1];
    let map: Record<string, unknown>;
    if (top && top.indent === col && !Array.isArray(top.value)) map = top.value;
    else {
      if (!this.canOpen(col)) return end;
      map = nullObject();
      this.place(col, map, valueAt);
    }
    const open = this.stack[this.stack.length - 1] as Open;
    putMember(map, name, read.nested ? null : read.value);
    open.pending = read.nested ? name : null;
    return read.nested ? end : read.end;
  }

  /** `- item` at column `col`. */
  private item(col: number, p: number, end: number): number {
    const text = this.text;
    let q = p + 1;
    while (q < end && text[q] === " ") q++;
    const nestedLine = q < end && text[q] === "-" && (q + 1 === end || text[q + 1] === " ");
    const key = q < end && !nestedLine ? this.keyAt(q, end) : null;
    const read = nestedLine || key ? ({ nested: true } as const) : this.value(q, end, col);
    if (read === null) return -1;
    this.popTo(col, false);
    const top = this.stack[this.stack.length - 1];
    let seq: unknown[];
    if (top && top.indent === col && Array.isArray(top.value)) seq = top.value;
    else {
      if (!this.canOpen(col)) return end;
      seq = [];
      this.place(col, seq, p);
    }
    const open = this.stack[this.stack.length - 1] as Open;
    if (!read.nested) {
      seq.push(read.value);
      open.pending = null;
      return read.end;
    }
    open.pending = "";
    const itemCol = col + (q - p);
    if (nestedLine) return this.item(itemCol, q, end);
    if (key) return this.member(itemCol, key.name, key.valueAt, end);
    return end;
  }

  /** A block may open here: not under a line of code that opens one, where it would be that code's body. */
  private canOpen(col: number): boolean {
    const top = this.stack[this.stack.length - 1];
    if (top && top.pending !== null && top.indent <= col) return true;
    if (col > 0 && "{(,".includes(this.lastTail)) {
      this.codeFrom = col;
      this.stack = [];
      return false;
    }
    return true;
  }

  /** Puts a new mapping or sequence where the open one awaits it, or as a new root. */
  private place(col: number, value: Container, at: number): void {
    const top = this.stack[this.stack.length - 1];
    if (top && top.pending !== null && top.indent <= col) {
      if (Array.isArray(top.value)) top.value.push(value);
      else fillMember(top.value, top.pending, value);
      top.pending = null;
    } else {
      this.stack = [];
      this.roots.push({ value, at });
    }
    this.stack.push({ indent: col, value, pending: null });
  }

  /** Closes what a line at `col` ends: deeper blocks, and a sequence at its own indent when a member follows it. */
  private popTo(col: number, isMember: boolean): void {
    for (let top = this.stack[this.stack.length - 1]; top; top = this.stack[this.stack.length - 1]) {
      if (top.indent > col || (isMember && top.indent === col && Array.isArray(top.value))) this.stack.pop();
      else return;
    }
  }

  /** A member name at `p` followed by ':' and a space or the line's end. */
  private keyAt(p: number, end: number): { name: string; valueAt: number } | null {
    const text = this.text;
    const c = text[p] as string;
    if (c === '"' || c === "'") {
      try {
        const read = this.literal(p);
        let j = read.end;
        while (j < end && text[j] === " ") j++;
        return j < end && text[j] === ":" && (j + 1 === end || text[j + 1] === " ") ? { name: String(read.value), valueAt: j + 1 } : null;
      } catch (err) {
        if (err instanceof LiteralError) return null;
        throw err;
      }
    }
    if (INDICATORS.includes(c) || ("-?:".includes(c) && text[p + 1] === " ")) return null;
    const line = text.slice(p, end);
    for (let j = line.indexOf(":"); j !== -1; j = line.indexOf(":", j + 1)) {
      if (j + 1 !== line.length && line[j + 1] !== " " && line[j + 1] !== "\t") continue;
      const name = line.slice(0, j).trimEnd();
      return name.includes(" #") ? null : { name, valueAt: p + j + 1 };
    }
    return null;
  }

  /** The value after `name:` or `- `; null where the line is not YAML. */
  private value(from: number, end: number, col: number): ValueRead | null {
    const text = this.text;
    let i = from;
    while (i < end && (text[i] === " " || text[i] === "\t")) i++;
    // Anchors and tags stand before a value: &a, !!str.
    while (i < end && (text[i] === "&" || text[i] === "!")) {
      const space = text.slice(i, end).indexOf(" ");
      i = space === -1 ? end : i + space + 1;
    }
    if (i === end || text[i] === "#") return { nested: true };
    const c = text[i] as string;
    if (c === "*") return { nested: false, value: null, end };
    if (c === "|" || c === ">") return this.blockScalar(end, col);
    if (c === '"' || c === "'" || c === "{" || c === "[") {
      try {
        const read = this.literal(i);
        const lineEnd = text.indexOf("\n", read.end);
        return isBlankTo(text, read.end, lineEnd === -1 ? text.length : lineEnd) ? { nested: false, value: read.value, end: read.end } : null;
      } catch (err) {
        if (err instanceof LiteralError) return null;
        throw err;
      }
    }
    const plain = text.slice(i, end);
    const comment = plain.indexOf(" #");
    return { nested: false, value: plainValue(comment === -1 ? plain : plain.slice(0, comment)), end };
  }

  /** A flow collection or a quoted scalar, its cost counted: a line of code that opens braces may read far before it fails. */
  private literal(i: number): { value: unknown; end: number } {
    try {
      const read = readLiteral(this.text, i, "yaml");
      this.charge(read.end - i);
      return read;
    } catch (err) {
      if (err instanceof LiteralError) this.charge(err.offset - i);
      throw err;
    }
  }

  /** A literal (|) or folded (>) scalar: the lines indented under its member, kept as text. */
  private blockScalar(end: number, col: number): ValueRead {
    const text = this.text;
    const lines: string[] = [];
    let last = end;
    for (let s = end + 1; s < text.length; ) {
      const e = text.indexOf("\n", s) === -1 ? text.length : text.indexOf("\n", s);
      const body = text.slice(s, e);
      const indent = body.length - body.trimStart().length;
      if (body.trim() !== "" && indent <= col) break;
      lines.push(body.trim());
      last = e;
      s = e + 1;
    }
    return { nested: false, value: lines.join("\n").trim(), end: last };
  }
}

/**
 * Every mapping and sequence that blocks of YAML in `text` write, each with the offset of its
 * first line; `charge` counts what flow collections read; a line that starts a JSON value read
 * already (`json`: its end by its start) is passed over.
 */
export function yamlBlocks(text: string, charge: (chars: number) => void, json: Map<number, number> = new Map()): YamlRoot[] {
  const reader = new BlockReader(text, charge, json);
  for (let start = 0; start < text.length; ) {
    const nl = text.indexOf("\n", start);
    let end = nl === -1 ? text.length : nl;
    if (end > start && text.charCodeAt(end - 1) === 0x0d) end--;
    const taken = reader.line(start, end);
    const next = text.indexOf("\n", Math.max(taken, start));
    start = next === -1 ? text.length : next + 1;
  }
  return reader.roots;
}
