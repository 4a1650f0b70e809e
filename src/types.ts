// The shapes that flow from one pass to the next. A reader who knows these knows the program.

export type Severity = "block" | "note";

export interface Finding {
  code: string;
  severity: Severity;
  file?: string;
  pointer?: string;
  line?: number;
  column?: number;
  message: string;
}

export const FIELD_CLASSES = [
  "identifier",
  "path",
  "free-text",
  "enum",
  "timestamp",
  "url",
  "number",
  "bool",
  "null",
] as const;
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

export type ReadProblemCode =
  | "oversize"
  | "not-utf8"
  | "invalid-json"
  | "not-an-object"
  | "duplicate-key"
  | "too-deep"
  | "unreadable";

export interface ReadProblem {
  code: ReadProblemCode;
  message: string;
  pointer?: string;
  line?: number;
  column?: number;
}

export interface CaptureEntry {
  name: string;
  entryKind: EntryKind;
  /** Size on disk in bytes (from lstat). */
  size: number;
  bytes?: Uint8Array;
  sha256?: string;
  doc?: JsonDocument;
  problem?: ReadProblem;
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
  events: HarnessEvent[];
}

export interface Recipe {
  name: string;
  harness: string;
  default?: boolean;
  description: string;
  events: string[];
}

export interface FieldRule {
  pointer: string;
  class: FieldClass;
  events?: string[];
  note?: string;
  examples: { event: string; pointer: string }[];
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
}

export interface RefusalRules {
  toolResponse: { pointers: string[]; maxBytes: number };
  envDump: { minMembers: number; memberPattern: string };
  promptEvents: string[];
}

export interface Rules {
  dir: string;
  harnesses: HarnessCatalogue[];
  recipes: Recipe[];
  fields: FieldRuleSet[];
  pairing: PairingRuleSet[];
  refusals: RefusalRules;
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
}

export interface Unpaired {
  file: string;
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
  /** What remains readable: the member names of the admitted object. */
  remaining: string[];
}

export interface ClearedFile {
  name: string;
  rawBytes: number;
  clearedBytes: number | null;
  cleared: Uint8Array | null;
  rules: RuleApplication[];
  review: string[];
  exemptions: Exemption[];
  refused: Finding[];
}

export interface Substitution {
  users: string[];
  files: ClearedFile[];
  skipped: { file: string; reason: string }[];
  findings: Finding[];
}
