import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import type { ErrorObject, ValidateFunction } from "ajv";
import * as bundled from "../schemas.js";
import { RulesError } from "../errors.js";
import { pointerTokens } from "../json/reader.js";
import type { PayloadRules, FieldRuleSet, HarnessCatalogue, HomeRules, PairingRuleSet, Recipe, RefusalRules, Rules, SecretRules, TransportRules, UrlRules } from "../types.js";

// Rules live in rules/ as JSON; each kind has a JSON Schema there, compiled once in strict mode.

export { RulesError };

export const BUNDLED_RULES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "rules");

const SCHEMA_NAMES = ["harness", "recipe", "fields", "pairing", "refusals", "homes", "urls", "secrets", "transports", "payloads", "config", "sitting", "kit", "provenance"] as const;
export type SchemaName = (typeof SCHEMA_NAMES)[number];

const validators = new Map<string, Map<SchemaName, ValidateFunction>>();

/**
 * The validators for a schema folder: the bundled schemas come compiled at build time; a
 * repository's own schemas are compiled here, once, with Ajv loaded only then.
 */
function compiledSchemas(schemaDir: string): Map<SchemaName, ValidateFunction> {
  const cached = validators.get(schemaDir);
  if (cached) return cached;
  const compiled = new Map<SchemaName, ValidateFunction>();
  if (path.resolve(schemaDir) === path.join(BUNDLED_RULES_DIR, "schemas")) {
    for (const name of SCHEMA_NAMES) compiled.set(name, bundled[name]);
  } else {
    const { Ajv2020 } = createRequire(import.meta.url)("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js");
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
    for (const name of SCHEMA_NAMES) compiled.set(name, ajv.compile(readJson(path.join(schemaDir, `${name}.schema.json`)) as object));
  }
  validators.set(schemaDir, compiled);
  return compiled;
}

