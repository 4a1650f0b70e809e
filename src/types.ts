import type { Finding } from "./findings.js";

// The shapes that flow from one pass to the next. A reader who knows these knows the program.

export type { Finding, FindingCode, Severity } from "./findings.js";

/** Where a command writes and from where it starts. */
export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
  /** True when stderr is a terminal (progress lines go there). */
  tty: boolean;
}

export const FIELD_CLASSES = ["identifier", "path", "free-text", "enum", "timestamp", "url", "number", "bool", "null"] as const;
export type FieldClass = (typeof FIELD_CLASSES)[number];

// ---- JSON with source positions ----

export type ValueKind = "object" | "array" | "string" | "number" | "bool" | "null";

/** One JSON value; `start`/`end` are UTF-16 offsets into the decoded text (end exclusive). */
export interface ValueSpan {
  pointer: string;
  kind: ValueKind;
  start: number;
  end: number;
}

/** One member name token, for the member at `pointer`. */
export interface KeySpan {
  pointer: string;
  start: number;
  end: number;
}

export interface JsonDocument {
  text: string;
  /** The parsed value, made on first use. */
  readonly value: unknown;
  spans: ValueSpan[];
  keys: KeySpan[];
}

export interface SourcePlace {
  line: number; // 1-based
  column: number; // 1-based, in UTF-16 code units
}

// ---- The capture directory, as the safe reader hands it over ----

export type EntryKind = "file" | "symlink" | "directory" | "other";

export type ReadProblemCode = "oversize" | "not-utf8" | "invalid-json" | "not-an-object" | "duplicate-key" | "too-deep" | "unreadable";

export interface ReadProblem {
  code: ReadProblemCode;
  message: string;
  pointer?: string;
  line?: number;
  column?: number;
}

/** One directory entry: a file read whole and parsed, or something that could not be. */
export type CaptureEntry =
  | { kind: "readable"; name: string; size: number; sha256: string; doc: JsonDocument }
  | {
      kind: "unreadable";
      name: string;
      size: number;
      entryKind: EntryKind;
      problem: ReadProblem | null;
      sha256: string | null;
      /** Bytes read whole that did not parse, as UTF-8: the owners of the homes they name are the sitting's names all the same. */
      text?: string;
    };

/** A sitting read once at the edge: every entry, and its companions validated. */
export interface Sitting {
  dir: string;
  entries: CaptureEntry[];
  info: SittingInfo | null;
  kit: Kit | null;
  /** Findings about the companions themselves (a sitting.json that breaks its schema). */
  findings: Finding[];
}

// ---- Rules as data: their types come from their JSON Schemas (src/schema-types.ts, generated) ----

export type { ClearConfig, FieldRuleSet, HarnessCatalogue, HomeRules as HomeRulesFile, Kit, PairingRuleSet, PayloadRules, Provenance, Recipe, RefusalRules, SecretRules, SittingInfo, TransportRules, UrlRules } from "./schema-types.js";
import type { ClearConfig, FieldRuleSet, HarnessCatalogue, HomeRules as HomeRulesFile, Kit, PairingRuleSet, PayloadRules, Provenance, Recipe, RefusalRules, SecretRules, SittingInfo, TransportRules, UrlRules } from "./schema-types.js";

export type KitFile = NonNullable<Kit["binary"]>;
export type HarnessEvent = HarnessCatalogue["events"][number];
export type FieldRule = FieldRuleSet["rules"][number];
export type FieldExample = FieldRule["examples"][number];
export type PairingScope = PairingRuleSet["scopes"][number];
export type PairingPointer = PairingScope["pointers"][number];
export type RefusalExample = RefusalRules["examples"][number];
export type HomeRoot = HomeRulesFile["roots"][number];
export type SecretPattern = SecretRules["rules"][number];
export type PayloadSignature = PayloadRules["signatures"][number];

/** A person's word, in clear.config.json, that a path segment standing where an owner would is not a person. */
export interface NotAPerson {
  segment: string;
  reason: string;
}

/** homes.json, with the declarations of clear.config.json added when the rules are loaded. */
export type HomeRules = HomeRulesFile & {
  /** Added from clear.config.json's declarations, never from homes.json: segments a person says are nobody. */
  declared?: NotAPerson[];
};

