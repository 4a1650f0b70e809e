import { putMember, tableIn } from "./repeated.js";
// Object and array literals as people and programs write them outside strict JSON: JSON with
// comments and JSON5 (comments, trailing commas, unquoted keys, single quotes, raw tabs and line
// breaks in strings, NaN and Infinity), JavaScript and TypeScript object literals (undefined,
// template strings without substitutions), Python and Ruby reprs (True, None, =>, :symbol names), YAML's flow
// style (words without quotes are strings) and TOML's values (key = value in inline tables).
// Only literals: a variable, a call or a spread makes the object around it unreadable, so code
// that builds a payload from values is not one. One pass with an explicit stack, no recursion.

/** How the text writes its literals. */
export type LiteralMode = "literal" | "yaml" | "toml";

/**
 * Where a read stopped being a literal, and the values it completed before. Not an Error: most
 * braces in code open no literal, and a stack trace for each would cost more than the read.
 */
export class LiteralError {
  constructor(
    readonly offset: number,
    readonly completed: unknown[],
    readonly braceInComment = -1,
  ) {}
}

/** A value read whole, and where it ends. */
export interface LiteralRead {
  value: unknown;
  end: number;
  /** The first opening brace inside a comment the read passed over, or -1. */
  braceInComment?: number;
}

interface Frame {
  closer: number;
  value: Record<string, unknown> | unknown[];
  /** Members or items read so far. */
  count: number;
}

const MAX_NUMBER_CHARS = 400;

