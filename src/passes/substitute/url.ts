import { pushAll } from "../../collections.js";
import { decodeWithOffsets, percentDecoded, spliceDecoded } from "../../json/escapes.js";
import type { UrlRules } from "../../types.js";
import { looksAssigned, SIGNATURE_NAME } from "../../scan-rules/sensitive-assignment.js";
import { sensitive } from "../../scan-rules/sensitive-member.js";
import { sameLengthPlaceholder, type SubstitutionRule } from "./rule.js";

// url-v1: a URL keeps its scheme, host and path, every byte as written; its user information, query
// values (a part of the query with no "=" is one), a path segment's parameter values (";jsessionid=…")
// and fragment are free text and become placeholder of the same length, and so does a word
// of its path that is a capability rather than a word. A fixed endpoint of the host is kept whole, but for a query value or a fragment that looks like a secret (a signature, a key given
// under any name): what is in the query is the caller's, whatever host it goes to. A value the
// rules class as a URL that is not one read so (no scheme://, a blank or a control character in
// it: a data: URL, text, credentials behind a slash too few) is free text, replaced whole.

export const URL_RULE = "url-v1";

/** What no URL read in parts holds: a blank, a control character, a line or paragraph separator. A browser reads slashes past two after the scheme as two (https:///user:pw@host), and so does this. */
const NOT_READ_AS_URL = /[\s\p{Cc}]/u;
const URL_PARTS = /^([a-z][a-z0-9+.-]*:\/\/+)(?:([^@/?#]*)@)?([^/?#]*)([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/dis;

/**
 * A fixed endpoint's query value or fragment kept as the host sent it: one that does not look like
 * a secret (`beta=true`, `region=eu-west`), under a name that names none (a password, a token, a
 * key, a signature: whatever it holds is replaced). A fragment is read as `name=value` where it is one.
 */
function plainValue(value: string, name?: string): boolean {
  const eq = value.indexOf("=");
  const [n, v] = name === undefined && eq > 0 ? [percentDecoded(value.slice(0, eq)), value.slice(eq + 1)] : [percentDecoded(name ?? ""), value];
  if (n !== "" && (sensitive(n) || SIGNATURE_NAME.test(n))) return false;
  return !looksAssigned(v);
}

// A run in the path that is a capability, not a word (a webhook's key, a reset link's token, a
// shared document's id): sixteen letters and digits or more, three of each at least, or a UUID;
// a segment percent-encoded is read decoded, and replaced whole where it holds one. Replaced at its
// length; the path's words, a file's name with a digit, a version, a model's id with its date are kept.
const TOKEN_RUN = /[A-Za-z0-9]{16,}/g;
const UUID = /[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}/;
const WORD = /[A-Za-z0-9_-]+/g;
const isToken = (run: string): boolean => (run.match(/[0-9]/g)?.length ?? 0) >= 3 && (run.match(/[A-Za-z]/g)?.length ?? 0) >= 3;

type Range = [number, number];

/** Where a text (of the URL, from `at`) holds a capability: the word holding it, its prefix with it ("ghp_…" whole, lest a placeholder keep a key's shape). */
function capabilityRanges(text: string, at: number): Range[] {
  const out: Range[] = [];
  for (const m of text.matchAll(WORD)) if (UUID.test(m[0]) || (m[0].match(TOKEN_RUN) ?? []).some(isToken)) out.push([at + m.index, at + m.index + m[0].length]);
  return out;
}

function pathRanges(path: string, at: number): Range[] {
  const out: Range[] = [];
  for (const m of path.matchAll(/[^/]+/g)) {
    // A segment's parameters (";jsessionid=…") are the caller's, as a query's values are.
    const semicolon = m[0].indexOf(";");
    const segment = semicolon === -1 ? m[0] : m[0].slice(0, semicolon);
    const decoded = percentDecoded(segment);
    if (decoded !== segment) {
      if (capabilityRanges(decoded, 0).length > 0) out.push([at + m.index, at + m.index + segment.length]);
    } else pushAll(out, capabilityRanges(segment, at + m.index));
    if (semicolon !== -1) pushAll(out, parameterRanges(m[0].slice(semicolon + 1), at + m.index + semicolon + 1));
  }
  return out;
}

/**
 * A parameter's name that reads as one: a letter first, then letters, digits and `_ . - $ [ ]`, no
 * run of four digits. Any other ("SSN_078051120", "hide+assets", a mailbox) is the caller's words
 * as a value is, and is replaced whole at its length.
 */
const PARAMETER_NAME = /^[\p{L}_$][\p{L}\p{N}_.$[\]-]{0,63}$/u;
const readsAsName = (name: string): boolean => {
  const decoded = percentDecoded(name);
  return PARAMETER_NAME.test(decoded) && !/\p{N}{4}/u.test(decoded);
};

/** What of a parameter's name (from `at`) is replaced: all of it where it reads as no name; else its capability, as in the path. */
const nameRanges = (name: string, at: number): Range[] => (readsAsName(name) ? capabilityRanges(name, at) : [[at, at + name.length]]);

/** A segment's parameters (from `at`): each value whole, and a name as nameRanges says. */
function parameterRanges(parameters: string, at: number): Range[] {
  const out: Range[] = [];
  let start = at;
  for (const part of parameters.split(";")) {
    const eq = part.indexOf("=");
    if (eq !== -1) pushAll(out, nameRanges(part.slice(0, eq), start));
    out.push([eq === -1 ? start : start + eq + 1, start + part.length]);
    start += part.length + 1;
  }
  return out;
}

/** The value of each pair of a query (from `at`) that `keep` does not keep, and of its name what nameRanges says; a part with no "=" ("?hide+assets", "&JaneRoe") is a value with no name, whole. */
function queryRanges(query: string, at: number, keep: (value: string, name?: string) => boolean): Range[] {
  const out: Range[] = [];
  let start = at;
  for (const pair of query.split("&")) {
    const eq = pair.indexOf("=");
    if (eq > 0) pushAll(out, nameRanges(pair.slice(0, eq), start));
    if (eq === -1 ? !keep(pair) : !keep(pair.slice(eq + 1), pair.slice(0, eq))) out.push([eq === -1 ? start : start + eq + 1, start + pair.length]);
    start += pair.length + 1;
  }
  return out;
}

export function urlRule(rules: UrlRules): SubstitutionRule {
  return {
    id: URL_RULE,
    prefilter: (raw, leaf) => leaf.class === "url" && raw !== "",
    apply(raw) {
      const { decoded: url, starts } = decodeWithOffsets(raw);
      const m = NOT_READ_AS_URL.test(url) ? null : URL_PARTS.exec(url);
      if (!m) return /^x*$/.test(url) ? { raw, matched: false } : { raw: sameLengthPlaceholder(url), matched: true };
      const fixed = rules.fixedEndpoints.some((e) => url.startsWith(e)) && !/@/.test(url.split("/")[2] ?? "");
      const keep: (value: string, name?: string) => boolean = fixed ? plainValue : () => false;
      const [user, path, query, fragment] = [2, 4, 5, 6].map((g) => m.indices?.[g]);
      const ranges: Range[] = [
        ...(user ? [user] : []),
        ...(path ? pathRanges(url.slice(path[0], path[1]), path[0]) : []),
        ...(query ? queryRanges(url.slice(query[0], query[1]), query[0], keep) : []),
        ...(fragment && !keep(url.slice(fragment[0], fragment[1])) ? [fragment] : []),
      ].filter(([from, to]) => !/^x*$/.test(url.slice(from, to)));
      const matched = fixed ? ranges.length > 0 : user !== undefined || query !== undefined || fragment !== undefined || ranges.length > 0;
      // In the URL's order, apart: the user, the path's words, the query's values, the fragment.
      const edits = ranges.map(([start, end]) => ({ start, end, text: sameLengthPlaceholder(url.slice(start, end)) }));
      return { raw: ranges.length === 0 ? raw : spliceDecoded(raw, starts, edits), matched };
    },
  };
}
