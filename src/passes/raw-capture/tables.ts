import { LiteralError, readLiteral, setMember } from "./literal.js";

// Members written as a table: a row of member names and rows of values under it, as a
// spreadsheet, pandas' to_csv or a Markdown table writes a capture (cells apart by commas, tabs,
// semicolons or bars; CSV's double quotes, `""` standing for one quote, a cell's line breaks
// inside them; a Markdown table's outer bars and its `---` row passed over, `\|` a bar in a cell; an index column with
// no name left out); or a table of two columns, a member's name and its value on each row (a
// Series written out, a table turned on its side), where cells stand apart by commas, tabs or
// semicolons, or by bars under a Markdown head whose second column's title says it holds values. A dotted name ("tool_input.command", as json_normalize flattens) is a nested member.
// A cell that reads whole as a JSON, JavaScript or Python literal is that value; any other, its
// text. An empty cell is no member. One pass over the text for each separator it holds.

/** A member name in a table's first row: a letter or an underscore first, then letters, digits, `_`, `-` and `.` (a nested member). */
const NAME = /^[A-Za-z_][\w.-]*$/;
/** What stands between cells, as char codes: a comma, a tab, a semicolon, a bar. */
const SEPARATORS = [0x2c, 0x09, 0x3b, 0x7c];
const BAR = 0x7c;
/** A Markdown table's row between its names and its values: dashes, a colon at either end or not. */
const RULE_CELL = /^:?-{3,}:?$/;
/** Fewer members than this make no object. */
const MIN_MEMBERS = 2;

interface Row {
  cells: string[];
  at: number;
}

type Found = { value: Record<string, unknown>; at: number };

/** A cell in double quotes from `at` (its quote): its text, `""` read as one quote, and where the closing quote ends; null where none closes. */
function quotedCell(text: string, at: number): { value: string; end: number } | null {
  let value = "";
  for (let from = at + 1; ; ) {
    const close = text.indexOf('"', from);
    if (close === -1) return null;
    value += text.slice(from, close);
    if (text.charCodeAt(close + 1) !== 0x22) return { value, end: close + 1 };
    value += '"';
    from = close + 2;
  }
}

/** Where the cell starting at `at` ends: at the next separator or line break; a bar after a backslash is a Markdown cell's own. */
function plainEnd(text: string, at: number, sep: number): number {
  let k = at;
  while (k < text.length) {
    const c = text.charCodeAt(k);
    if (c === sep || c === 0x0a) break;
    k += sep === BAR && c === 0x5c && text.charCodeAt(k + 1) === BAR ? 2 : 1;
  }
  return k;
}

/** A Markdown table's line: its outer bars start and end no cell. */
function withoutOuterBars(cells: string[]): string[] {
  const from = cells[0]?.trim() === "" ? 1 : 0;
  const to = cells.length > from && cells[cells.length - 1]?.trim() === "" ? cells.length - 1 : cells.length;
  return cells.slice(from, to);
}

/** The rows of a text, its cells apart by `sep`; a blank line is a row of one empty cell. */
function rowsOf(text: string, sep: number): Row[] {
  const rows: Row[] = [];
  let cells: string[] = [];
  let rowAt = 0;
  for (let at = 0; at <= text.length; ) {
    let k = at;
    while (text.charCodeAt(k) === 0x20) k++;
    const quoted = text.charCodeAt(k) === 0x22 ? quotedCell(text, k) : null;
    // What stands after a closing quote, up to the separator, is the cell's too.
    const end = plainEnd(text, quoted ? quoted.end : at, sep);
    cells.push(quoted ? quoted.value + text.slice(quoted.end, end) : text.slice(at, end));
    if (text.charCodeAt(end) === sep) {
      at = end + 1;
      continue;
    }
    const last = cells.length - 1;
    cells[last] = (cells[last] as string).replace(/\r$/, "");
    rows.push({ cells: sep === BAR ? withoutOuterBars(cells).map((c) => c.replace(/\\\|/g, "|")) : cells, at: rowAt });
    cells = [];
    at = end + 1;
    rowAt = at;
  }
  return rows;
}

