import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { layOver, overlayDefaults, readOverlay, sameFolder, type OverlayFile, type RuleParts } from "./rules-overlay.js";
import { bundledDigests } from "../schemas.js";
import { sha256Hex } from "../digest.js";
import { RulesError } from "../errors.js";
import { pointerTokens } from "../json/reader.js";
import { BUNDLED_RULES_DIR, holdsRules } from "./rules-dir.js";
import { checkWith, notJson, validatorFor } from "./schema-errors.js";
import type { PayloadRules, FieldRule, FieldRuleSet, HarnessCatalogue, HomeRules, PairingRuleSet, Recipe, RefusalRules, Rules, SecretRules, TransportRules, UrlRules } from "../types.js";

// Rules live in rules/ as JSON; each kind has a JSON Schema there, compiled once in strict mode at
// build time. A repository's own rules folder is laid over the bundled rules (./rules-overlay.ts).

export { RulesError };

export { BUNDLED_RULES_DIR };

const SCHEMA_NAMES = ["harness", "recipe", "fields", "pairing", "refusals", "homes", "urls", "secrets", "transports", "payloads", "config", "sitting", "kit", "provenance"] as const;
export type SchemaName = (typeof SCHEMA_NAMES)[number];

/** A rules file, read and parsed, with the bytes it was read from. */
function readJson(file: string): { value: unknown; bytes: Buffer } {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (err) {
    throw new RulesError(`${file}: cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  const text = bytes.toString("utf8");
  try {
    return { value: JSON.parse(text), bytes };
  } catch (err) {
    throw notJson(file, text);
  }
}

/**
 * Checks a bundled rules file against its kind's schema. Bytes the build checked against that
 * schema (listed by their SHA-256) would pass again: they are not checked twice. Any other bytes,
 * a file changed after the build or one the build never saw, are checked.
 */
export function checkBundled(kind: SchemaName, value: unknown, bytes: Uint8Array, file: string): void {
  if (bundledDigests[kind]?.includes(sha256Hex(bytes)) === true) return;
  checkWith(validatorFor(kind), kind, value, file);
}

/** Validates a parsed document against one of the bundled schemas; throws naming the file and pointer (of a capture folder's own file, `captured`, only member names the schema declares). */
export function validateAgainst(kind: SchemaName, value: unknown, file: string, captured = false): void {
  checkWith(validatorFor(kind), kind, value, file, captured);
  if (kind === "kit") checkKitPaths(value as { transports: { path: string }[] }, file);
}

/** A kit names each transport once: a second entry for a path is a second claim about the same bytes. */
function checkKitPaths(kit: { transports: { path: string }[] }, file: string): void {
  const first = new Map<string, number>();
  kit.transports.forEach((t, i) => {
    const earlier = first.get(t.path);
    if (earlier !== undefined) throw new RulesError(`${file}: does not match kit.schema.json at /transports/${i}/path: names the transport /transports/${earlier}/path names`);
    first.set(t.path, i);
  });
}

function loadKind<T extends object>(rulesDir: string, sub: string, kind: SchemaName, origins?: Map<object, string>): T[] {
  const dir = path.join(rulesDir, sub);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith(".json")).sort();
  } catch {
    throw new RulesError(`${dir}: missing; a rules folder needs ${sub}/`);
  }
  return names.map((n) => {
    const file = path.join(dir, n);
    const { value, bytes } = readJson(file);
    checkBundled(kind, value, bytes, file);
    origins?.set(value as T, file);
    return value as T;
  });
}

/** Checks that the rules agree with each other; `origins` names the file each item came from. */
function crossCheck(rules: Rules, origins: Map<object, string>): void {
  const from = (item: object, fallback: string): string => origins.get(item) ?? `${rules.dir}/${fallback}`;
  const known = new Map<string, HarnessCatalogue>();
  for (const h of rules.harnesses) {
    for (const name of [h.harness, ...h.aliases]) {
      if (known.has(name)) throw new RulesError(`${from(h, "harnesses")}: the name "${name}" is claimed twice`);
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
    check(from(r, `recipes/${r.name}.json`), r.harness, r.events);
    if (r.default) {
      const other = defaults.get(r.harness);
      if (other) throw new RulesError(`${from(r, "recipes")}: both ${other} and ${r.name} claim to be the default for ${r.harness}`);
      defaults.set(r.harness, r.name);
    }
  }
  for (const f of rules.fields) {
    const setFile = from(f, `fields/${f.harness}.json`);
    for (const r of f.rules) check(origins.get(r) ?? setFile, f.harness, [...(r.events ?? []), ...r.examples.map((e) => e.event)]);
  }
  for (const p of rules.pairing) checkPairing(p, from(p, `pairing/${p.harness}.json`), check);
}

function checkPairing(p: PairingRuleSet, file: string, check: (file: string, harness: string, stems: string[]) => void): void {
  check(file, p.harness, p.scopes.flatMap((s) => s.pointers.flatMap((x) => x.events ?? [])));
  // A scope lies within a coarser one, later in the list, so nesting never runs in a circle.
  p.scopes.forEach((s, i) => {
    if (s.within !== undefined && !p.scopes.slice(i + 1).some((c) => c.scope === s.within)) {
      throw new RulesError(`${file}: scope "${s.scope}" lies within "${s.within}", which is not a coarser scope after it`);
    }
  });
}

function loadOne<T>(dir: string, name: string, kind: SchemaName): T {
  const file = path.join(dir, name);
  const { value, bytes } = readJson(file);
  checkBundled(kind, value, bytes, file);
  return value as T;
}

/** Every literal member name some rule pointer spells: printed as is, where any other name is masked. */
function knownMembers(rules: Omit<Rules, "knownMembers" | "overlay" | "overlaid">): Set<string> {
  const pointers = [
    ...rules.fields.flatMap((f) => f.rules.flatMap((r) => [r.pointer, ...r.examples.map((e) => e.pointer)])),
    ...rules.pairing.flatMap((p) => p.scopes.flatMap((s) => s.pointers.map((x) => x.pointer))),
    ...rules.refusals.toolResponse.pointers.map((p) => p.pointer),
  ];
  return new Set(pointers.flatMap((p) => pointerTokens(p)).filter((t) => t !== "*" && t !== "**"));
}

/** The bundled rules, each file checked against its schema; `origins` gets the file of each catalogue, recipe and rule set. */
function bundledParts(): RuleParts {
  const dir = BUNDLED_RULES_DIR;
  const origins = new Map<object, string>();
  return {
    harnesses: loadKind<HarnessCatalogue>(dir, "harnesses", "harness", origins),
    recipes: loadKind<Recipe>(dir, "recipes", "recipe", origins),
    fields: loadKind<FieldRuleSet>(dir, "fields", "fields", origins),
    pairing: loadKind<PairingRuleSet>(dir, "pairing", "pairing", origins),
    refusals: loadOne<RefusalRules>(dir, "refusals.json", "refusals"),
    homes: loadOne<HomeRules>(dir, "homes.json", "homes"),
    urls: loadOne<UrlRules>(dir, "urls.json", "urls"),
    secrets: loadOne<SecretRules>(path.join(dir, "secrets"), "patterns.json", "secrets"),
    transports: loadOne<TransportRules>(dir, "transports.json", "transports"),
    payloads: loadOne<PayloadRules>(dir, "payloads.json", "payloads"),
    origins,
  };
}

const OVERLAY_KINDS: Record<string, SchemaName> = {
  harnesses: "harness", recipes: "recipe", fields: "fields", pairing: "pairing", secrets: "secrets",
  "refusals.json": "refusals", "homes.json": "homes", "urls.json": "urls", "transports.json": "transports", "payloads.json": "payloads",
};

/** A repository's rules files, each checked against its schema (the error names the file and the pointer). */
function checkedOverlay(overlayDir: string | undefined, only?: "harnesses"): OverlayFile[] {
  if (overlayDir === undefined || sameFolder(overlayDir, BUNDLED_RULES_DIR)) return [];
  const dir = path.resolve(overlayDir);
  if (!existsSync(dir)) throw new RulesError(`${dir}: no such rules folder (clear.config.json's paths.rules names the folder laid over the bundled rules)`);
  const files = readOverlay(dir, only);
  for (const o of files) validateAgainst(OVERLAY_KINDS[o.file.split("/")[0] as string] as SchemaName, o.value, o.shown);
  return files;
}

/** What the overlay added that decides what is kept: its field rules and its fixed endpoints, each with its file. */
function overlaidBy(parts: RuleParts, overlay: OverlayFile[], bundledEndpoints: ReadonlySet<string>): Rules["overlaid"] {
  const fileOf = new Map(overlay.map((o) => [o.shown, o.file]));
  const fieldRules = new Map<FieldRule, string>();
  for (const set of parts.fields) for (const r of set.rules) if (fileOf.has(parts.origins.get(r) ?? "")) fieldRules.set(r, fileOf.get(parts.origins.get(r) as string) as string);
  const urls = overlay.find((o) => o.file === "urls.json")?.file ?? "urls.json";
  const endpoints = parts.urls.fixedEndpoints.filter((e) => !bundledEndpoints.has(e)).map((endpoint) => ({ endpoint, file: urls }));
  return { fieldRules, endpoints };
}

/**
 * The bundled rules, with a repository's rules folder laid over them when one is given (see
 * ./rules-overlay.ts for what an overlay may add); the overlay's files are listed with their digests.
 */
export function loadRules(overlayDir?: string): Rules {
  const parts = bundledParts();
  const overlay = checkedOverlay(overlayDir);
  const bundledEndpoints = new Set(parts.urls.fixedEndpoints);
  for (const o of overlay) layOver(parts, o);
  overlayDefaults(parts, new Set(overlay.filter((o) => o.file.startsWith("recipes/")).map((o) => o.value as object)));
  const { origins, ...loaded } = parts;
  const dir = overlay.length > 0 ? path.resolve(overlayDir as string) : BUNDLED_RULES_DIR;
  const listed = overlay.map((o) => ({ file: o.file, sha256: o.sha256 })).sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const rules: Rules = { dir, ...loaded, knownMembers: knownMembers({ dir, ...loaded }), overlay: listed, overlaid: overlaidBy(parts, overlay, bundledEndpoints) };
  crossCheck(rules, origins);
  return rules;
}

/**
 * Only what the raw-capture check needs (the harness catalogues and the payload signatures), for
 * the gate, which must stay quick: the bundled ones, and a repository's own harnesses besides.
 */
export function loadRawCaptureRules(rulesDir: string): { harnesses: HarnessCatalogue[]; payloads: PayloadRules } {
  const parts = { harnesses: loadKind<HarnessCatalogue>(BUNDLED_RULES_DIR, "harnesses", "harness"), origins: new Map<object, string>() } as RuleParts;
  const own = holdsRules(rulesDir) ? checkedOverlay(rulesDir, "harnesses") : [];
  for (const o of own) layOver(parts, o);
  return { harnesses: parts.harnesses, payloads: loadOne<PayloadRules>(BUNDLED_RULES_DIR, "payloads.json", "payloads") };
}
