import { SarifBuilder, SarifResultBuilder, SarifRuleBuilder, SarifRunBuilder } from "node-sarif-builder";
import type { Log } from "sarif";
import type { ScanResult, SecretRules } from "../types.js";

// The scan as SARIF 2.1.0, built with node-sarif-builder: rule ids and descriptions, a
// repository-relative artifact URI and a region, which is what GitHub code scanning reads.

export function sarifLog(scan: ScanResult, secrets: SecretRules, version: string): Log {
  const run = new SarifRunBuilder().initSimple({ toolDriverName: "clear", toolDriverVersion: version, url: "https://github.com/" });
  const described = new Map(secrets.rules.map((r) => [r.id, r.description]));
  for (const id of [...new Set([...scan.control.rules, ...scan.findings.map((f) => f.rule)])].sort()) {
    const rule = new SarifRuleBuilder().initSimple({ ruleId: id, shortDescriptionText: described.get(id) ?? `secret shape (${id})` });
    run.addRule(rule);
  }
  for (const f of scan.findings) {
    const uri = f.file.split("\\").join("/");
    const result = new SarifResultBuilder().initSimple({ level: "error", messageText: `${f.message} at ${f.pointer ?? "(text)"}: ${f.masked}`, ruleId: f.rule, fileUri: uri, startLine: f.line, startColumn: f.column });
    run.addResult(result);
  }
  const builder = new SarifBuilder();
  builder.addRun(run);
  return builder.buildSarifOutput();
}