export interface Rules {
  dir: string;
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
  /** Every literal member name a rule pointer spells: these are printed; others are masked. */
  knownMembers: ReadonlySet<string>;
  /** The repository's own rules files laid over the bundled ones (paths relative to its rules folder), with their digests: the batch names them. */
  overlay: { file: string; sha256: string }[];
  /** The field rules and fixed URL endpoints the overlay added, with the file each came from: the batch names each. */
  overlaid: { fieldRules: ReadonlyMap<FieldRule, string>; endpoints: { endpoint: string; file: string }[] };
}

// ---- Pass results ----

export interface CaptureName {
  harness: string; // canonical harness name
  harnessAsWritten: string;
  event: string; // snake stem
  hostEvent?: string;
  version: string; // dotted
  versionAsWritten: string;
  n: number;
}

export interface FieldInfo {
  pointer: string;
  class: FieldClass;
  known: boolean;
}

export interface InventoryFile {
  name: string;
  harness: string;
  event: string;
  version: string;
  n: number;
  bytes: number;
  sha256: string | null;
  valid: boolean;
  fields: FieldInfo[];
}

export interface MissingEvent {
  harness: string;
  event: string;
  version: string;
  recipe: string;
}

export interface Inventory {
  dir: string;
  files: InventoryFile[];
  companions: string[];
  findings: Finding[];
  missing: MissingEvent[];
  recipes: string[];
}

/** One scalar leaf of a payload with its class, in document order. */
export interface ClassifiedLeaf {
  pointer: string;
  tokens: readonly string[];
  kind: ValueKind;
  /** The leaf's span in the document (a string's quotes included). */
  start: number;
  end: number;
  /** Its index in the document's spans, which line up one for one with the cleared document's. */
  index: number;
  class: FieldClass;
  known: boolean;
  /** An enum's value outside the values the host documents: classed free text, fail-closed. */
  undocumented: boolean;
  /** Classed by a field rule a repository's rules overlay added. */
  overlay: boolean;
}

/** The refused classes a capture holds, judged once against the policy in force. */
export interface JudgedRefusals {
  /** What blocks: refused classes no policy admits. */
  refused: Finding[];
  /** Pointers of environment dumps the env-dump-v1 policy admits. */
  dumps: string[];
  /** Those of them that are lists of NAME=value strings: each string keeps its name. */
  assignmentLists: string[];
  /** Pointers of every environment dump, admitted or not: their members are variables, not fields. */
  envDumps: string[];
  exemptions: Exemption[];
}

/** A valid capture, named and parsed: what the passes after inventory work on. */
export interface Capture {
  name: string;
  harness: string;
  event: string;
  hostEvent: string | undefined;
  version: string;
  n: number;
  /** The raw capture's size in bytes; its text is the document's. */
  size: number;
  sha256: string;
  doc: JsonDocument;
  /** Classified once, by inventory; every later pass reads these. */
  leaves: ClassifiedLeaf[];
  refusals: JudgedRefusals;
  /** Which of its string values may hold a home by the roots' words, as learning the sitting's names found: substitution reads it, not the words again. */
  homeHints?: HomeHints;
}

/** For the roots of `rules`, by a value's index in the document's spans: 1 where its text holds a root's word (or an escape that may spell one). */
export interface HomeHints {
  rules: HomeRules;
  mayHold: Uint8Array;
}

export interface Pair {
  harness: string;
  scope: string;
  id: string;
  files: string[];
}

export interface ScopeCount {
  harness: string;
  scope: string;
  label: string;
  distinctValues: number;
  carriers: number;
  filesWithout: number;
  sharedByAll: boolean;
  placeholders: number;
}

export interface Unpaired {
  file: string;
  scope: string | null;
  reason: string;
}

/** A file of the folder a pass could not read as a capture: the inventory finding that kept it out, with its place where one applies. */
export interface Skipped {
  file: string;
  code: string;
  reason: string;
  pointer?: string;
  line?: number;
  column?: number;
}

export interface Pairing {
  pairs: Pair[];
  finest: { file: string; scope: string; id: string }[];
  unpaired: Unpaired[];
  counts: ScopeCount[];
  skipped: Skipped[];
}

export interface RuleApplication {
  rule: string;
  /** Every pointer the rule covers, in document order. */
  pointers: string[];
  /** The pointers whose bytes it changed (none on a second pass). */
  changed: string[];
}

/** An opt-in policy that admitted what would otherwise be refused, and what it left in place. */
export interface Exemption {
  rule: string;
  pointer: string;
  reason: string;
  /** How many member names remain readable, and those shown (common variable names); the rest are masked. */
  remainingCount: number;
  remaining: string[];
}

