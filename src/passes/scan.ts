import { pushAll } from "../collections.js";
import { lintSource } from "@secretlint/core";
import { secretLintProfiler } from "@secretlint/profiler";
import { rules as presetRules } from "@secretlint/secretlint-rule-preset-recommend";
import type { SecretLintCoreConfig, SecretLintCoreConfigRulePreset, SecretLintCoreResultMessage } from "@secretlint/types";
import { sha256Hex } from "../digest.js";
import { maskFound, type Display } from "../display.js";
import { userNamePattern, type HomeGrammar, type NamePattern } from "../homes.js";
import { decodeLevel } from "../json/escapes.js";
import { escapePointerToken, placeOf } from "../json/reader.js";
import { ESCAPE_DEPTH_DESCRIPTION, ESCAPE_DEPTH_RULE, escapeDepthRule, tooDeepExample } from "../scan-rules/escape-depth.js";
import { KEY_MATERIAL_DESCRIPTION, KEY_MATERIAL_RULE, keyMaterialExample, keyMaterialRule } from "../scan-rules/key-material.js";
import { SEED_LIST_DESCRIPTION, SEED_LIST_RULE, seedListExample, seedListRule } from "../scan-rules/seed-list.js";
import { HOME_OWNER_DESCRIPTION, HOME_OWNER_RULE, homeOwnerRule } from "../scan-rules/home-owner.js";
import { patternRule } from "../scan-rules/pattern-rule.js";
import { PRESET_KEYWORDS, presetKeywords } from "../scan-rules/preset-keywords.js";
import { MAX_LEVELS, placeAt, prepareSource, type SourceReadings } from "../scan-rules/readings.js";
import { scanWordsIn } from "../scan-rules/scan-words.js";
import { ownRules, type OwnRules } from "../scan-rules/runner.js";
import { SENSITIVE_ASSIGNMENT_DESCRIPTION, SENSITIVE_ASSIGNMENT_RULE, sensitiveAssignmentRule } from "../scan-rules/sensitive-assignment.js";
import { SENSITIVE_MEMBER_DESCRIPTION, SENSITIVE_MEMBER_RULE, sensitiveMemberRule } from "../scan-rules/sensitive-member.js";
import type { JsonDocument, Rules, ScanFinding, ScanResult, ScanWaiver, SecretRules } from "../types.js";
import { waive, type Found } from "./scan-waivers.js";
import { holdsContact } from "./substitute/final-check.js";

// The secret scan: secretlint's engine with the rules of its recommended preset (AWS id scan on,
// comment filters off) and, beside it, this project's own rules (src/scan-rules/runner.ts), over the raw text and every string
// as a JSON parser decodes it (src/scan-rules/readings.ts). A finding is placed at its raw range,
// one per secret per place, and carries a masked value only. Every scan also scans a planted
// control, plain and escaped, and fails unless every rule fires on both.

// secretlint's profiler marks every rule run, which makes a scan quadratic in the number of files.
secretLintProfiler.mark = () => undefined;

// A "secretlint-disable" comment in a capture would silence every rule after it, so the preset is
// registered without its comment filter (a preset entry's `disabled` is not honoured by secretlint 12).
const COMMENT_FILTER = "@secretlint/secretlint-rule-filter-comments";
const presetScanners = presetRules.filter((r) => r.meta.type === "scanner" && r.meta.id !== COMMENT_FILTER);
type PresetRule = (typeof presetScanners)[number];

function presetOf(scanners: readonly PresetRule[]): SecretLintCoreConfigRulePreset {
  return {
    id: "@secretlint/secretlint-rule-preset-recommend",
    rule: {
      meta: { id: "@secretlint/secretlint-rule-preset-recommend", recommended: true, type: "preset" },
      rules: [...scanners],
      create(context) {
        for (const r of scanners) context.registerRule(r);
      },
    },
    rules: [{ id: "@secretlint/secretlint-rule-aws", options: { enableIDScanRule: true } }],
  };
}

