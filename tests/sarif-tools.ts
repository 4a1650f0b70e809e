import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { PROJECT_ROOT } from "./helpers.js";
import { installedOnce } from "./npm-cache.js";

// The two SARIF checkers the tests run: the SARIF 2.1.0 JSON Schema that @microsoft/jest-sarif
// ships (a development dependency, read with its own Ajv 6, which speaks the schema's draft 04),
// and Microsoft's SARIF Multitool, a self-contained .NET program in an npm package whose install
// script only makes it executable: installed here, at test setup, into a cache folder, scripts held back.

const TOOLS_SPEC = path.join(PROJECT_ROOT, "tests", "sarif-tools");
const TOOLS_CACHE = path.join(PROJECT_ROOT, "node_modules", ".cache", "clear-sarif-tools");

export const MULTITOOL_SUPPORTED = process.platform === "linux" && process.arch === "x64";
export const MULTITOOL_SKIP_REASON = `the SARIF Multitool's npm build runs on Linux x64 only (this is ${process.platform} ${process.arch})`;

/** The Multitool's executable, installed once at the version tests/sarif-tools names. */
export function sarifMultitool(): string {
  // npm ci cannot take a lock file here: some of these name an optional package the registry lacks.
  installedOnce(path.join(TOOLS_SPEC, "package.json"), TOOLS_CACHE);
  const binary = path.join(TOOLS_CACHE, "node_modules", "@microsoft", "sarif-multitool-linux", "Sarif.Multitool");
  chmodSync(binary, 0o755); // what the package's own install script does
  return binary;
}

export interface MultitoolIssue {
  ruleId: string;
  level: string;
  text: string;
}

/** Every error and warning the Multitool reports on a log with GitHub's rules and SARIF's own. */
export function multitoolIssues(binary: string, log: string, outDir: string): MultitoolIssue[] {
  const out = path.join(outDir, "validation.sarif");
  const r = spawnSync(binary, ["validate", "--rule-kind", "Gh;Sarif", "--level", "Error;Warning", "--log", "ForceOverwrite", "-o", out, log], { encoding: "utf8" });
  if (!existsSync(out)) throw new Error(`the SARIF Multitool did not run:\n${r.stdout}${r.stderr}`);
  const results = (JSON.parse(readFileSync(out, "utf8")) as { runs: { results?: { ruleId: string; level?: string; message: { text?: string } }[] }[] }).runs[0]?.results ?? [];
  return results.map((x) => ({ ruleId: x.ruleId, level: x.level ?? "warning", text: x.message.text ?? "" }));
}

type SchemaErrors = { instancePath?: string; dataPath?: string; message?: string }[];

/** The errors of a log against the SARIF 2.1.0 schema @microsoft/jest-sarif ships, as jest-sarif reads it. */
export function sarifSchemaErrors(log: unknown): string[] {
  const fromJestSarif = createRequire(path.join(PROJECT_ROOT, "node_modules", "@microsoft", "jest-sarif", "package.json"));
  const Ajv = fromJestSarif("ajv") as new (o: object) => { addMetaSchema(s: unknown): void; compile(s: unknown): ((d: unknown) => boolean) & { errors?: SchemaErrors } };
  const ajv = new Ajv({ schemaId: "auto", validateSchema: false, allErrors: true });
  ajv.addMetaSchema(fromJestSarif("ajv/lib/refs/json-schema-draft-04.json"));
  const validate = ajv.compile(fromJestSarif("./lib/schemas/sarif-2.1.0-rtm.5.json"));
  return validate(log) ? [] : (validate.errors ?? []).map((e) => `${e.dataPath ?? e.instancePath ?? ""}: ${e.message ?? ""}`);
}
