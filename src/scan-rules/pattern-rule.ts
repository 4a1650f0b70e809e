import type { SecretLintRuleCreator } from "@secretlint/types";
import type { SecretPattern } from "../types.js";
import { readingsOf } from "./readings.js";

// A secret shape from rules/secrets/patterns.json as a secretlint rule module: an id, messages
// by messageId, and a file handler that reports raw ranges. The message never carries the value.

export type { SecretPattern };

export function patternRule(p: SecretPattern): SecretLintRuleCreator {
  const messages = { FOUND: { en: (props: { kind: string }) => `found ${props.kind}` } };
  return {
    messages,
    meta: { id: p.id, type: "scanner", recommended: true, supportedContentTypes: ["text"] },
    create(context) {
      const t = context.createTranslator(messages);
      const pattern = new RegExp(p.pattern, `g${p.flags ?? ""}`);
      const report = (range: [number, number]): void => context.report({ message: t("FOUND", { kind: p.description }), range });
      return {
        file(source) {
          const r = readingsOf(source.content);
          if (!p.keywords.some((k) => r.lower.includes(k))) return;
          const matches = (text: string, toRaw: (start: number, end: number) => [number, number]): void => {
            for (const m of text.matchAll(pattern)) {
              const value = m[1] ?? m[0];
              const at = (m.index ?? 0) + m[0].lastIndexOf(value);
              report(toRaw(at, at + value.length));
            }
          };
          // A raw rule reads the raw text and the decoded strings beside their member names.
          if (p.target === "raw") {
            matches(r.raw, (start, end) => [start, end]);
            matches(r.decoded, (start, end) => r.rawRange(start, end));
            return;
          }
          for (const s of r.strings) {
            for (const reading of s.readings) matches(reading.text, (start, end) => [reading.rawAt(start), reading.rawAt(end)]);
          }
        },
      };
    },
  };
}
