import { decodeJsonString, encodeJsonString } from "../../json/escapes.js";
import type { UrlRules } from "../../types.js";
import { sameLengthPlaceholder, type SubstitutionRule } from "./rule.js";

// url-v1: a URL keeps its scheme, host and path; its user information, query values and fragment
// are free text and become placeholder of the same length, unless the URL is a fixed endpoint of
// the host.

export const URL_RULE = "url-v1";

const URL_PARTS = /^([a-z][a-z0-9+.-]*:\/\/)(?:([^@/?#]*)@)?([^/?#]*)([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/is;

function clearQuery(query: string): string {
  return query
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      return eq === -1 ? pair : `${pair.slice(0, eq + 1)}${sameLengthPlaceholder(pair.slice(eq + 1))}`;
    })
    .join("&");
}

export function urlRule(rules: UrlRules): SubstitutionRule {
  return {
    id: URL_RULE,
    prefilter: (raw, leaf) => leaf.class === "url" && /[@?#]/.test(raw),
    apply(raw) {
      const url = decodeJsonString(raw);
      if (rules.fixedEndpoints.some((e) => url.startsWith(e)) && !/@/.test(url.split("/")[2] ?? "")) return { raw, matched: false };
      const m = URL_PARTS.exec(url);
      if (!m) return { raw, matched: false };
      const [, scheme, user, host, pathPart, query, fragment] = m;
      const cleared =
        `${scheme}${user !== undefined ? `${sameLengthPlaceholder(user)}@` : ""}${host}${pathPart}` +
        `${query !== undefined ? `?${clearQuery(query)}` : ""}${fragment !== undefined ? `#${sameLengthPlaceholder(fragment)}` : ""}`;
      return { raw: cleared === url ? raw : encodeJsonString(cleared, raw), matched: user !== undefined || query !== undefined || fragment !== undefined };
    },
  };
}
