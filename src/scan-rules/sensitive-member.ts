import type { SecretLintRuleCreator } from "@secretlint/types";
import { readingsOf } from "./readings.js";

// A password, secret or token member whose value has the entropy of a real secret (a placeholder,
// a word or a short value does not), in the document or in JSON held in any of its strings.

export const SENSITIVE_MEMBER_RULE = "clear/sensitive-member";
export const SENSITIVE_MEMBER_DESCRIPTION = "A password, secret or token member holding a high-entropy value";
const MEMBER = /passw(?:or)?d|secret|token/i;

export function entropy(value: string): number {
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) bits -= (n / value.length) * Math.log2(n / value.length);
  return bits;
}

export function looksSecret(value: string): boolean {
  return value.length >= 12 && !/\s/.test(value) && entropy(value) >= 3.5;
}

export const sensitiveMemberRule: SecretLintRuleCreator = {
  messages: { FOUND: { en: () => "a password, secret or token member holds a high-entropy value" } },
  meta: { id: SENSITIVE_MEMBER_RULE, type: "scanner", recommended: true, supportedContentTypes: ["text"] },
  create(context) {
    const t = context.createTranslator(sensitiveMemberRule.messages);
    return {
      file(source) {
        for (const s of readingsOf(source.content).strings) {
          if (s.isKey || s.member === null || !MEMBER.test(s.member)) continue;
          const value = s.readings[0];
          if (value && looksSecret(value.text)) context.report({ message: t("FOUND"), range: [value.rawAt(0), value.rawAt(value.text.length)] });
        }
      },
    };
  },
};