// A rule of the preset can report nothing in a text that holds none of its words, raw or decoded
// (src/scan-rules/preset-keywords.ts): each text is given the rules whose words it holds, and a
// rule with no words listed is given every text.
const ALWAYS_RUN = presetScanners.filter((r) => presetKeywords([r.meta.id]) === null);
const RULES_BY_WORD = new Map<string, PresetRule[]>();
for (const r of presetScanners) for (const word of PRESET_KEYWORDS[r.meta.id] ?? []) RULES_BY_WORD.set(word, [...(RULES_BY_WORD.get(word) ?? []), r]);
const presetConfigs = new Map<string, SecretLintCoreConfig>();

/** The rules whose words a text holds (of the words found in it), and every rule with no words listed. */
function presetRulesIn(words: ReadonlySet<string>): Set<PresetRule> {
  const found = new Set<PresetRule>(ALWAYS_RUN);
  for (const word of words) for (const r of RULES_BY_WORD.get(word) ?? []) found.add(r);
  return found;
}

/** The preset with the rules found; null where none is. */
function presetWith(found: ReadonlySet<PresetRule>): SecretLintCoreConfig | null {
  if (found.size === 0) return null;
  const chosen = presetScanners.filter((r) => found.has(r));
  const key = chosen.map((r) => r.meta.id).join("\n");
  let config = presetConfigs.get(key);
  if (!config) presetConfigs.set(key, (config = { rules: [presetOf(chosen)] }));
  return config;
}
// Reads the whole file as a service account's JSON; its example is that JSON's members.
const GCP = "@secretlint/secretlint-rule-gcp";

export interface ScanInput {
  /** As it is to be printed: repository-relative where possible. */
  file: string;
  text: string;
  /** The path relative to the repository root, forward slashes, where the file is inside it: what a waiver names. */
  repoPath?: string;
  /** The text's JSON document where an earlier pass read it already: not parsed again (not enumerable: withDocument). */
  readonly document?: JsonDocument;
}

/** What a rule finds, for the SARIF catalogue: a secret, a name, or a string the scan cannot read. */
export interface RuleInfo {
  id: string;
  description: string;
  kind: "secret" | "name" | "unreadable";
  helpUri?: string;
}

/** One planted value per rule, as members of an object. */
interface Planted {
  rule: string;
  members: Record<string, string>;
}

export interface ScanEngine {
  /** This project's rules but the home owner's, on the raw text (they read its decoded strings themselves): what they find hangs on the secret rules alone. */
  own: OwnRules;
  /** The home owner's rule: what it finds hangs on the home grammar, the member list and the names too. */
  home: OwnRules;
  /** The same rule without the names: the control proves the grammar finds its planted home by itself, not through a name spelt in it. */
  homeByGrammar: OwnRules;
  control: Control;
  /** The control of the home owner's rule: its planted home alone, which it reads in a fraction of the time it takes on every rule's. */
  homeControl: Control;
  expected: string[];
  catalogue: RuleInfo[];
  /** What the engine was made from (rules, home grammar, member list, names): its control's verdict is kept by them. */
  madeFrom: [SecretRules, HomeGrammar, ReadonlySet<string>, string];
}

/** Planted values, written plain and escaped two levels down, that every rule must find. */
interface Control {
  plain: string;
  escaped: string;
  planted: Planted[];
}

export const join = (parts: string[]): string => parts.join("");

/** A high-entropy value made at run time, for the control's password member. */
function plantedPassword(): string {
  const alphabet = "Qw3rTy9uIoP1aSdF5gHjK7lZxC2vBnM8";
  return Array.from({ length: 24 }, (_, i) => alphabet[(i * 7 + 3) % alphabet.length]).join("");
}

function planted(secrets: SecretRules): Planted[] {
  const out: Planted[] = secrets.rules.map((r) => {
    const example = join(r.match[0] as string[]);
    return { rule: r.id, members: r.target === "raw" ? (JSON.parse(example) as Record<string, string>) : { [`control ${r.id}`]: example } };
  });
  for (const [id, p] of Object.entries(secrets.preset)) {
    const example = join(p.match[0] as string[]);
    out.push({ rule: id, members: id === GCP ? (JSON.parse(example) as Record<string, string>) : { [`control ${id}`]: example } });
  }
  out.push({ rule: SENSITIVE_MEMBER_RULE, members: { password: plantedPassword() } });
  out.push({ rule: SENSITIVE_ASSIGNMENT_RULE, members: { [`control ${SENSITIVE_ASSIGNMENT_RULE}`]: `export DB_PASSWORD=${plantedPassword()}` } });
  out.push({ rule: KEY_MATERIAL_RULE, members: { [`control ${KEY_MATERIAL_RULE}`]: keyMaterialExample() } });
  out.push({ rule: SEED_LIST_RULE, members: { [`control ${SEED_LIST_RULE}`]: seedListExample() } });
  out.push({ rule: HOME_OWNER_RULE, members: { cwd: ["/home/", "control-owner", "/project"].join("") } });
  out.push({ rule: ESCAPE_DEPTH_RULE, members: { nested: tooDeepExample() } });
  return out;
}

