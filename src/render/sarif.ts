import { SarifBuilder, SarifResultBuilder, SarifRuleBuilder, SarifRunBuilder } from "node-sarif-builder";
import type { Log, ReportingDescriptor, Result } from "sarif";
import { sha256Hex } from "../digest.js";
import type { RuleInfo } from "../passes/scan.js";
import type { ScanFinding, ScanResult } from "../types.js";

// The scan as SARIF 2.1.0 for GitHub code scanning, built with node-sarif-builder: every rule
// with its descriptions, help and security severity; each result at its region, under a
// relative, percent-encoded URI with its base; a fingerprint that stays the same across runs.

/** Where a scanned file is, as SARIF names it: a relative URI and the base it is relative to. */
export interface SarifPlace {
  uri: string;
  uriBaseId: string;
}

export const SRCROOT = "%SRCROOT%";
/** The package's page on the npm registry, where its README is. */
const TOOL_URI = "https://www.npmjs.com/package/fixture-clear";

/** A relative path (forward slashes) as a URI: each segment percent-encoded, spaces and accents included. */
export function relativeUri(relativePath: string): string {
  return relativePath.split("/").map(encodeURIComponent).join("/");
}

const SEVERITY: Record<RuleInfo["kind"], string> = { secret: "9.0", unreadable: "7.0", name: "5.0" };

const FULL: Record<RuleInfo["kind"], string> = {
  secret: "in the raw bytes or in any string as a JSON parser decodes it, at any level of escapes and of JSON held in strings.",
  name: "in any string as a JSON parser decodes it, JSON held in strings included. The name itself is never shown.",
  unreadable: "the scan follows that many levels and refuses what it cannot read whole.",
};

const HELP: Record<RuleInfo["kind"], string> = {
  secret: [
    "Treat the value as leaked: revoke it where it was issued, then take it out of the capture or clear the capture again.",
    "A value that is not a secret (a documented test key, a placeholder) can be waived in clear.config.json",
    "by fixture path, JSON pointer, rule and the SHA-256 of the value.",
  ].join(" "),
  name: "Clear the capture again so that every home's owner and every known user name becomes the placeholder (clear run); a name is never waived.",
  unreadable: "Take the value out of the capture, or clear the capture again: a string the scan cannot read whole is never admitted.",
};

/** A file the scan could not read is a result too: code scanning must not show it as clean. */
export const NOT_SCANNED: RuleInfo = { id: "clear/not-scanned", description: "A file the scan could not read", kind: "unreadable" };
const NOT_SCANNED_FULL = "A file given to the scan that it could not read whole (a link, which is never followed, a file too large, one it may not open) is reported here, never passed as clean.";
const NOT_SCANNED_HELP = "Give the file as a regular file the scan can read whole, or leave it out of the paths scanned.";

function ruleOf(r: RuleInfo): ReportingDescriptor {
  // The tool's own rule for files not read says what it is in its own words.
  const own = r.id === NOT_SCANNED.id;
  const help = own ? NOT_SCANNED_HELP : HELP[r.kind];
  const rule: ReportingDescriptor = {
    id: r.id,
    name: r.id.replace(/^@secretlint\/secretlint-rule-|^clear\//, "").replace(/(^|[-/])([a-z0-9])/g, (_m, _s, c: string) => c.toUpperCase()),
    shortDescription: { text: `${r.description}.` },
    fullDescription: { text: own ? NOT_SCANNED_FULL : `${r.description}${r.kind === "unreadable" ? ":" : ","} ${FULL[r.kind]}` },
    help: { text: help, markdown: `**${r.description}.** ${help}` },
    defaultConfiguration: { level: "error" },
    properties: { "security-severity": SEVERITY[r.kind], precision: "high", tags: ["security", r.kind === "name" ? "privacy" : "secret"] },
  };
  if (r.helpUri) rule.helpUri = r.helpUri;
  return rule;
}

function resultOf(f: ScanFinding, place: SarifPlace, fingerprint: string, reason?: string): Result {
  const result: Result = {
    ruleId: f.rule,
    level: "error",
    message: { text: `${f.message} at ${f.pointer ?? `line ${f.line}`}: ${f.masked}.` },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: place.uri, uriBaseId: place.uriBaseId },
          region: { startLine: f.line, startColumn: f.column, endLine: f.endLine, endColumn: f.endColumn },
        },
      },
    ],
    partialFingerprints: { "clearFinding/v1": fingerprint },
  };
  if (reason !== undefined) result.suppressions = [{ kind: "external", status: "accepted", justification: reason }];
  return result;
}

