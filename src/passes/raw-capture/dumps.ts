// Members as a language prints a value it was given, not as a literal it reads back: Go's
// fmt %v of a map (map[cwd:/x tool_name:Bash]), PHP's print_r (Array ( [cwd] => /x )), and
// XML elements (<cwd>/x</cwd>). Every value a print gives is read as a string (a number as its
// digits); what a reader cannot follow ends the object there, with the members read before.

/** Fewer members than this make no object. */
const MIN_MEMBERS = 2;
/** Deeper than this, a print is read no further. */
const MAX_DEPTH = 64;

type Found = { value: Record<string, unknown>; at: number }[];
const members = (): Record<string, unknown> => Object.create(null) as Record<string, unknown>;

/** Go's map[...] from `open` (just after "map["): its members and where it ends (after "]"). */
function goMap(text: string, open: number, depth: number): { value: Record<string, unknown>; end: number } {
  const value = members();
  let i = open;
  while (i < text.length && text[i] !== "]") {
    const colon = text.indexOf(":", i);
    const key = colon === -1 ? "" : text.slice(i, colon);
    if (key === "" || /[\s[\]]/.test(key)) break;
    if (text.startsWith("map[", colon + 1) && depth < MAX_DEPTH) {
      const inner = goMap(text, colon + 5, depth + 1);
      value[key] = inner.value;
      i = inner.end;
    } else {
      // A value runs to the map's end or to the next " name:" at its own depth.
      let j = colon + 1;
      let nested = 0;
      for (; j < text.length; j++) {
        const c = text[j];
        if (c === "[") nested++;
        else if (c === "]" && nested-- === 0) break;
        else if (c === " " && nested === 0 && /^[^\s:[\]]+:/.test(text.slice(j + 1, j + 130))) break;
        else if (c === "\n") break;
      }
      value[key] = text.slice(colon + 1, j);
      i = j;
    }
    if (text[i] === " ") i++;
  }
  return { value, end: text[i] === "]" ? i + 1 : i };
}

export function goMaps(text: string): Found {
  const out: Found = [];
  for (let at = text.indexOf("map["); at !== -1; at = text.indexOf("map[", at + 4)) {
    if (at > 0 && /[A-Za-z0-9_.]/.test(text[at - 1] as string)) continue;
    const { value } = goMap(text, at + 4, 0);
    if (Object.keys(value).length >= MIN_MEMBERS) out.push({ value, at });
  }
  return out;
}

const PHP_ARRAY = /\b(?:Array|stdClass Object|[A-Za-z_\\][\w\\]* Object)\s*\(\s*\n/y;
const PHP_MEMBER = /\s*\[([^\]\n]{1,256}?)(?::(?:protected|private)|:[\w\\]+:private)?\] => /y;

/** PHP's print_r of an array or object from `open` (just after its "(" line): its members and where it ends. */
function phpArray(text: string, open: number, depth: number): { value: Record<string, unknown>; end: number } {
  const value = members();
  let i = open;
  for (;;) {
    PHP_MEMBER.lastIndex = i;
    const m = PHP_MEMBER.exec(text);
    if (m === null) break;
    const key = m[1] as string;
    PHP_ARRAY.lastIndex = PHP_MEMBER.lastIndex;
    if (PHP_ARRAY.test(text) && depth < MAX_DEPTH) {
      const inner = phpArray(text, PHP_ARRAY.lastIndex, depth + 1);
      value[key] = inner.value;
      i = inner.end;
    } else {
      const nl = text.indexOf("\n", PHP_MEMBER.lastIndex);
      const end = nl === -1 ? text.length : nl;
      value[key] = text.slice(PHP_MEMBER.lastIndex, end).replace(/\r$/, "");
      i = end + 1;
    }
  }
  // The array's own ")" and the blank line print_r writes after it.
  const close = /[ \t]*\)[ \t]*\r?\n?/y;
  close.lastIndex = i;
  return { value, end: close.test(text) ? close.lastIndex : i };
}

export function phpPrints(text: string): Found {
  const out: Found = [];
  const start = new RegExp(PHP_ARRAY.source, "g");
  for (const m of text.matchAll(start)) {
    const { value } = phpArray(text, m.index + m[0].length, 0);
    if (Object.keys(value).length >= MIN_MEMBERS) out.push({ value, at: m.index });
  }
  return out;
}

const XML_ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };
const xmlText = (raw: string): string =>
  raw
    .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, "$1")
    .replace(/&(lt|gt|amp|quot|apos|#[0-9]{1,7}|#x[0-9A-Fa-f]{1,6});/g, (_entity: string, name: string) =>
      name.startsWith("#x") ? String.fromCodePoint(parseInt(name.slice(2), 16)) : name.startsWith("#") ? String.fromCodePoint(Number(name.slice(1))) : (XML_ENTITIES[name] as string),
    );
const XML_OPEN = /<([A-Za-z_][\w.-]{0,255})(?:\s[^<>]*)?>/y;

/** The element whose start tag ends before `from` and is named `name`: its children as members, or its text; where its end tag ends. */
function xmlElement(text: string, name: string, from: number, depth: number, budget: { left: number }): { value: unknown; end: number } | null {
  const value = members();
  let i = from;
  let children = 0;
  for (;;) {
    const lt = text.indexOf("<", i);
    budget.left -= (lt === -1 ? text.length : lt) - i + 1;
    if (lt === -1 || budget.left < 0) return null;
    if (text.startsWith(`</${name}>`, lt)) {
      const end = lt + name.length + 3;
      return { value: children > 0 ? value : xmlText(text.slice(from, lt)), end };
    }
    if (text.startsWith("<![CDATA[", lt)) {
      const close = text.indexOf("]]>", lt);
      if (close === -1) return null;
      i = close + 3;
      continue;
    }
    XML_OPEN.lastIndex = lt;
    const m = XML_OPEN.exec(text);
    if (m === null || depth >= MAX_DEPTH) return null;
    const child = m[0].endsWith("/>") ? { value: "", end: XML_OPEN.lastIndex } : xmlElement(text, m[1] as string, XML_OPEN.lastIndex, depth + 1, budget);
    if (child === null) return null;
    value[m[1] as string] = child.value;
    children++;
    i = child.end;
  }
}

/** How far the elements' reading may go, all told, as a multiple of the text's length: a page of HTML opens tags it never closes. */
const XML_FACTOR = 4;

export function xmlElements(text: string): Found {
  const out: Found = [];
  const budget = { left: XML_FACTOR * text.length };
  for (let lt = text.indexOf("<"); lt !== -1; lt = text.indexOf("<", lt + 1)) {
    XML_OPEN.lastIndex = lt;
    const m = XML_OPEN.exec(text);
    if (m === null || m[0].endsWith("/>")) continue;
    const read = xmlElement(text, m[1] as string, XML_OPEN.lastIndex, 0, budget);
    if (budget.left < 0) break;
    if (read === null || typeof read.value !== "object" || Object.keys(read.value as object).length < MIN_MEMBERS) continue;
    out.push({ value: read.value as Record<string, unknown>, at: lt });
    // Elements inside it are read as its members: the search goes on after it.
    lt = read.end - 1;
  }
  return out;
}
