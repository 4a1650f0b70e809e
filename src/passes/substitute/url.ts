import { decodeJsonString, encodeJsonString } from "../../json/escapes.js";
import type { UrlRules } from "../../types.js";
import { looksAssigned } from "../../scan-rules/sensitive-assignment.js";
import { sameLengthPlaceholder, type SubstitutionRule } from "./rule.js";

// url-v1: a URL keeps its scheme, host and path; its user information, query values and fragment
// are free text and become placeholder of the same length. A fixed endpoint of the host is kept
// whole, but for a query value or a fragment that looks like a secret (a signature, a key given
// under any name): what is in the query is the caller's, whatever host it goes to.

export const URL_RULE = "url-v1";

const URL_PARTS = /^([a-z][a-z0-9+.-]*:\/\/)(?:([^@/?#]*)@)?([^/?#]*)([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/is;

function clearQuery(query: string, keep: (value: string) => boolean = () => false): string {
  return query
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      return eq === -1 || keep(pair.slice(eq + 1)) ? pair : `${pair.slice(0, eq + 1)}${sameLengthPlaceholder(pair.slice(eq + 1))}`;
    })
    .join("&");
}

/** A fixed endpoint's query value or fragment kept as the host sent it: one that does not look like a secret (`beta=true`, `region=eu-west`). */
const plainValue = (value: string): boolean => !looksAssigned(value) && !looksAssigned(value.split("=").pop() ?? "");

export function urlRule(rules: UrlRules): SubstitutionRule {
  return {
    id: URL_RULE,
    prefilter: (raw, leaf) => leaf.class === "url" && /[@?#]/.test(raw),
    apply(raw) {
      const url = decodeJsonString(raw);
      const fixed = rules.fixedEndpoints.some((e) => url.startsWith(e)) && !/@/.test(url.split("/")[2] ?? "");
      const m = URL_PARTS.exec(url);
      if (!m) return { raw, matched: false };
      const [, scheme, user, host, pathPart, query, fragment] = m;
      const keep = fixed ? plainValue : () => false;
      const cleared =
        `${scheme}${user !== undefined ? `${sameLengthPlaceholder(user)}@` : ""}${host}${pathPart}` +
        `${query !== undefined ? `?${clearQuery(query, keep)}` : ""}${fragment !== undefined ? `#${keep(fragment) ? fragment : sameLengthPlaceholder(fragment)}` : ""}`;
      const matched = fixed ? cleared !== url : user !== undefined || query !== undefined || fragment !== undefined;
      return { raw: cleared === url ? raw : encodeJsonString(cleared, raw), matched };
    },
  };
}
