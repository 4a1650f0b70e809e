import { homeGrammar, userNamePattern, type HomeGrammar } from "./homes.js";
import { escapePointerToken, pointerTokens } from "./json/reader.js";
import type { Rules } from "./types.js";

// Masking in one place: everything the tool prints or writes outside the fixtures (pointers,
// folders, scan values) passes through here. Member names the rules spell are shown; any other
// is masked; a value is never shown beyond its first four characters.

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

/** A long pointer cut in its middle for human output; `--json` keeps it whole. */
export function shortPointer(pointer: string, max = 80): string {
  if (pointer.length <= max) return pointer;
  const head = pointer.slice(0, Math.floor(max / 2) - 1);
  const tail = pointer.slice(pointer.length - Math.floor(max / 2) + 2);
  return `${head}…${tail}`;
}

export function makeDisplay(rules: Rules, users: string[], runnerHome: string | null): Display {
  // Printed paths and ids are masked wherever a home root stands, deep in a path or not.
  const grammar: HomeGrammar = homeGrammar(rules.homes, users, { anywhere: true });
  const names = userNamePattern(users);
  const shownToken = (token: string): string => {
    if (/^(?:0|[1-9][0-9]*)$/.test(token)) return token;
    if (!rules.knownMembers.has(token)) return MASKED_MEMBER;
    if (names?.test(token) || (grammar.mayHold(token) && grammar.realOwners(token).length > 0)) return MASKED_MEMBER;
    return escapePointerToken(token);
  };
  const cache = new Map<string, string>();
  return {
    id(value) {
      const risky = /\s/.test(value) || value.length > 128 || (names?.test(value) ?? false) || (grammar.mayHold(value) && grammar.realOwners(value).length > 0);
      return risky ? maskValue(value) : value;
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
      let out = p;
      if (runnerHome && (p === runnerHome || p.startsWith(`${runnerHome}/`))) out = `~${p.slice(runnerHome.length)}`;
      const owners = grammar.mayHold(out) ? grammar.realOwners(out) : [];
      for (const o of [...owners].reverse()) out = out.slice(0, o.start) + grammar.placeholder + out.slice(o.end);
      return names ? out.replace(new RegExp(names.source, "giu"), grammar.placeholder) : out;
    },
  };
}
