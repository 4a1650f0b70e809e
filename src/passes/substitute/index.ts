import { classifier } from "../../classify.js";
import type { Display } from "../../display.js";
import { finding } from "../../findings.js";
import { homeGrammar, userNamePattern, type HomeGrammar } from "../../homes.js";
import { decodeJsonString, nestedReadings } from "../../json/escapes.js";
import { stringTokens } from "../../json/reader.js";
import type { Capture, LearnedName, Rules, Substitution } from "../../types.js";
import { clearFile, type ClearContext } from "./clear-file.js";
import { envDumpRule } from "./env-dump.js";
import { freeTextRule } from "./free-text.js";
import { homePathRule } from "./home-path.js";
import { literalRule, type Literal } from "./literal.js";
import type { SubstitutionRule } from "./rule.js";
import { urlRule } from "./url.js";

// The substitution pass: learn every home owner the sitting names, then clear each capture with
// the registry of rules in their fixed order.

export interface SubstituteOptions {
  /** Names given by --user, clear.config.json and the runner's home. */
  users: string[];
  literals: Literal[];
  /** Present when clear.config.json opts into the env-dump-v1 policy. */
  envDump: { reason: string; pointers?: string[] } | null;
}

/** The registry, in the order the rules apply. */
export function registry(rules: Rules, grammar: HomeGrammar, literals: Literal[]): SubstitutionRule[] {
  return [homePathRule(grammar), ...literals.map(literalRule), envDumpRule, urlRule(rules.urls), freeTextRule];
}

/** Every home owner the captures name (in values, member names and nested JSON), with where each was first seen. */
export function learnOwners(captures: Capture[], grammar: HomeGrammar): Map<string, LearnedName> {
  const learned = new Map<string, LearnedName>();
  for (const c of captures) {
    for (const { span: t } of stringTokens(c.doc)) {
      const raw = c.doc.text.slice(t.start + 1, t.end - 1);
      if (!grammar.mayHold(raw)) continue;
      for (const reading of nestedReadings(decodeJsonString(raw))) {
        for (const o of grammar.realOwners(reading).filter((x) => !x.tilde)) {
          const key = o.owner.toLowerCase();
          if (!learned.has(key)) learned.set(key, { file: c.name, pointer: t.pointer });
        }
      }
    }
  }
  return learned;
}

export function substitutePass(captures: Capture[], rules: Rules, options: SubstituteOptions, display: Display): Substitution {
  const plain = homeGrammar(rules.homes);
  const learnedAt = learnOwners(captures, plain);
  const names = [...new Set([...learnedAt.keys(), ...options.users])];
  const grammar = homeGrammar(rules.homes, names);
  // A learned name of one letter would refuse every file with that letter standing alone; its homes are still replaced.
  const checked = [...[...learnedAt.keys()].filter((n) => n.length >= 2), ...options.users].filter((n) => grammar.isOwner(n));
  const known = { pattern: userNamePattern(checked), learnedAt };
  const base = { rules, registry: registry(rules, grammar, options.literals), grammar, names: known, display, envDumpPolicy: options.envDump };
  const classifiers = new Map(rules.harnesses.map((h) => [h.harness, classifier(rules.fields.find((f) => f.harness === h.harness))]));
  const files = captures.map((c) => clearFile(c, { ...base, classifier: classifiers.get(c.harness) ?? classifier(undefined) } satisfies ClearContext));
  const findings = files.flatMap((f) => [
    ...f.report.refused,
    ...f.report.review.map((pointer) => finding("review-free-text", { file: f.report.name, pointer })),
    ...f.report.undocumented.map((pointer) => finding("undocumented-value", { file: f.report.name, pointer })),
  ]);
  return { userNames: names.length, declarations: rules.homes.declared ?? [], files, skipped: [], findings };
}
