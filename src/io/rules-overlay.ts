import { pushAll } from "../collections.js";
import { lstatSync, readdirSync, realpathSync } from "node:fs";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { classifier } from "../classify.js";
import { sha256Hex } from "../digest.js";
import { RulesError } from "../errors.js";
import { pointerTokens } from "../json/reader.js";
import { readRegularFile } from "./read-capture-dir.js";
import { notJson } from "./schema-errors.js";
import { OVERLAY_FILES, OVERLAY_FOLDERS } from "./rules-dir.js";
import type { FieldRuleSet, HarnessCatalogue, HomeRules, PairingRuleSet, PayloadRules, Recipe } from "../types.js";
import type { RefusalRules, SecretRules, TransportRules, UrlRules, ValueKind } from "../types.js";

// A repository's rules folder laid over the bundled rules. It adds; it never takes away:
// - harnesses/<h>.json: a new harness, or events added to a bundled one (its name, aliases aside,
//   and version pattern stay; a bundled event cannot be changed);
// - recipes/<r>.json: adds a recipe, or replaces the bundled one of that name; a recipe marked
//   default takes the default of its harness from the bundled one;
// - fields/<h>.json: field rules added after the bundled ones, for members the bundled rules do
//   not class; a rule that repeats a bundled one is a no-op, and a rule whose own examples a
//   bundled rule classes first is refused (an overlay never changes what the bundled rules class);
// - pairing/<h>.json: the pairing scopes of that harness, replaced (pairing decides which files
//   belong together, never what is kept);
// - urls.json: fixed endpoints added; secrets/*.json: secret rules added (a bundled rule, by its
//   id, cannot be changed; leaving one out does not remove it);
// - homes.json: home roots added (a bundled root, by its id, cannot be changed; the rest must be
//   the bundled file's); refusals.json: refused pointers, prompt events and examples added, a limit
//   only lowered, the rest the bundled file's; transports.json, payloads.json: the bundled file's.
// Files under schemas/ are not read: the bundled schemas check every file. A link is refused.

export interface OverlayFile {
  /** The path relative to the repository's rules folder, with `/`. */
  file: string;
  /** Where it is, for messages. */
  shown: string;
  sha256: string;
  value: unknown;
}

/** The parts of the rules an overlay lays over, with the file each item came from. */
export interface RuleParts {
  harnesses: HarnessCatalogue[];
  recipes: Recipe[];
  fields: FieldRuleSet[];
  pairing: PairingRuleSet[];
  refusals: RefusalRules;
  homes: HomeRules;
  urls: UrlRules;
  secrets: SecretRules;
  transports: TransportRules;
  payloads: PayloadRules;
  /** The file an item (a catalogue, recipe, field set or pairing set) came from. */
  origins: Map<object, string>;
}

const NOT_READ = new Set(["schemas"]);

function refuseLink(file: string): void {
  if (!lstatSync(file).isSymbolicLink()) return;
  throw new RulesError(`${file}: is a symbolic link; the tool never reads rules through one (replace it with the file or folder itself)`);
}

function readOverlayFile(dir: string, rel: string): OverlayFile {
  const shown = path.join(dir, rel);
  refuseLink(shown);
  const read = readRegularFile(shown, { maxFileBytes: 16 << 20, maxDepth: 256 });
  if (!read.bytes) throw new RulesError(`${shown}: ${read.problem?.message ?? "cannot be read"}`);
  const bytes = Buffer.from(read.bytes);
  let value: unknown;
  const text = bytes.toString("utf8");
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw notJson(shown, text);
  }
  return { file: rel.split(path.sep).join("/"), shown, sha256: sha256Hex(bytes), value };
}

/**
 * Every rules file of an overlay folder, sorted by path (only those of one folder with `only`); a
 * JSON file where no rules file goes is refused.
 */
export function readOverlay(dir: string, only?: (typeof OVERLAY_FOLDERS)[number]): OverlayFile[] {
  refuseLink(dir);
  const out: OverlayFile[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (NOT_READ.has(name) || (only !== undefined && name !== only)) continue;
    if ((OVERLAY_FOLDERS as readonly string[]).includes(name)) {
      refuseLink(path.join(dir, name));
      const inner = readdirSync(path.join(dir, name)).filter((n) => n.endsWith(".json")).sort();
      pushAll(out, inner.map((n) => readOverlayFile(dir, path.join(name, n))));
    } else if ((OVERLAY_FILES as readonly string[]).includes(name)) {
      out.push(readOverlayFile(dir, name));
    } else if (name.endsWith(".json")) {
      const places = [...OVERLAY_FOLDERS.map((f) => `${f}/`), ...OVERLAY_FILES].join(", ");
      throw new RulesError(`${path.join(dir, name)}: is not a rules file; a rules folder lays ${places} over the bundled rules`);
    }
  }
  return out;
}

