import type { SecretLintRuleCreator } from "@secretlint/types";
import { escapePointerToken } from "../json/reader.js";
import { readingsOf, type ScannedString } from "./readings.js";

// A member named for a credential (a password, secret, token, key or credential, as JSON members
// and environment variables spell them: api_key, OPENROUTER_API_KEY, accessKey, x-auth, DB_PW,
// WIFI_PSK, keytool's storepass, a one-time password's seed) whose
// value has the entropy of a real secret (a placeholder, a word or a short value does not), in the
// document or in JSON held in any of its strings. A key of any provider, shape known or not. So
// is the value of a setting named so (`{"name": "DB_PASSWORD", "value": …}`), and an
// authorization value's credentials after its scheme.

export const SENSITIVE_MEMBER_RULE = "clear/sensitive-member";
export const SENSITIVE_MEMBER_DESCRIPTION = "A password, secret, token, key or credential member holding a high-entropy value";
const MEMBER = /passw(?:or)?d|passwd|passphrase|passcode|(?:^|[^a-z]|store|key|src|dest|db|root|admin|user|wifi|smtp|ftp|proxy|ldap|bind|vnc|rpc|ssh)pass(?:$|[^a-z])|(?:^|[^a-z]|db|root|admin|user|ssh|wifi|bind)(?:pw|psk)(?:$|[^a-z])|(?:^|[^a-z])t?otp(?:$|[^a-z])|otp[_.-]?seed|pwd|secret|token|credential|bearer|cookie|(?:^|[^a-z])o?auth(?:$|[^a-z]|orization)|(?:api|access|private|secret|signing|encryption|master|license|session|client|account|auth)[_.-]?key|(?:^|[_.-])key(?:$|[_.-])/i;
/** A key in camel case: accessKey, publicKeyPem (not monkey, not keyboard); a password or a pre-shared key so: dbPw, userPW, wifiPSK, sshPass. */
const CAMEL_KEY = /[a-z0-9](?:Key|Pw|PW|Psk|PSK|Pass)(?:$|[A-Z_])/;
/**
 * A key or token named for what it indexes, not what it unlocks: a public key, an idempotency,
 * cache, partition or sort key, a page token; and a tokenizer, which splits text into tokens. Taken out of the name before it is judged, so
 * `public_key` stays and `public_key_secret` does not.
 */
const NAMED_FOR_AN_INDEX = /(?:public|idempotency|idempotent|cache|partition|sort|primary|foreign|row|object|lookup|dedupe?|routing|index|cursor|i18n|translation|locale|hot|unique|composite|shard|bucket)[_.-]?key(?![a-z])|(?:page|next[_.-]?page|continuation|sync|pagination)[_.-]?token(?![a-z])|tokeni[sz](?:e|er|ed|ing|ation)s?/gi;
/** Whether a name names a credential: the vocabulary of members, of settings and of names a text assigns to (sensitive-assignment.ts). */
export const sensitive = (member: string): boolean => {
  const judged = member.replace(NAMED_FOR_AN_INDEX, " ");
  return MEMBER.test(judged) || CAMEL_KEY.test(judged);
};
/** An object's path (`uploads/2024/photo-1a2b.jpg`): folders and a file name with an extension, which no base64 or hex secret is. */
export const OBJECT_PATH = /^[\w.-]+(?:\/[\w.-]+)+\.[A-Za-z0-9]{1,8}$/;

export function entropy(value: string): number {
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) bits -= (n / value.length) * Math.log2(n / value.length);
  return bits;
}

/** A value with a secret's spread of characters; a hex digest's sixteen letters spread less, so a long one of letters and digits needs less. */
export function looksSecret(value: string): boolean {
  if (value.length < 12 || /\s/.test(value) || OBJECT_PATH.test(value)) return false;
  const bits = entropy(value);
  return bits >= 3.5 || (value.length >= 16 && /[0-9]/.test(value) && /[A-Za-z]/.test(value) && bits >= 3.0);
}

/** An authorization value's scheme before its credentials ("SSWS 00a…", "token ghx…", "Bot MTk…"): the credentials are judged without it. */
const SCHEME = /^[A-Za-z][A-Za-z0-9-]{1,15} +(?=\S+$)/;

/** A member that names the setting an object holds (`{"name": "DB_PASSWORD", "value": "…"}`, as Kubernetes, ECS and SSM write settings), and the member that holds its value (`value`, `val`, `v`). */
const NAMES_A_SETTING = /^(?:name|key)$/i;
const HOLDS_ITS_VALUE = /^(?:value|val|v)$/i;

/** The pointer of the object a member stands in. */
const parentOf = (pointer: string): string => pointer.slice(0, pointer.lastIndexOf("/"));

export const sensitiveMemberRule: SecretLintRuleCreator = {
  messages: { FOUND: { en: () => "a password, secret, token, key or credential member holds a high-entropy value" } },
  meta: { id: SENSITIVE_MEMBER_RULE, type: "scanner", recommended: true, supportedContentTypes: ["text"] },
  create(context) {
    const t = context.createTranslator(sensitiveMemberRule.messages);
    return {
      file(source) {
        const { strings, raw, isJson } = readingsOf(source.content);
        // The object a member's string stands in: by its pointer, and in JSON Lines by its line too. A string of a JSON
        // document held in a string has its holder's place, whose pointer ends in another member: it stands in no object here.
        const objectOf = (s: ScannedString): string | null => {
          const { pointer, start } = s.place;
          if (pointer === null || s.member === null || s.encoded || !pointer.endsWith(`/${escapePointerToken(s.member)}`)) return null;
          return `${isJson ? 0 : raw.lastIndexOf("\n", start) + 1}:${parentOf(pointer)}`;
        };
        // The settings named for a credential, by the object they stand in.
        const sensitiveSettings = new Set<string>();
        for (const s of strings) {
          const name = s.readings[0]?.text;
          const object = objectOf(s);
          if (!s.isKey && object !== null && NAMES_A_SETTING.test(s.member ?? "") && name !== undefined && sensitive(name)) sensitiveSettings.add(object);
        }
        for (const s of strings) {
          if (s.isKey || s.member === null) continue;
          const object = HOLDS_ITS_VALUE.test(s.member) ? objectOf(s) : null;
          const setting = object !== null && sensitiveSettings.has(object);
          if (!setting && !sensitive(s.member)) continue;
          const value = s.readings[0];
          const scheme = value ? (SCHEME.exec(value.text)?.[0].length ?? 0) : 0;
          if (value && looksSecret(value.text.slice(scheme))) context.report({ message: t("FOUND"), range: [value.rawAt(scheme), value.rawAt(value.text.length)] });
        }
      },
    };
  },
};