/** Letters and digits as \\u escapes (escapes already there kept), as JSON held in a string: two levels down. */
function escapedCopy(members: Record<string, string>): string {
  const escape = (m: string): string => (m.length > 1 ? m : `\\u${m.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return JSON.stringify(members, null, 1).replace(/\\(?:u[0-9a-fA-F]{4}|.)|[A-Za-z0-9]/g, escape);
}

function controlOf(all: Planted[]): Control {
  // The comment first, so that the control goes silent if comment filters ever come back.
  const members: Record<string, string> = { comment: "secretlint-disable -- the control" };
  for (const p of all) Object.assign(members, p.members);
  // Each rule's value held in a member of its own, so that a hit tells which value it found.
  const held = all.map((p) => [`held ${p.rule}`, escapedCopy(p.members)]);
  return { plain: JSON.stringify(members, null, 1), escaped: JSON.stringify(Object.fromEntries(held), null, 1), planted: all };
}

function catalogueOf(secrets: SecretRules): RuleInfo[] {
  const all: RuleInfo[] = [
    ...secrets.rules.map((r): RuleInfo => ({ id: r.id, description: r.description, kind: "secret" })),
    ...presetScanners.map((r): RuleInfo => {
      const description = secrets.preset[r.meta.id]?.description ?? `secretlint's ${r.meta.id}`;
      return { id: r.meta.id, description, kind: "secret", helpUri: r.meta.docs?.url };
    }),
    { id: SENSITIVE_MEMBER_RULE, description: SENSITIVE_MEMBER_DESCRIPTION, kind: "secret" },
    { id: SENSITIVE_ASSIGNMENT_RULE, description: SENSITIVE_ASSIGNMENT_DESCRIPTION, kind: "secret" },
    { id: KEY_MATERIAL_RULE, description: KEY_MATERIAL_DESCRIPTION, kind: "secret" },
    { id: SEED_LIST_RULE, description: SEED_LIST_DESCRIPTION, kind: "secret" },
    { id: HOME_OWNER_RULE, description: HOME_OWNER_DESCRIPTION, kind: "name" },
    { id: ESCAPE_DEPTH_RULE, description: ESCAPE_DEPTH_DESCRIPTION, kind: "unreadable" },
  ];
  return all.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

export function scanEngine(secrets: SecretRules, grammar: HomeGrammar, names: NamePattern | null, structure: ReadonlySet<string> = new Set()): ScanEngine {
  const own = ownRules([
    ...secrets.rules.map((r) => ({ id: r.id, rule: patternRule(r) })),
    { id: SENSITIVE_MEMBER_RULE, rule: sensitiveMemberRule },
    { id: SENSITIVE_ASSIGNMENT_RULE, rule: sensitiveAssignmentRule },
    { id: KEY_MATERIAL_RULE, rule: keyMaterialRule },
    { id: SEED_LIST_RULE, rule: seedListRule },
    { id: ESCAPE_DEPTH_RULE, rule: escapeDepthRule },
  ]);
  const home = ownRules([{ id: HOME_OWNER_RULE, rule: homeOwnerRule(grammar, names, structure) }]);
  const homeByGrammar = names === null ? home : ownRules([{ id: HOME_OWNER_RULE, rule: homeOwnerRule(grammar, null, structure) }]);
  const catalogue = catalogueOf(secrets);
  const all = planted(secrets);
  const control = controlOf(all);
  const homeControl = controlOf(all.filter((p) => p.rule === HOME_OWNER_RULE));
  return { own, home, homeByGrammar, control, homeControl, expected: catalogue.map((r) => r.id), catalogue, madeFrom: [secrets, grammar, structure, names?.source ?? ""] };
}

