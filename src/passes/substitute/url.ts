import { decodeJsonString, encodeJsonString } from "../../json/escapes.js";
import type { UrlRules } from "../../types.js";
import { looksAssigned, SIGNATURE_NAME } from "../../scan-rules/sensitive-assignment.js";
import { sensitive } from "../../scan-rules/sensitive-member.js";
import { sameLengthPlaceholder, type SubstitutionRule } from "./rule.js";

// url-v1: a URL keeps its scheme, host and path; its user information, query values and fragment
// are free text and become placeholder of the same length, and so does a segment of its path that
// is a capability rather than a word. A fixed endpoint of the host is kept
// whole, but for a query value or a fragment that looks like a secret (a signature, a key given
// under any name): what is in the query is the caller's, whatever host it goes to. A value the
// rules class as a URL that is not one read so (no scheme://, a blank or a control character in
// it: a data: URL, text, credentials behind a slash too few) is free text, replaced whole.

export const URL_RULE = "url-v1";

/** What no URL read in parts holds: a blank, a control character, a line or paragraph separator. A browser reads slashes past two after the scheme as two (https:///user:pw@host), and so does this. */
const NOT_READ_AS_URL = /[\s\p{Cc}]/u;
const URL_PARTS = /^([a-z][a-z0-9+.-]*:\/\/+)(?:([^@/?#]*)@)?([^/?#]*)([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/is;

function clearQuery(query: string, keep: (value: string, name?: string) => boolean = () => false): string {
  return query
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      return eq === -1 || keep(pair.slice(eq + 1), pair.slice(0, eq)) ? pair : `${pair.slice(0, eq + 1)}${sameLengthPlaceholder(pair.slice(eq + 1))}`;
    })
    .join("&");
}

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/**
 * A fixed endpoint's query value or fragment kept as the host sent it: one that does not look like
 * a secret (`beta=true`, `region=eu-west`), under a name that names none (a password, a token, a
 * key, a signature: whatever it holds is replaced). A fragment is read as `name=value` where it is one.
 */
function plainValue(value: string, name?: string): boolean {
  const eq = value.indexOf("=");
  const [n, v] = name === undefined && eq > 0 ? [decodedName(value.slice(0, eq)), value.slice(eq + 1)] : [decodedName(name ?? ""), value];
  if (n !== "" && (sensitive(n) || SIGNATURE_NAME.test(n))) return false;
  return !looksAssigned(v);
}

// A segment of the path that is a capability, not a word (a webhook's key, a reset link's token, a
// shared document's id): a run of sixteen letters and digits or more that holds both, or a UUID.
// Replaced at its length; the path's words, a version, a model's id with its date are kept.
const TOKEN_RUN = /[A-Za-z0-9]{16,}/g;
const UUID = /[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}/;
const isCapability = (segment: string): boolean => UUID.test(segment) || (segment.match(TOKEN_RUN) ?? []).some((run) => /[0-9]/.test(run) && /[A-Za-z]/.test(run));
const clearPath = (path: string): string => path.replace(/[^/]+/g, (segment) => (isCapability(segment) ? sameLengthPlaceholder(segment) : segment));

export function urlRule(rules: UrlRules): SubstitutionRule {
  return {
    id: URL_RULE,
    prefilter: (raw, leaf) => leaf.class === "url" && raw !== "",
    apply(raw) {
      const url = decodeJsonString(raw);
      const m = NOT_READ_AS_URL.test(url) ? null : URL_PARTS.exec(url);
      if (!m) return /^x*$/.test(url) ? { raw, matched: false } : { raw: encodeJsonString(sameLengthPlaceholder(url), raw), matched: true };
      const fixed = rules.fixedEndpoints.some((e) => url.startsWith(e)) && !/@/.test(url.split("/")[2] ?? "");
      const [, scheme, user, host, pathPart, query, fragment] = m;
      const keep: (value: string, name?: string) => boolean = fixed ? plainValue : () => false;
      const path = clearPath(pathPart as string);
      const cleared =
        `${scheme}${user !== undefined ? `${sameLengthPlaceholder(user)}@` : ""}${host}${path}` +
        `${query !== undefined ? `?${clearQuery(query, keep)}` : ""}${fragment !== undefined ? `#${keep(fragment) ? fragment : sameLengthPlaceholder(fragment)}` : ""}`;
      const matched = fixed ? cleared !== url : user !== undefined || query !== undefined || fragment !== undefined || path !== pathPart;
      return { raw: cleared === url ? raw : encodeJsonString(cleared, raw), matched };
    },
  };
}
