import { homeGrammar, spellsName, userNamePattern, type HomeGrammar, type NamePattern } from "./homes.js";
import { escapePointerToken, pointerTokens } from "./json/reader.js";
import type { Rules } from "./types.js";

// Masking in one place: everything the tool prints or writes outside the fixtures (pointers,
// folders, scan values) passes through here. Member names the rules spell are shown; any other
// is masked; a value is never shown beyond its first four characters, and a name never at all.

export const MASKED_MEMBER = "[masked]";

export interface Display {
  /** A JSON pointer safe to print. */
  pointer(pointer: string): string;
  /** A folder or file path safe to print: the runner's home as `~`, any other home's owner as the placeholder. */
  path(p: string): string;
  /** An identifier value safe to print: itself, or masked where it could hold a home, a name or prose. */
  id(value: string): string;
}

export function maskValue(value: string): string {
  const chars = [...value];
  return chars.slice(0, 4).join("") + "*".repeat(Math.max(0, chars.length - 4));
}

/** Identifiers longer than this are masked, and a masked one is never printed longer than this. */
export const MAX_ID_SHOWN = 128;

// What an identifier may not show: a control (ESC and the C1 CSI move a terminal), a character
// that shows nothing or turns text around (U+202E), a surrogate, private or unassigned, a blank.
const UNSHOWN = /[\p{C}\s]/u;

/**
 * An identifier masked as a value is (its first four characters, then stars), each of the four
 * that shows nothing or moves a terminal (a space aside) starred too, and never longer than
 * MAX_ID_SHOWN: a longer one is said by its length.
 */
export function maskId(value: string): string {
  const chars = [...value];
  const head = chars.slice(0, 4).map((c) => (c !== " " && UNSHOWN.test(c) ? "*" : c)).join("");
  const stars = "*".repeat(Math.max(0, Math.min(chars.length, MAX_ID_SHOWN) - 4));
  return chars.length > MAX_ID_SHOWN ? `${head}${stars}… (${chars.length} characters)` : `${head}${stars}`;
}

/** What a finding shows in place of a home owner or a user name: nothing of it, not its length. */
export const NAME_MASK = "[name]";

// The fixed beginnings of key shapes: a value that starts with one is a key, and its finding gives its SHA-256 for a waiver.
const KEY_PREFIX = new RegExp(
  [
    "^(?:sk-ant-|sk-proj-|sk-svcacct-|sk-admin-|[sr]k_live_|AIza|eyJ|-----BEGIN|A3T[A-Z0-9]|AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA",
    "|gh[pousr]_|github_pat_|xox[bpaor]-|xapp-|glpat-|glc_|glsa_|npm_|hf_|gsk_|lin_api_|ntn_|SG\\.|shp(?:pa|ca|at|ss)_",
    "|hv[sbr]\\.|vc[pikar]_|dapi|dckr_pat_|figd_|ops_ey)",
  ].join(""),
);

/** A value shorter than this shows none of its characters: four would be more than half of it. */
const SHOWN_FROM = 8;

/**
 * A found value as it may be printed, as the contract has it: its first four characters and a star
 * for each other one (a control character or a space among the four is starred too); a value of
 * fewer than SHOWN_FROM characters, stars only; a name, NAME_MASK. `keyShape`: it starts with a key
 * shape's fixed prefix, which says which kind of key it is. `nameInside`: a name was found within
 * the value, and its first four characters could spell part of it: none is shown.
 */
export function maskFound(value: string, isName: boolean, nameInside = false): { masked: string; keyShape: boolean } {
  if (isName) return { masked: NAME_MASK, keyShape: false };
  const chars = [...value];
  const shown = chars.length >= SHOWN_FROM && !nameInside ? 4 : 0;
  const head = chars.slice(0, shown).map((c) => (UNSHOWN.test(c) ? "*" : c)).join("");
  return { masked: head + "*".repeat(chars.length - shown), keyShape: KEY_PREFIX.test(value) };
}

/** A long pointer cut in its middle for human output; `--json` keeps it whole. */
export function shortPointer(pointer: string, max = 80): string {
  if (pointer.length <= max) return pointer;
  const head = pointer.slice(0, Math.floor(max / 2) - 1);
  const tail = pointer.slice(pointer.length - Math.floor(max / 2) + 2);
  return `${head}…${tail}`;
}

/** Each folder or file name of a text that spells a name through an escape ("x_\\x7a...") starred whole: which characters spell it is not known here. */
function spelledNamesStarred(text: string, names: NamePattern): string {
  return text
    .split(/(?<=\/)/)
    .map((segment) => (spellsName(segment, names) ? "*".repeat(segment.length) : segment))
    .join("");
}

export function makeDisplay(rules: Rules, users: string[], runnerHome: string | null): Display {
  // Printed paths and ids are masked wherever a home root stands, deep in a path or not.
  const grammar: HomeGrammar = homeGrammar(rules.homes, users, { anywhere: true });
  const names = userNamePattern(users);
  const shownToken = (token: string): string => {
    // An index is shown; a member named with many digits (a card or a phone number as a key) is not.
    if (/^(?:0|[1-9][0-9]{0,3})$/.test(token)) return token;
    if (!rules.knownMembers.has(token)) return MASKED_MEMBER;
    if (names?.test(token) || (grammar.mayHold(token) && grammar.realOwners(token).length > 0)) return MASKED_MEMBER;
    return escapePointerToken(token);
  };
  const cache = new Map<string, string>();
  const withoutNames = (text: string): string => {
    let out = text;
    const owners = grammar.mayHold(out) ? grammar.realOwners(out) : [];
    for (const o of [...owners].reverse()) out = out.slice(0, o.start) + grammar.placeholder + out.slice(o.end);
    return names ? spelledNamesStarred(names.replace(out, grammar.placeholder), names) : out;
  };
  return {
    id(value) {
      // A name inside an identifier is replaced whole first, so that a mask's first characters never spell part of it.
      const named = (names?.test(value) ?? false) || (grammar.mayHold(value) && grammar.realOwners(value).length > 0);
      const shown = named ? withoutNames(value) : value;
      return named || UNSHOWN.test(value) || [...value].length > MAX_ID_SHOWN ? maskId(shown) : shown;
    },
    pointer(pointer) {
      let shown = cache.get(pointer);
      if (shown === undefined) {
        shown = pointer === "" ? "" : `/${pointerTokens(pointer).map(shownToken).join("/")}`;
        cache.set(pointer, shown);
      }
      return shown;
    },
    path(p) {
      const out = runnerHome && (p === runnerHome || p.startsWith(`${runnerHome}/`)) ? `~${p.slice(runnerHome.length)}` : p;
      return withoutNames(out);
    },
  };
}