/** The engine that reads a sitting's texts: the rules, the home grammar the sitting taught and every name it checks for. */
export function sittingEngine(rules: Pick<Rules, "secrets" | "knownMembers">, names: { grammar: HomeGrammar; checked: string[] }): ScanEngine {
  return scanEngine(rules.secrets, names.grammar, userNamePattern(names.checked), rules.knownMembers);
}

// What the secret rules do on the control hangs on those rules alone; what the home owner's rule
// does, on the home grammar, the member list and the names too. Within one process each part is
// run once for what it hangs on and kept: an engine made again from the very same rules, or two
// that differ in their names only (the guard's and the sitting's), run the secret rules on it once.
// The home owner's rule fires only where it finds the planted home both with its names and without
// them: a name that happens to be spelt in the planted home ("project") hides no grammar that finds none.
const shapesSeen = new WeakMap<object, Promise<ControlSeen>>();
const homeSeen = new WeakMap<object, WeakMap<object, Map<string, Promise<ControlSeen>>>>();

function controlVerdict(engine: ScanEngine): Promise<string[]> {
  const [secrets, grammar, structure, names] = engine.madeFrom;
  let shapes = shapesSeen.get(secrets);
  if (!shapes) shapesSeen.set(secrets, (shapes = controlSeen(engine.control, (text) => shapeHitsOf(text, engine, true))));
  const byStructure = homeSeen.get(grammar) ?? new WeakMap<object, Map<string, Promise<ControlSeen>>>();
  homeSeen.set(grammar, byStructure);
  const byNames = byStructure.get(structure) ?? new Map<string, Promise<ControlSeen>>();
  byStructure.set(structure, byNames);
  const seenWith = (key: string, rule: OwnRules): Promise<ControlSeen> => {
    let seen = byNames.get(key);
    if (!seen) byNames.set(key, (seen = controlSeen(engine.homeControl, (text) => homeHitsOf(text, rule))));
    return seen;
  };
  const byGrammar = seenWith("", engine.homeByGrammar);
  const home = names === "" ? byGrammar : Promise.all([seenWith(names, engine.home), byGrammar]).then(([a, b]) => bothSeen(a, b));
  return Promise.all([shapes, home]).then((parts) => silentOn(engine, parts));
}

/** What two readings of the same rules both showed. */
function bothSeen(a: ControlSeen, b: ControlSeen): ControlSeen {
  return { fired: new Set([...a.fired].filter((r) => b.fired.has(r))), foundEscaped: new Set([...a.foundEscaped].filter((r) => b.foundEscaped.has(r))) };
}

/** A rule's hit as a raw range. */
interface Hit {
  rule: string;
  start: number;
  end: number;
}

// No file name: secretlint then reads the text for package.json and .npmrc shapes alike; the
// extension tells its GCP rule that a text is JSON.
async function lint(content: string, ext: string, config: SecretLintCoreConfig): Promise<SecretLintCoreResultMessage[]> {
  const source = { filePath: "", ext, content, contentType: "text" as const };
  const result = await lintSource({ source, options: { config, maskSecrets: true, noPhysicFilePath: true } });
  return result.messages.filter((m): m is SecretLintCoreResultMessage => m.type === "message");
}

/**
 * Every rule on the raw text (this project's rules read the decoded strings themselves), then the
 * preset on the decoded text; the preset only where the raw or the decoded text holds a word of it.
 */
async function hitsOf(text: string, engine: ScanEngine, isControl = false, document?: JsonDocument): Promise<{ hits: Hit[]; readings: SourceReadings }> {
  const found = await shapeHitsOf(text, engine, isControl, document);
  pushAll(found.hits, await engine.home.hitsOf(text));
  return found;
}

/** The home owner's rule alone, on a control text (read once a process). */
async function homeHitsOf(text: string, rule: OwnRules): Promise<{ hits: Hit[]; readings: SourceReadings }> {
  const readings = prepareSource(text, true);
  return { hits: await rule.hitsOf(text), readings };
}

