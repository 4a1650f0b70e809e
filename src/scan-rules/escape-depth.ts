import type { SecretLintRuleCreator } from "@secretlint/types";
import { MAX_LEVELS, readingsOf } from "./readings.js";

// A string whose escapes still decode after every level the scan follows, or whose encodings
// decode to more than its budget of readings, cannot be proved clear, so it is a finding, never
// skipped.

export const ESCAPE_DEPTH_RULE = "clear/escape-depth";
export const ESCAPE_DEPTH_DESCRIPTION = `A string escaped, or holding JSON, more than ${MAX_LEVELS} levels deep, or encoded into more readings than the scan reads`;

export const escapeDepthRule: SecretLintRuleCreator = {
  messages: { FOUND: { en: () => `a string is escaped more than ${MAX_LEVELS} levels deep, or encoded into more readings than the scan reads; the scan cannot read it whole` } },
  meta: { id: ESCAPE_DEPTH_RULE, type: "scanner", recommended: true, supportedContentTypes: ["text"] },
  create(context) {
    const t = context.createTranslator(escapeDepthRule.messages);
    return {
      file(source) {
        for (const s of readingsOf(source.content).strings) {
          if (s.tooDeep) context.report({ message: t("FOUND"), range: [s.place.start, s.place.end] });
        }
      },
    };
  },
};

/** A string that decodes one level further than the scan follows, for the reach control. */
export function tooDeepExample(): string {
  return `\\${"u005c".repeat(MAX_LEVELS + 4)}u0041`;
}
