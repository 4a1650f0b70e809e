import type { SecretLintRuleCreator } from "@secretlint/types";
import type { SecretPattern } from "../types.js";
import { lowerOf, stringsOf } from "./strings.js";

export type { SecretPattern };

// A secret shape from rules/secrets/patterns.json as a secretlint rule module: an id, messages
// by messageId, and a file handler that reports ranges. The message never carries the value.

export function patternRule(p: SecretPattern): SecretLintRuleCreator {
  const messages = { FOUND: { en: (props: { kind: string }) => `found ${props.kind}` } };
  return {
    messages,
    meta: { id: p.id, type: "scanner", recommended: true, supportedContentTypes: ["text"] },
    create(context) {
      const t = context.createTranslator(messages);
      const pattern = new RegExp(p.pattern, `g${p.flags ?? ""}`);
      const report = (start: number, end: number): void => context.report({ message: t("FOUND", { kind: p.description }), range: [start, end] });
      return {
        file(source) {
          const text = source.content;
          const lower = lowerOf(text);
          if (!p.keywords.some((k) => lower.includes(k))) return;
          if (p.target === "raw") {
            for (const m of text.matchAll(pattern)) {
              const value = m[1] ?? m[0];
              const at = (m.index ?? 0) + m[0].lastIndexOf(value);
              report(at, at + value.length);
            }
            return;
          }
          for (const s of stringsOf(text)) {
            for (const m of s.decoded.matchAll(pattern)) {
              const value = m[1] ?? m[0];
              const at = (m.index ?? 0) + m[0].lastIndexOf(value);
              report(s.rawAt(at), s.rawAt(at + value.length));
            }
          }
        },
      };
    },
  };
}
