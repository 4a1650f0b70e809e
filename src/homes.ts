import { pushAll } from "./collections.js";
import { escapeRegex } from "./regex.js";
import type { HomeRules } from "./types.js";

// The one grammar of home directories, built from rules/homes.json. Whatever stands after a home
// root is the owner, and it is found whether or not the name was known beforehand. Classification,
// owner discovery, replacement and the final check all read homes through here.

/** Where an owner stands in a text: [start, end) in UTF-16 units. */
export interface OwnerSpan {
  start: number;
  end: number;
  owner: string;
  /** False for the placeholder and for names that belong to nobody (Shared, Public). */
  real: boolean;
  /** Found by the `~name` form, which free text also writes for other things: replaced, never learned. */
  tilde: boolean;
  /**
   * False where an owner holding a space stood bare in text (after a space, not alone or in
   * quotes): its words after the first may be the text's own ("ls /home/<name> -la", "mv /home/<name> a/b").
   */
  sure: boolean;
}

export interface HomeGrammar {
  placeholder: string;
  /** Every owner span in `text`; every root accepts both slashes and their escaped spellings. */
  owners(text: string): readonly OwnerSpan[];
  /** Only the owners that are someone: not the placeholder, not a name that belongs to nobody. */
  realOwners(text: string): readonly OwnerSpan[];
  /** True when `text` may hold a home (a cheap test before `owners`). */
  mayHold(text: string): boolean;
  isOwner(name: string): boolean;
}

// A separator, also as written inside text that is itself JSON, a C, Python or shell string, HTML
// or URL-encoded (once or again): `\/`, `\\/`, `\u002F`, `\x2f`, `\057`, `&#x2F;`, `&#47;`, `%2F`, `%252F`;
// grouped by first character, so that most places are passed over at one look.
const ANY_SEP = String.raw`(?:\/|\\+(?:u00(?:2[fF]|5[cC])|x(?:2[fF]|5[cC])|057|134|\/)?|%(?:25)*(?:2[fF]|5[cC])|&#(?:[xX]0*(?:2[fF]|5[cC])|0*(?:47|92));)+`;
const STOP = String.raw`\/\\"'\x60<>|:;,=?*#%&(){}\[\]\x00-\x1f\x7f`;
// The patterns are not Unicode-mode, which V8 compiles far more slowly: every unit above ASCII
// counts as a letter where a word boundary is asked for.
// Inside an owner also: an apostrophe between letters (O'Brien), a percent-encoded character that is
// not a separator (First%20Last), a space a shell escaped (First\ Last).
const IN_OWNER = String.raw`(?<=[A-Za-z\u0080-\uffff])'(?=[A-Za-z\u0080-\uffff])|%(?!(?:25)*(?:2[fF]|5[cC]))[0-9A-Fa-f]{2}`;
const SEGMENT_OWNER = new RegExp(String.raw`(?:[^${STOP}\s]|${IN_OWNER})+`, "y");
const SPACED_OWNER = new RegExp(String.raw`(?:[^${STOP}\n\r\t]|${IN_OWNER}|\\ )+`, "y");
// A separator right after an owner: the path goes on, so a space before it was inside the owner's folder name.
const SEPARATOR_AT = new RegExp(ANY_SEP, "y");
const QUOTES = new Set(['"', "'", "`"]);
// A slug writes each character but an ASCII letter or digit as a dash: an owner's first letter may be one ("-home--lafur-").
const SLUG_OWNER = new RegExp(String.raw`-*[^${STOP}\s\-]+`, "y");
const LETTER = String.raw`A-Za-z0-9\u0080-\uffff`;
const WORD_BEFORE = String.raw`(?<![${LETTER}_.\-])`;
/**
 * How a text may spell a name: itself, with a dash for each character that is not a letter or a
 * digit, and as a Claude project slug spells it, a dash for each that is not an ASCII letter or
 * digit ("Zoë Kim" -> "Zo--Kim"), unless that keeps fewer than two of its letters.
 */
export function nameSpellings(name: string): string[] {
  const slug = name.replace(/[^A-Za-z0-9]/g, "-");
  return [name, name.replace(/[^\p{L}\p{N}]/gu, "-"), ...(/[A-Za-z0-9]{2}/.test(slug) ? [slug] : [])];
}

