import type { Finding } from "./findings.js";
import type { SecretPattern } from "./scan-rules/pattern-rule.js";

// The shapes that flow from one pass to the next. A reader who knows these knows the program.

export type { Finding, FindingCode, Severity } from "./findings.js";

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
  | { kind: "readable"; name: string; size: number; bytes: Uint8Array; sha256: string; doc: JsonDocument; mtimeMs: number }
  | { kind: "unreadable"; name: string; size: number; entryKind: EntryKind; problem: ReadProblem | null; sha256: string | null; mtimeMs: number | null };

export interface SittingInfo {
  driver?: string;
  method?: string;
  versionLine?: string;
  versionLines?: Record<string, string>;
  startedAt?: string;
}

export interface KitFile {
  path: string;
  sha256: string;
  bytes: number;
}

export interface Kit {
  head: string;
  rootEdits: string[];
  binary: KitFile | null;
  transports: KitFile[];
  hostVersions: Record<string, string>;
}

/** A sitting read once at the edge: every entry, and its companions validated. */
export interface Sitting {
  dir: string;
  entries: CaptureEntry[];
  info: SittingInfo | null;
  kit: Kit | null;
  /** Findings about the companions themselves (a sitting.json that breaks its schema). */
  findings: Finding[];
}

// ---- Rules as data ----

export interface HarnessEvent {
  event: string; // the host's own name: PreToolUse, tool.execute.before
  stem: string; // snake_event as it appears in a capture name
}

export interface HarnessCatalogue {
  harness: string;
  aliases: string[];
  displayName: string;
  /** The shape of this host's version strings, dotted, as a regular expression source. */
  versionPattern: string;
  events: HarnessEvent[];
}

export interface Recipe {
  name: string;
  harness: string;
  default?: boolean;
  description: string;
  events: string[];
}

export interface FieldExample {
  event: string;
  pointer: string;
  value?: string | number | boolean | null;
}

export interface FieldRule {
  pointer: string;
  class: FieldClass;
  events?: string[];
  note?: string;
  examples: FieldExample[];
  /** Values this rule must not take for its class (a prose reason is not an enum). */
  notValues?: string[];
}

export interface FieldRuleSet {
  harness: string;
  rules: FieldRule[];
}

export interface PairingPointer {
  pointer: string;
  events?: string[];
}

export interface PairingScope {
  scope: string;
  label: string;
  coarse?: boolean;
  pointers: PairingPointer[];
}

export interface PairingRuleSet {
  harness: string;
  scopes: PairingScope[];
  /** Event pairs selection keeps together: [earlier, later] stems. */
  keep?: [string, string][];
}

export interface RefusalExample {
  harness: string;
  event: string;
  pointer: string;
  fill: { bytes: number } | { members: number };
  refused: boolean;
}

export interface RefusalRules {
  toolResponse: { pointers: { harness: string; pointer: string; events?: string[] }[]; maxBytes: number };
  envDump: { minMembers: number; memberPattern: string; knownNames: string[] };
  promptEvents: string[];
  placeholderIds: string[];
  examples: RefusalExample[];
}

export interface HomeRoot {
  id: string;
  root: string;
  separators: ("/" | "\\")[];
  owner: "segment" | "segment-with-spaces";
  examples: { text: string; owner: string }[];
  notExamples?: string[];
}

export interface HomeRules {
  placeholder: string;
  notOwners: string[];
  groupFolders: string[];
  roots: HomeRoot[];
  slugs: { id: string; root: string; examples: { text: string; owner: string }[]; notExamples?: string[] }[];
}

export interface UrlRules {
  /** URLs kept whole: fixed endpoints of a host, by prefix. */
  fixedEndpoints: string[];
}

export interface SecretRules {
  rules: SecretPattern[];
  /** Each secretlint preset rule: what it finds, and a shape the reach control plants (parts joined at run time). */
  preset: Record<string, { description: string; match: string[][] }>;
}

export interface TransportRules {
  transports: Record<string, string[]>;
  versionPattern: string;
}

/** An object a raw payload of a host carries, recognised wherever it is committed (rules/payloads.json). */
export interface PayloadSignature {
  id: string;
  harnesses: string[];
  description: string;
  members: { pointer: string; is: "string" | "object" | "event" }[];
}

export interface PayloadRules {
  signatures: PayloadSignature[];
  examples: { text: string; payload: boolean; note?: string }[];
}

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

/** A valid capture, named and parsed: what the passes after inventory work on. */
export interface Capture {
  name: string;
  harness: string;
  event: string;
  hostEvent: string | undefined;
  version: string;
  n: number;
  bytes: Uint8Array;
  sha256: string;
  doc: JsonDocument;
  mtimeMs: number;
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

export interface Pairing {
  pairs: Pair[];
  finest: { file: string; scope: string; id: string }[];
  unpaired: Unpaired[];
  counts: ScopeCount[];
  skipped: { file: string; reason: string }[];
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

/** The report on one cleared capture; its bytes travel beside it, never inside. */
export interface ClearedReport {
  name: string;
  rawBytes: number;
  clearedBytes: number | null;
  rules: RuleApplication[];
  review: string[];
  exemptions: Exemption[];
  refused: Finding[];
}

export interface ClearedFile {
  report: ClearedReport;
  /** The cleared bytes; null when the capture was refused. */
  cleared: Uint8Array | null;
}

/** Where a user name was learned: the file and pointer, never the name. */
export interface LearnedName {
  file: string;
  pointer: string;
}

export interface Substitution {
  userNames: number;
  files: ClearedFile[];
  skipped: { file: string; reason: string }[];
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
export interface ScanWaiver {
  fixture: string;
  pointer: string;
  rule: string;
  sha256: string;
  reason: string;
}

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

export interface Provenance {
  schemaVersion: 1;
  origin: "authentic-capture";
  harness: string;
  hostVersion: string;
  event: string;
  captureName: string;
  capturedAt: string | null;
  capturedAtSource: "sitting.json" | "file-mtime";
  raw: { sha256: string; bytes: number };
  cleared: { sha256: string; bytes: number };
  rules: { rule: string; pointers: string[] }[];
  pairs: { scope: string; id: string; files: string[] }[];
  kit: { head: string; binarySha256: string | null; transports: KitFile[] } | null;
  batch: string;
}

/** Where a repository keeps its inbox, fixtures and record, repository-relative. */
export interface RepoLayout {
  fixtures: string;
  capturesInbox: string;
  clearance: string;
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
}
