import type { SecretLintRuleCreator } from "@secretlint/types";
import { readingsOf } from "./readings.js";

// A member named for a credential (a password, secret, token, key or credential, as JSON members
// and environment variables spell them: api_key, OPENROUTER_API_KEY, accessKey, x-auth) whose
// value has the entropy of a real secret (a placeholder, a word or a short value does not), in the
// document or in JSON held in any of its strings. A key of any provider, shape known or not.

export const SENSITIVE_MEMBER_RULE = "clear/sensitive-member";
export const SENSITIVE_MEMBER_DESCRIPTION = "A password, secret, token, key or credential member holding a high-entropy value";
const MEMBER = /passw(?:or)?d|passwd|pwd|secret|token|credential|bearer|cookie|(?:^|[^a-z])o?auth(?:$|[^a-z]|orization)|(?:api|access|private|secret|signing|encryption|master|license|session|client|account|auth)[_.-]?key|(?:^|[_.-])key(?:$|[_.-])/i;
/** A key in camel case: accessKey, publicKeyPem (not monkey, not keyboard). */
const CAMEL_KEY = /[a-z0-9]Key(?:$|[A-Z_])/;
const sensitive = (member: string): boolean => MEMBER.test(member) || CAMEL_KEY.test(member);

export function entropy(value: string): number {
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) bits -= (n / value.length) * Math.log2(n / value.length);
  return bits;
}

/** A value with a secret's spread of characters; a hex digest's sixteen letters spread less, so a long one of letters and digits needs less. */
export function looksSecret(value: string): boolean {
  if (value.length < 12 || /\s/.test(value)) return false;
  const bits = entropy(value);
  return bits >= 3.5 || (value.length >= 16 && /[0-9]/.test(value) && /[A-Za-z]/.test(value) && bits >= 3.0);
}

export const sensitiveMemberRule: SecretLintRuleCreator = {
  messages: { FOUND: { en: () => "a password, secret, token, key or credential member holds a high-entropy value" } },
  meta: { id: SENSITIVE_MEMBER_RULE, type: "scanner", recommended: true, supportedContentTypes: ["text"] },
  create(context) {
    const t = context.createTranslator(sensitiveMemberRule.messages);
    return {
      file(source) {
        for (const s of readingsOf(source.content).strings) {
          if (s.isKey || s.member === null || !sensitive(s.member)) continue;
          const value = s.readings[0];
          if (value && looksSecret(value.text)) context.report({ message: t("FOUND"), range: [value.rawAt(0), value.rawAt(value.text.length)] });
        }
      },
    };
  },
};
