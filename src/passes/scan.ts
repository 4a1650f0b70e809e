import { lintSource } from "@secretlint/core";
import { secretLintProfiler } from "@secretlint/profiler";
import { creator as recommendedPreset } from "@secretlint/secretlint-rule-preset-recommend";
import type { SecretLintCoreConfig, SecretLintCoreResultMessage } from "@secretlint/types";
import { maskValue, type Display } from "../display.js";
import type { HomeGrammar } from "../homes.js";
import { decodeJsonString } from "../json/escapes.js";
import { placeOf, scanJson, stringTokens } from "../json/reader.js";
import { homeOwnerRule, HOME_OWNER_RULE } from "../scan-rules/home-owner.js";
import { patternRule } from "../scan-rules/pattern-rule.js";
import { sensitiveMemberRule, SENSITIVE_MEMBER_RULE } from "../scan-rules/sensitive-member.js";
import type { JsonDocument, ScanFinding, ScanResult, SecretRules } from "../types.js";

// The secret scan: secretlint's engine with its recommended preset (AWS id scan on) and this
// project's own rules as rule modules. A finding is placed with the project's positioned JSON
// reader (secretlint's range may start at a member name or take a quote) and carries a masked
// value only. Every scan also scans a planted control, and fails unless every rule fires on it.

// secretlint's profiler marks every rule run, which makes a scan quadratic in the number of files.
secretLintProfiler.mark = () => undefined;

export interface ScanInput {
  /** As it is to be printed: repository-relative where possible. */
  file: string;
  text: string;
}

export interface ScanEngine {
  config: SecretLintCoreConfig;
  controlText: string;
  expected: string[];
}

export const join = (parts: string[]): string => parts.join("");

/** A high-entropy value made at run time, for the control's password member. */
function plantedPassword(): string {
  const alphabet = "Qw3rTy9uIoP1aSdF5gHjK7lZxC2vBnM8";
  return Array.from({ length: 24 }, (_, i) => alphabet[(i * 7 + 3) % alphabet.length]).join("");
}

function controlText(secrets: SecretRules): string {
  const members: Record<string, string> = {};
  for (const r of secrets.rules) {
    const example = join(r.match[0] as string[]);
    if (r.target === "raw") Object.assign(members, JSON.parse(example) as Record<string, string>);
    else members[`control ${r.id}`] = example;
  }
  for (const [id, examples] of Object.entries(secrets.presetControls)) members[`control ${id}`] = join(examples[0] as string[]);
  members.password = plantedPassword();
  members.cwd = ["/home/", "control-owner", "/project"].join("");
  return JSON.stringify(members, null, 1);
}

export function scanEngine(secrets: SecretRules, grammar: HomeGrammar, names: RegExp | null, structure: ReadonlySet<string> = new Set()): ScanEngine {
  const config: SecretLintCoreConfig = {
    rules: [
      { id: "@secretlint/secretlint-rule-preset-recommend", rule: recommendedPreset, rules: [{ id: "@secretlint/secretlint-rule-aws", options: { enableIDScanRule: true } }] },
      ...secrets.rules.map((r) => ({ id: r.id, rule: patternRule(r) })),
      { id: SENSITIVE_MEMBER_RULE, rule: sensitiveMemberRule },
      { id: HOME_OWNER_RULE, rule: homeOwnerRule(grammar, names, structure) },
    ],
  };
  const expected = [...secrets.rules.map((r) => r.id), ...Object.keys(secrets.presetControls), SENSITIVE_MEMBER_RULE, HOME_OWNER_RULE].sort();
  return { config, controlText: controlText(secrets), expected };
}

/** The innermost string token overlapping a range: where the finding really is. */
function locate(doc: JsonDocument | null, range: readonly [number, number]): { pointer?: string; start: number; end: number } {
  if (!doc) return { start: range[0], end: range[1] };
  const tokens = stringTokens(doc).map((t) => t.span).filter((s) => s.start < range[1] && s.end > range[0]);
  const best = tokens.sort((a, b) => a.end - a.start - (b.end - b.start))[0];
  if (!best) return { start: range[0], end: range[1] };
  return { pointer: best.pointer, start: Math.max(range[0], best.start + 1), end: Math.min(range[1], best.end - 1) };
}

function toFinding(input: ScanInput, doc: JsonDocument | null, m: SecretLintCoreResultMessage, display: Display): ScanFinding {
  const at = locate(doc, m.range);
  const raw = input.text.slice(at.start, at.end);
  const value = doc ? decodeJsonString(raw) : raw;
  const f: ScanFinding = { file: input.file, rule: m.ruleId, ...placeOf(input.text, at.start), masked: maskValue(value), message: `secret shape: ${m.ruleId}` };
  if (at.pointer !== undefined) f.pointer = display.pointer(at.pointer);
  return f;
}

async function scanOne(input: ScanInput, engine: ScanEngine, display: Display): Promise<ScanFinding[]> {
  const result = await lintSource({ source: { filePath: input.file, content: input.text, contentType: "text" }, options: { config: engine.config, maskSecrets: true, noPhysicFilePath: true } });
  const messages = result.messages.filter((m): m is SecretLintCoreResultMessage => m.type === "message");
  if (messages.length === 0) return [];
  let doc: JsonDocument | null = null;
  try {
    doc = scanJson(input.text, { maxDepth: 10_000 });
  } catch {
    doc = null;
  }
  const seen = new Set<string>();
  const out: ScanFinding[] = [];
  for (const m of messages) {
    const f = toFinding(input, doc, m, display);
    const key = `${f.rule}\u0000${f.pointer ?? ""}\u0000${f.line}:${f.column}`;
    if (!seen.has(key)) out.push(f);
    seen.add(key);
  }
  return out;
}

/** The scan pass: every input, then the reach control. */
export async function scanPass(inputs: ScanInput[], engine: ScanEngine, display: Display): Promise<ScanResult> {
  const findings: ScanFinding[] = [];
  for (const input of inputs) findings.push(...(await scanOne(input, engine, display)));
  const control = await scanOne({ file: "(control)", text: engine.controlText }, engine, display);
  const fired = new Set(control.map((f) => f.rule));
  const silent = engine.expected.filter((id) => !fired.has(id));
  return { files: inputs.length, findings, control: { red: silent.length === 0, rules: engine.expected, silent } };
}