const STRING_STOPS: Record<string, RegExp> = { '"': /["\\]/g, "'": /['\\]/g, "`": /[`\\]/g };

/** Words that are values in a literal; in YAML and TOML the words of their own. */
const WORDS: Record<LiteralMode, Map<string, unknown>> = {
  literal: new Map<string, unknown>([
    ["true", true], ["false", false], ["null", null], ["True", true], ["False", false], ["None", null],
    ["NaN", NaN], ["Infinity", Infinity], ["undefined", undefined], ["nil", null],
  ]),
  yaml: new Map<string, unknown>([
    ["true", true], ["false", false], ["True", true], ["False", false], ["TRUE", true], ["FALSE", false],
    ["null", null], ["Null", null], ["NULL", null], ["~", null], [".inf", Infinity], [".nan", NaN],
  ]),
  toml: new Map<string, unknown>([["true", true], ["false", false], ["inf", Infinity], ["nan", NaN]]),
};

/** Names of types, which a description of a payload writes where a payload has a value. */
const TYPE_NAMES = new Set(["string", "str", "number", "int", "integer", "float", "double", "bool", "boolean", "object", "array", "any", "unknown", "text", "bytes", "list", "dict", "map", "uuid", "date", "datetime", "timestamp", "null", "none", "void"]);

const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x0b || c === 0x0c || c === 0xa0 || c === 0xfeff || c === 0x2028 || c === 0x2029;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
const isIdentStart = (c: number): boolean => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x24 || (c > 0x7f && !isSpace(c));
const isIdentPart = (c: number): boolean => isIdentStart(c) || isDigit(c);
const isBareKeyPart = (c: number): boolean => isIdentPart(c) || c === 0x2d;
const isNumberPart = (c: number): boolean => isIdentPart(c) || c === 0x2e;
// TOML's dates and times: 1979-05-27T07:32:00-08:00.
const isTomlNumberPart = (c: number): boolean => isNumberPart(c) || c === 0x3a || c === 0x2d || c === 0x2b;

/**
 * The value a YAML plain scalar (a word without quotes) stands for: true, null, a number, or a
 * string. A string only where it could be a value a host sends in a signature's member (one word:
 * no space, no punctuation of code, not the name of a type); prose and type annotations are no
 * value (undefined), so "hook_event_name: the event's name" is not a payload.
 */
export function plainValue(raw: string): unknown {
  const word = raw.trim();
  if (WORDS.yaml.has(word)) return WORDS.yaml.get(word);
  if (/^[-+]?(?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/.test(word) && word.length < MAX_NUMBER_CHARS) return Number(word.replace(/_/g, ""));
  if (!/^[A-Za-z0-9][\w.:/@+-]*$/.test(word) || TYPE_NAMES.has(word.toLowerCase())) return undefined;
  return word;
}

class LiteralReader {
  /** The first opening brace inside a comment passed over, or -1: a read that passes one must not hide what it opens. */
  braceInComment = -1;
  private nextBrace = -1;

  constructor(
    private readonly text: string,
    readonly mode: LiteralMode,
  ) {}

  /** Past whitespace and comments (//, /* *\/ and #; in YAML and TOML only #). */
  skip(from: number): number {
    const text = this.text;
    let i = from;
    for (;;) {
      const c = text.charCodeAt(i);
      let end = i;
      if (isSpace(c)) {
        i++;
        continue;
      }
      if (c === 0x23) end = this.lineEnd(i);
      else if (c === 0x2f && this.mode === "literal" && text.charCodeAt(i + 1) === 0x2f) end = this.lineEnd(i);
      else if (c === 0x2f && this.mode === "literal" && text.charCodeAt(i + 1) === 0x2a) {
        end = text.indexOf("*/", i + 2);
        if (end === -1) throw new LiteralError(i, []);
        end += 2;
      } else return i;
      this.noteComment(i, end);
      i = end;
    }
  }

  private noteComment(start: number, end: number): void {
    if (this.braceInComment !== -1) return;
    if (this.nextBrace < start) this.nextBrace = this.text.indexOf("{", start);
    if (this.nextBrace === -1) this.nextBrace = this.text.length;
    if (this.nextBrace < end) this.braceInComment = this.nextBrace;
  }

  private lineEnd(i: number): number {
    const nl = this.text.indexOf("\n", i);
    return nl === -1 ? this.text.length : nl;
  }

  /** A quoted string at `i` (Python's prefixes and triple quotes, JavaScript's backquotes without ${}). */
  string(at: number): LiteralRead {
    const text = this.text;
    let i = at;
    while (/[rRbBuUfF]/.test(text[i] ?? "") && i - at < 2) i++;
    const quote = text[i] as string;
    const triple = text.startsWith(quote.repeat(3), i);
    const close = triple ? quote.repeat(3) : quote;
    const raw = this.mode === "toml" ? quote === "'" : this.mode === "yaml" ? quote === "'" : /[rR]/.test(text.slice(at, i));
    const parts: string[] = [];
    const stop = raw ? null : STRING_STOPS[quote];
    let j = i + close.length;
    for (;;) {
      // The next quote or backslash, in one native search from here: a string is read in time linear in its length.
      let end: number;
      if (stop) {
        stop.lastIndex = j;
        end = stop.exec(text)?.index ?? -1;
      } else end = text.indexOf(quote, j);
      if (end === -1) throw new LiteralError(at, []);
      if (text.charCodeAt(end) === 0x5c) {
        parts.push(text.slice(j, end));
        const { decoded, length } = escapeAt(text, end);
        parts.push(decoded);
        j = end + length;
        continue;
      }
      if (triple && !text.startsWith(close, end)) {
        parts.push(text.slice(j, end + 1));
        j = end + 1;
        continue;
      }
      parts.push(text.slice(j, end));
      // YAML's single quotes write a quote as two.
      if (this.mode === "yaml" && quote === "'" && !triple && text.charCodeAt(end + 1) === 0x27) {
        parts.push("'");
        j = end + 2;
        continue;
      }
      const value = parts.join("");
      if (quote === "`" && value.includes("${")) throw new LiteralError(at, []);
      return { value, end: end + close.length };
    }
  }

  /** A number, a word or (in YAML) a plain scalar at `i`. */
  word(i: number): LiteralRead {
    const text = this.text;
    if (this.mode === "yaml") return this.plain(i);
    let j = i;
    const c = text.charCodeAt(j);
    if (c === 0x2b || c === 0x2d) j++;
    if (isIdentStart(text.charCodeAt(j)) || text.charCodeAt(j) === 0x2e || isDigit(text.charCodeAt(j))) {
      let k = j;
      const part = this.mode === "toml" ? isTomlNumberPart : isNumberPart;
      while (k < text.length && (part(text.charCodeAt(k)) || ((text.charCodeAt(k) === 0x2b || text.charCodeAt(k) === 0x2d) && /[eE]/.test(text[k - 1] ?? "")))) k++;
      const token = text.slice(j, k);
      if (WORDS[this.mode].has(token)) return { value: WORDS[this.mode].get(token), end: k };
      if ((isDigit(text.charCodeAt(j)) || text.charCodeAt(j) === 0x2e) && k - j < MAX_NUMBER_CHARS) return { value: Number.isNaN(Number(token)) ? 0 : Number(token), end: k };
    }
    throw new LiteralError(i, []);
  }

  /** YAML's plain scalar in flow style: up to a comma, a bracket, a brace, ": " or " #". */
  private plain(i: number): LiteralRead {
    const text = this.text;
    if ("[]{},#&*!|>'\"%@`".includes(text[i] ?? ",")) throw new LiteralError(i, []);
    let j = i;
    for (; j < text.length; j++) {
      const c = text.charCodeAt(j);
      if (c === 0x2c || c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d) break;
      if (c === 0x3a && (isSpace(text.charCodeAt(j + 1)) || j + 1 === text.length || ",[]{}".includes(text[j + 1] as string))) break;
      if (c === 0x23 && isSpace(text.charCodeAt(j - 1))) break;
    }
    return { value: plainValue(text.slice(i, j).replace(/\s+/g, " ")), end: j };
  }

  /** A member name: quoted, a word, a number; in TOML dotted, in YAML a plain scalar. */
  key(i: number): { key: string[]; end: number } {
    const text = this.text;
    const c = text.charCodeAt(i);
    // A Ruby symbol as a name, as Hash#inspect writes it before Ruby 3.4 ({:session_id=>"..."}, {:"a b"=>1}).
    if (c === 0x3a && this.mode === "literal" && i + 1 < text.length && text.charCodeAt(i + 1) !== 0x3a) return this.key(i + 1);
    if (c === 0x22 || c === 0x27 || c === 0x60 || (this.mode === "literal" && isPrefixedString(text, i))) {
      const s = this.string(i);
      return this.mode === "toml" ? this.dotted([String(s.value)], s.end) : { key: [String(s.value)], end: s.end };
    }
    if (this.mode === "yaml") {
      const p = this.plain(i);
      return { key: [text.slice(i, p.end).trim()], end: p.end };
    }
    let j = i;
    const part = this.mode === "toml" ? isBareKeyPart : isIdentPart;
    while (j < text.length && part(text.charCodeAt(j))) j++;
    if (j === i) throw new LiteralError(i, []);
    return this.mode === "toml" ? this.dotted([text.slice(i, j)], j) : { key: [text.slice(i, j)], end: j };
  }

  private dotted(first: string[], end: number): { key: string[]; end: number } {
    const i = this.skip(end);
    if (this.text.charCodeAt(i) !== 0x2e) return { key: first, end };
    const next = this.key(this.skip(i + 1));
    return { key: [...first, ...next.key], end: next.end };
  }

  /** The separator between a member name and its value: ':' (also '=>'), '=' in TOML; where the value starts. */
  separator(i: number): number {
    const text = this.text;
    if (this.mode === "toml") {
      if (text.charCodeAt(i) === 0x3d) return i + 1;
    } else if (text.charCodeAt(i) === 0x3a) return i + 1;
    else if (this.mode === "literal" && text.startsWith("=>", i)) return i + 2;
    throw new LiteralError(i, []);
  }
}

