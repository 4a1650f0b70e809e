import { pushAll } from "../../collections.js";
import { plainValue, setMember } from "./literal.js";

// Members written as name=value pairs: a structured log line (logfmt: `time=... level=info
// hook_event_name=Stop session_id=...`, quoted values with backslash escapes), a form's or a
// query's body (`name=value&name=value`, percent-encoded), and lines of one pair or more each (an
// .env or .properties file). A dotted name is a nested member (`properties.info.id=ses_1`).
//
// A line is read from its first pair on: a prefix (a time, a level, `export`) may stand before it.
// Where other words stand after the first pair too, three pairs or more make it data; fewer are a
// command behind the variables it sets (`hook_event_name=Stop node hook.js`) or prose. Lines of
// pairs alone one under another are one object; a line with other words is one of its own. An
// object of fewer than two pairs is not read. A word without quotes is a value where a YAML word
// would be (plainValue), or where it is a path. One pass over the lines.

/** A member name of a pair: a letter or an underscore first, then letters, digits, `_`, `-` and `.` (a nested member). */
const NAME = /^[A-Za-z_][\w.-]*$/;
/** A word without quotes that is a path: a host's `cwd` or `transcript_path`. */
const PATH = /^[/~][\w.:/@+~-]*$/;
/** A form's or a query's body, a URL's before it or not: name=value joined by `&`, as one word of a line. */
const FORM = /(?:[^\s?]*\?)?([A-Za-z_][\w.-]*=[^\s&]*(?:&[A-Za-z_][\w.-]*=[^\s&]*)+)/y;
/** Fewer pairs than this make no object. */
const MIN_PAIRS = 2;
/** Pairs a line must hold to be read where other words stand after its first pair. */
const MIN_MIXED_PAIRS = 3;

interface Pair {
  name: string;
  value: unknown;
}

/** A word of a line: its pairs (one, or a form's), or none where it is something else; and where it ends. */
type Word = { pairs: Pair[] | null; end: number };

/** The value a word without quotes stands for, as a YAML word is read, or a path; undefined where neither. */
function bareValue(word: string): unknown {
  const plain = plainValue(word);
  return plain !== undefined ? plain : PATH.test(word) ? word : undefined;
}

/** A double-quoted value from `at` (its escapes as JSON's), and where it ends; null where it never closes. */
function quotedAt(line: string, at: number): { value: string; end: number } | null {
  for (let k = at + 1; k < line.length; k++) {
    const c = line.charCodeAt(k);
    if (c === 0x5c) k++;
    else if (c === 0x22) {
      const raw = line.slice(at, k + 1);
      try {
        return { value: JSON.parse(raw) as string, end: k + 1 };
      } catch {
        return { value: raw.slice(1, -1), end: k + 1 };
      }
    }
  }
  return null;
}

/**
 * The word from `at` (spaces skipped before it). `open` is set once a quoted value never closes:
 * no quote after it closes either, so the line is not read to its end again for each one.
 */
function wordAt(line: string, at: number, open: { unclosed: boolean }): Word {
  const isSpace = (k: number): boolean => k >= line.length || line[k] === " " || line[k] === "\t";
  const rest = (k: number): Word => {
    while (!isSpace(k)) k++;
    return { pairs: null, end: k };
  };
  FORM.lastIndex = at;
  const form = FORM.exec(line);
  if (form !== null && (form.index + form[0].length === line.length || /[ \t]/.test(line[form.index + form[0].length] as string))) {
    return { pairs: formPairs(form[1] as string), end: form.index + form[0].length };
  }
  let end = at;
  while (end < line.length && line[end] !== " " && line[end] !== "\t" && line[end] !== "=") end++;
  const name = line.slice(at, end);
  if (line[end] !== "=" || !NAME.test(name)) return rest(end);
  if (line[end + 1] === '"' && !open.unclosed) {
    const quoted = quotedAt(line, end + 1);
    // A quoted value ends its word: one glued to more (a="b"c) is no pair, and the word is passed over whole.
    if (quoted !== null) return isSpace(quoted.end) ? { pairs: [{ name, value: quoted.value }], end: quoted.end } : rest(quoted.end);
    open.unclosed = true;
  }
  let valueEnd = end + 1;
  while (valueEnd < line.length && line[valueEnd] !== " " && line[valueEnd] !== "\t") valueEnd++;
  return { pairs: [{ name, value: bareValue(line.slice(end + 1, valueEnd)) }], end: valueEnd };
}

/** Percent-encoding undone, a `+` as a space; the text as it is where an escape is broken. */
function formDecoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}

/** A form's pairs, each name and value percent-decoded; a value that is no word is a string as it is. */
function formPairs(body: string): Pair[] {
  return body.split("&").map((p) => {
    const cut = p.indexOf("=");
    const value = formDecoded(p.slice(cut + 1));
    return { name: formDecoded(p.slice(0, cut)), value: bareValue(value) ?? value };
  });
}

/** A line's pairs and whether a prefix stands before them; null where the line is no line of pairs. */
function linePairs(line: string): { pairs: Pair[]; prefixed: boolean } | null {
  const pairs: Pair[] = [];
  let prefixed = false;
  let mixed = false;
  const open = { unclosed: false };
  for (let at = 0; at < line.length; ) {
    if (line[at] === " " || line[at] === "\t") {
      at++;
      continue;
    }
    const word = wordAt(line, at, open);
    at = word.end;
    if (word.pairs !== null) pushAll(pairs, word.pairs);
    else if (pairs.length > 0) mixed = true;
    else prefixed = true;
  }
  // Words after the pairs too: a command behind variables it sets (`a=1 b=2 node hook.js`), unless three pairs or more say it is data.
  if (pairs.length === 0 || (mixed && pairs.length < MIN_MIXED_PAIRS)) return null;
  return { pairs, prefixed: prefixed || mixed };
}

function nullObject(): Record<string, unknown> {
  return Object.create(null) as Record<string, unknown>;
}

/** Each object a text writes as name=value pairs, and where its first line starts. */
export function pairObjects(text: string): { value: Record<string, unknown>; at: number }[] {
  const out: { value: Record<string, unknown>; at: number }[] = [];
  let open: { value: Record<string, unknown>; at: number; count: number } | null = null;
  const close = (): void => {
    if (open !== null && open.count >= MIN_PAIRS) out.push({ value: open.value, at: open.at });
    open = null;
  };
  for (let at = 0; at < text.length; ) {
    const nl = text.indexOf("\n", at);
    const end = nl === -1 ? text.length : nl;
    const line = text.slice(at, end).replace(/\r$/, "");
    const read = line.includes("=") ? linePairs(line) : null;
    if (read === null || read.prefixed) close();
    if (read !== null) {
      open ??= { value: nullObject(), at, count: 0 };
      for (const p of read.pairs) if (p.value !== undefined) setMember(open.value, p.name.split("."), p.value);
      open.count += read.pairs.length;
      if (read.prefixed) close();
    }
    at = end + 1;
  }
  close();
  return out;
}
