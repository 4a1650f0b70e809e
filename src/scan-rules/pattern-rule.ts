import type { SecretLintRuleCreator } from "@secretlint/types";
import type { SecretPattern } from "../types.js";
import { readingsOf } from "./readings.js";
import { eachMatch } from "../regex.js";
import { addScanWords, scanWordsIn } from "./scan-words.js";

// A secret shape from rules/secrets/patterns.json as a secretlint rule module: an id, messages
// by messageId, and a file handler that reports raw ranges. The message never carries the value.
// A rule reads a file only when one of its keywords stands in it, raw or decoded: the words of
// every rule are looked for in one pass over the file (scan-words.ts), not one pass per rule.

export type { SecretPattern };

export function patternRule(p: SecretPattern): SecretLintRuleCreator {
  addScanWords(p.keywords);
  const messages = { FOUND: { en: (props: { kind: string }) => `found ${props.kind}` } };
  // Compiled once: secretlint makes the rule again for every file, and matchAll reads a copy of it.
  const pattern = new RegExp(p.pattern, `g${p.flags ?? ""}`);
  return {
    messages,
    meta: { id: p.id, type: "scanner", recommended: true, supportedContentTypes: ["text"] },
    create(context) {
      const t = context.createTranslator(messages);
      const report = (range: [number, number]): void => context.report({ message: t("FOUND", { kind: p.description }), range });
      return {
        file(source) {
          const r = readingsOf(source.content);
          const present = scanWordsIn(r);
          if (!p.keywords.some((k) => present.raw.has(k) || present.decoded.has(k))) return;
          const matches = (text: string, toRaw: (start: number, end: number) => [number, number]): void => {
            for (const m of eachMatch(pattern, text)) {
              const value = m[1] ?? m[0];
              const at = m.index + m[0].lastIndexOf(value);
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
