import type { SecretLintRuleCreator } from "@secretlint/types";
import { stringsOf } from "./strings.js";

// A password, secret or token member whose value has the entropy of a real secret (a placeholder,
// a word or a short value does not).

export const SENSITIVE_MEMBER_RULE = "clear/sensitive-member";
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
        for (const s of stringsOf(source.content)) {
          if (s.isKey || s.member === null || !MEMBER.test(s.member) || !looksSecret(s.decoded)) continue;
          context.report({ message: t("FOUND"), range: [s.rawAt(0), s.rawAt(s.decoded.length)] });
        }
      },
    };
  },
};