/** Every rule but the home owner's. */
async function shapeHitsOf(text: string, engine: ScanEngine, isControl = false, document?: JsonDocument): Promise<{ hits: Hit[]; readings: SourceReadings }> {
  const readings = prepareSource(text, isControl, document);
  const hits: Hit[] = await engine.own.hitsOf(text);
  const words = scanWordsIn(readings);
  const decodedRules = readings.decoded === "" ? new Set<PresetRule>() : presetRulesIn(words.decoded);
  // A service account's JSON is read with its escapes decoded: a word spelt with one is in the decoded text.
  const onRaw = presetWith(new Set([...presetRulesIn(words.raw), ...decodedRules]));
  if (onRaw !== null) {
    // A document too deep for the reader is still JSON to the GCP rule, which parses it whole.
    const ext = readings.isJson || /^\s*\{/.test(text) ? ".json" : ".txt";
    for (const m of await lint(text, ext, onRaw)) hits.push({ rule: m.ruleId, start: m.range[0], end: m.range[1] });
  }
  // The GCP rule reports a service account's whole file: its place is the private key's value.
  const key = readings.places.filter((p) => p.pointer === "/private_key").pop();
  for (const h of hits) if (h.rule === GCP && key) Object.assign(h, { start: key.start + 1, end: key.end - 1 });
  const onDecoded = presetWith(decodedRules);
  if (onDecoded !== null) {
    for (const m of await lint(readings.decoded, ".txt", onDecoded)) {
      const [start, end] = readings.rawRange(m.range[0], m.range[1]);
      hits.push({ rule: m.ruleId, start, end });
    }
  }
  return { hits, readings };
}

const kindOf = (rule: string): number => (rule === HOME_OWNER_RULE ? 1 : rule === ESCAPE_DEPTH_RULE ? 2 : 0);

/** A value a text assigns to a credential's name is named by its shape where a shape rule knows it too. */
const byContext = (h: Hit): number => (h.rule === SENSITIVE_ASSIGNMENT_RULE ? 1 : 0);

/** One hit per secret per place: overlapping hits of one kind (secrets, names) become the widest, a shape's before a name's context. */
export function onePerPlace(hits: Hit[]): Hit[] {
  const sorted = [...hits].sort((a, b) => kindOf(a.rule) - kindOf(b.rule) || a.start - b.start || b.end - a.end);
  const out: Hit[] = [];
  let cluster: Hit[] = [];
  const close = (): void => {
    if (cluster.length === 0) return;
    const widest = [...cluster].sort((a, b) => byContext(a) - byContext(b) || b.end - b.start - (a.end - a.start) || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0))[0] as Hit;
    out.push(widest);
    cluster = [];
  };
  let reach = -1;
  for (const h of sorted) {
    const first = cluster[0];
    if (first && (kindOf(first.rule) !== kindOf(h.rule) || h.start >= reach)) close();
    cluster.push(h);
    reach = cluster.length === 1 ? h.end : Math.max(reach, h.end);
  }
  close();
  return out.sort((a, b) => a.start - b.start || kindOf(a.rule) - kindOf(b.rule));
}

/** The value at a raw range with every level of escapes decoded: what a waiver's SHA-256 is of. */
export function decodedValue(raw: string): string {
  let value = raw;
  for (let k = 0; k < MAX_LEVELS && value.includes("\\"); k++) {
    const next = decodeLevel(value, false).decoded;
    if (next === value) break;
    value = next;
  }
  return value;
}

const NAME_MESSAGE = "a home directory's owner or a known user name (never shown)";

/** A finding, with what waivers are matched on: the raw pointer and the value's SHA-256. */

function foundOf(input: ScanInput, readings: SourceReadings, found: Hit, display: Display, nameInside: boolean): Found {
  // A pattern that runs on past a string's closing quote (a connection string's database part) stops there.
  const hit = { ...found, end: Math.min(found.end, readings.stringEnd(found.start) ?? found.end) };
  const value = decodedValue(input.text.slice(hit.start, hit.end));
  const valueSha256 = sha256Hex(Buffer.from(value, "utf8"));
  const isName = hit.rule === HOME_OWNER_RULE;
  // A mailbox or a phone number in the value is a person's: its first characters are not shown either.
  const { masked, keyShape } = maskFound(value, isName, nameInside || holdsContact(value));
  const start = placeOf(input.text, hit.start);
  const end = placeOf(input.text, hit.end);
  const message = isName ? NAME_MESSAGE : hit.rule === ESCAPE_DEPTH_RULE ? ESCAPE_DEPTH_DESCRIPTION : `a secret shape (${hit.rule})`;
  const finding: ScanFinding = { file: input.file, rule: hit.rule, ...start, endLine: end.line, endColumn: end.column, masked, message };
  if (keyShape) finding.sha256 = valueSha256;
  const place = placeAt(readings.places, hit.start);
  if (place?.pointer != null) finding.pointer = display.pointer(place.pointer);
  return { finding, path: input.repoPath ?? input.file, rawPointer: place?.pointer ?? null, valueSha256 };
}

