import { LiteralError, plainValue, readLiteral, setMember, tomlKeyAt } from "./literal.js";

// TOML wherever it stands in a text: `name = value` lines (quoted strings, numbers, booleans,
// arrays, inline tables; dotted names) are the members of the table a `[table]` or
// `[[array.of.tables]]` line opens, or of the document's own table before any; under a table
// line, a word without quotes is a value too, as an INI file writes it. A line that is none of
// these ends the document. A document starts at a table line, or at a member line that is not
// indented (an indented `name = "value"` is more likely code). One pass.

/** A document's table read from TOML lines, and where its first line starts. */
export interface TomlRoot {
  value: Record<string, unknown>;
  at: number;
}

function nullObject(): Record<string, unknown> {
  return Object.create(null) as Record<string, unknown>;
}

const isBlankTo = (text: string, from: number, end: number): boolean => {
  const rest = text.slice(from, end).trimStart();
  return rest === "" || rest.startsWith("#");
};

/** The table a `[a.b]` or `[[a.b]]` line opens under `root`; null where the line is not one. */
function tableLine(text: string, p: number, end: number, root: () => Record<string, unknown>): Record<string, unknown> | null {
  const double = text.startsWith("[[", p);
  try {
    const { key, end: keyEnd } = tomlKeyAt(text, p + (double ? 2 : 1));
    let j = keyEnd;
    while (j < end && text[j] === " ") j++;
    if (!text.startsWith(double ? "]]" : "]", j) || !isBlankTo(text, j + (double ? 2 : 1), end)) return null;
    let at = root();
    for (const part of key.slice(0, -1)) {
      const next = at[part];
      at = next !== null && typeof next === "object" ? (Array.isArray(next) ? (next[next.length - 1] as Record<string, unknown>) : (next as Record<string, unknown>)) : (at[part] = nullObject());
    }
    const last = key[key.length - 1] as string;
    const table = nullObject();
    if (double) {
      const list = Array.isArray(at[last]) ? (at[last] as unknown[]) : (at[last] = []);
      (list as unknown[]).push(table);
      return table;
    }
    const known = at[last];
    return known !== null && typeof known === "object" && !Array.isArray(known) ? (known as Record<string, unknown>) : (at[last] = table);
  } catch (err) {
    if (err instanceof LiteralError) return null;
    throw err;
  }
}

/** A TOML value at `j`; under a `[section]` line also an INI file's word without quotes (`name = Stop`), read as a YAML plain scalar is. */
function valueAt(text: string, j: number, end: number, ini: boolean): { value: unknown; end: number } {
  try {
    return readLiteral(text, j, "toml");
  } catch (err) {
    if (!(err instanceof LiteralError) || !ini) throw err;
    const line = text.slice(j, end);
    const comment = line.search(/\s[#;]/);
    return { value: plainValue(comment === -1 ? line : line.slice(0, comment)), end };
  }
}

/** A `name = value` line at `p`: the member set in `table`, and where the text it took ends; -1 where it is not one. */
function memberLine(text: string, p: number, end: number, table: () => Record<string, unknown>, charge: (chars: number) => void, ini: boolean): number {
  try {
    const { key, end: keyEnd } = tomlKeyAt(text, p);
    let j = keyEnd;
    while (j < end && (text[j] === " " || text[j] === "\t")) j++;
    const spaced = j > keyEnd || text[j + 1] === " " || text[j + 1] === "\t";
    // A shell's assignment (name="value") has no space around '='; TOML's has.
    if (text[j] !== "=" || !spaced) return -1;
    j++;
    while (j < end && (text[j] === " " || text[j] === "\t")) j++;
    if (j >= end) return -1;
    const read = valueAt(text, j, end, ini);
    charge(read.end - p);
    const lineEnd = text.indexOf("\n", read.end);
    if (!isBlankTo(text, read.end, lineEnd === -1 ? text.length : lineEnd)) return -1;
    setMember(table(), key, read.value);
    return read.end;
  } catch (err) {
    if (err instanceof LiteralError) {
      charge(err.offset - p);
      return -1;
    }
    throw err;
  }
}

/** Every TOML document standing in `text`, as its table, with the offset of its first line; `charge` counts what values read. */
export function tomlDocuments(text: string, charge: (chars: number) => void): TomlRoot[] {
  const roots: TomlRoot[] = [];
  let root: TomlRoot | null = null;
  let table: Record<string, unknown> | null = null;
  const rootAt = (at: number) => (): Record<string, unknown> => {
    if (root === null) roots.push((root = { value: nullObject(), at }));
    return root.value;
  };
  for (let start = 0; start < text.length; ) {
    const nl = text.indexOf("\n", start);
    const end = nl === -1 ? text.length : nl > start && text[nl - 1] === "\r" ? nl - 1 : nl;
    let p = start;
    while (p < end && (text[p] === " " || text[p] === "\t")) p++;
    let taken = end;
    if (p < end && text[p] !== "#") {
      const opened = text[p] === "[" ? tableLine(text, p, end, rootAt(start)) : null;
      if (opened) table = opened;
      else if (text[p] !== "[" && (root !== null || p === start)) {
        taken = memberLine(text, p, end, () => table ?? rootAt(start)(), charge, table !== null);
      } else taken = -1;
      if (taken === -1) {
        root = null;
        table = null;
        taken = end;
      }
    }
    const next = text.indexOf("\n", Math.max(taken, start));
    start = next === -1 ? text.length : next + 1;
  }
  return roots;
}