function readJson(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new RulesError(`${file}: cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new RulesError(`${file}: not valid JSON (${(err as Error).message})`);
  }
}

// A member name from the file being checked is shown only when it is a plain word: the file may be
// a hostile sitting.json or kit.json, and its member names are not ours to print.
const plainToken = (t: string): string => (/^[A-Za-z0-9_$.-]{1,40}$/.test(t) ? t : "[masked]");

/** What a pattern in the bundled schemas asks for, said in words. */
const PATTERN_WORDS: [RegExp, string][] = [
  [/\\p\{Cc\}/, "must be one line without line breaks, control or invisible characters"],
  [/^\^\[0-9\]\{4\}-/, "must be an RFC 3339 date and time (2026-01-31T09:30:00Z)"],
];

function describeErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .map((e) => {
      const at = e.instancePath === "" ? "/" : `/${pointerTokens(e.instancePath).map(plainToken).join("/")}`;
      const extra = e.params && "additionalProperty" in e.params ? ` (${plainToken(String(e.params.additionalProperty))})` : "";
      const pattern = e.keyword === "pattern" ? String((e.params as { pattern?: string }).pattern ?? "") : "";
      const words = PATTERN_WORDS.find(([re]) => re.test(pattern))?.[1];
      return `at ${at}: ${words ?? e.message ?? "is invalid"}${extra}`;
    })
    .join("; ");
}

/** Validates a parsed document against one of the bundled schemas; throws naming the file and pointer. */
export function validateAgainst(kind: SchemaName, value: unknown, file: string): void {
  const validate = compiledSchemas(path.join(BUNDLED_RULES_DIR, "schemas")).get(kind) as ValidateFunction;
  if (!validate(value)) throw new RulesError(`${file}: does not match ${kind}.schema.json ${describeErrors(validate.errors)}`);
}

function loadKind<T>(rulesDir: string, sub: string, kind: SchemaName, validate: ValidateFunction): T[] {
  const dir = path.join(rulesDir, sub);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith(".json")).sort();
  } catch {
    throw new RulesError(`${dir}: missing; a rules folder needs ${sub}/`);
  }
  return names.map((n) => {
    const file = path.join(dir, n);
    const value = readJson(file);
    if (!validate(value)) throw new RulesError(`${file}: does not match ${kind}.schema.json ${describeErrors(validate.errors)}`);
    return value as T;
  });
}

function crossCheck(rules: Rules): void {
  const known = new Map<string, HarnessCatalogue>();
  for (const h of rules.harnesses) {
    for (const name of [h.harness, ...h.aliases]) {
      if (known.has(name)) throw new RulesError(`${rules.dir}/harnesses: the name "${name}" is claimed twice`);
      known.set(name, h);
    }
  }
  const check = (file: string, harness: string, stems: string[]): void => {
    const h = known.get(harness);
    if (!h) throw new RulesError(`${file}: names harness "${harness}", which has no catalogue in harnesses/`);
    for (const s of stems) {
      if (s !== "*" && !h.events.some((e) => e.stem === s)) {
        throw new RulesError(`${file}: event "${s}" is not in the ${h.harness} catalogue`);
      }
    }
  };
  const defaults = new Map<string, string>();
  for (const r of rules.recipes) {
    check(`${rules.dir}/recipes/${r.name}.json`, r.harness, r.events);
    if (r.default) {
      const other = defaults.get(r.harness);
      if (other) throw new RulesError(`${rules.dir}/recipes: both ${other} and ${r.name} claim to be the default for ${r.harness}`);
      defaults.set(r.harness, r.name);
    }
  }
  for (const f of rules.fields) {
    check(`${rules.dir}/fields/${f.harness}.json`, f.harness, f.rules.flatMap((r) => [...(r.events ?? []), ...r.examples.map((e) => e.event)]));
  }
  for (const p of rules.pairing) {
    check(`${rules.dir}/pairing/${p.harness}.json`, p.harness, p.scopes.flatMap((s) => s.pointers.flatMap((x) => x.events ?? [])));
    // A scope lies within a coarser one, later in the list, so nesting never runs in a circle.
    p.scopes.forEach((s, i) => {
      if (s.within !== undefined && !p.scopes.slice(i + 1).some((c) => c.scope === s.within)) {
        throw new RulesError(`${rules.dir}/pairing/${p.harness}.json: scope "${s.scope}" lies within "${s.within}", which is not a coarser scope after it`);
      }
    });
  }
}

function loadOne<T>(dir: string, name: string, kind: SchemaName, validate: ValidateFunction): T {
  const file = path.join(dir, name);
  const value = readJson(file);
  if (!validate(value)) throw new RulesError(`${file}: does not match ${kind}.schema.json ${describeErrors(validate.errors)}`);
  return value as T;
}

/** Every literal member name some rule pointer spells: printed as is, where any other name is masked. */
function knownMembers(rules: Omit<Rules, "knownMembers" | "overlay">): Set<string> {
  const pointers = [
    ...rules.fields.flatMap((f) => f.rules.flatMap((r) => [r.pointer, ...r.examples.map((e) => e.pointer)])),
    ...rules.pairing.flatMap((p) => p.scopes.flatMap((s) => s.pointers.map((x) => x.pointer))),
    ...rules.refusals.toolResponse.pointers.map((p) => p.pointer),
  ];
  return new Set(pointers.flatMap((p) => pointerTokens(p)).filter((t) => t !== "*" && t !== "**"));
}

/** Loads and checks every rules file under `rulesDir` against the schemas in `rulesDir/schemas`. */
export function loadRules(rulesDir: string = BUNDLED_RULES_DIR): Rules {
  const dir = path.resolve(rulesDir);
  const ownSchemas = path.join(dir, "schemas");
  const schemas = compiledSchemas(existsSync(path.join(ownSchemas, "homes.schema.json")) ? ownSchemas : path.join(BUNDLED_RULES_DIR, "schemas"));
  const v = (k: SchemaName): ValidateFunction => schemas.get(k) as ValidateFunction;
  const loaded = {
    dir,
    harnesses: loadKind<HarnessCatalogue>(dir, "harnesses", "harness", v("harness")),
    recipes: loadKind<Recipe>(dir, "recipes", "recipe", v("recipe")),
    fields: loadKind<FieldRuleSet>(dir, "fields", "fields", v("fields")),
    pairing: loadKind<PairingRuleSet>(dir, "pairing", "pairing", v("pairing")),
    refusals: loadOne<RefusalRules>(dir, "refusals.json", "refusals", v("refusals")),
    homes: loadOne<HomeRules>(dir, "homes.json", "homes", v("homes")),
    urls: loadOne<UrlRules>(dir, "urls.json", "urls", v("urls")),
    secrets: loadOne<SecretRules>(path.join(dir, "secrets"), "patterns.json", "secrets", v("secrets")),
    transports: loadOne<TransportRules>(dir, "transports.json", "transports", v("transports")),
    payloads: loadOne<PayloadRules>(existsSync(path.join(dir, "payloads.json")) ? dir : BUNDLED_RULES_DIR, "payloads.json", "payloads", v("payloads")),
  };
  const rules: Rules = { ...loaded, knownMembers: knownMembers(loaded), overlay: [] };
  crossCheck(rules);
  return rules;
}

/**
 * Only what the raw-capture check needs (the harness catalogues and the payload signatures), for
 * the gate, which must stay quick: the bundled ones, and a repository's own harnesses besides.
 */
export function loadRawCaptureRules(rulesDir: string): { harnesses: HarnessCatalogue[]; payloads: PayloadRules } {
  const schemas = compiledSchemas(path.join(BUNDLED_RULES_DIR, "schemas"));
  const v = (k: SchemaName): ValidateFunction => schemas.get(k) as ValidateFunction;
  const harnesses = loadKind<HarnessCatalogue>(BUNDLED_RULES_DIR, "harnesses", "harness", v("harness"));
  if (path.resolve(rulesDir) !== BUNDLED_RULES_DIR && existsSync(path.join(rulesDir, "harnesses"))) {
    const own = loadKind<HarnessCatalogue>(rulesDir, "harnesses", "harness", v("harness"));
    for (const h of own) {
      const same = harnesses.find((x) => x.harness === h.harness);
      if (same) same.events = [...same.events, ...h.events.filter((e) => !same.events.some((x) => x.event === e.event))];
      else harnesses.push(h);
    }
  }
  return { harnesses, payloads: loadOne<PayloadRules>(BUNDLED_RULES_DIR, "payloads.json", "payloads", v("payloads")) };
}