async function scanOne(input: ScanInput, engine: ScanEngine, display: Display): Promise<Found[]> {
  const { hits, readings } = await hitsOf(input.text, engine, false, input.document);
  const kept = onePerPlace(hits);
  // A secret that a name stands in (a password that starts with its owner's name) shows none of its characters.
  const names = kept.filter((h) => h.rule === HOME_OWNER_RULE);
  const nameIn = (h: Hit): boolean => names.some((n) => n.start < h.end && h.start < n.end);
  return kept.map((h) => foundOf(input, readings, h, display, nameIn(h)));
}

/** What some of an engine's rules did on the control: which fired on the plain copy, and whose planted value they found escaped. */
interface ControlSeen {
  fired: Set<string>;
  foundEscaped: Set<string>;
}

async function controlSeen(control: Control, hitsIn: (text: string) => Promise<{ hits: Hit[]; readings: SourceReadings }>): Promise<ControlSeen> {
  const fired = new Set((await hitsIn(control.plain)).hits.map((h) => h.rule));
  const { hits, readings } = await hitsIn(control.escaped);
  const foundEscaped = new Set<string>();
  for (const p of control.planted) {
    // The member's value: its name comes first among the places.
    const place = readings.places.filter((x) => x.pointer === `/${escapePointerToken(`held ${p.rule}`)}`).pop();
    const rules = new Set(hits.filter((h) => place && h.start >= place.start && h.end <= place.end).map((h) => h.rule));
    if (rules.has(p.rule) || (p.rule === GCP && [...rules].some((r) => /private-?key/.test(r)))) foundEscaped.add(p.rule);
  }
  return { fired, foundEscaped };
}

/**
 * The rules silent on the control: every rule must fire on the plain copy, and on its own value
 * escaped two levels down (a service account's JSON, which the GCP rule reads only as a whole
 * file, is found there by the private key in it).
 */
function silentOn(engine: ScanEngine, parts: ControlSeen[]): string[] {
  const fired = new Set(parts.flatMap((p) => [...p.fired]));
  const silent = engine.expected.filter((id) => !fired.has(id));
  for (const p of engine.control.planted) if (fired.has(p.rule) && !parts.some((part) => part.foundEscaped.has(p.rule))) silent.push(`${p.rule} (escaped)`);
  return silent;
}

/** Every rule on every input; no waivers, no control: what a check of the tool's own output needs. */
export async function scanFindings(inputs: ScanInput[], engine: ScanEngine, display: Display): Promise<ScanFinding[]> {
  return (await foundIn(inputs, engine, display)).map((f) => f.finding);
}

async function foundIn(inputs: ScanInput[], engine: ScanEngine, display: Display): Promise<Found[]> {
  const found: Found[] = [];
  for (const input of inputs) pushAll(found, await scanOne(input, engine, display));
  return found;
}

/** The scan pass: every input, the waivers in force, then the reach control. */
export async function scanPass(inputs: ScanInput[], engine: ScanEngine, display: Display, waivers: ScanWaiver[] = []): Promise<ScanResult> {
  const found = await foundIn(inputs, engine, display);
  const split = waive(found, new Set(inputs.map((i) => i.repoPath ?? i.file)), waivers);
  const silent = [...(await controlVerdict(engine))];
  const unusedWaivers = split.unused.map((w) => ({ ...w, fixture: display.path(w.fixture), pointer: display.pointer(w.pointer) }));
  const control = { red: silent.length === 0, rules: engine.expected, silent };
  return { files: inputs.length, findings: split.kept, waived: split.waived, unusedWaivers, control };
}