/** A cell's value: a literal it reads whole as, or its text; undefined where it is empty. */
function cellValue(cell: string): unknown {
  const text = cell.trim();
  if (text === "") return undefined;
  if (text.startsWith("{") || text.startsWith("[")) {
    try {
      const read = readLiteral(text, 0, "literal");
      if (read.end === text.length) return read.value;
    } catch (err) {
      if (!(err instanceof LiteralError)) throw err;
    }
  }
  return text;
}

/** The member names of a row where every cell is one (an empty cell, an index column's, stands for none): null where it is not a row of names. */
function namesOf(cells: string[]): (string[] | null)[] | null {
  const names = cells.map((c) => c.trim());
  if (names.filter((n) => n !== "").length < MIN_MEMBERS || !names.every((n) => n === "" || NAME.test(n))) return null;
  return names.map((n) => (n === "" ? null : n.split(".")));
}

/** An object of members and their values, where enough of them have one. */
function objectOf(members: [string[] | null, unknown][], at: number, into: Found[]): void {
  const present = members.filter((m): m is [string[], unknown] => m[0] !== null && m[1] !== undefined);
  if (present.length < MIN_MEMBERS) return;
  const value = Object.create(null) as Record<string, unknown>;
  for (const [name, v] of present) setMember(value, name, v);
  into.push({ value, at });
}

/** The rows under a row of names (row `i`, its `names`), each an object, and where they end; a Markdown table's `---` row passed over. */
function underNames(rows: Row[], i: number, names: (string[] | null)[], sep: number, into: Found[]): number {
  const header = rows[i] as Row;
  let j = i + 1;
  if (sep === BAR && rows[j]?.cells.every((c) => RULE_CELL.test(c.trim()))) j++;
  for (; j < rows.length && (rows[j] as Row).cells.length === names.length; j++) {
    objectOf(names.map((n, k) => [n, cellValue((rows[j] as Row).cells[k] as string)]), header.at, into);
  }
  return j;
}

/** Rows of two cells from `i`, a member's name and its value on each, as one object, and where they end. */
function sideways(rows: Row[], i: number, into: Found[]): number {
  let j = i;
  const members: [string[] | null, unknown][] = [];
  for (; j < rows.length; j++) {
    const [name, value] = (rows[j] as Row).cells;
    if ((rows[j] as Row).cells.length !== 2 || !NAME.test((name as string).trim())) break;
    members.push([(name as string).trim().split("."), cellValue(value as string)]);
  }
  objectOf(members, (rows[i] as Row).at, into);
  return j;
}

/** The title of a column that holds values (field | value), not what each member means (member | description). */
const VALUE_TITLE = /^(?:values?|val)$/i;

/** Whether row `i` heads a Markdown table of two columns, its second titled as values, the `---` row under it. */
function holdsValues(rows: Row[], i: number): boolean {
  const [head, rule] = [(rows[i] as Row).cells, (rows[i + 1] as Row).cells];
  return head.length === 2 && VALUE_TITLE.test((head[1] as string).trim()) && rule.length === 2 && rule.every((c) => RULE_CELL.test(c.trim()));
}

/** Each object a text writes as a table, and where its row of names (or its first row) starts. */
export function tableObjects(text: string): Found[] {
  const out: Found[] = [];
  for (const sep of SEPARATORS) {
    if (!text.includes(String.fromCharCode(sep))) continue;
    const rows = rowsOf(text, sep);
    for (let i = 0; i < rows.length; ) {
      const names = namesOf((rows[i] as Row).cells);
      i = names === null ? i + 1 : Math.max(i + 1, underNames(rows, i, names, sep, out));
    }
    // A Markdown table of two columns is as often a list of members and what each means: only data
    // separators turn a table on its side, or a Markdown table whose second column's title says it holds values.
    if (sep !== BAR) for (let i = 0; i < rows.length; ) i = Math.max(i + 1, sideways(rows, i, out));
    else for (let i = 0; i + 2 < rows.length; i++) if (holdsValues(rows, i)) i = sideways(rows, i + 2, out) - 1;
  }
  return out;
}