/** The same folder, however it is spelled (a link above it, a trailing separator). */
export function sameFolder(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return path.resolve(a) === path.resolve(b);
  }
}

const refused = (shown: string, pointer: string, why: string): RulesError => new RulesError(`${shown}: at ${pointer}: ${why}`);

/** What an overlay may do, said in every refusal. */
const ADDS = (what: string): string => `an overlay adds ${what}; it never changes or removes what the bundled rules hold`;

function layHarness(parts: RuleParts, h: HarnessCatalogue, shown: string): void {
  const same = parts.harnesses.find((x) => x.harness === h.harness);
  if (!same) {
    parts.harnesses.push(h);
    parts.origins.set(h, shown);
    return;
  }
  for (const key of ["displayName", "versionPattern"] as const) {
    if (h[key] !== same[key]) throw refused(shown, `/${key}`, `differs from the bundled ${h.harness} catalogue; ${ADDS("events")}`);
  }
  same.aliases = [...new Set([...same.aliases, ...h.aliases])];
  h.events.forEach((e, i) => {
    const bundled = same.events.find((x) => x.event === e.event);
    if (bundled && !isDeepStrictEqual(bundled, e)) throw refused(shown, `/events/${i}`, `changes the bundled event ${e.event}; ${ADDS("events")}`);
    if (!bundled) same.events.push(e);
  });
}

function layRecipe(parts: RuleParts, r: Recipe, shown: string): void {
  const at = parts.recipes.findIndex((x) => x.name === r.name);
  if (at === -1) parts.recipes.push(r);
  else parts.recipes[at] = r;
  parts.origins.set(r, shown);
}

function layPairing(parts: RuleParts, p: PairingRuleSet, shown: string): void {
  const at = parts.pairing.findIndex((x) => x.harness === p.harness);
  if (at === -1) parts.pairing.push(p);
  else parts.pairing[at] = p;
  parts.origins.set(p, shown);
}

function kindOf(value: unknown): ValueKind {
  if (value === null || value === undefined) return "null";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "number") return "number";
  return typeof value === "string" ? "string" : Array.isArray(value) ? "array" : "object";
}

function layFields(parts: RuleParts, set: FieldRuleSet, shown: string): void {
  let into = parts.fields.find((x) => x.harness === set.harness);
  if (!into) {
    into = { ...set, rules: [] };
    parts.fields.push(into);
    parts.origins.set(into, shown);
  }
  const target = into;
  const added = set.rules.filter((r) => !target.rules.some((b) => isDeepStrictEqual(b, r)));
  // A wildcard at the end keeps whatever member it reaches: only free text, which is substituted, may be classed so.
  for (const r of added) {
    const tokens = pointerTokens(r.pointer);
    const last = tokens.at(-1);
    // An index after a wildcard ("/**/0") reaches as unseen as the wildcard itself.
    const wild = (t: string | undefined): boolean => t === "*" || t === "**";
    if ((wild(last) || (/^\d+$/.test(last ?? "") && tokens.slice(0, -1).some(wild))) && r.class !== "free-text") {
      throw refused(shown, `/rules/${set.rules.indexOf(r)}/pointer`, `${r.pointer} ends in a wildcard and classes what it reaches ${r.class}, which keeps values unseen; name each member, or class them free-text`);
    }
  }
  pushAll(target.rules, added);
  for (const r of added) parts.origins.set(r, shown);
  // Each added rule must class its own examples: one a bundled rule classes first would change nothing, or change what is kept.
  const classes = classifier(target);
  for (const rule of added) {
    for (const ex of rule.examples) {
      const got = classes.classify(ex.event, pointerTokens(ex.pointer), kindOf(ex.value), ex.value ?? null).rule;
      if (got === rule) continue;
      const by = got ? `the rule for ${got.pointer} classes it first` : "no rule classes it";
      const why = `the rule for ${rule.pointer} never applies to its example (${ex.event} ${ex.pointer}): ${by}`;
      throw refused(shown, `/rules/${set.rules.indexOf(rule)}`, `${why}; ${ADDS("rules for members the bundled rules do not class")}`);
    }
  }
}

/** Items of `extra` not already in `base` (by value), appended. */
function union<T>(base: T[], extra: T[]): T[] {
  return [...base, ...extra.filter((x) => !base.some((b) => isDeepStrictEqual(b, x)))];
}

function laySecrets(parts: RuleParts, s: SecretRules, shown: string): void {
  s.rules.forEach((r, i) => {
    const bundled = parts.secrets.rules.find((x) => x.id === r.id);
    const waive = "(a finding that is no secret is waived in clear.config.json)";
    const why = `changes the secret rule ${r.id}; ${ADDS("secret rules under ids of their own")} ${waive}`;
    if (bundled && !isDeepStrictEqual(bundled, r)) throw refused(shown, `/rules/${i}`, why);
    if (!bundled) parts.secrets.rules.push(r);
  });
  for (const [id, entry] of Object.entries(s.preset)) {
    if (isDeepStrictEqual(parts.secrets.preset[id], entry)) continue;
    throw refused(shown, `/preset/${id}`, `differs from the bundled preset entry; ${ADDS("secret rules")}`);
  }
}

