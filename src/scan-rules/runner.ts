import type { SecretLintRuleContext, SecretLintRuleCreator, SecretLintRuleReportDescriptor, SecretLintSourceCode } from "@secretlint/types";

// This project's own rules are secretlint rule modules that read only a file's text and report
// only ranges. They run here, each made once for an engine, instead of inside secretlint's engine,
// which makes every rule again for every file: on a small file that costs more than the rules.

/** A range a rule reported, in raw UTF-16 offsets. */
export interface RuleHit {
  rule: string;
  start: number;
  end: number;
}

export interface OwnRules {
  /** Every range each rule reports on `content`. */
  hitsOf(content: string): Promise<RuleHit[]>;
}

export function ownRules(rules: { id: string; rule: SecretLintRuleCreator }[]): OwnRules {
  let hits: RuleHit[] = [];
  const handlers = rules.map(({ id, rule }) => {
    // What a rule of this project asks of its context: a translator for its message, which is never printed, and report.
    const context = {
      createTranslator: () => (messageId: PropertyKey) => ({ message: String(messageId), messageId: String(messageId), data: {} }),
      report: (d: SecretLintRuleReportDescriptor) => void hits.push({ rule: id, start: d.range[0], end: d.range[1] }),
    };
    return rule.create(context as unknown as SecretLintRuleContext, {});
  });
  return {
    async hitsOf(content) {
      hits = [];
      const source = { content, filePath: "", ext: "", contentType: "text" } as unknown as SecretLintSourceCode;
      // Every rule of this project reads synchronously: one that returns a promise is awaited, the others cost no turn of the queue each.
      for (const h of handlers) {
        const done = h.file?.(source);
        if (done instanceof Promise) await done;
      }
      const out = hits;
      hits = [];
      return out;
    },
  };
}
