import { plainValue, setMember } from "./literal.js";

// Members written as name=value pairs: a structured log line (logfmt: `time=... level=info
// hook_event_name=Stop session_id=...`, values in double quotes with backslash escapes or in
// single quotes), lines of pairs one under another (an .env or .properties file, `export` before
// each or not, blank lines and `#` comments among them), and a form's or a query's body
// (`name=value&name=value`, `;` between pairs too, percent-encoded, in quotes or after a URL's `?`).
// A dotted name, or one in brackets as a form writes it (`tool_input[command]`), is a nested member.
//
// A line is read from its first pair on: a prefix (a time, a level, `export`) may stand before it,
// and a `#` comment after it, but any other word after its first pair makes it a command behind
// the variables it sets (`hook_event_name=Stop node hook.js`) or prose, not data. A form is data
// wherever it stands, one object of its own. An object of fewer than two pairs is not read. A word
// without quotes is a value where a YAML word would be (plainValue), or where it is a path. One
// pass over the lines; each word is read once.

/** A member name of a pair: a letter or an underscore first, then letters, digits, `_`, `-` and `.` (a nested member). */
const NAME = /^[A-Za-z_][\w.-]*$/;
/** A word without quotes that is a path: a host's `cwd` or `transcript_path`, in any letters, POSIX or Windows. */
const PATH = /^(?:[/~]|[A-Za-z]:[\\/])\S*$/;
/** A form's or a query's body as one word: in quotes or after a URL's `?` or not, name=value joined by `&` or `;`. */
const FORM = /['"]?(?:[^\s?'"]*\?)?([A-Za-z_%][\w.%[\]-]*=[^\s&;'"]*(?:[&;][A-Za-z_%][\w.%[\]-]*=[^\s&;'"]*)+)['"]?/y;
/** Words before a line's pairs that keep it a line of pairs among others (an .env file's). */
const DECLARING = new Set(["export", "set", "declare", "local", "readonly", "setenv"]);
/** Fewer pairs than this make no object. */
const MIN_PAIRS = 2;

interface Pair {
  name: string[];
  value: unknown;
}

/** A word of a line: a pair, a form's pairs, or neither (null); and where it ends. */
type Word = { kind: "pair"; pair: Pair; end: number } | { kind: "form"; pairs: Pair[]; end: number } | { kind: "other"; end: number };

/** The value a word without quotes stands for, as a YAML word is read, or a path; undefined where neither. */
function bareValue(word: string): unknown {
  const plain = plainValue(word);
  return plain !== undefined ? plain : PATH.test(word) ? word : undefined;
}

/** A quoted value from `at` (double quotes: escapes as JSON's; single quotes: none), and where it ends; null where it never closes. */
function quotedAt(line: string, at: number): { value: string; end: number } | null {
  const quote = line.charCodeAt(at);
  for (let k = at + 1; k < line.length; k++) {
    const c = line.charCodeAt(k);
    if (c === 0x5c && quote === 0x22) k++;
    else if (c === quote) {
      const raw = line.slice(at, k + 1);
      if (quote === 0x27) return { value: raw.slice(1, -1), end: k + 1 };
      try {
        return { value: JSON.parse(raw) as string, end: k + 1 };
      } catch {
        return { value: raw.slice(1, -1), end: k + 1 };
      }
    }
  }
  return null;
}

/** Percent-encoding undone, a `+` as a space; the text as it is where an escape is broken. */
function formDecoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}

/** A form's pairs, each name and value percent-decoded, a name in brackets as its parts (a[b][c]); a value that is no word is a string as it is. */
function formPairs(body: string): Pair[] {
  return body.split(/[&;]/).map((p) => {
    const cut = p.indexOf("=");
    const value = formDecoded(p.slice(cut + 1));
    const name = formDecoded(p.slice(0, cut)).split(/[.[\]]+/).filter((n) => n !== "");
    return { name, value: bareValue(value) ?? value };
  });
}

/**
 * The word from `at` (spaces skipped before it). `unclosed` holds each quote that opened a value
 * and never closed: no quote of its kind after it closes either, so the line is not read to its
 * end again for each one.
 */
function wordAt(line: string, at: number, unclosed: Set<string>): Word {
  const isSpace = (k: number): boolean => k >= line.length || line[k] === " " || line[k] === "\t";
  const rest = (k: number): Word => {
    while (!isSpace(k)) k++;
    return { kind: "other", end: k };
  };
  FORM.lastIndex = at;
  const form = FORM.exec(line);
  if (form !== null && isSpace(form.index + form[0].length)) return { kind: "form", pairs: formPairs(form[1] as string), end: form.index + form[0].length };
  let end = at;
  while (!isSpace(end) && line[end] !== "=") end++;
  const name = line.slice(at, end);
  if (line[end] !== "=" || !NAME.test(name)) return rest(end);
  const quote = line[end + 1];
  if ((quote === '"' || quote === "'") && !unclosed.has(quote)) {
    const quoted = quotedAt(line, end + 1);
    // A quoted value ends its word: one glued to more (a="b"c) is no pair, and the word is passed over whole.
    if (quoted !== null) return isSpace(quoted.end) ? { kind: "pair", pair: { name: name.split("."), value: quoted.value }, end: quoted.end } : rest(quoted.end);
    unclosed.add(quote);
  }
  let valueEnd = end + 1;
  while (!isSpace(valueEnd)) valueEnd++;
  return { kind: "pair", pair: { name: name.split("."), value: bareValue(line.slice(end + 1, valueEnd)) }, end: valueEnd };
}

/** What a line holds: its pairs where it is a line of pairs (and whether another word stands before them), and the forms in it wherever they stand. */
function lineWords(line: string): { pairs: Pair[] | null; prefixed: boolean; forms: Pair[][] } {
  const pairs: Pair[] = [];
  const forms: Pair[][] = [];
  let prefixed = false;
  let broken = false;
  const unclosed = new Set<string>();
  for (let at = 0; at < line.length; ) {
    if (line[at] === " " || line[at] === "\t") {
      at++;
      continue;
    }
    // A comment runs to the line's end.
    if (line[at] === "#" && (at === 0 || line[at - 1] === " " || line[at - 1] === "\t")) break;
    const word = wordAt(line, at, unclosed);
    if (word.kind === "form") forms.push(word.pairs);
    else if (word.kind === "pair") pairs.push(word.pair);
    else if (pairs.length > 0) broken = true;
    else if (!DECLARING.has(line.slice(at, word.end))) prefixed = true;
    at = word.end;
  }
  return { pairs: pairs.length > 0 && !broken ? pairs : null, prefixed, forms };
}

function nullObject(): Record<string, unknown> {
  return Object.create(null) as Record<string, unknown>;
}

type Found = { value: Record<string, unknown>; at: number };

/** The pairs as one object, where there are enough of them. */
function objectOf(pairs: Pair[], at: number, into: Found[]): void {
  if (pairs.length < MIN_PAIRS) return;
  const value = nullObject();
  for (const p of pairs) if (p.value !== undefined && p.name.length > 0) setMember(value, p.name, p.value);
  into.push({ value, at });
}

/** Each object a text writes as name=value pairs, and where its first line starts. */
export function pairObjects(text: string): Found[] {
  const out: Found[] = [];
  let group: { pairs: Pair[]; at: number } | null = null;
  const close = (): void => {
    if (group !== null) objectOf(group.pairs, group.at, out);
    group = null;
  };
  for (let at = 0; at < text.length; ) {
    const nl = text.indexOf("\n", at);
    const end = nl === -1 ? text.length : nl;
    const line = text.slice(at, end).replace(/\r$/, "");
    const trimmed = line.trimStart();
    // Blank lines and comment lines stand among an .env file's pairs.
    if (trimmed !== "" && !trimmed.startsWith("#")) {
      const read = line.includes("=") ? lineWords(line) : { pairs: null, prefixed: false, forms: [] };
      for (const form of read.forms) objectOf(form, at, out);
      if (read.pairs === null || read.prefixed) close();
      if (read.pairs !== null && read.prefixed) objectOf(read.pairs, at, out);
      else if (read.pairs !== null) {
        group ??= { pairs: [], at };
        for (const p of read.pairs) group.pairs.push(p);
      }
    }
    at = end + 1;
  }
  close();
  return out;
}