function layHomes(parts: RuleParts, h: HomeRules, shown: string): void {
  for (const key of ["placeholder", "notOwners", "groupFolders", "position", "domainFolders", "anchors", "slugs"] as const) {
    if (!isDeepStrictEqual(h[key], parts.homes[key])) throw refused(shown, `/${key}`, `differs from the bundled homes.json; ${ADDS("home roots")}`);
  }
  h.roots.forEach((r, i) => {
    const bundled = parts.homes.roots.find((x) => x.id === r.id);
    const why = `changes the home root ${r.id}; ${ADDS("home roots under ids of their own")}`;
    if (bundled && !isDeepStrictEqual(bundled, r)) throw refused(shown, `/roots/${i}`, why);
    if (!bundled) parts.homes.roots.push(r);
  });
}

function layRefusals(parts: RuleParts, r: RefusalRules, shown: string): void {
  const b = parts.refusals;
  const limits: [string, number, number][] = [
    ["/toolResponse/maxBytes", r.toolResponse.maxBytes, b.toolResponse.maxBytes],
    ["/envDump/minMembers", r.envDump.minMembers, b.envDump.minMembers],
    ["/envDump/minKnownNames", r.envDump.minKnownNames, b.envDump.minKnownNames],
  ];
  for (const [at, own, theirs] of limits) {
    if (own > theirs) throw refused(shown, at, `is above the bundled ${theirs}; an overlay may lower a limit, never raise it`);
  }
  const kept: [string, unknown, unknown][] = [
    ["/envDump/memberPattern", r.envDump.memberPattern, b.envDump.memberPattern],
    ["/envDump/namePattern", r.envDump.namePattern, b.envDump.namePattern],
    ["/envDump/knownNames", r.envDump.knownNames, b.envDump.knownNames],
    ["/placeholderIds", r.placeholderIds, b.placeholderIds],
  ];
  for (const [at, own, theirs] of kept) {
    if (!isDeepStrictEqual(own, theirs)) throw refused(shown, at, `differs from the bundled refusals.json; ${ADDS("refused classes")}`);
  }
  parts.refusals = {
    ...b,
    toolResponse: { maxBytes: r.toolResponse.maxBytes, pointers: union(b.toolResponse.pointers, r.toolResponse.pointers) },
    envDump: { ...b.envDump, minMembers: r.envDump.minMembers, minKnownNames: r.envDump.minKnownNames },
    promptEvents: union(b.promptEvents, r.promptEvents),
    examples: union(b.examples, r.examples),
  };
}

function sameAsBundled(bundled: unknown, value: unknown, shown: string): void {
  const strip = (v: unknown): unknown => (typeof v === "object" && v !== null ? { ...v, $schema: undefined } : v);
  if (isDeepStrictEqual(strip(bundled), strip(value))) return;
  throw refused(shown, "/", "differs from the bundled file, which an overlay cannot change (take it out of the repository's rules folder)");
}

/** Lays one validated overlay file over the rules, in place; a file that would weaken them is refused. */
export function layOver(parts: RuleParts, o: OverlayFile): void {
  const [folder] = o.file.split("/");
  const v = o.value as never;
  if (folder === "harnesses") layHarness(parts, v, o.shown);
  else if (folder === "recipes") layRecipe(parts, v, o.shown);
  else if (folder === "fields") layFields(parts, v, o.shown);
  else if (folder === "pairing") layPairing(parts, v, o.shown);
  else if (folder === "secrets") laySecrets(parts, v, o.shown);
  else if (o.file === "urls.json") parts.urls = { ...parts.urls, fixedEndpoints: union(parts.urls.fixedEndpoints, (o.value as UrlRules).fixedEndpoints) };
  else if (o.file === "homes.json") layHomes(parts, v, o.shown);
  else if (o.file === "refusals.json") layRefusals(parts, v, o.shown);
  else if (o.file === "transports.json") sameAsBundled(parts.transports, v, o.shown);
  else if (o.file === "payloads.json") sameAsBundled(parts.payloads, v, o.shown);
}

/** A recipe an overlay marks default takes its harness's default from the bundled recipes. */
export function overlayDefaults(parts: RuleParts, overlaid: ReadonlySet<object>): void {
  const claimed = new Set(parts.recipes.filter((r) => r.default && overlaid.has(r)).map((r) => r.harness));
  const yields = (r: Recipe): boolean => r.default === true && claimed.has(r.harness) && !overlaid.has(r);
  parts.recipes = parts.recipes.map((r) => (yields(r) ? { ...r, default: false } : r));
}