/** A value a rule changed, as the batch may show it: the changed part of `before` masked, both shortened. */
export interface ChangeExample {
  rule: string;
  pointer: string;
  before: string;
  after: string;
  /** The decoded value's length before, in UTF-16 units. */
  length: number;
}

/** The report on one cleared capture; its bytes travel beside it, never inside. */
export interface ClearedReport {
  name: string;
  rawBytes: number;
  clearedBytes: number | null;
  rules: RuleApplication[];
  /** Each string the rules changed: its index in the document's spans, its class and the rules that changed it, in order. */
  spans: { index: number; class: FieldClass; rules: readonly string[] }[];
  /** How many scalar values of each class no rule changed: kept as the host sent them. */
  kept: Partial<Record<FieldClass, number>>;
  /** How many of those a field rule of the repository's rules overlay classed. */
  keptByOverlay: number;
  /** One changed value per rule, its changed part masked (a cleared capture's only). */
  examples: ChangeExample[];
  review: string[];
  /** Pointers where an enum held a value outside its documented values, substituted as free text. */
  undocumented: string[];
  exemptions: Exemption[];
  refused: Finding[];
}

export interface ClearedFile {
  report: ClearedReport;
  /** The cleared text (its UTF-8 bytes are the fixture); null when the capture was refused. */
  cleared: string | null;
  /** Where substitution changed nothing, the capture's own document, which is the cleared text's: read again by no later pass. Not enumerable (withDocument): no copy, output or check carries the raw text. */
  readonly document?: JsonDocument;
}

/** Where a user name was learned: the file and pointer, never the name. */
export interface LearnedName {
  file: string;
  pointer: string;
  /** Taught only by a Claude project slug whose owner may run on into the next folder's name: it does not settle where such an owner ends. */
  runsOn?: true;
}

export interface Substitution {
  userNames: number;
  /** The declarations in force (clear.config.json), listed in the batch so that accepting it accepts them. */
  declarations: NotAPerson[];
  files: ClearedFile[];
  skipped: Skipped[];
  findings: Finding[];
}

export interface ScanFinding {
  file: string;
  rule: string;
  line: number;
  column: number;
  /** Where the value ends: the line and the column just after its last character. */
  endLine: number;
  endColumn: number;
  pointer?: string;
  /** What may be shown of the value: a key shape's fixed prefix at most, nothing of a name. */
  masked: string;
  /** SHA-256 of the decoded value, given only where it reveals nothing (a key shape, never a name or a password). */
  sha256?: string;
  message: string;
}

/** A finding a person declared not a secret, in clear.config.json: never the value, its SHA-256. */
export type ScanWaiver = NonNullable<ClearConfig["waivers"]>[number];

export interface WaivedFinding extends ScanFinding {
  sha256: string;
  reason: string;
}

export interface ScanResult {
  files: number;
  findings: ScanFinding[];
  /** Findings a waiver in force matched: listed, never blocking. */
  waived: WaivedFinding[];
  /** Waivers naming a scanned file that matched nothing there (pointers and paths as printed). */
  unusedWaivers: ScanWaiver[];
  /** The reach control: every rule must fire on a planted copy, written plain and escaped, or the scan cannot pass. */
  control: { red: boolean; rules: string[]; silent: string[] };
}

export interface SelectedFixture {
  harness: string;
  event: string;
  version: string;
  file: string;
  bytes: number;
  why: string;
  override: boolean;
  notChosen: { file: string; bytes: number; why: string }[];
}

export interface Selection {
  selected: SelectedFixture[];
  findings: Finding[];
}

/** Where a repository keeps its inbox, fixtures and record, repository-relative. */
export interface RepoLayout {
  fixtures: string;
  capturesInbox: string;
  clearance: string;
}

/** A sitting as far as substitution: what the review page and the record read. */
export interface Cleared {
  sitting: Sitting;
  inventory: Inventory;
  captures: Capture[];
  pairing: Pairing;
  substitution: Substitution;
}

/** A fixture and its sidecar as they are to be written, repository-relative. */
export interface FixtureOut {
  path: string;
  sidecarPath: string;
  event: string;
  captureName: string;
  bytes: Uint8Array;
  sidecar: Uint8Array;
  provenance: Provenance;
  /** The fixture's document where it is the capture's own (substitution changed nothing): the scan reads it rather than parsing the same text again. Not enumerable, as on ClearedFile. */
  readonly document?: JsonDocument;
}
