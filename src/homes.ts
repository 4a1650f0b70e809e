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
}

export interface HomeGrammar {
  placeholder: string;
  /** Every owner span in `text`; every root accepts both slashes and their escaped spellings. */
  owners(text: string): OwnerSpan[];
  /** Only the owners that are someone: not the placeholder, not a name that belongs to nobody. */
  realOwners(text: string): OwnerSpan[];
  /** True when `text` may hold a home (a cheap test before `owners`). */
  mayHold(text: string): boolean;
  isOwner(name: string): boolean;
}

// A separator, also as written inside text that is itself JSON or URL-encoded: `\/`, `\\/`, `\u002F`, `%2F`.
const ANY_SEP = String.raw`(?:\\+u002[fF]|\\+u005[cC]|\\*\/|\\+|%2[fF]|%5[cC])+`;
const STOP = String.raw`\/\\"'\x60<>|:;,=?*#%&(){}\[\]\x00-\x1f\x7f`;
// The patterns are not Unicode-mode, which V8 compiles far more slowly: every unit above ASCII
// counts as a letter where a word boundary is asked for.
const SEGMENT_OWNER = new RegExp(String.raw`[^${STOP}\s]+`, "y");
const SPACED_OWNER = new RegExp(String.raw`[^${STOP}\n\r\t]+`, "y");
const SLUG_OWNER = new RegExp(String.raw`[^${STOP}\s\-]+`, "y");
const LETTER = String.raw`A-Za-z0-9\u0080-\uffff`;
const WORD_BEFORE = String.raw`(?<![${LETTER}_.\-])`;


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
  if (pattern === SPACED_OWNER) owner = owner.trimEnd();
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

/** Builds the grammar; `known` user names (and their slug spellings) extend an owner a generic segment would cut. */
export function homeGrammar(rules: HomeRules, known: string[] = []): HomeGrammar {
  const groups = `(?:${rules.groupFolders.map(escapeRegex).join("|")})`;
  const notOwners = new Set(rules.notOwners.map((n) => n.toLowerCase()));
  const knownForms = [...new Set(known.flatMap((n) => [n, n.replace(/[^\p{L}\p{N}]/gu, "-")]))].sort((a, b) => b.length - a.length);
  // Every root takes either slash: a root's own separators document its platform, but a path
  // written with the other one (WSL, a Windows tool) still names the same owner.
  const build = (): { roots: RegExp; slugs: RegExp } => {
    const alternatives = [...rules.roots]
      .sort((a, b) => b.root.length - a.root.length)
      .map((r) => {
        const sep = ANY_SEP;
        const after = r.root === "~" ? String.raw`(?=[A-Za-z\u0080-\uffff])` : sep;
        const lead = r.root === "~" ? String.raw`(?<![${LETTER}_~.\-])` : "";
        return `${lead}(?<${r.owner === "segment" ? "s" : "w"}${r.id.replace(/-/g, "_")}>${rootSource(r.root, sep, groups)}${after})`;
      });
    const slugAlternatives = [...rules.slugs]
      .sort((a, b) => b.root.length - a.root.length)
      .map((s) => rootSource(s.root, "-", groups).replace(/^/, String.raw`(?<![${LETTER}])`));
    return { roots: new RegExp(alternatives.join("|"), "gi"), slugs: new RegExp(slugAlternatives.join("|"), "gi") };
  };
  const { roots, slugs } = build();
  // Every root ends in a word any spelling of it holds ("home", "Users", "Settings", "~"); an
  // escaped or URL-encoded spelling holds "\u" or "%2F".
  const words = [...rules.roots, ...rules.slugs].map((r) => (r.root === "~" ? "~" : (r.root.match(/[A-Za-z]+/g) ?? []).at(-1) ?? r.root));
  const keywords = new RegExp([...new Set(words.map((w) => escapeRegex(w.toLowerCase()))), "%2f", "\\\\u"].join("|"), "i");
  const isOwner = (name: string): boolean => name !== rules.placeholder && !notOwners.has(name.toLowerCase()) && !/^[$%~.]|^\.\.?$/.test(name);

  const collect = (text: string, re: RegExp, pick: (m: RegExpExecArray) => RegExp, out: OwnerSpan[]): void => {
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      const at = m.index + m[0].length;
      const owner = ownerAt(text, at, pick(m), knownForms);
      if (owner !== null) out.push({ start: at, end: at + owner.length, owner, real: isOwner(owner), tilde: m.groups?.["stilde"] !== undefined });
      if (m[0].length === 0) re.lastIndex++;
    }
  };

  const grammar: HomeGrammar = {
    placeholder: rules.placeholder,
    isOwner,
    mayHold: (text) => keywords.test(text),
    realOwners: (text) => grammar.owners(text).filter((o) => o.real),
    owners(text) {
      const out: OwnerSpan[] = [];
      collect(text, roots, (m) => (Object.entries(m.groups ?? {}).some(([k, v]) => v !== undefined && k.startsWith("w")) ? SPACED_OWNER : SEGMENT_OWNER), out);
      collect(text, slugs, () => SLUG_OWNER, out);
      // Overlapping finds (a root inside a longer root) keep the one that starts first and reaches furthest.
      out.sort((a, b) => a.start - b.start || b.end - a.end);
      const kept: OwnerSpan[] = [];
      for (const o of out) if (kept.length === 0 || o.start >= (kept[kept.length - 1] as OwnerSpan).end) kept.push(o);
      return kept;
    },
  };
  return grammar;
}

/** A pattern for user names as whole words in any letter case, also in their slug spelling. */
export function userNamePattern(users: string[]): RegExp | null {
  const forms = [...new Set(users.flatMap((n) => [n, n.replace(/[^\p{L}\p{N}]/gu, "-")]))].filter((n) => n.length > 0);
  if (forms.length === 0) return null;
  forms.sort((a, b) => b.length - a.length);
  return new RegExp(String.raw`(?<![\p{L}\p{N}])(?:${forms.map(escapeRegex).join("|")})(?![\p{L}\p{N}])`, "iu");
}