/** A Python string with its prefix at `i`: u'...', b"...", r'...', rb'...'. */
function isPrefixedString(text: string, i: number): boolean {
  return /^[rRbBuUfF]{1,2}["']/.test(text.slice(i, i + 3)) && !isIdentPart(text.charCodeAt(i - 1));
}

/** One escape of a quoted string, read leniently: JSON's, JavaScript's and Python's. */
export function escapeAt(text: string, at: number): { decoded: string; length: number } {
  const e = text[at + 1] ?? "";
  const simple: Record<string, string> = { n: "\n", r: "\r", t: "\t", b: "\b", f: "\f", v: "\v", "0": "\0", "\n": "" };
  if (simple[e] !== undefined) return { decoded: simple[e], length: 2 };
  const hex = (from: number, n: number): string | null => (/^[0-9a-fA-F]+$/.test(text.slice(from, from + n)) && text.length >= from + n ? text.slice(from, from + n) : null);
  const code = e === "x" ? hex(at + 2, 2) : e === "u" ? hex(at + 2, 4) : e === "U" ? hex(at + 2, 8) : null;
  if (code !== null && Number.parseInt(code, 16) <= 0x10ffff) return { decoded: String.fromCodePoint(Number.parseInt(code, 16)), length: 2 + code.length };
  return { decoded: e, length: 2 };
}

function nullObject(): Record<string, unknown> {
  return Object.create(null) as Record<string, unknown>;
}

/** Sets a member of an object read from a text, a dotted TOML name as nested tables. */
export function setMember(target: Record<string, unknown>, key: string[], value: unknown): void {
  let at = target;
  for (const part of key.slice(0, -1)) at = tableIn(at, part, nullObject);
  putMember(at, key[key.length - 1] as string, value);
}

/** A TOML member name at `i` (spaces before it skipped): bare, quoted or dotted, as its parts. */
export function tomlKeyAt(text: string, i: number): { key: string[]; end: number } {
  const reader = new LiteralReader(text, "toml");
  return reader.key(reader.skip(i));
}

/** Every value the open containers of a failed read hold, each complete. */
function completedIn(stack: Frame[]): unknown[] {
  return stack.flatMap((f) => (Array.isArray(f.value) ? f.value : Object.values(f.value)));
}

/**
 * Reads one literal value starting at `start` (an object, an array or a scalar) and returns it
 * and where it ends; throws LiteralError where the text stops being a literal, carrying the
 * values it completed before then.
 */
export function readLiteral(text: string, start: number, mode: LiteralMode, maxDepth = 512): LiteralRead {
  const reader = new LiteralReader(text, mode);
  const stack: Frame[] = [];
  const pendingKeys: (string[] | null)[] = [];
  let root: unknown;
  const attach = (value: unknown): void => {
    const top = stack[stack.length - 1];
    if (!top) root = value;
    else if (Array.isArray(top.value)) top.value.push(value);
    else setMember(top.value, pendingKeys[pendingKeys.length - 1] as string[], value);
    if (top) top.count++;
  };
  const open = (i: number): number => {
    const c = text.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) {
      if (stack.length >= maxDepth) throw new LiteralError(i, []);
      stack.push({ closer: c === 0x7b ? 0x7d : 0x5d, value: c === 0x7b ? nullObject() : [], count: 0 });
      pendingKeys.push(null);
      return i + 1;
    }
    const quoted = c === 0x22 || c === 0x27 || c === 0x60 || (mode === "literal" && isPrefixedString(text, i));
    const read = quoted ? reader.string(i) : reader.word(i);
    attach(read.value);
    return read.end;
  };
  try {
    let i = open(start);
    while (stack.length > 0) i = step(text, reader, stack, pendingKeys, i, open, attach);
    return { value: root, end: i, braceInComment: reader.braceInComment };
  } catch (err) {
    if (!(err instanceof LiteralError)) throw err;
    throw new LiteralError(err.offset, completedIn(stack), reader.braceInComment);
  }
}

