import { domainToUnicode } from "node:url";
import { OutputError } from "./errors.js";
import { lastAtOrBelow, pushAll } from "./collections.js";
import { MAY_TAG, spellingsUndone, tagsRead } from "./name-spellings.js";
import { ABOVE_ASCII_LETTER, INVISIBLE, MAY_HOLD_ESCAPE, textEscapeReading, undoTextEscapes, unreadEscapeEnd, unreadLeadEnd, type TextEscapeReading } from "./home-escapes.js";
import { LOOK_ALIKE, LOOK_ALIKES, shownReading, shownText, withLatinWords, withoutTerminalSequences } from "./home-shown.js";
import { base32Of } from "./radix.js";
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
  /**
   * False for the placeholder and for names that belong to nobody (Shared, Public); true for any
   * owner read through an escape the grammar cannot read ("<owner>&eacute;..."), which may hold the rest of the name.
   */
  real: boolean;
  /**
   * Found by the `~name` form, which free text also writes for other things, or right after a web
   * address's host, where a route begins ("https://api.example.com/users/42" names a record):
   * replaced, never learned.
   */
  unlearned: boolean;
  /**
   * False where an owner holding a space stood bare in text (after a space, not alone or in
   * quotes): its words after the first may be the text's own ("ls /home/<name> -la", "mv /home/<name> a/b").
   */
  sure: boolean;
  /**
   * Where the owner was read whole only with a text escape undone ("<owner>\x64") and a single backslash
   * before it may be a Windows path's separator ("C:\Users\<owner>\x64"): the owner up to that backslash,
   * learned as well.
   */
  alsoOwner?: string;
  /** A slug's owner whose letters may run into the next folder's: replaced and found, never learned as a name. */
  untaught?: true;
  /**
   * A slug's owner no settled name spells whole, with more of the slug after it ("-home-<first>-<last>-proj"):
   * where the owner ends is not known, so a value that holds one cannot be shown clear.
   */
  runsOn?: true;
  /**
   * Read right after a backslash in a Windows path: what an escape its first characters spell
   * ("C:\Users\0401234", "\x20ann") is the folder's own name there, which Windows never unescapes.
   */
  windowsFolder?: true;
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
// (numbered or named, and escaped again as `&amp;`) or URL-encoded (once or again): `\/`, `\\/`,
// `\u002F`, `\x2f`, `\057`, `&#x2F;`, `&#47;`, `&sol;`, `&bsol;`, `&amp;sol;`, `%2F`, `%252F`;
// grouped by first character, so that most places are passed over at one look. A run of
// backslashes is read whole (what follows it is never another backslash): read in parts, a run of
// 30 that ends in no separator would be tried in every way of cutting it, 2^29 of them, and only
// from its first backslash, or a run of 20,000 is read 20,000 times. Where an escape of a
// separator follows the run, the run is that separator only ("\x2f" is never "\" and "x2f"). HTML's names are
// case-sensitive (`&sol;` and `&AMP;` are references, `&SOL;` is not), so every pattern holding
// a separator spells case itself and is never built to ignore it.
const SPELT_SEPARATOR = String.raw`(?:u00(?:2[fF]|5[cC])|x(?:2[fF]|5[cC])|057|134)`;
const HTML_SEPARATOR = String.raw`(?:#(?:[xX]0*(?:2[fF]|5[cC])|0*(?:47|92))|sol|bsol);`;
const ONE_SEP = String.raw`(?:\/|(?<!\\)\\+(?:${SPELT_SEPARATOR}|\/|(?!\\|${SPELT_SEPARATOR}))|%(?:25)*(?:2[fF]|5[cC])|&(?:(?:amp|AMP);)*${HTML_SEPARATOR})`;
const ANY_SEP = `${ONE_SEP}+`;
// A backslash only, in the same spellings: the separator of a root whose rules list no other (a
// Windows share named without "$", "\\server\profiles\<owner>", whose words with slashes are a URL's).
const ONE_BACKSLASH = String.raw`(?:(?<!\\)\\+(?:(?:u005[cC]|x5[cC]|134)|(?!\\|\/|${SPELT_SEPARATOR}))|%(?:25)*5[cC]|&(?:(?:amp|AMP);)*(?:#(?:[xX]0*5[cC]|0*92)|bsol);)`;
const ANY_BACKSLASH = `${ONE_BACKSLASH}+`;
/** Where a share written with backslashes only may begin: not inside a path or a word, as "\\\\proj\\\\home" inside an escaped Windows path would. */
const SHARE_START = String.raw`(?<![A-Za-z0-9._:$~\-])`;
/** A pattern's letters in either case: "home" also as "HOME" and "Home". */
const eitherCase = (source: string): string => source.replace(/[A-Za-z]/g, (c) => `[${c.toLowerCase()}${c.toUpperCase()}]`);
const STOP = String.raw`\/\\"'\x60<>|:;,=?*#%&(){}\[\]\x00-\x1f\x7f`;
// The patterns are not Unicode-mode, which V8 compiles far more slowly: every unit above ASCII but
// a space or an invisible unit (ABOVE_ASCII_LETTER) counts as a letter where a word boundary is asked for.
// Inside an owner also: an apostrophe between letters (O'Brien), a percent-encoded character that is
// not a separator (First%20Last), a space a shell escaped (First\ Last), at any depth of JSON in a string (First\\ Last).
const IN_OWNER = String.raw`(?<=[A-Za-z${ABOVE_ASCII_LETTER}])'(?=[A-Za-z${ABOVE_ASCII_LETTER}])|%(?!(?:25)*(?:2[fF]|5[cC]))[0-9A-Fa-f]{2}`;
const SEGMENT_OWNER = new RegExp(String.raw`(?:[^${STOP}\s]|[${INVISIBLE}]|${IN_OWNER})+`, "y");
const SPACED_OWNER = new RegExp(String.raw`(?:[^${STOP}\n\r\t]|${IN_OWNER}|\\+ )+`, "y");
// A separator right after an owner: the path goes on, so a space before it was inside the owner's folder name.
const SEPARATOR_AT = new RegExp(ANY_SEP, "y");
const QUOTES = new Set(['"', "'", "`"]);
// A slug writes each character but an ASCII letter or digit as a dash: an owner's first letter may be one ("-home--lafur-").
const SLUG_OWNER = new RegExp(String.raw`-*(?:[^${STOP}\s\-]|[${INVISIBLE}])+`, "y");
const LETTER = String.raw`A-Za-z0-9${ABOVE_ASCII_LETTER}`;
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
const SLUG: RootMeta = { spaced: false, tilde: false, anchored: false, slug: true, domains: false, windows: false, notOwners: new Set() };
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
  private dots = { from: Number.POSITIVE_INFINITY, at: -1 };
  private climb = { from: -1, to: -1, found: false };
  /**
   * Whether the path climbs out with ".." between the last home's owner and `at`: read on from
   * where the last question stopped (each root further along the path asks), never twice.
   */
  climbsTo(at: number): boolean {
    if (this.climb.from !== this.ownerEnd || at < this.climb.to) this.climb = { from: this.ownerEnd, to: this.ownerEnd, found: false };
    const c = this.climb;
    const dots = c.found ? -1 : this.dotsAfter(c.to);
    if (dots !== -1 && dots < at) c.found = climbsBetween(this.text, c.to, at);
    c.to = at;
    return c.found;
  }
  /** Where the first ".." at or after `index` stands (-1: none), looked for again only past the last one found: each owner asks. */
  dotsAfter(index: number): number {
    const { from, at } = this.dots;
    if (index < from || (at !== -1 && index > at)) this.dots = { from: index, at: this.text.indexOf("..", index) };
    return this.dots.at;
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


function rootSource(root: string, sep: string, groups: string, one = ONE_SEP): string {
  const parts = root.split(/(\{drive\}|\{digits\}|\{name\}|\{group\}|\/)/).filter(Boolean);
  const body = parts
    .map((part, i) => {
      // A root's leading separators are one each ("//" is two): a run of them before it is read
      // up to its last, where the root begins; read whole from each separator of a run that ends
      // in no root, the run would be read once per separator. After a word, a run is one separator.
      if (part === "/") return parts.slice(0, i).every((p) => p === "/") ? one : sep;
      if (part === "{drive}") return "[A-Za-z]";
      if (part === "{digits}") return "[0-9]{1,3}";
      // A name holds no separator, however spelt: one that could would meet the next in every way of cutting them.
      if (part === "{name}") return String.raw`(?:(?!${ONE_SEP})[^\/\\"\n])+?`;
      if (part === "{group}") return groups;
      return eitherCase(escapeRegex(part));
    });
  // A share's "//" is two separators, or one run of backslashes ("\\\\server"): never one "/", which begins any path.
  if (root.startsWith("//") && body.length > 2) return `(?:${body[0]}${body[1]}|(?<!\\\\)\\\\{2,})${body.slice(2).join("")}`;
  // A root written from "/" also stands relative ("home/ana/"), but not inside a word ("myhome/ana").
  if (root.startsWith("/")) return `(?:${body[0]}|${WORD_BEFORE})${body.slice(1).join("")}`;
  return /^[A-Za-z0-9{]/.test(root) ? `${WORD_BEFORE}${body.join("")}` : body.join("");
}

// What may stand inside a known name that the generic segment stops at: a shell's backslash
// before a letter or an apostrophe ("qu\illon", "o\'brien"), an apostrophe the shell spelt
// inside quotes ("o'\''brien", "o'"'"'brien"), and a control, as itself or as an escape
// ("qu\u0000illon", "qu\x01illon", "qu\tillon"), which no name holds.
const SPREAD_STOP = /[\\'\x00-\x1f\x7f]/;
const CONTROL_ESCAPE = /\\+(?:[abefnrtv]|x[01][0-9A-Fa-f]|u00[01][0-9A-Fa-f]|0[0-7]{0,2}(?![0-7]))/y;
const SPELT_APOSTROPHE = /'(?:\\+'|"'")'|\\*'/y;
const isControl = (c: number): boolean => c < 0x20 || c === 0x7f;

/** How many characters at `k` stand between two letters of a name without being one: a control, its escape, a shell's backslash before the letter `next`; 0 where none do. */
function betweenAt(text: string, k: number, next: string): number {
  if (isControl(text.charCodeAt(k))) return 1;
  if (text.charAt(k) !== "\\") return 0;
  let r = k;
  while (text.charAt(r) === "\\") r++;
  if (text.charAt(r).toLowerCase() === next) return r - k;
  CONTROL_ESCAPE.lastIndex = k;
  return CONTROL_ESCAPE.test(text) ? CONTROL_ESCAPE.lastIndex - k : 0;
}

/**
 * Where a known name written with what SPREAD_STOP stands for between its characters ends at `at`,
 * or -1: one walk, each character of the text looked at once (a pattern that let each gap be read
 * in two ways would try every way of reading a long run of escapes).
 */
function spreadEnd(name: string, text: string, at: number): number {
  const lower = name.toLowerCase();
  let k = at;
  for (let i = 0; i < lower.length; i++) {
    const want = lower.charAt(i);
    for (let skip = i === 0 ? 0 : betweenAt(text, k, want); skip > 0; skip = betweenAt(text, k, want)) k += skip;
    if (want === "'") {
      SPELT_APOSTROPHE.lastIndex = k;
      if (!SPELT_APOSTROPHE.test(text)) return -1;
      k = SPELT_APOSTROPHE.lastIndex;
    } else if (text.charAt(k).toLowerCase() === want) k++;
    else return -1;
  }
  return k;
}

function ownerAt(text: string, at: number, pattern: RegExp, known: string[]): string | null {
  pattern.lastIndex = at;
  let owner = pattern.exec(text)?.[0] ?? "";
  if (pattern === SPACED_OWNER) owner = owner.replace(/[\s\\]+$/, "");
  // A known name may hold what the generic segment stops at (a dot or a dash in a slug, what SPREAD_STOP stands for).
  const lower = text.slice(at, at + 64).toLowerCase();
  const stopped = SPREAD_STOP.test(text.charAt(at + owner.length));
  for (const name of known) {
    // A space belongs to an owner only where the root allows one (Windows homes).
    if (pattern !== SPACED_OWNER && /\s/.test(name)) continue;
    const end = name.length > owner.length && lower.startsWith(name.toLowerCase()) ? at + name.length : stopped ? spreadEnd(name, text, at) : -1;
    if (end > at + owner.length && !/[\p{L}\p{N}]/u.test(text.charAt(end))) owner = text.slice(at, end);
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

// A folder name on the way from an owner's folder, which ".." may climb out of again.
const FOLDER = new RegExp(String.raw`[^${STOP}\s]+`, "y");
// One that holds spaces or punctuation ("My Documents", "C# Projects", "Bob's Stuff", "R&D"): read so
// only where a separator follows it, and never begun or ended with a space, which ends a path
// (as one does after ".." or "." too).
const IN_FOLDER = String.raw`(?:(?!${ONE_SEP})[^\/\\"\x60<>:\n\r\t])`;
const SPACED_FOLDER = new RegExp(String.raw`(?! |\.{1,2} )${IN_FOLDER}(?:${IN_FOLDER}{0,253}(?<! ))?(?=${ONE_SEP})`, "y");
// How many folders a climb is followed through after an owner: far beyond any path a host writes.
const CLIMB_STEPS = 256;

/**
 * The owners a path names after climbing back to the homes with "..", one after another:
 * "/home/<one>/../<other>", "/home/<one>/x/./../../<other>" and "C:\Users\<one>\x\..\..\<other>"
 * are the other's home. A climb above the homes ends the walk: what follows is read as any path is.
 */
function climbed(text: string, end: number, starts: PathStarts, known: string[], isOwner: (name: string) => boolean, windows: boolean): OwnerSpan[] {
  const out: OwnerSpan[] = [];
  if (starts.dotsAfter(end) === -1) return out;
  // How many folders below the homes the path stands, from inside the owner's own.
  let depth = 1;
  for (let at = end, step = 0; step < CLIMB_STEPS; step++) {
    // Past the quote that closes an owner in quotes.
    if (depth === 1) at = openingQuoteEnd(text, at, OPENING_QUOTE);
    SEPARATOR_AT.lastIndex = at;
    if (!SEPARATOR_AT.test(text)) break;
    const from = SEPARATOR_AT.lastIndex;
    SPACED_FOLDER.lastIndex = from;
    FOLDER.lastIndex = from;
    const folder = SPACED_FOLDER.exec(text)?.[0] ?? FOLDER.exec(text)?.[0];
    // The owner reached may stand in quotes, as one right after a root does ("/home/<one>/../'First Middle'\"Last\""), where that reads further than the folder.
    const quoted = depth === 0 ? quotedOwner(text, from, windows) : null;
    if (quoted !== null && openingQuoteEnd(text, quoted.start + quoted.owner.length, OPENING_QUOTE) >= from + (folder?.length ?? 0)) {
      out.push({ start: quoted.start, end: quoted.start + quoted.owner.length, owner: quoted.owner, real: isOwner(quoted.owner), unlearned: false, sure: true });
      [depth, at] = [1, quoted.start + quoted.owner.length];
      continue;
    }
    if (folder === undefined) break;
    if (depth === 0 && !/^\.+$/.test(folder)) {
      const end = ownerWordEnd(text, from, from + (ownerAt(text, from, SPACED_OWNER, known) ?? folder).length, windows, SPACED_OWNER);
      const owner = text.slice(from, end);
      const span: OwnerSpan = { start: from, end, owner, real: isOwner(owner), unlearned: false, sure: true };
      if (windows && text.charAt(from - 1) === "\\") span.windowsFolder = true;
      out.push(span);
      [depth, at] = [1, from + owner.length];
      continue;
    }
    depth += folder === ".." ? -1 : folder === "." ? 0 : 1;
    if (depth < 0) break;
    at = from + folder.length;
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

/** A web address up to its host, as the path before a root reads once its separators are "/": what follows the host is a route on it (an FTP address's path may be a home's). */
const WEB_HOST = /(?:https?|wss?)(?::|%3[Aa])\/+[\w.~%@:[\]-]+\/?$/i;
/** How far back from a path's start a web address's scheme may stand: past a user, a host of 253 characters and a port. */
const WEB_HOST_REACH = 320;

/** Whether a root at `at`, in the path that begins at `from`, stands right after a web address's host. */
const afterWebHost = (text: string, from: number, at: number): boolean =>
  at - from <= PREFIX_REACH && WEB_HOST.test(text.slice(Math.max(0, from - WEB_HOST_REACH), at).replace(SEPARATORS, "/"));

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
  slug: boolean;
  /** Listed in domainFolders: an owner that reads as a domain holds another owner. */
  domains: boolean;
  /** A Windows home (its separators include a backslash, or it names a drive): a backslash after the owner may be a separator. */
  windows: boolean;
  /** Words a host writes after this root that name no one, in lower case. */
  notOwners: ReadonlySet<string>;
  /** The extension a system writes after the owner in this root's segment, in lower case (".plist"): no part of the owner. */
  extension?: string;
  /** Marks that begin the names of a system's own accounts under this root ("_"). */
  notOwnersStartingWith?: readonly string[];
}

interface Patterns {
  roots: RootSearch;
  slugs: RootSearch;
  meta: Map<string, RootMeta>;
  slug: RootMeta;
}

// Compiling the root patterns is the dearest step of a grammar: every grammar of one rules object
// (no names, the sitting's names, the printing one) shares them. A walk keeps its own place and sets
// a pattern's lastIndex right before each search, so sharing the stateful patterns is safe.
const compiled = new WeakMap<HomeRules, Patterns>();

function patterns(rules: HomeRules): Patterns {
  let p = compiled.get(rules);
  if (!p) compiled.set(rules, (p = compilePatterns(rules)));
  return p;
}

// A share's root ("//server/...") is no share after a web scheme: "https://api.example.com/v1/users/42" names a record.
// The look back reaches a few separators only: one over a whole run of them would read the run again at each of its places.
const NOT_WEB_SHARE = String.raw`(?<!(?:https?|wss?|ftps?)(?::|%3[Aa])(?:[\\/]|%2[Ff]){0,6})`;

/** The patterns of every root and slug, and what each named group of the root pattern stands for. */
function compilePatterns(rules: HomeRules): Patterns {
  const groups = `(?:${rules.groupFolders.map((g) => eitherCase(escapeRegex(g))).join("|")})`;
  const meta = new Map<string, RootMeta>();
  const listed = new Set(rules.domainFolders?.roots ?? []);
  // Every root takes either slash: a root's own separators document its platform, but a path
  // written with the other one (WSL, a Windows tool) still names the same owner. A root whose only
  // separator is a backslash is read with backslashes only, and not inside a path.
  const alternatives = [...rules.roots]
    .sort((a, b) => b.root.length - a.root.length)
    .map((r, i): Alternative => {
      // "/home/./ana" is ana's home too.
      // After "~", a name: also one in quotes or begun with a letter HTML names ("~'ann'", "~&eacute;ric").
      const backslashes = r.separators.length === 1 && r.separators[0] === "\\";
      const any = backslashes ? ANY_BACKSLASH : ANY_SEP;
      const after = r.root === "~" ? String.raw`(?=[${INVISIBLE}]*(?:[A-Za-z${ABOVE_ASCII_LETTER}]|\\*['"\x60][${INVISIBLE}]*[${LETTER}]|&(?:amp;)*[A-Za-z]{2}))` : `${any}(?:\\.${any})*`;
      const lead = r.root === "~" ? String.raw`(?<![${LETTER}_~.\-])` : r.root.startsWith("//") ? `${NOT_WEB_SHARE}${backslashes ? SHARE_START : ""}` : "";
      const domains = listed.has(r.id);
      const windows = r.separators.includes("\\") || r.root.includes("{drive}");
      const notOwners = new Set((r.notOwners ?? []).map((w) => w.toLowerCase()));
      const record = { extension: r.extension?.toLowerCase(), notOwnersStartingWith: r.notOwnersStartingWith };
      meta.set(`r${i}`, { spaced: r.owner === "segment-with-spaces", tilde: r.root === "~", anchored: r.root.startsWith("/"), slug: false, domains, windows, notOwners, ...record });
      return { source: `${lead}(?<r${i}>${rootSource(r.root, any, groups, backslashes ? ONE_BACKSLASH : ONE_SEP)}${after})`, word: rootWord(r.root) };
    });
  const slugAlternatives = [...rules.slugs]
    .sort((a, b) => b.root.length - a.root.length)
    .map((s): Alternative => ({ source: `(?<![${LETTER}])${rootSource(s.root, "-", groups)}`, word: rootWord(s.root) }));
  // One reading serves every slug: a slug root listed in domainFolders lists them all.
  const slug = { ...SLUG, domains: rules.slugs.some((x) => listed.has(x.id)) };
  return { roots: new RootSearch(alternatives, "g"), slugs: new RootSearch(slugAlternatives, "gi"), meta, slug };
}

interface GrammarOptions {
  anywhere?: boolean;
  /** Names among `known` that a run-on slug alone taught: they extend an owner but do not settle where a slug's owner ends. */
  unsettled?: string[];
}

/**
 * Builds the grammar; `known` user names (and their slug spellings) extend an owner a generic segment would cut.
 * `anywhere` reads every root wherever it stands, for masking what the tool prints, where a folder too many costs nothing.
 */
export function homeGrammar(rules: HomeRules, known: string[] = [], options: GrammarOptions = {}): HomeGrammar {
  // Built once per rules, names and reading: display, substitution and the scan share one.
  const key = `${options.anywhere === true}\u0000${[...known].sort().join("\u0000")}\u0001${[...(options.unsettled ?? [])].sort().join("\u0000")}`;
  let built = grammars.get(rules);
  if (!built) grammars.set(rules, (built = new Map()));
  let grammar = built.get(key);
  if (!grammar) built.set(key, (grammar = buildGrammar(rules, known, options)));
  return grammar;
}

const grammars = new WeakMap<HomeRules, Map<string, HomeGrammar>>();

/**
 * Every root holds a word any spelling of it holds, its last written out ("home" of "/home{digits}",
 * "Users", "Settings", "~"): a text holding none has no root in it. The roots' patterns spell that
 * word in plain letters, either case; only their separators have escaped spellings.
 */
function rootWordsOf(rules: HomeRules): string[] {
  return [...new Set([...rules.roots, ...rules.slugs].map((r) => rootWord(r.root)))];
}

/**
 * A root's word, as a pattern: the last run of letters it writes. A root of no letter at all ("~",
 * a repository's own) is looked for as the last of what it writes between its separators and dots;
 * one of nothing else is looked for everywhere. As written: the search ignores ASCII letter case,
 * as the patterns do; a letter above ASCII stands in the patterns as written, and its lower case
 * may be one the search cannot map back ("İ", "ẞ", "K").
 */
function rootWord(root: string): string {
  const written = root.replace(/\{[a-z]+\}/g, " ");
  return escapeRegex((written.match(/\p{L}+/gu) ?? written.match(/[^/\\.\s]+/g) ?? [""]).at(-1) ?? "");
}

/**
 * What a text that may hold a home holds: a root's word, or "\u" or "%2F", which a root spelt with
 * escapes or URL-encoded holds (its readings, with those undone, then spell the word).
 */
function keywordsOf(rootWords: readonly string[]): RegExp {
  return new RegExp([...rootWords, "%2f", "\\\\u"].join("|"), "i");
}

/**
 * Whether a text, as written or as it shows, holds a keyword. A text's ASCII stands unchanged in
 * the text as it shows: where every keyword is ASCII, a keyword the text holds the shown text holds
 * too, and the shown text alone is searched.
 */
function keywordTest(keywords: RegExp): (text: string) => boolean {
  const asciiKeywords = /^[\x00-\x7f]*$/.test(keywords.source);
  return (text) => {
    const shown = shownText(text);
    return asciiKeywords ? keywords.test(shown) : keywords.test(text) || (shown !== text && keywords.test(shown));
  };
}

/** Overlapping finds (a root inside a longer root) keep the one that starts first and reaches furthest. */
function firstAndLongest(found: OwnerSpan[]): OwnerSpan[] {
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: OwnerSpan[] = [];
  for (const o of found) if (kept.length === 0 || o.start >= (kept[kept.length - 1] as OwnerSpan).end) kept.push(o);
  return kept;
}

/** What a walk over a text needs of its grammar. */
interface WalkContext {
  knownForms: string[];
  /** The known names (and their slug spellings) in lower case that say where a slug's owner ends. */
  settledForms: ReadonlySet<string>;
  isOwner: (name: string) => boolean;
  stands: (text: string, from: number, at: number) => boolean;
  domainFolder: (segment: string) => boolean;
  anywhere: boolean;
  /** The words, one of which every root and slug spells in plain letters (global). */
  rootWords: RegExp;
}

/**
 * An owner as written with the full stops a sentence ends on after it taken off ("cd /home/user."):
 * the placeholder or a nobody with a stop after it names no one, as its letters are theirs.
 */
function sentenceName(name: string): string {
  return spelledName(name).replace(/\.+$/, "");
}

/**
 * A name with its text escapes undone ("al\x69ce", "al&#105;ce"), and its percent-escapes as often as a
 * URL escaped them again ("%2561" is "a").
 */
function spelledName(name: string): string {
  let out = undoTextEscapes(name);
  for (let k = 0; k < 4 && /%[0-9A-Fa-f]{2}/.test(out); k++) out = out.replace(/%([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  // A terminal's colours before or inside an owner ("\x1b[1m<name>", "\\e[1m<name>", "%1B%5B1m<name>"), or
  // the rest of one whose backslash a separator took ("e[1m<name>"), spell nothing of the name.
  return withoutTerminalSequences(out).replace(/^(?:(?:[eE]|[xX]1[bB]|u001[bB]|0?33|0x1[bB])\[[0-9;:?]*|(?:x9[bB]|u009[bB])[0-9;:?]+)[A-Za-z]/, "");
}

/**
 * Whether a folder where an owner stands reads as a domain, as winbind (a NetBIOS name in capitals)
 * and SSSD (a DNS name) lay out "<root>/<domain>/<user>"; rules/homes.json's domainFolders.
 */
function domainTest(rules: HomeRules): (segment: string) => boolean {
  const suffixes = new Set(rules.domainFolders?.suffixes ?? []);
  return (segment) => {
    if (/^[A-Z0-9_-]{2,}$/.test(segment) && /[A-Z]/.test(segment)) return true;
    const labels = segment.split(".");
    if (labels.length < 2 || !labels.every((l) => /^[A-Za-z0-9-]+$/.test(l))) return false;
    const last = (labels[labels.length - 1] as string).toLowerCase();
    return labels.length >= 3 || /^[a-z]{2}$/.test(last) || suffixes.has(last);
  };
}

function ownerSpan(ctx: WalkContext, text: string, from: number, rootEnd: number, root: RootMeta): OwnerSpan | null {
  const pattern = root.spaced ? SPACED_OWNER : root.slug ? SLUG_OWNER : SEGMENT_OWNER;
  // A home under a drive ("C:/msys64/home/<owner>") or written with backslashes before it is a Windows path too.
  const onWindows = underWindowsRoot(text, from, root);
  const windows = onWindows || text.slice(from, rootEnd).includes("\\");
  const quoted = root.slug ? null : quotedOwner(text, rootEnd, windows);
  // A word the rules say a host writes after this root is no one, however it is spelt.
  const hostWord = (name: string): boolean =>
    (root.notOwners.size > 0 && root.notOwners.has(sentenceName(name).toLowerCase())) || (root.notOwnersStartingWith?.some((m) => name.startsWith(m)) ?? false);
  if (quoted !== null) return { start: quoted.start, end: quoted.start + quoted.owner.length, owner: quoted.owner, real: ctx.isOwner(quoted.owner) && !hostWord(quoted.owner), unlearned: root.tilde, sure: true };
  const opened = root.slug || root.tilde ? rootEnd : openingQuoteEnd(text, rootEnd, OWNER_QUOTE);
  const at = onWindows && opened === rootEnd ? rootEnd - spelledSeparatorTail(text, from, rootEnd) : opened;
  const lead = root.slug ? at : unreadLeadEnd(text, at);
  const read = ownerAt(text, lead, pattern, ctx.knownForms) ?? (lead > at ? "" : null);
  if (read === null) return null;
  const owner = lead > at ? { text: text.slice(at, lead) + read, sure: true } : spacedOwner(text, from, at, read, ctx.isOwner);
  const end = withoutExtension(text, at, ownerWordEnd(text, at, at + owner.text.length, windows, pattern), root.extension);
  const whole = text.slice(at, end);
  const ownerRead = owner.text.slice(0, withoutExtension(owner.text, 0, owner.text.length, root.extension));
  const span: OwnerSpan = { start: at, end, owner: whole, real: (ctx.isOwner(whole) || whole !== ownerRead) && !hostWord(whole), unlearned: root.tilde, sure: owner.sure };
  // Two dashes or more where a slug's owner begins stand for letters a slug cannot write ("/home/<two Han letters>/work"
  // is "-home----work"): what follows them may be the next folder. The owner is replaced and found, never learned.
  if (root.slug && whole.startsWith("--")) span.untaught = true;
  if (onWindows && text.charAt(at - 1) === "\\") span.windowsFolder = true;
  return span;
}

/** Where an owner ends before the extension its root's system writes after it ("<owner>.plist"); where it ends, for an owner that is only the extension or a root with none. */
function withoutExtension(text: string, at: number, end: number, extension: string | undefined): number {
  if (extension === undefined || end - at <= extension.length) return end;
  return text.slice(end - extension.length, end).toLowerCase() === extension ? end - extension.length : end;
}

// A separator spelt as an escape at the end of a Windows root ("C:\Users\134...", "\057", "\x2f"):
// Windows reads no escapes, so the digits and letters after the backslash may begin the folder's name.
// Not where the root's own separators are spelt so ("C:\x5cUsers\x5c<owner>"): there the last is one too.
const SPELT_SEPARATOR_TAIL = new RegExp(String.raw`(?<=\\)${SPELT_SEPARATOR}$`);
const SPELT_SEPARATOR_IN = new RegExp(String.raw`\\${SPELT_SEPARATOR}`);
const OWNER_CHAR = new RegExp(`[${LETTER}]`);

/** Under a drive or a Windows root, not where only escapes put backslashes before it ("\x2fhome\x2fana"). */
function underWindowsRoot(text: string, from: number, root: RootMeta): boolean {
  return root.windows || /[A-Za-z]:$/.test(text.slice(Math.max(0, from - 2), from));
}

// Where a Windows root's separators go on past one spelt like an escape ("C:\Users\134\w", "C:\Users\x5c"
// at the text's end), Windows reads the escape's tail as the folder after the separator: that folder
// is an owner too, beside the one the escape reading finds after the run.
const SEPARATOR_RUN_END = new RegExp(`(?:${ONE_SEP})+$`);
const ONE_SEP_AT = new RegExp(ONE_SEP, "y");
const SPELT_AFTER_BACKSLASHES = new RegExp(String.raw`^\\+${SPELT_SEPARATOR}$`);
const BARE_SEPARATOR = /^(?:\/|\\+)$/;

/** The folder a Windows root's run of separators spells after its first backslash, where an escape would read a separator there; null where none does. */
function speltFolderOwner(ctx: WalkContext, text: string, from: number, rootEnd: number): OwnerSpan | null {
  if (spelledSeparatorTail(text, from, rootEnd) > 0) return null;
  const lookFrom = Math.max(from, rootEnd - 64);
  const run = SEPARATOR_RUN_END.exec(text.slice(lookFrom, rootEnd));
  if (run === null) return null;
  const runStart = lookFrom + run.index;
  if (SPELT_SEPARATOR_IN.test(text.slice(from, runStart))) return null;
  for (let k = runStart; k < rootEnd; ) {
    ONE_SEP_AT.lastIndex = k;
    const token = ONE_SEP_AT.exec(text)?.[0];
    if (token === undefined) return null;
    if (SPELT_AFTER_BACKSLASHES.test(token)) {
      const start = k + token.search(/[^\\]/);
      const owner = text.slice(start, k + token.length);
      return { start, end: k + token.length, owner, real: ctx.isOwner(owner), unlearned: false, sure: true, windowsFolder: true };
    }
    if (!BARE_SEPARATOR.test(token)) return null;
    k += token.length;
  }
  return null;
}

/** How many characters of a Windows root's end are an escape's tail that the owner after it may begin with (0: none). */
function spelledSeparatorTail(text: string, from: number, rootEnd: number): number {
  if (!OWNER_CHAR.test(text.charAt(rootEnd))) return 0;
  const tail = SPELT_SEPARATOR_TAIL.exec(text.slice(Math.max(from, rootEnd - 6), rootEnd))?.[0].length ?? 0;
  return tail > 0 && !SPELT_SEPARATOR_IN.test(text.slice(from, rootEnd - tail)) ? tail : 0;
}

// An owner a shell or a writer put in quotes ("/home/'First Last'/x", '/home/\"ann\"'): a quote,
// after any backslashes and quotes that join nothing to it ('"'"'First Last', ''ann), before a letter or digit. What stands between it and the same quote
// (spaces too) is the owner, unless a separator or a line's end comes first: then the owner is
// read after the quote as any owner is. The quotes stay; the name between them goes.
const OWNER_QUOTE = new RegExp(String.raw`(?:\\*['"\x60]){0,8}\\*(['"\x60])(?=[${INVISIBLE}]*[${LETTER}])`, "y");
// Where a closing quote follows, the quote may be doubled ("''ann''") and the name may begin with
// spaces ("' ann'"): what is between the quotes is the owner still.
const CLOSED_QUOTE = new RegExp(String.raw`\\*(['"\x60])(?:\\*\1)*(?=[ ${INVISIBLE}]*[${LETTER}&])`, "y");
// A name between quotes may hold what a text escapes but never a separator, however spelt
// ("'&eacute;ric'"), and the other quotes ("'First"x'"); it ends at the first of its own quote, after
// any backslashes. A part after the first may be empty ('First''').
const IN_QUOTES = String.raw`[^${STOP}\n\r\t]|\t|&(?:(?:amp|AMP);)*(?!${HTML_SEPARATOR})(?:[A-Za-z][A-Za-z0-9]{1,31}|#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6});`;
const QUOTE_SOURCE = new Map([
  ["'", "'"],
  ['"', '"'],
  ["`", String.raw`\x60`],
]);
const QUOTED_BY = new Map(
  [...QUOTE_SOURCE].map(([quote, own]) => {
    const others = [...QUOTE_SOURCE].filter(([q]) => q !== quote).map(([, source]) => source).join("");
    return [quote, new RegExp(String.raw`(?:${IN_QUOTES}|[${others}]){0,255}?(?=\\*${own})`, "y")];
  }),
);
// What a shell joins into one word after a closing quote, with no space between: a quote or a space
// it escaped ('O'\''Brien', 'First'\ 'Middle'), another quoted part in any quote ("First ""Middle",
// 'First Middle'"Last", 'O''Brien' as PowerShell spells it), a part in bash's ANSI-C quotes
// ('First'$'\x20''Middle'), and letters ('First Middle'Last); outside a Windows path, any
// character a backslash escapes and a line a backslash continues. A quote is one where as many
// backslashes stand before it as before the name's first (none in a shell's text, one in JSON
// held in a string); with any other number it is escaped, part of the word.
const ESCAPED_SPACE = /\\+ /y;
const ESCAPED_IN_WORD = /\\+(?:[^\s\/\\]| |\r?\n)/y;
// Letters outside quotes: a quote, even between letters, opens a part.
const UNQUOTED_PIECE = new RegExp(String.raw`(?:[^${STOP}\s]|%(?!(?:25)*(?:2[fF]|5[cC]))[0-9A-Fa-f]{2})+`, "y");
const OPENING_QUOTE = /\\*(['"`])/y;
const ANSI_C_PART = /\$'(?:[^'\\\n]|\\[^\n]){0,255}'/y;
// How many pieces one owner is read through: far more than any name is written in.
const QUOTED_PARTS = 16;

function openingQuoteEnd(text: string, at: number, pattern: RegExp): number {
  pattern.lastIndex = at;
  return pattern.test(text) ? pattern.lastIndex : at;
}

/** `pattern` matched at `at`: where its match ends, or -1. */
function endOf(pattern: RegExp, text: string, at: number): number {
  pattern.lastIndex = at;
  return pattern.test(text) ? pattern.lastIndex : -1;
}

/** A part quoted with `quote` from `at`: where its content ends and where the closing quote ends; null where none closes. */
function quotedPart(text: string, at: number, quote: string): { end: number; closed: number } | null {
  const end = endOf(QUOTED_BY.get(quote) as RegExp, text, at);
  return end === -1 ? null : { end, closed: endOf(OPENING_QUOTE, text, end) };
}

/**
 * The owner between quotes opened before `at`, through every piece a shell joins to it in one word
 * ('O'\''Brien Last', "First ""Middle", 'First Middle'Last). Past a quote that opens and never
 * closes, the rest of the folder is the name's still.
 */
function quotedName(text: string, at: number, quote: string, level: number, windows: boolean): { start: number; end: number } | null {
  const first = quotedPart(text, at, quote);
  if (first === null || first.end === at) return null;
  const word = joinedEnd(text, { end: first.end, closedBy: quote, closed: first.closed }, level, windows);
  if (word.closedBy === quote) return { start: at, end: word.end };
  // Ended otherwise than it opened ('First Middle'Last, 'First'"Middle"), the word goes whole, its
  // quotes too: a quote left open would be closed by a later one when the text is read again.
  return { start: at - 1 - level, end: word.closedBy === null ? word.end : word.closed };
}

/** A shell word read so far: where its content ends, and the quote that closed its last part and where that quote ends (none where it ended unquoted). */
interface ShellWord {
  end: number;
  closedBy: string | null;
  closed: number;
}

/**
 * A shell word that goes on where `word` was closed (or, unquoted, where its content ends): through
 * escaped characters (outside a Windows path, any but a separator, and a line continued), ANSI-C
 * parts, letters and parts in quotes, each quote one with `level` backslashes before it.
 */
function joinedEnd(text: string, word: ShellWord, level: number, windows: boolean): ShellWord {
  let { end, closedBy, closed } = word;
  let next = closedBy === null ? end : closed;
  for (let piece = 0; piece < QUOTED_PARTS; piece++) {
    const escaped = endOf(windows ? ESCAPED_SPACE : ESCAPED_IN_WORD, text, next);
    const ansi = escaped === -1 ? endOf(ANSI_C_PART, text, next) : -1;
    const letters = escaped === -1 && ansi === -1 ? endOf(UNQUOTED_PIECE, text, next) : -1;
    if (escaped !== -1 || ansi !== -1 || letters !== -1) {
      next = Math.max(escaped, ansi, letters);
      if (escaped === -1 || !/\s/.test(text.charAt(escaped - 1))) [end, closedBy] = [next, null];
      continue;
    }
    const opened = endOf(OPENING_QUOTE, text, next);
    if (opened === -1) break;
    if (opened - 1 - next !== level) {
      next = opened;
      continue;
    }
    const part = quotedPart(text, opened, text.charAt(opened - 1));
    if (part === null) {
      const rest = endOf(SEGMENT_OWNER, text, opened);
      if (rest !== -1) [end, closedBy] = [rest, null];
      break;
    }
    // A part of quotes alone ('"'"') quotes the next level of a command: it joins no letter to the name.
    if (/[^'"`\\\s]/.test(text.slice(opened, part.end))) [end, closedBy, closed] = [part.end, text.charAt(opened - 1), part.closed];
    next = part.closed;
  }
  return { end, closedBy, closed };
}

/** Whether a quote other than the word's last closes, at `at`, a text the path stood in ("cd \"/home/First' Last'\"" ends there). */
function closesOuter(text: string, at: number, closedBy: string | null): boolean {
  const quote = text.charAt(at);
  return closedBy !== null && QUOTES.has(quote) && quote !== closedBy && /^(?:[\s;,)&|]|$)/.test(text.charAt(at + 1));
}

// A quote right after an owner read without one.
const QUOTE_NEXT = /\\*['"`]/y;

/**
 * Where an owner read from `start` to `end` ends: through an escape the readings leave as written
 * and the folder name after it, and through a part in quotes the same shell word joins to it
 * ("/home/First' Middle'/x"), where the path goes on after that word or the text it stood in ends.
 */
function ownerWordEnd(text: string, start: number, end: number, windows: boolean, pattern: RegExp): number {
  let read = throughUnread(text, start, end, windows, pattern);
  for (let piece = 0; piece < QUOTED_PARTS && endOf(QUOTE_NEXT, text, read) !== -1; piece++) {
    const word = joinedEnd(text, { end: read, closedBy: null, closed: read }, quoteLevel(text, endOf(QUOTE_NEXT, text, read) - 1), windows);
    // A part in quotes goes with its closing quote, so that none is left open.
    const joined = word.closedBy === null ? word.end : word.closed;
    if (word.end <= read || !OWNER_CHAR.test(text.slice(read, word.end)) || !(endOf(SEPARATOR_AT, text, joined) !== -1 || closesOuter(text, joined, word.closedBy))) break;
    // What the readings leave as written may follow the word too.
    read = throughUnread(text, start, joined, windows, pattern);
  }
  return read;
}

/**
 * How many of the backslashes before a quote at `at` are the text's own escape of it (JSON in a
 * string), not a Windows separator: those beyond the run before the folder before it.
 */
function quoteLevel(text: string, at: number): number {
  const backslashesTo = (end: number): number => {
    let k = end;
    while (k > 0 && text.charCodeAt(k - 1) === 0x5c) k--;
    return end - k;
  };
  const run = backslashesTo(at);
  let folder = at - run;
  const stop = Math.max(0, folder - 256);
  while (folder > stop && !/[\\/]/.test(text.charAt(folder - 1))) folder--;
  return Math.max(0, run - backslashesTo(folder));
}

/** The quoted owner at `rootEnd`, where a closing quote ends it: a quote doubled and spaces after it first. */
function quotedOwner(text: string, rootEnd: number, windows: boolean): { start: number; owner: string } | null {
  for (const pattern of [OWNER_QUOTE, CLOSED_QUOTE]) {
    const opened = openingQuoteEnd(text, rootEnd, pattern);
    const word = opened > rootEnd ? quotedName(text, opened, text.charAt(opened - 1), quoteLevel(text, opened - 1), windows) : null;
    if (word !== null) return { start: word.start, owner: text.slice(word.start, word.end) };
  }
  return null;
}

/**
 * Where an owner ends that an escape the text readings do not undo follows: the name may go on in
 * it, so the owner runs through it and the folder name after it, as often as one follows. The
 * placeholder written in its place is followed by what followed the whole, so that a second
 * reading finds no escape after it either.
 */
function throughUnread(text: string, start: number, end: number, windows: boolean, pattern: RegExp): number {
  for (let e = unreadEscapeEnd(text, start, end, windows); e > end; e = unreadEscapeEnd(text, start, end, windows)) {
    pattern.lastIndex = e;
    const more = pattern.exec(text)?.[0] ?? "";
    end = e + (pattern === SPACED_OWNER ? more.replace(/[\s\\]+$/, "") : more).length;
  }
  return end;
}

/** The folder after a domain folder ("<root>/<domain>/<user>"), where one follows: an owner too. */
function domainMember(ctx: WalkContext, text: string, from: number, end: number, root: RootMeta): OwnerSpan | null {
  let at = end + 1;
  if (!root.slug) {
    SEPARATOR_AT.lastIndex = end;
    if (!SEPARATOR_AT.test(text)) return null;
    at = SEPARATOR_AT.lastIndex;
  } else if (text.charAt(end) !== "-") return null;
  const member = ownerSpan(ctx, text, from, at, root);
  return member === null || member.owner.startsWith(".") ? null : member;
}

/** The line a walk is searching: found once per line, as the search moves forward through a text. */
class LineWindow {
  start = 0;
  end = -1;
  slice = "";
  constructor(readonly text: string) {}

  /**
   * The line that holds `at`. A walk asks for places further on each time, so each line is looked
   * for once, back to the line break the last line ended at: the whole text is read once.
   */
  at(at: number): this {
    if (at >= this.start && at < this.end) return this;
    const { text } = this;
    this.start = text.lastIndexOf("\n", at) + 1;
    const newline = text.indexOf("\n", at);
    this.end = newline === -1 ? text.length : newline;
    this.slice = this.start === 0 && this.end === text.length ? text : text.slice(this.start, this.end);
    return this;
  }
}

/** How many patterns of some of the roots one search compiles at most. */
const MAX_ROOT_PATTERNS = 16;

/**
 * How many alternatives one compiled pattern joins. V8 finds where a few alternatives may start
 * without trying them; past about a dozen it tries each at every place, and a line of 100 KB with
 * a home in it took a quarter of a second where patterns of eight each take a millisecond.
 */
const ALTERNATIVES_PER_PATTERN = 8;

/** One root's (or slug's) pattern, named where it is a root's, and the word it spells. */
interface Alternative {
  source: string;
  word: string;
}

/**
 * Alternatives in their order, searched as the one alternation of them all would be, in patterns
 * of a few each (or of a few thousand characters each): the leftmost match of any, and of those
 * starting at one place the first pattern's, whose first alternative matching there is the alternation's. Each pattern's next
 * match is remembered while a search moves forward through a line, so each reads the line once.
 */
class Alternation {
  readonly #patterns: RegExp[] = [];
  #line: string | null = null;
  /** Per pattern: where its last search started, and what it found there or after (null: nothing); undefined: search again. */
  readonly #from: number[];
  readonly #found: (RegExpExecArray | null | undefined)[];

  /** The source of each pattern searched, in order. */
  get sources(): string[] {
    return this.#patterns.map((p) => p.source);
  }

  /** `most`: how many alternatives, and how many characters of source, one pattern joins at most (an alternative longer than that stands alone). */
  constructor(sources: readonly string[], flags: string, most = { alternatives: ALTERNATIVES_PER_PATTERN, chars: Infinity }) {
    const groups: string[][] = [];
    let chars = 0;
    for (const source of sources) {
      const group = groups[groups.length - 1];
      if (group !== undefined && group.length < most.alternatives && chars + 1 + source.length <= most.chars) {
        group.push(source);
        chars += 1 + source.length;
      } else {
        groups.push([source]);
        chars = source.length;
      }
    }
    for (const group of groups) this.#patterns.push(new RegExp(group.join("|"), flags));
    this.#from = this.#patterns.map(() => 0);
    this.#found = this.#patterns.map(() => undefined);
  }

  /** The first match in `line` at `from` or after it; the caller may change it, as it is never handed out twice. */
  exec(line: string, from: number): RegExpExecArray | null {
    if (line !== this.#line) {
      this.#line = line;
      this.#found.fill(undefined);
    }
    let best: RegExpExecArray | null = null;
    let bestOf = -1;
    this.#patterns.forEach((re, k) => {
      let m = this.#found[k];
      // A match found from an earlier place is the first from this one too, as long as it is not behind it.
      if (m === undefined || from < (this.#from[k] as number) || (m !== null && m.index < from)) {
        re.lastIndex = from;
        m = re.exec(line);
        this.#found[k] = m;
        this.#from[k] = from;
      }
      if (m !== null && (best === null || m.index < best.index)) [best, bestOf] = [m, k];
    });
    if (bestOf >= 0) this.#found[bestOf] = undefined;
    return best;
  }
}

/**
 * The roots (or the slugs) as one alternation in their order, compiled for a line with only those
 * whose word the line holds. A root's match spells its word and stands in one line, so a root left
 * out finds nothing in that line: the first match, and the alternative it takes, are those of
 * every root together. Compiling costs as the patterns' size does, and a sitting's lines name one
 * or two kinds of root ("home", "Users"): only theirs are compiled. Rules with many words of roots
 * could meet many sets of them; past a few, a line is searched with every root's alternation.
 */
class RootSearch {
  readonly #alternatives: readonly Alternative[];
  readonly #words: { word: string; test: RegExp }[];
  readonly #compiled = new Map<string, Alternation | null>();
  #line: string | null = null;
  #search: Alternation | null = null;
  #every: Alternation | null = null;

  constructor(
    alternatives: readonly Alternative[],
    readonly flags: string,
  ) {
    this.#alternatives = alternatives;
    this.#words = [...new Set(alternatives.map((a) => a.word))].map((word) => ({ word, test: new RegExp(word, "i") }));
  }

  /** The alternation of the alternatives whose word `line` holds; null where it holds none. */
  forLine(line: string): Alternation | null {
    if (line === this.#line) return this.#search;
    const held = new Set(this.#words.filter((w) => w.test.test(line)).map((w) => w.word));
    const key = this.#words.map((w) => (held.has(w.word) ? "1" : "0")).join("");
    let search = this.#compiled.get(key);
    if (search === undefined && this.#compiled.size < MAX_ROOT_PATTERNS) this.#compiled.set(key, (search = this.#alternationOf(held)));
    else if (search === undefined) search = held.size === 0 ? null : (this.#every ??= this.#alternationOf(null));
    this.#line = line;
    this.#search = search;
    return search;
  }

  /** The alternation of the alternatives whose word is held (of all of them, for null); null for none. */
  #alternationOf(held: ReadonlySet<string> | null): Alternation | null {
    const sources = this.#alternatives.filter((a) => held === null || held.has(a.word)).map((a) => a.source);
    return sources.length === 0 ? null : new Alternation(sources, this.flags);
  }
}

/**
 * The next match of the roots (or the slugs) from `cursor.at`, in full-text places. A root spells
 * one of the roots' words and holds no line break, so a match stands in a line that holds such a
 * word: each such line is searched alone and no other, and a long text (a command's whole output)
 * is not tried at every place. Seen from a line, its edges read as a line break reads: no
 * lookaround of a root takes one.
 */
function nextRoot(ctx: WalkContext, lines: LineWindow, search: RootSearch, cursor: { at: number }): RegExpExecArray | null {
  const { text } = lines;
  // No root is empty: none starts at the end (where a keyword of nothing would be found forever).
  for (let from = cursor.at; from < text.length; ) {
    ctx.rootWords.lastIndex = from;
    const word = ctx.rootWords.exec(text);
    if (word === null) return null;
    const line = lines.at(word.index);
    const alternation = search.forLine(line.slice);
    if (alternation !== null) {
      const m = alternation.exec(line.slice, Math.max(from, line.start) - line.start);
      if (m !== null) {
        m.index += line.start;
        cursor.at = m.index + m[0].length;
        return m;
      }
    }
    from = Math.max(line.end, from + 1);
  }
  return null;
}

/** Every owner the roots or the slugs find in a text, in one walk. */
function collect(ctx: WalkContext, text: string, search: RootSearch, breaks: RegExp, pick: (m: RegExpExecArray) => RootMeta, out: OwnerSpan[]): void {
  const starts = new PathStarts(text, breaks);
  const lines = new LineWindow(text);
  const cursor = { at: 0 };
  for (let m = nextRoot(ctx, lines, search, cursor); m !== null; m = nextRoot(ctx, lines, search, cursor)) {
    if (m[0].length === 0) cursor.at++;
    const root = pick(m);
    const from = starts.at(m.index);
    // Inside a home a root is a folder of it, unless a mount stands before it: a volume under /media/<owner> holds homes of its own.
    const inHome = starts.homeIn === from && !starts.climbsTo(m.index) && !(root.anchored && ctx.stands(text, from, m.index));
    if (!ctx.anywhere && (inHome || (root.anchored && !ctx.stands(text, from, m.index)))) continue;
    const at = m.index + m[0].length;
    let owner = ownerSpan(ctx, text, from, at, root);
    // Right after a web address's host a root may begin a route ("/users/42"): its owner is replaced, as a home's, and never learned.
    if (owner !== null && root.anchored && afterWebHost(text, from, m.index)) owner = { ...owner, unlearned: true };
    const spelt = root.slug || !underWindowsRoot(text, from, root) ? null : speltFolderOwner(ctx, text, from, at);
    // Right before the owner the escape reading finds ("C:\Users\x2f and more"), the folder is one with it.
    if (spelt !== null && owner !== null && owner.start <= spelt.end) owner = { ...owner, start: spelt.start, owner: text.slice(spelt.start, owner.end), real: true, windowsFolder: true };
    else if (spelt !== null) out.push(spelt);
    // "/home/.." climbs above the homes: what follows is read as any path is.
    if (owner === null || /^\.\.?$/.test(owner.owner)) continue;
    // A root's word inside an owner that names no one ("Users" of "All Users") is a piece of that folder's name.
    if (!owner.real) cursor.at = Math.max(cursor.at, owner.end);
    out.push(owner);
    const member = root.domains && ctx.domainFolder(owner.owner) ? domainMember(ctx, text, from, owner.end, root) : null;
    if (member) out.push(member);
    if (root.slug && slugRunsOn(ctx, text, member ?? owner)) (member ?? owner).runsOn = true;
    if (!root.slug) pushAll(out, climbed(text, (member ?? owner).end, starts, ctx.knownForms, ctx.isOwner, root.windows || owner.windowsFolder === true));
    starts.ownerEnd = (out[out.length - 1] as OwnerSpan).end;
    // The path as it stands where the owner ends: a drive's colon ("C:\\Users") is a break before it.
    starts.homeIn = starts.at(starts.ownerEnd);
  }
}

/** The known names and their slug spellings, in lower case, but those a run-on slug alone taught. */
function settledForms(known: string[], unsettled: string[]): Set<string> {
  const left = new Set(unsettled.map((n) => n.toLowerCase()));
  return new Set(known.filter((n) => !left.has(n.toLowerCase())).flatMap(nameSpellings).map((n) => n.toLowerCase()));
}

/**
 * Whether a slug's owner is someone no settled name spells whole, with more of the slug after it:
 * its letters may go on past the dash. An owner begun with dashes (letters a slug cannot write)
 * already takes the folder after them with it.
 */
function slugRunsOn(ctx: WalkContext, text: string, o: OwnerSpan): boolean {
  return o.real && o.untaught !== true && /^-+[A-Za-z0-9]/.test(text.slice(o.end, o.end + 64)) && !ctx.settledForms.has(o.owner.toLowerCase());
}

const ENDS_OWNER = new RegExp(String.raw`[${STOP}\s]`);

/**
 * Whether `at` falls inside an escape the reading undid, after its first character, that spells what
 * no owner holds (a separator, a quote, a space): then an owner read from there is a piece of the
 * escape ("u" of "\u{2f}"), which the reading spells whole. An escape that spells a letter or a digit
 * may be the owner's own spelling ("C:\Users\u0123456", a Windows folder after its separator).
 */
function insideEscape(reading: TextEscapeReading, at: number): boolean {
  const { starts, ends } = reading;
  // The last unit that starts at or before `at`.
  const unit = lastAtOrBelow(starts, at);
  return (starts[unit] as number) < at && at < (ends[unit] as number) && ENDS_OWNER.test(reading.text.charAt(unit));
}

/** An owner found in a text's escape reading, as the range of the text it was written in. */
function inInput(text: string, reading: TextEscapeReading, o: OwnerSpan): OwnerSpan {
  const start = reading.starts[o.start] as number;
  const end = reading.ends[o.end - 1] as number;
  return { ...o, start, end, owner: text.slice(start, end) };
}

/**
 * The owners of a text and of its escape reading, together: owners that overlap are one owner, from
 * the first start to the last end, so that what an escape cut off is replaced with the rest. It is
 * someone where any reading of it is; unlearned or unsure only where every reading is. Where a
 * Windows path's single backslash ends the placeholder or nobody, that backslash is a separator:
 * a cleared "C:\Users\<placeholder>\x64" keeps its folder.
 */
function merged(text: string, found: OwnerSpan[], decoded: OwnerSpan[], isOwner: (name: string) => boolean): OwnerSpan[] {
  const all = [...found, ...decoded].sort((a, b) => a.start - b.start || b.end - a.end);
  const inFound = new Set(found);
  const out: OwnerSpan[] = [];
  for (let i = 0; i < all.length; ) {
    const group = [all[i] as OwnerSpan];
    let end = group[0]!.end;
    for (i++; i < all.length && (all[i] as OwnerSpan).start < end; i++) {
      group.push(all[i] as OwnerSpan);
      end = Math.max(end, (all[i] as OwnerSpan).end);
    }
    const first = group[0] as OwnerSpan;
    // After the placeholder or nobody in a Windows path ("C:\Users\<placeholder>\x64"), a backslash is a separator, as it reads.
    const nobody = group.find((o) => inFound.has(o) && !o.real && text.charAt(o.start - 1) === "\\" && text.charAt(o.end) === "\\");
    if (nobody || group.every((o) => o.start === first.start && o.end === first.end && o.owner === first.owner)) {
      out.push(nobody ?? first);
      continue;
    }
    const owner = text.slice(first.start, end);
    const span: OwnerSpan = { start: first.start, end, owner, real: isOwner(owner) || group.some((o) => o.real), unlearned: group.every((o) => o.unlearned), sure: group.every((o) => o.sure) };
    // A Windows path's single backslash before the owner: the backslash after it may be a separator too.
    const head = group.find((o) => inFound.has(o) && o.real && o.end < end && text.charAt(o.start - 1) === "\\" && text.charAt(o.end) === "\\");
    if (head) span.alsoOwner = head.owner;
    out.push(span);
  }
  return out;
}

function buildGrammar(rules: HomeRules, known: string[], options: GrammarOptions): HomeGrammar {
  const notOwners = new Set([...rules.notOwners, ...(rules.declared ?? []).map((d) => d.segment)].map((n) => n.toLowerCase()));
  const { roots, slugs, meta, slug } = patterns(rules);
  const mounts = rules.position.mounts.map(mountShape);
  const deepest = mounts.reduce((a, m) => Math.max(a, m.length), -Infinity);
  const words = rootWordsOf(rules);
  const keywords = keywordsOf(words);
  // An owner spelt with percent-escapes ("%61na") is the owner they spell; "%USERNAME%" spells none.
  const isOwner = (name: string): boolean => {
    const plain = spelledName(name);
    const word = sentenceName(name);
    return word !== rules.placeholder && !notOwners.has(word.toLowerCase()) && !/^[$%~.]|^\.\.?$/.test(plain);
  };
  const ctx: WalkContext = {
    knownForms: [...new Set(known.flatMap(nameSpellings))].sort((a, b) => b.length - a.length),
    settledForms: settledForms(known, options.unsettled ?? []),
    isOwner,
    stands: (text, from, at) => standsIn(text, from, at, mounts, deepest),
    domainFolder: domainTest(rules),
    anywhere: options.anywhere === true,
    // A walk reads one text, in which a root is spelt in letters: a line holding no root's word holds no root.
    rootWords: new RegExp(words.join("|"), "gi"),
  };
  const groupNames = [...meta.keys()];
  const rootOf = (m: RegExpExecArray): RootMeta => {
    const groups = m.groups ?? {};
    for (const name of groupNames) if (groups[name] !== undefined) return meta.get(name) as RootMeta;
    return slug;
  };
  const holdsKeyword = keywordTest(keywords);
  // A sitting repeats its paths: each distinct text is read once per grammar.
  const seen = new Memo<readonly OwnerSpan[]>();
  const seenReal = new Memo<readonly OwnerSpan[]>();

  const grammar: HomeGrammar = {
    placeholder: rules.placeholder,
    isOwner,
    mayHold: (text) => holdsKeyword(text) || (MAY_HOLD_ESCAPE.test(text) && keywords.test(shownText(undoTextEscapes(text)))),
    realOwners: (text) => seenReal.get(text, () => grammar.owners(text).filter((o) => o.real)),
    owners: (text) => seen.get(text, () => {
      const found = walk(text);
      // A root or an owner written with a text escape is read in the text with its escapes undone too.
      const reading = textEscapeReading(text);
      // An owner read from inside an escape ("u" of "\\u{2f}") is a piece of the escape, which the reading spells whole.
      const both = reading === null ? found : merged(text, found.filter((o) => o.windowsFolder === true || !insideEscape(reading, o.start)), walk(reading.text).map((o) => inInput(text, reading, o)), isOwner);
      // A root as it shows ("/home\u200b/<name>", "\u2215home\u2215<name>", "/\uff48ome/<name>") is read too.
      const shown = shownReading(text, reading, keywords);
      return shown === null ? both : merged(text, both, walk(shown.text).map((o) => inInput(text, shown, o)), isOwner);
    }),
  };
  function walk(text: string): OwnerSpan[] {
    const out: OwnerSpan[] = [];
    collect(ctx, text, roots, PATH_BREAK, rootOf, out);
    // A slug is one path segment: a second root inside the same slug is a folder of the first owner's.
    collect(ctx, text, slugs, SLUG_BREAK, () => slug, out);
    return firstAndLongest(out);
  }
  return grammar;
}

/**
 * The names an owner teaches, in lower case: itself, and each word of it a text may write alone
 * ("Alice Smith", "alice.smith@corp", "alice-smith", "alice_smith": alice, smith; "ana+dev": ana); where its words after the
 * first may be the text's own (`sure` false), the first word only.
 */
export function ownerNames(owner: string, sure = true): string[] {
  const spelt = spelledName(owner).replace(/\\(?=\s)/g, "");
  // An owner that is only a terminal's colour (between a root and its separator) names nobody.
  if (spelt.trim() === "") return [];
  const local = spelt.replace(/^([^@]+)@.*$/su, "$1").replace(/^([^+]+)\+.*$/su, "$1");
  // Each word also as the parts a shell's quotes join ("First Middle'\"Last\"": Last); a shell's
  // variable joined to them ("'ann'\"$HOME\"") is the text's, not the name's.
  const bare = local.replace(/\$\{?[A-Za-z_][A-Za-z0-9_]*\}?/g, " ");
  // Any other mark between letters parts words too: Windows's short name of a profile
  // ("MARGOT~1" for "margotdupont"), a copy's number ("ana (1)", "ana[1]"), "ana's". So do digits:
  // a login numbered to tell it from another's ("ana2", "2ana", "ana.smith01") is the person's
  // letters, which a text writes alone.
  const words = [...new Set([...bare.split(/[\s._-]+/u), ...bare.split(/[\s._'"\x60\\-]+/u), ...bare.split(/[^\p{L}\p{M}\p{N}]+/u), ...bare.split(/[^\p{L}\p{M}]+/u)])]
    .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ""))
    .filter((w) => /\p{L}/u.test(w) && [...w].length >= 2);
  // An owner a terminal coloured is taught as it shows: its colours are no part of any name.
  const taught = [...(withoutTerminalSequences(owner) === owner ? [owner] : []), spelt, ...(sure ? words : words.slice(0, 1))];
  return [...new Set(taught.map((n) => n.toLowerCase()))];
}

/** The names an owner span teaches: its owner's, and those of the owner up to an escape that may be a separator. */
export function spanNames(o: OwnerSpan): string[] {
  if (o.untaught) return [];
  const names = ownerNames(o.owner, o.sure);
  return o.alsoOwner === undefined ? names : [...new Set([...names, ...ownerNames(o.alsoOwner, o.sure)])];
}

// How far a name is looked for inside longer words. Replacing it there would corrupt unrelated
// words ("al" in "also"), so such a find is never substituted: it refuses the file.
const GLUED_ANYWHERE = 5;
const GLUED_TO_DIGITS = 3;

/** Scripts written with no space between words: a name in one stands joined to the words around it ("<name>的项目", the name's project). */
const UNSPACED_NAME = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\u30fc]{2,}$/u;

// A login joins words a person writes apart: <first><last> is also "<First> <Last>",
// "<first>.<last>", "<last>_<first>", "<f>.<last>". Where the words part is not known, every
// place that leaves each word three letters or more is tried; such a form is found only as a word
// of its own (never across two words of code, "get_handler"), while the name as written is found
// inside words as ever.
/** What may join the words of a name: spaces, dots, dashes of any kind, an underscore, a comma and the like, three at most. */
const JOIN_CHAR = String.raw`[\s._\-\u2010-\u2015\u00b7\u30fb'\u2019+~:,|&/]`;
const JOIN = `${JOIN_CHAR}{1,3}`;
/** A join that holds a line end, in at most five characters (any join of three that holds one is one). */
const JOIN_OVER_LINE_END = `${JOIN_CHAR}{0,2}\n${JOIN_CHAR}{0,2}`;
/** The fewest letters each word of a name parted so keeps. */
const WORD_LETTERS = 3;
/** The fewest letters of the word an initial stands before (j.smith). */
const AFTER_INITIAL = 5;

/** Names longer than this are no person's words: they are looked for as written only. */
const MAX_PARTED = 32;

/** A name of letters only, parted into two words at each place it can be, forward, reversed and as an initial before the rest, each as a word of its own. */
function partedForms(form: string, join = JOIN): string[] {
  const letters = [...form];
  if (letters.length > MAX_PARTED) return [];
  const out: string[] = [];
  for (let at = WORD_LETTERS; at <= letters.length - WORD_LETTERS; at++) {
    const [first, last] = [escapeRegex(letters.slice(0, at).join("")), escapeRegex(letters.slice(at).join(""))];
    out.push(`${first}${join}${last}`, `${last}${join}${first}`);
    // Written with its mark only: an initial joined to the rest reads as a word ("a" and "rchive").
    if (letters.length - at >= AFTER_INITIAL) out.push(`${escapeRegex(letters[0] as string)}${join}${last}`);
  }
  return out.length === 0 ? [] : [String.raw`(?<!\p{L})(?:${out.join("|")})(?!\p{L})`];
}

/** Whether a spelling of a name is also looked for parted into two words (namePart). */
function isParted(form: string): boolean {
  const length = [...form].length;
  return !UNSPACED_NAME.test(form) && length >= GLUED_ANYWHERE && (form.match(/\p{L}/gu)?.length ?? 0) === length;
}

/** One spelling of a name as a pattern, with the boundaries its length and letters allow. */
function namePart(form: string): string {
  const body = escapeRegex(form);
  if (UNSPACED_NAME.test(form)) return body;
  const length = [...form].length;
  const letters = form.match(/\p{L}/gu)?.length ?? 0;
  // alice2, xalice, alicesmith: a name this long inside a word is not there by chance.
  if (length >= GLUED_ANYWHERE && letters >= GLUED_TO_DIGITS) return [body, ...(isParted(form) ? partedForms(form) : [])].join("|");
  // ana2, 2ana: joined by digits, not letters; a name of hex letters only is what ids spell by chance.
  if (length >= GLUED_TO_DIGITS && letters === length && !/^[a-f]+$/i.test(form)) return String.raw`(?<!\p{L})${body}(?!\p{L})`;
  return String.raw`(?<![\p{L}\p{N}])${body}(?![\p{L}\p{N}])`;
}

/**
 * How many characters of source one compiled pattern of names holds at most. Past 20,000 V8 leaves
 * a pattern unoptimized and searches it some fifty times slower: forty names of eight letters,
 * each in its every spelling, come to that in one alternation. Few alternatives to a pattern are
 * searched faster too, as the roots' are: the 33 names this repository's README and home rules
 * teach, 957 alternatives, took 10 s of CPU in one pattern to scan them, 7 s in patterns of eight.
 */
const NAME_PATTERN_CHARS = 16_000;

/**
 * How a find of the names may run over a line's end: only a name parted into two words does (its
 * join may be white space), within `reach` characters of it, and only where `pattern` (those
 * parted forms, their join holding the line end) finds something; "any" where a form of a name
 * holds a line end itself. Null where none can.
 */
export type LineEndCrossing = { pattern: NamePattern; reach: number } | "any" | null;

/**
 * The names a scan looks for, as one alternation of their spellings in any letter case, searched
 * in patterns of a few alternatives and a few thousand characters at most each (see Alternation):
 * what it finds, where, and which spelling, is what the one alternation finds.
 */
export class NamePattern {
  readonly #search: Alternation;

  constructor(
    alternatives: readonly string[],
    /** The one alternation, as written: what an engine made from these names is known by. */
    readonly source: string,
    readonly crossing: LineEndCrossing,
  ) {
    this.#search = new Alternation(alternatives, "giu", { alternatives: ALTERNATIVES_PER_PATTERN, chars: NAME_PATTERN_CHARS });
  }

  /** The first find in `text` at `from` or after it. */
  exec(text: string, from = 0): RegExpExecArray | null {
    return this.#search.exec(text, from);
  }

  /** The patterns the names are searched in, each of a few alternatives and a few thousand characters at most. */
  get parts(): string[] {
    return this.#search.sources;
  }

  test(text: string): boolean {
    return this.exec(text) !== null;
  }

  /** Every find in `text`, one after the other, as a global search finds them. */
  all(text: string): RegExpExecArray[] {
    const out: RegExpExecArray[] = [];
    for (let m = this.exec(text); m !== null; m = this.exec(text, m.index + Math.max(m[0].length, 1))) out.push(m);
    return out;
  }

  /** `text` with each find made `by`. */
  replace(text: string, by: string): string {
    let [out, from] = ["", 0];
    for (const m of this.all(text)) [out, from] = [out + text.slice(from, m.index) + by, m.index + m[0].length];
    return out + text.slice(from);
  }
}

/**
 * A pattern for user names in any letter case, also in their slug spelling: a name of five
 * characters or more (three of them letters) also inside a longer word, one of three or four letters
 * also joined to digits, a shorter one as a whole word; a name of two or more in a script written
 * without spaces (Chinese, Japanese, Thai) anywhere.
 */
export function userNamePattern(users: string[]): NamePattern | null {
  const forms = [...new Set(users.flatMap(nameForms))].filter((n) => n.length > 0);
  if (forms.length === 0) return null;
  const encoded = [...new Set(forms.flatMap(encodedCores))].map(escapeRegex);
  const roman = [...new Set(users.flatMap(romanized))].filter((r) => !forms.includes(r)).map(romanizedPart);
  forms.sort((a, b) => b.length - a.length);
  // A name longer than this (no account's is) overflows the engine's stack where it is looked for:
  // nothing could be proved clear of it, so nothing goes on. Where the sitting taught it is said
  // before this (`tooLongName`); here only its length is known.
  const longest = forms[0]?.length ?? 0;
  const tooLong = (): OutputError => new OutputError(`the sitting teaches a name of ${longest} characters, more than the ${MAX_NAME_CHARS} the tool can look for; nothing written`);
  if (longest > MAX_NAME_CHARS) throw tooLong();
  const reversed = [...new Set(forms.flatMap(reversedPart))];
  const alternatives = [...forms.map(namePart), ...roman, ...encoded, ...reversed];
  try {
    return new NamePattern(alternatives, alternatives.join("|"), lineEndCrossingOf(users));
  } catch {
    throw tooLong();
  }
}

function lineEndCrossingOf(users: string[]): LineEndCrossing {
  const forms = [...new Set(users.flatMap(nameForms))].filter((n) => n.length > 0);
  if ([...forms, ...users.flatMap(romanized)].some((f) => f.includes("\n"))) return "any";
  const parted = forms.filter(isParted);
  const alternatives = parted.flatMap((f) => partedForms(f, JOIN_OVER_LINE_END));
  if (alternatives.length === 0) return null;
  // Two words of the longest form, each letter's other case perhaps twice as long, the join, and a character each side for the boundaries.
  const reach = 2 * parted.reduce((most, f) => Math.max(most, f.length), 0) + 7;
  return { pattern: new NamePattern(alternatives, alternatives.join("|"), null), reach };
}

// A name is also looked for encoded, glued to whatever was encoded with it: in hex from five
// bytes, in base64 and base32 from six (most names are that short: a name of six letters, base64
// of a home that names it, is a path's or an id's part). The pattern ignores letter case, so a
// base64 core matches its every case: six bytes give cores of seven characters or more, each
// character one of 32 or so once case is set aside, which random base64 (a data URI in a fixture)
// holds by chance about once in 10^10 places for each core. Past 64 bytes, no person's.
const HEX_NAME = 5;
const ENCODED_NAME = 6;
const MAX_ENCODED = 64;

/**
 * The characters of a name's encodings that do not depend on what was encoded beside it, as the
 * name is written, capitalised and in capitals: its hex, and its base64 (and base64url) and base32
 * at each offset it may start at. Found anywhere, a name encoded with other text (an id, a path,
 * a version) is found as it is when encoded alone. Six characters or more each.
 */
function encodedCores(form: string): string[] {
  const size = Buffer.byteLength(form, "utf8");
  if (size < HEX_NAME || size > MAX_ENCODED || UNSPACED_NAME.test(form)) return [];
  const cased = [...new Set([form, form.toLowerCase(), form.toUpperCase(), form.charAt(0).toUpperCase() + form.slice(1).toLowerCase()])];
  return cased.flatMap((f) => {
    const b = Buffer.from(f, "utf8");
    // The first characters of an encoding at an offset hold bits of what stood before; the last, of what follows.
    const base64 = [0, 1, 2].flatMap((offset) => {
      const core = Buffer.concat([Buffer.alloc(offset), b]).toString("base64").slice(Math.ceil((offset * 8) / 6), Math.floor(((offset + b.length) * 8) / 6));
      return [core, core.replace(/\+/g, "-").replace(/\//g, "_")];
    });
    const base32 = [0, 1, 2, 3, 4].map((offset) => base32Of(Buffer.concat([Buffer.alloc(offset), b])).slice(Math.ceil((offset * 8) / 5), Math.floor(((offset + b.length) * 8) / 5)));
    return size < ENCODED_NAME ? [b.toString("hex")] : [b.toString("hex"), ...base64, ...base32];
  });
}

/** A folder's name after a separator, from where a sticky search starts. */
const NEXT_FOLDER = /[\\/]+([^\\/\s"'`]+)/y;
/** Levels of folders named for an owner's first letters, as homes hashed by their initials are (/home/<n>/<na>/<name>). */
const MAX_HASHED_LEVELS = 3;

/**
 * Where an owner is the first letters of the folder after it (/home/<n>/<name>, /home/<n>/<na>/<name>),
 * homes are laid out by initials and the person is that folder: each such folder's name.
 */
export function hashedOwners(text: string, owner: { owner: string; end: number }): string[] {
  const out: string[] = [];
  let [current, at] = [owner.owner.toLowerCase(), owner.end];
  // One letter, then two at most: a folder of a longer name after an owner is that owner's own.
  for (let level = 0; level < MAX_HASHED_LEVELS && current.length === level + 1; level++) {
    NEXT_FOLDER.lastIndex = at;
    const m = NEXT_FOLDER.exec(text);
    const next = m?.[1];
    if (!m || next === undefined || next.length <= current.length || !next.toLowerCase().startsWith(current)) break;
    out.push(next);
    [current, at] = [next.toLowerCase(), NEXT_FOLDER.lastIndex];
  }
  return out;
}

/** Letters written with two where a keyboard or a file system has none (German, Nordic, Icelandic, South Slavic): "ü" is "ue" in a folder's name. */
const TRANSLITERATED: Record<string, string> = { ä: "ae", ö: "oe", ü: "ue", ß: "ss", ẞ: "ss", æ: "ae", ø: "oe", å: "aa", þ: "th", ð: "d", đ: "dj", œ: "oe" };
const TRANSLITERABLE = new RegExp(`[${Object.keys(TRANSLITERATED).join("")}]`, "giu");

/** A name with each such letter written with two, in either letter case (the search ignores case). */
const transliterated = (name: string): string => name.replace(TRANSLITERABLE, (c) => TRANSLITERATED[c.toLowerCase()] ?? TRANSLITERATED[c] ?? c);

/** A name of words with what stands between them left out ("<first>.<last>" as "<first><last>"), where that is long enough to be found inside a word; null where it is not. */
const JOINS = /[^\p{L}\p{N}]+/gu;
const joinedWords = (name: string): string | null => {
  const joined = name.replace(JOINS, "");
  return joined !== name && joined.length >= GLUED_ANYWHERE && /\p{L}.*[^\p{L}\p{N}]+.*\p{L}/u.test(name) ? joined : null;
};

// A name in Cyrillic or Greek letters is written in Latin ones too (a handle, a project, a site:
// Cyrillic ий as y, iy, ij or ii), in the schemes people use: a letter written one way in all of them is
// listed once; one written several ways gives each scheme its own.
const ROMAN_COMMON: Record<string, string> = {
  а: "a", б: "b", в: "v", г: "g", д: "d", е: "e", ж: "zh", з: "z", и: "i", к: "k", л: "l", м: "m", н: "n", о: "o", п: "p", р: "r", с: "s", т: "t", у: "u", ф: "f", ц: "ts", ч: "ch", ш: "sh", ъ: "", ы: "y", ь: "", э: "e", і: "i", ґ: "g",
  ђ: "dj", ћ: "c", љ: "lj", њ: "nj", џ: "dz", ј: "j", ѓ: "gj", ќ: "kj", ѕ: "dz",
  α: "a", β: "v", γ: "g", δ: "d", ε: "e", ζ: "z", η: "i", θ: "th", ι: "i", κ: "k", λ: "l", μ: "m", ν: "n", ξ: "x", ο: "o", π: "p", ρ: "r", σ: "s", ς: "s", τ: "t", φ: "f", ψ: "ps", ω: "o",
};
const ROMAN_SCHEMES: Record<string, string>[] = [
  // English (BGN), Greek ELOT 743 (the passport scheme).
  { ий: "y", ый: "y", й: "y", ё: "yo", х: "kh", щ: "shch", ю: "yu", я: "ya", ї: "yi", є: "ye", υ: "y", χ: "ch", αυ: "av", ευ: "ev", ου: "ou", γγ: "ng", μπ: "b", ντ: "d" },
  { ий: "iy", ия: "ia", й: "y", ё: "e", х: "h", щ: "sch", ю: "yu", я: "ya", ї: "i", є: "e", υ: "i", χ: "h", αυ: "af", ευ: "ef", ου: "u" },
  // German and Polish-style spellings; Greek as letters are written one for one.
  { ий: "ij", й: "j", ё: "jo", х: "ch", щ: "schtsch", ю: "ju", я: "ja", ї: "ji", є: "je", υ: "u", χ: "kh", αυ: "au", ευ: "eu", φ: "ph" },
  // ICAO (passports).
  { ий: "ii", й: "i", ё: "e", х: "kh", щ: "shch", ю: "iu", я: "ia", ї: "i", є: "ie", υ: "y", χ: "ch", ευ: "ev", αυ: "av" },
  // ISO 9 with its marks left out; Greeklish.
  { ш: "s", щ: "sc", ч: "c", ж: "z", х: "h", ц: "c", й: "j", ё: "e", ю: "u", я: "a", є: "e", ї: "i", ђ: "đ", χ: "x", β: "b", υ: "i", ου: "ou" },
  // Ukrainian (г as h, и as y) and Bulgarian (щ as sht, ъ as a).
  { г: "h", и: "y", ий: "yi", й: "i", х: "kh", щ: "sht", ъ: "a", ю: "yu", я: "ya", ї: "yi", є: "ye" },
];
const CYRILLIC_OR_GREEK = /[\p{Script=Cyrillic}\p{Script=Greek}]/u;
const GREEK = /\p{Script=Greek}/u;

/** A name in Cyrillic or Greek letters as each scheme writes it in Latin ones; none for another name. */
function romanized(name: string): string[] {
  if (!CYRILLIC_OR_GREEK.test(name)) return [];
  // Composed, so that й and ё stay letters of their own; a Greek letter's accent is left out (ύ in αύ is υ).
  const plain = [...name.normalize("NFC").toLowerCase()].map((c) => (GREEK.test(c) ? c.normalize("NFKD").replace(/\p{M}/gu, "") : c)).join("");
  const letter = (scheme: Record<string, string>, c: string): string => {
    const base = c.normalize("NFKD").replace(/\p{M}/gu, "");
    return scheme[c] ?? ROMAN_COMMON[c] ?? scheme[base] ?? ROMAN_COMMON[base] ?? c;
  };
  return [...new Set(ROMAN_SCHEMES.map((scheme) => {
    let out = "";
    for (let i = 0; i < plain.length; i++) {
      const pair = plain.slice(i, i + 2);
      if (scheme[pair] !== undefined) {
        out += scheme[pair];
        i++;
      } else out += letter(scheme, plain[i] as string);
    }
    return out;
  }))].filter((r) => r !== plain);
}

/** Every form of a name the scan looks for: its spellings, those as their letters read, those transliterated, and its words joined. */
const nameForms = (name: string): string[] => {
  const joined = joinedWords(name);
  return [...nameSpellings(name), ...(joined === null ? [] : [joined])].flatMap((s) => {
    const t = transliterated(s);
    return t === s ? [s, plainLetters(s)] : [s, plainLetters(s), t, plainLetters(t)];
  });
};

/**
 * A name romanized, as a pattern: a word of its own only (or joined to digits), never inside
 * another word, since a romanized name is an ordinary word more often than the name as written
 * (a romanized name is often the start of a longer word, as a database's or a font's name).
 */
const romanizedPart = (form: string): string => String.raw`(?<!\p{L})${escapeRegex(form)}(?!\p{L})`;

/**
 * A name written back to front ("ecila"), as a pattern, also inside a word: a name of letters
 * only, of five or more, that reads otherwise backwards. A shorter one is not looked for: back to
 * front it is a word or a path's part as often as not ("mod" in go.mod, "bed", "nor"), and a few
 * letters in another order say nothing of whom they came from.
 */
function reversedPart(form: string): string[] {
  const letters = [...form];
  const back = letters.reverse().join("");
  if (letters.length < GLUED_ANYWHERE || back.toLowerCase() === form.toLowerCase() || !/^\p{L}+$/u.test(form) || UNSPACED_NAME.test(form)) return [];
  return [escapeRegex(back)];
}

/** Why nothing is written where a home names an owner too long to look for: where it stands and its length, never its letters. */
export function tooLongOwner(where: string, chars: number): OutputError {
  return new OutputError(`the home in ${where} names an owner of ${chars} characters, more than the ${MAX_NAME_CHARS} the tool can look for; nothing written`);
}

/** The length of the longest form of the first name too long to be looked for, with the name; none where every name can be. */
export function tooLongName(names: Iterable<string>): { name: string; chars: number } | null {
  for (const name of names) {
    const chars = nameForms(name).reduce((most, f) => Math.max(most, f.length), 0);
    if (chars > MAX_NAME_CHARS) return { name, chars };
  }
  return null;
}

// What a shell may read as nothing inside a word: its quotes (an apostrophe spelt '\'' too, bash's
// $'' and $""), a substitution or an expansion (empty, or of what may be empty: "${x:+}", "$(true)").
const SHELL_PARTS_G = /'\\''|\$(?:''|""|\([^()\n]{0,64}\)|\{[^{}\n]{0,64}\})|\\*["'\x60]/g;
const SHELL_PARTS = new RegExp(SHELL_PARTS_G.source);

/**
 * The words of a text as a shell joins them, what its quotes and expansions part read as nothing
 * ("ke''nji", "ken\"ji", "ke'\''nji", "ke$()nji", "ke${x:+}nji"), and as their letters read; none
 * where nothing parts them. A reading for names only: it joins a mailbox's parts as readily.
 */
export function shellJoined(text: string): string[] {
  if (!SHELL_PARTS.test(text)) return [];
  const joined = text.replace(SHELL_PARTS_G, "");
  return [joined, plainLetters(joined)];
}

// What SPREAD_STOP stands for, left out of a text wherever it stands, the apostrophe a shell spelt kept as one.
const SPREAD_BY = /[\\\x00-\x1f\x7f]+/g;
const SPREAD_BY_ESCAPES = new RegExp(`${CONTROL_ESCAPE.source}|${SPELT_APOSTROPHE.source}|${SPREAD_BY.source}`, "g");

/**
 * The readings in which a name spread as `spreadEnd` reads it, anywhere in a text, stands whole:
 * without backslashes and controls, without escapes of controls too, and as its letters read. Only
 * looked in, never written.
 */
export function nameReadings(text: string): string[] {
  const out = /[\\\x00-\x1f\x7f]/.test(text) ? [text.replace(SPREAD_BY, ""), text.replace(SPREAD_BY_ESCAPES, (m) => (m.endsWith("'") ? "'" : ""))] : [];
  // A host name in its ASCII form (an xn-- label for letters beyond ASCII), as a URL parser writes it.
  if (PUNYCODE_LABEL.test(text)) out.push(text.replace(PUNYCODE_LABELS, (label) => domainToUnicode(label) || label));
  const plain = plainLetters(text);
  if (plain !== text) out.push(plain);
  // Written in UTF-8 and read back as Latin-1 or Windows-1252 ("zoÃ«" for "zoë"), once or more.
  const recoded = utf8ReadAsLatin(text);
  if (recoded !== text) out.push(recoded, plainLetters(recoded));
  // With every spelling of a character undone and what shows nothing taken out.
  for (const undone of spellingsUndone(text, plainLetters)) if (undone !== text) out.push(undone);
  // Spelt in tag characters, which show nothing: each read as the ASCII character it tags.
  if (MAY_TAG.test(text)) {
    const tagged = tagsRead(text);
    if (tagged !== text) out.push(tagged, plainLetters(tagged));
    for (const undone of spellingsUndone(text, plainLetters, tagsRead)) if (undone !== text) out.push(undone);
  }
  // Spelt letter by letter ("j o r d a n", "J.O.R.D.A.N"), in any of the readings.
  for (const r of [text, ...out]) if (LETTER_BY_LETTER_TEST.test(r)) out.push(r.replace(LETTER_BY_LETTER, (run, before: string, between: string) => before + run.slice(before.length).split(between).join("")));
  return out;
}

// What Windows-1252 writes for the bytes 0x80 to 0x9F (Latin-1 writes each as the C1 control of its number).
const WINDOWS_1252 = "\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178";
// A UTF-8 sequence's lead byte and its continuation bytes as Latin-1 or Windows-1252 shows them.
const CONTINUATION = `[\u0080-\u00bf${WINDOWS_1252}]`;
const LATIN_UTF8 = new RegExp(`[\u00c2-\u00df]${CONTINUATION}|[\u00e0-\u00ef]${CONTINUATION}{2}|[\u00f0-\u00f4]${CONTINUATION}{3}`, "g");
const latinByte = (c: string): number => (WINDOWS_1252.includes(c) ? 0x80 + WINDOWS_1252.indexOf(c) : c.charCodeAt(0));

/** A text with each run that is UTF-8 read as Latin-1 or Windows-1252 read again as UTF-8, up to three times (a text decoded wrongly twice); the text itself where none is. */
function utf8ReadAsLatin(text: string): string {
  let out = text;
  for (let round = 0; round < 3 && /[\u00c2-\u00f4]/.test(out); round++) {
    const next = out.replace(LATIN_UTF8, (run) => {
      try {
        return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from([...run].map(latinByte)));
      } catch {
        return run;
      }
    });
    if (next === out) break;
    out = next;
  }
  return out;
}

/** Marks, and what shows nothing: Braille's blank pattern as much as a zero-width space or Hangul's filler, and every format character (an interlinear annotation's anchor, Egyptian hieroglyphs' joiners). */
const SHOWS_NOTHING_G = new RegExp(`[\\p{M}\\p{Cf}\\p{Default_Ignorable_Code_Point}${INVISIBLE}\\u2800]`, "gu");

/** Three letters or more standing alone, one and the same separator (up to three characters, no line's end) between each two: a word spelt letter by letter. */
const LETTER_BY_LETTER = /(^|[^\p{L}\p{N}])\p{L}([^\p{L}\p{N}\n]{1,3})\p{L}(?:\2\p{L})+(?![\p{L}\p{N}])/gu;
const LETTER_BY_LETTER_TEST = new RegExp(LETTER_BY_LETTER.source, "u");

/** What may spell a letter otherwise: an escape, a percent or an entity, a control, a letter beyond ASCII. */
const MAY_SPELL = /[\\%&\x00-\x1f\x7f-\uffff]/;
const PUNYCODE_LABEL = /xn--/i;
const PUNYCODE_LABELS = /xn--[a-z0-9-]+/gi;

/** Whether a text spells a name only once an escape or another spelling is undone ("\\x7a" for "z" in a file's name, a host name's xn-- form). */
export function spellsName(text: string, names: NamePattern): boolean {
  return ((MAY_SPELL.test(text) || PUNYCODE_LABEL.test(text) || LETTER_BY_LETTER_TEST.test(text)) && nameReadings(text).some((r) => names.test(r))) || shellJoined(text).some((r) => names.test(r));
}

/**
 * A text as its letters read, however Unicode composed or styled them: compatibility forms made
 * plain ("ａｎｎ" is "ann"), marks and invisible characters left out ("zoë" written either way,
 * "İlker" and "a\u200bnn" are "zoe", "Ilker", "ann"). A name is looked for in this reading too.
 */
export function plainLetters(text: string): string {
  if (!/[^\x00-\x7f]/.test(text)) return text;
  const plain = text
    .replace(LOOK_ALIKE, (c) => LOOK_ALIKES.get(c) as string)
    .normalize("NFKD")
    .replace(SHOWS_NOTHING_G, "")
    .replace(LOOK_ALIKE, (c) => LOOK_ALIKES.get(c) as string);
  return withLatinWords(plain);
}


/** The longest name the scan looks for: far above any account's, far below what overflows a search. */
export const MAX_NAME_CHARS = 2000;