/** Each finding's fingerprint: its rule, file and pointer (or line), and its rank among findings alike. */
function fingerprints(findings: ScanFinding[], placeOf: (file: string) => SarifPlace): string[] {
  const seen = new Map<string, number>();
  return findings.map((f) => {
    const where = JSON.stringify([f.rule, placeOf(f.file).uri, f.pointer ?? `line ${f.line}`]);
    const rank = seen.get(where) ?? 0;
    seen.set(where, rank + 1);
    return sha256Hex(Buffer.from(`${where}#${rank}`));
  });
}


function notScannedResult(s: { file: string; reason: string }, place: SarifPlace): Result {
  return {
    ruleId: NOT_SCANNED.id,
    level: "error",
    message: { text: `Not scanned: ${s.reason}.` },
    locations: [{ physicalLocation: { artifactLocation: { uri: place.uri, uriBaseId: place.uriBaseId }, region: { startLine: 1 } } }],
    partialFingerprints: { "clearFinding/v1": sha256Hex(Buffer.from(JSON.stringify([NOT_SCANNED.id, place.uri]))) },
  };
}

export function sarifLog(scan: ScanResult, catalogue: RuleInfo[], version: string, placeOf: (file: string) => SarifPlace, skipped: { file: string; reason: string }[] = []): Log {
  const run = new SarifRunBuilder({ columnKind: "utf16CodeUnits" }).initSimple({ toolDriverName: "clear", toolDriverVersion: version, url: TOOL_URI });
  run.run.tool.driver.semanticVersion = version;
  for (const r of [...catalogue, NOT_SCANNED]) run.addRule(new SarifRuleBuilder(ruleOf(r)));
  const all = [...scan.findings.map((f) => ({ f, reason: undefined as string | undefined })), ...scan.waived.map((f) => ({ f, reason: f.reason }))];
  const prints = fingerprints(
    all.map((x) => x.f),
    placeOf,
  );
  all.forEach(({ f, reason }, i) => run.addResult(new SarifResultBuilder(resultOf(f, placeOf(f.file), prints[i] as string, reason))));
  for (const x of skipped) run.addResult(new SarifResultBuilder(notScannedResult(x, placeOf(x.file))));
  // The run says whether the scan did all it had to: every file read, and its planted control found.
  const silent = scan.control.red ? [] : [{ level: "error" as const, message: { text: `The scan's planted control was not found by ${scan.control.silent.join(", ")}: the scan cannot be trusted.` } }];
  run.run.invocations = [{ executionSuccessful: scan.control.red && skipped.length === 0, toolExecutionNotifications: [...skipped.map((x) => ({ level: "error" as const, message: { text: `${x.file} not scanned: ${x.reason}.` }, locations: [{ physicalLocation: { artifactLocation: { uri: placeOf(x.file).uri, uriBaseId: placeOf(x.file).uriBaseId } } }] })), ...silent] }];
  const files = [...new Set([...all.map((x) => x.f.file), ...skipped.map((x) => x.file)])].sort();
  run.run.artifacts = files.map((file) => ({ location: { uri: placeOf(file).uri, uriBaseId: placeOf(file).uriBaseId }, roles: ["analysisTarget" as const] }));
  const builder = new SarifBuilder({ $schema: "https://json.schemastore.org/sarif-2.1.0.json" });
  builder.addRun(run);
  return builder.buildSarifOutput();
}
