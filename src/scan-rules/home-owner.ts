import type { SecretLintRuleCreator } from "@secretlint/types";
import type { HomeGrammar } from "../homes.js";
import { nestedReadings } from "../json/escapes.js";
import { stringsOf } from "./strings.js";

// Substitution's final check as a scan rule: a home whose owner is not the placeholder, or a known
// user name, in any string, nested JSON included. The scan catches what substitution let through.

export const HOME_OWNER_RULE = "clear/home-owner";

export function homeOwnerRule(grammar: HomeGrammar, names: RegExp | null, structure: ReadonlySet<string> = new Set()): SecretLintRuleCreator {
  const messages = { FOUND: { en: () => "a home directory's owner or a user name is here" } };
  return {
    messages,
    meta: { id: HOME_OWNER_RULE, type: "scanner", recommended: true, supportedContentTypes: ["text"] },
    create(context) {
      const t = context.createTranslator(messages);
      return {
        file(source) {
          for (const s of stringsOf(source.content)) {
            // A member name the rules spell is the host's structure, as in substitution's final check.
            if (s.isKey && structure.has(s.decoded) && !grammar.mayHold(s.decoded)) continue;
            if (/^x*$/.test(s.decoded) || !(grammar.mayHold(s.decoded) || (names?.test(s.decoded) ?? false) || s.decoded.includes("\\"))) continue;
            const readings = nestedReadings(s.decoded);
            const owner = grammar.realOwners(s.decoded).find((o) => !o.tilde);
            if (owner) context.report({ message: t("FOUND"), range: [s.rawAt(owner.start), s.rawAt(owner.end)] });
            else if (readings.some((r) => grammar.realOwners(r).some((o) => !o.tilde) || (names?.test(r) ?? false))) {
              context.report({ message: t("FOUND"), range: [s.rawAt(0), s.rawAt(s.decoded.length)] });
            }
          }
        },
      };
    },
  };
}
