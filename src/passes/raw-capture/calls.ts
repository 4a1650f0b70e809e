import { LiteralError, readLiteral } from "./literal.js";

// Members written as code that is not a literal: Python's dict(name=value, ...), whose names stand
// bare and whose values are literals; and SQL's INSERT INTO t (a, b) VALUES ('x', 'y'), a row of
// values under a row of column names. Each is read once, left to right; what it cannot read ends
// the object there, with the members read before.

/** Fewer members than this make no object. */
const MIN_MEMBERS = 2;
const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;

/** Blanks, line breaks and `#` comments from `i`. */
function skipPython(text: string, from: number): number {
  let i = from;
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) i++;
    else if (c === 0x23) {
      const nl = text.indexOf("\n", i);
      i = nl === -1 ? text.length : nl + 1;
    } else return i;
  }
}

/** The members of one dict( call whose `(` stands before `open`: each name=literal until `)` or what no literal reads. */
function dictMembers(text: string, open: number): Record<string, unknown> {
  const members = Object.create(null) as Record<string, unknown>;
  for (let i = skipPython(text, open); i < text.length; ) {
    NAME.lastIndex = i;
    const name = NAME.exec(text)?.[0];
    if (name === undefined) break;
    const eq = skipPython(text, i + name.length);
    if (text.charCodeAt(eq) !== 0x3d || text.charCodeAt(eq + 1) === 0x3d) break;
    try {
      const read = readLiteral(text, skipPython(text, eq + 1), "literal");
      members[name] = read.value;
      i = skipPython(text, read.end);
    } catch (err) {
      if (!(err instanceof LiteralError)) throw err;
      break;
    }
    if (text.charCodeAt(i) !== 0x2c) break;
    i = skipPython(text, i + 1);
  }
  return members;
}

const DICT_CALL = /(?<![\w.])dict\s*\(/g;

/** Each object Python writes as dict(name=value, ...), and where its call starts. */
export function keywordCalls(text: string): { value: Record<string, unknown>; at: number }[] {
  const out: { value: Record<string, unknown>; at: number }[] = [];
  for (const m of text.matchAll(DICT_CALL)) {
    const value = dictMembers(text, m.index + m[0].length);
    if (Object.keys(value).length >= MIN_MEMBERS) out.push({ value, at: m.index });
  }
  return out;
}

/** A column's name as SQL quotes it or not: "a", `a`, [a], a. */
const COLUMN = /^\s*(?:"([^"]{1,128})"|`([^`]{1,128})`|\[([^\]]{1,128})\]|([A-Za-z_][A-Za-z0-9_.]{0,127}))\s*$/;
const INSERT = /\binsert\s+(?:or\s+\w+\s+)?into\s+[^(;]{1,256}?\(([^()]{1,8192})\)\s*values\s*/gi;

/** One SQL value from `i`: a string in single or double quotes (a doubled quote one), a number, NULL, TRUE or FALSE; where it ends. A placeholder (?, $1, :name, %s) or a call is code, no value: null. */
function sqlValue(text: string, from: number): { value: unknown; end: number } | null {
  const i = skipPython(text, from);
  const q = text[i];
  if (q === "'" || q === '"') {
    let value = "";
    for (let k = i + 1; k < text.length; k++) {
      if (text[k] === "\\" && q === "'" && k + 1 < text.length) value += text[++k];
      else if (text[k] !== q) value += text[k];
      else if (text[k + 1] === q) value += text[++k];
      else return { value, end: k + 1 };
    }
    return null;
  }
  const token = /[^,()\s]+/y;
  token.lastIndex = i;
  const word = token.exec(text)?.[0];
  if (word === undefined) return null;
  const upper = word.toUpperCase();
  if (upper === "NULL" || upper === "TRUE" || upper === "FALSE") return { value: upper === "NULL" ? null : upper === "TRUE", end: i + word.length };
  return /^-?\d+(?:\.\d+)?$/.test(word) ? { value: Number(word), end: i + word.length } : null;
}

/** The rows of values after VALUES, from `from`: each row's values, until what does not read as one. */
function sqlRowsAt(text: string, from: number, width: number): unknown[][] {
  const rows: unknown[][] = [];
  for (let i = skipPython(text, from); text[i] === "("; ) {
    const row: unknown[] = [];
    let k = i + 1;
    for (;;) {
      const v = sqlValue(text, k);
      if (v === null) return rows;
      row.push(v.value);
      k = skipPython(text, v.end);
      if (text[k] === ",") k++;
      else if (text[k] === ")") break;
      else return rows;
    }
    if (row.length === width) rows.push(row);
    i = skipPython(text, k + 1);
    if (text[i] !== ",") break;
    i = skipPython(text, i + 1);
  }
  return rows;
}

/** Each row SQL inserts under named columns, as an object, and where its statement starts. */
export function sqlRows(text: string): { value: Record<string, unknown>; at: number }[] {
  const out: { value: Record<string, unknown>; at: number }[] = [];
  for (const m of text.matchAll(INSERT)) {
    const columns = (m[1] as string).split(",").map((c) => COLUMN.exec(c)).map((c) => (c === null ? null : (c[1] ?? c[2] ?? c[3] ?? c[4]) as string));
    if (columns.length < MIN_MEMBERS || columns.some((c) => c === null)) continue;
    for (const row of sqlRowsAt(text, m.index + m[0].length, columns.length)) {
      const value = Object.create(null) as Record<string, unknown>;
      columns.forEach((c, k) => (value[c as string] = row[k]));
      out.push({ value, at: m.index });
    }
  }
  return out;
}