// Where one path ends and another text begins: a path never holds these unescaped.
const PATH_BREAK = /[\s"'`=()[\]{}<>,;|:*?!&#]/;
const SEPARATORS = new RegExp(ANY_SEP, "g");
const SLUG_BREAK = /[\s"'`=()[\]{}<>,;|:*?!&#\/\\]/;
const SLUG: RootMeta = { spaced: false, tilde: false, anchored: false };
// How far back a root looks for the segments before it; a longer run is read fail-closed.
const PREFIX_REACH = 512;

/** Where the path holding each position begins, found in one forward walk over the text. */
class PathStarts {
  private scanned = 0;
  private start = 0;
  /** The start of the last path in which a home stood: a `home` folder further in is someone's folder. */
  homeIn = -1;
  /** Where that home's owner ended. */
  ownerEnd = 0;
  constructor(
    private readonly text: string,
    private readonly breaks: RegExp,
  ) {}
  at(index: number): number {
    for (; this.scanned < index; this.scanned++) if (this.breaks.test(this.text.charAt(this.scanned))) this.start = this.scanned + 1;
    return this.start;
  }
}

/** A mount prefix from rules/homes.json as segment tests: "/mnt/{name}" -> [mnt, any]. */
function mountShape(prefix: string): ((segment: string) => boolean)[] {
  return prefix
    .split("/")
    .filter(Boolean)
    .map((part) => {
      if (part === "{name}") return () => true;
      if (part === "{drive}") return (segment) => /^[A-Za-z]$/.test(segment);
      return (segment) => segment.toLowerCase() === part.toLowerCase();
    });
}


function rootSource(root: string, sep: string, groups: string): string {
  const body = root
    .split(/(\{drive\}|\{name\}|\{group\}|\/)/)
    .map((part) => {
      if (part === "/") return sep;
      if (part === "{drive}") return "[A-Za-z]";
      if (part === "{name}") return String.raw`[^\/\\"\n]+?`;
      if (part === "{group}") return groups;
      return escapeRegex(part);
    })
    .join("");
  // A root written from "/" also stands relative ("home/ana/"), but not inside a word ("myhome/ana").
  if (root.startsWith("/")) return `(?:${sep}|${WORD_BEFORE})${body.slice(sep.length)}`;
  return /^[A-Za-z0-9{]/.test(root) ? `${WORD_BEFORE}${body}` : body;
}

function ownerAt(text: string, at: number, pattern: RegExp, known: string[]): string | null {
  pattern.lastIndex = at;
  let owner = pattern.exec(text)?.[0] ?? "";
  if (pattern === SPACED_OWNER) owner = owner.replace(/[\s\\]+$/, "");
  // A known name may hold what the generic segment stops at (a dot or a dash in a slug).
  const lower = text.slice(at, at + 64).toLowerCase();
  for (const name of known) {
    if (name.length <= owner.length || !lower.startsWith(name.toLowerCase())) continue;
    // A space belongs to an owner only where the root allows one (Windows homes).
    if (pattern !== SPACED_OWNER && /\s/.test(name)) continue;
    if (!/[\p{L}\p{N}]/u.test(text.charAt(at + name.length))) owner = text.slice(at, at + name.length);
  }
  return owner === "" ? null : owner;
}

/**
 * An owner read with its spaces, and whether they surely belong to it: the path stood alone or in
 * quotes. Bare in text, whose first word is nobody (the placeholder) and where no separator
 * follows to show the path goes on, it is that word.
 */
function spacedOwner(text: string, from: number, at: number, owner: string, isOwner: (name: string) => boolean): { text: string; sure: boolean } {
  const space = owner.search(/\s/);
  if (space === -1 || from === 0 || QUOTES.has(text.charAt(from - 1))) return { text: owner, sure: true };
  SEPARATOR_AT.lastIndex = at + owner.length;
  const first = owner.slice(0, space);
  return !SEPARATOR_AT.test(text) && !isOwner(first) ? { text: first, sure: true } : { text: owner, sure: false };
}

// An owner's folder left by "..": "/home/<one>/../<other>" is the other's home.
const CLIMB = new RegExp(String.raw`${ANY_SEP}\.\.${ANY_SEP}`, "y");

/** The owners a path names after climbing out of an owner's folder with "..", one after another. */
function climbed(text: string, end: number, known: string[], isOwner: (name: string) => boolean): OwnerSpan[] {
  const out: OwnerSpan[] = [];
  CLIMB.lastIndex = end;
  while (out.length < 16 && CLIMB.test(text)) {
    const at = CLIMB.lastIndex;
    const owner = ownerAt(text, at, SPACED_OWNER, known);
    // "/home/<name>/../.." climbs above the homes: what follows is read as any path is.
    if (owner === null || /^\.+$/.test(owner)) break;
    out.push({ start: at, end: at + owner.length, owner, real: isOwner(owner), tilde: false, sure: true });
    CLIMB.lastIndex = at + owner.length;
  }
  return out;
}

/** Path segments with "." dropped and each ".." taking away the segment before it. */
function resolved(segments: string[]): string[] {
  const out: string[] = [];
  for (const x of segments) {
    if (x === "..") out.pop();
    else if (x !== ".") out.push(x);
  }
  return out;
}

/** Whether a path climbs out with ".." between a home's owner and a root further on: that root may be a home again. */
const climbsBetween = (text: string, from: number, at: number): boolean => /(?:^|\/)\.\.(?:\/|$)/.test(text.slice(from, at).replace(SEPARATORS, "/"));

// A root written from "/" is a home where it begins a path, or under a listed mount prefix;
// deeper inside another path (a project's `src/home/`, a host's own folder) it is a folder.
function standsIn(text: string, from: number, at: number, mounts: ((segment: string) => boolean)[][], deepest: number): boolean {
  const reach = Math.max(from, at - PREFIX_REACH);
  let segments = text.slice(reach, at).replace(SEPARATORS, "/").split("/").filter((x) => x !== "");
  if (reach > from) segments = segments.slice(1);
  if (segments[0]?.startsWith("~")) return false;
  segments = resolved(segments);
  // Cut off where the path began out of reach, a short remainder cannot be told from a mount: fail closed.
  if (reach > from && segments.length <= deepest) return true;
  return segments.length === 0 || mounts.some((m) => m.length === segments.length && m.every((fits, i) => fits(segments[i] as string)));
}

/** Answers for texts already asked about; short texts only, and a bounded number of them. */
class Memo<T> {
  readonly #answers = new Map<string, T>();
  get(text: string, compute: () => T): T {
    if (text.length > 2048) return compute();
    let answer = this.#answers.get(text);
    if (answer === undefined) {
      answer = compute();
      if (this.#answers.size >= 50_000) this.#answers.clear();
      this.#answers.set(text, answer);
    }
    return answer;
  }
}

interface RootMeta {
  spaced: boolean;
  tilde: boolean;
  /** Written from "/": stands only where it begins a path, or under a mount prefix the rules list. */
  anchored: boolean;
}

interface Patterns {
  roots: RegExp;
  slugs: RegExp;
  meta: Map<string, RootMeta>;
}

// Compiling the root pattern is the dearest step of a grammar: every grammar of one rules object
// (no names, the sitting's names, the printing one) shares it. A walk sets lastIndex before it
// starts and finishes without handing control away, so sharing the stateful patterns is safe.
const compiled = new WeakMap<HomeRules, Patterns>();

function patterns(rules: HomeRules): Patterns {
  let p = compiled.get(rules);
  if (!p) compiled.set(rules, (p = compilePatterns(rules)));
  return p;
}

/** The patterns of every root and slug, and what each named group of the root pattern stands for. */
function compilePatterns(rules: HomeRules): Patterns {
  const groups = `(?:${rules.groupFolders.map(escapeRegex).join("|")})`;
  const meta = new Map<string, RootMeta>();
  // Every root takes either slash: a root's own separators document its platform, but a path
  // written with the other one (WSL, a Windows tool) still names the same owner.
  const alternatives = [...rules.roots]
    .sort((a, b) => b.root.length - a.root.length)
    .map((r, i) => {
      // "/home/./ana" is ana's home too.
      const after = r.root === "~" ? String.raw`(?=[A-Za-z\u0080-\uffff])` : `${ANY_SEP}(?:\\.${ANY_SEP})*`;
      const lead = r.root === "~" ? String.raw`(?<![${LETTER}_~.\-])` : "";
      meta.set(`r${i}`, { spaced: r.owner === "segment-with-spaces", tilde: r.root === "~", anchored: r.root.startsWith("/") });
      return `${lead}(?<r${i}>${rootSource(r.root, ANY_SEP, groups)}${after})`;
    });
  const slugAlternatives = [...rules.slugs]
    .sort((a, b) => b.root.length - a.root.length)
    .map((s) => rootSource(s.root, "-", groups).replace(/^/, String.raw`(?<![${LETTER}])`));
  return { roots: new RegExp(alternatives.join("|"), "gi"), slugs: new RegExp(slugAlternatives.join("|"), "gi"), meta };
}

/**
 * Builds the grammar; `known` user names (and their slug spellings) extend an owner a generic segment would cut.
 * `anywhere` reads every root wherever it stands, for masking what the tool prints, where a folder too many costs nothing.
 */
export function homeGrammar(rules: HomeRules, known: string[] = [], options: { anywhere?: boolean } = {}): HomeGrammar {
  // Built once per rules, names and reading: display, substitution and the scan share one.
  const key = `${options.anywhere === true}\u0000${[...known].sort().join("\u0000")}`;
  let built = grammars.get(rules);
  if (!built) grammars.set(rules, (built = new Map()));
  let grammar = built.get(key);
  if (!grammar) built.set(key, (grammar = buildGrammar(rules, known, options)));
  return grammar;
}

const grammars = new WeakMap<HomeRules, Map<string, HomeGrammar>>();

/**
 * Every root ends in a word any spelling of it holds ("home", "Users", "Settings", "~"); an
 * escaped or URL-encoded spelling holds "\u" or "%2F".
 */
function keywordsOf(rules: HomeRules): RegExp {
  const words = [...rules.roots, ...rules.slugs].map((r) => (r.root === "~" ? "~" : (r.root.match(/[A-Za-z]+/g) ?? []).at(-1) ?? r.root));
  return new RegExp([...new Set(words.map((w) => escapeRegex(w.toLowerCase()))), "%2f", "\\\\u"].join("|"), "i");
}

/** Overlapping finds (a root inside a longer root) keep the one that starts first and reaches furthest. */
function firstAndLongest(found: OwnerSpan[]): OwnerSpan[] {
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: OwnerSpan[] = [];
  for (const o of found) if (kept.length === 0 || o.start >= (kept[kept.length - 1] as OwnerSpan).end) kept.push(o);
  return kept;
}

function buildGrammar(rules: HomeRules, known: string[], options: { anywhere?: boolean }): HomeGrammar {
  const notOwners = new Set([...rules.notOwners, ...(rules.declared ?? []).map((d) => d.segment)].map((n) => n.toLowerCase()));
  const knownForms = [...new Set(known.flatMap(nameSpellings))].sort((a, b) => b.length - a.length);
  const { roots, slugs, meta } = patterns(rules);
  const mounts = rules.position.mounts.map(mountShape);
  const deepest = mounts.reduce((a, m) => Math.max(a, m.length), -Infinity);
  const keywords = keywordsOf(rules);
  const isOwner = (name: string): boolean => name !== rules.placeholder && !notOwners.has(name.toLowerCase()) && !/^[$%~.]|^\.\.?$/.test(name);

  const stands = (text: string, from: number, at: number): boolean => standsIn(text, from, at, mounts, deepest);

  const collect = (text: string, re: RegExp, breaks: RegExp, pick: (m: RegExpExecArray) => RootMeta, out: OwnerSpan[]): void => {
    const starts = new PathStarts(text, breaks);
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      if (m[0].length === 0) re.lastIndex++;
      const root = pick(m);
      const from = starts.at(m.index);
      const inHome = starts.homeIn === from && !climbsBetween(text, starts.ownerEnd, m.index);
      if (!options.anywhere && (inHome || (root.anchored && !stands(text, from, m.index)))) continue;
      const at = m.index + m[0].length;
      const read = ownerAt(text, at, root.spaced ? SPACED_OWNER : root === SLUG ? SLUG_OWNER : SEGMENT_OWNER, knownForms);
      if (read === null) continue;
      const owner = spacedOwner(text, from, at, read, isOwner);
      out.push({ start: at, end: at + owner.text.length, owner: owner.text, real: isOwner(owner.text), tilde: root.tilde, sure: owner.sure });
      if (!root.tilde && root !== SLUG) pushAll(out, climbed(text, at + owner.text.length, knownForms, isOwner));
      starts.homeIn = from;
      starts.ownerEnd = (out[out.length - 1] as OwnerSpan).end;
    }
  };
  const groupNames = [...meta.keys()];
  const rootOf = (m: RegExpExecArray): RootMeta => {
    const groups = m.groups ?? {};
    for (const name of groupNames) if (groups[name] !== undefined) return meta.get(name) as RootMeta;
    return SLUG;
  };
  // A sitting repeats its paths: each distinct text is read once per grammar.
  const seen = new Memo<readonly OwnerSpan[]>();
  const seenReal = new Memo<readonly OwnerSpan[]>();

  const grammar: HomeGrammar = {
    placeholder: rules.placeholder,
    isOwner,
    mayHold: (text) => keywords.test(text),
    realOwners: (text) => seenReal.get(text, () => grammar.owners(text).filter((o) => o.real)),
    owners: (text) => seen.get(text, () => {
      const out: OwnerSpan[] = [];
      collect(text, roots, PATH_BREAK, rootOf, out);
      // A slug is one path segment: a second root inside the same slug is a folder of the first owner's.
      collect(text, slugs, SLUG_BREAK, () => SLUG, out);
      return firstAndLongest(out);
    }),
  };
  return grammar;
}

/**
 * The names an owner teaches, in lower case: itself, and each word of it a text may write alone
 * ("Alice Smith", "alice.smith@corp": alice, smith; "ana+dev": ana); where its words after the
 * first may be the text's own (`sure` false), the first word only.
 */
export function ownerNames(owner: string, sure = true): string[] {
  const spelt = owner.replace(/%([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))).replace(/\\(?=\s)/g, "");
  const local = spelt.replace(/^([^@]+)@.*$/su, "$1").replace(/^([^+]+)\+.*$/su, "$1");
  const words = local
    .split(/[\s.]+/u)
    .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ""))
    .filter((w) => /\p{L}/u.test(w) && [...w].length >= 2);
  const taught = [owner, spelt, ...(sure ? words : words.slice(0, 1))];
  return [...new Set(taught.map((n) => n.toLowerCase()))];
}

// How far a name is looked for inside longer words. Replacing it there would corrupt unrelated
// words ("al" in "also"), so such a find is never substituted: it refuses the file.
const GLUED_ANYWHERE = 5;
const GLUED_TO_DIGITS = 3;

/** One spelling of a name as a pattern, with the boundaries its length and letters allow. */
function namePart(form: string): string {
  const body = escapeRegex(form);
  const length = [...form].length;
  const letters = form.match(/\p{L}/gu)?.length ?? 0;
  // alice2, xalice, alicesmith: a name this long inside a word is not there by chance.
  if (length >= GLUED_ANYWHERE && letters >= GLUED_TO_DIGITS) return body;
  // ana2, 2ana: joined by digits, not letters; a name of hex letters only is what ids spell by chance.
  if (length >= GLUED_TO_DIGITS && letters === length && !/^[a-f]+$/i.test(form)) return String.raw`(?<!\p{L})${body}(?!\p{L})`;
  return String.raw`(?<![\p{L}\p{N}])${body}(?![\p{L}\p{N}])`;
}

/**
 * A pattern for user names in any letter case, also in their slug spelling: a name of five
 * characters or more (three of them letters) also inside a longer word, one of three or four letters
 * also joined to digits, a shorter one as a whole word.
 */
export function userNamePattern(users: string[]): RegExp | null {
  const forms = [...new Set(users.flatMap(nameSpellings))].filter((n) => n.length > 0);
  if (forms.length === 0) return null;
  forms.sort((a, b) => b.length - a.length);
  return new RegExp(forms.map(namePart).join("|"), "iu");
}