/** One step inside the innermost open container: its closer, a separator, a member name, or the next value. */
function step(text: string, reader: LiteralReader, stack: Frame[], pendingKeys: (string[] | null)[], from: number, open: (i: number) => number, attach: (v: unknown) => void): number {
  const frame = stack[stack.length - 1] as Frame;
  let i = reader.skip(from);
  if (text.charCodeAt(i) === frame.closer) {
    stack.pop();
    pendingKeys.pop();
    attach(frame.value);
    return i + 1;
  }
  if (frame.count > 0) {
    if (text.charCodeAt(i) !== 0x2c) throw new LiteralError(i, []);
    i = reader.skip(i + 1);
    if (text.charCodeAt(i) === frame.closer) return i;
  }
  if (i >= text.length) throw new LiteralError(i, []);
  if (Array.isArray(frame.value)) return open(i);
  const { key, end } = reader.key(i);
  pendingKeys[pendingKeys.length - 1] = key;
  i = reader.skip(end);
  // YAML's flow style lets a name stand without a value: {a, b: 1}.
  if (reader.mode === "yaml" && (text.charCodeAt(i) === 0x2c || text.charCodeAt(i) === frame.closer)) {
    attach(null);
    return i;
  }
  return open(reader.skip(reader.separator(i)));
}

/**
 * Every object literal standing in a text: each opening brace is read in turn; a value read whole
 * is taken and the search goes on after it; where a read fails, the values it completed are
 * taken and the search goes on where it failed (every container still open there fails there
 * too), so the text is read once. `spent` counts the characters read; `json` gives the end of
 * each JSON value read already, by where it starts, which is not read again.
 */
export function literalObjects(text: string, spent: { chars: number }, json: Map<number, number>): { value: unknown; at: number }[] {
  const found: { value: unknown; at: number }[] = [];
  for (let at = text.indexOf("{"); at !== -1; ) {
    let next: number;
    let inComment: number;
    const jsonEnd = json.get(at);
    if (jsonEnd !== undefined) {
      at = text.indexOf("{", jsonEnd);
      continue;
    }
    try {
      const read = readLiteral(text, at, "literal");
      found.push({ value: read.value, at });
      next = read.end;
      inComment = read.braceInComment ?? -1;
    } catch (err) {
      if (!(err instanceof LiteralError)) throw err;
      for (const value of err.completed) found.push({ value, at });
      next = Math.max(err.offset, at + 1);
      inComment = err.braceInComment;
    }
    spent.chars += next - at;
    // A brace in a comment the read passed over is read in its turn.
    if (inComment > at && inComment < next) next = inComment;
    at = text.indexOf("{", next);
  }
  return found;
}
