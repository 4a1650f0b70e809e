import { append, pushAll } from "../collections.js";
import { finding, type Finding } from "../findings.js";
import { holds, parseRecord, RecordError, recordText, type ParsedBatch } from "../record/parse.js";
import { readingsOfName } from "./raw-capture/name-readings.js";
import type { RepoLayout } from "../types.js";

// The one implementation of "accepted", for clear verify and the gate alike, over a tree read
// from the working tree, the index or a commit: every fixture is listed with its digest in an
// accepted batch whose digest holds (a later listing of a path supersedes an earlier one), every
// listed fixture is present, no link stands where the tool's own files do, and no raw capture is
// committed, wherever it is and whatever it is named.

/** Files only named, never listed in a batch: a folder's README and .gitignore, exempt only while they hold no payload. */
export const EXEMPT_NAMES = new Set(["README.md", ".gitignore"]);

export interface GuardedState {
  layout: RepoLayout;
  /** Every regular file under the fixtures folder, with its SHA-256. */
  fixtures: { path: string; sha256: string }[];
  /** Every file under the captures inbox but its exempt names. */
  inbox: string[];
  /** The exempt files under the fixtures folder and the inbox, with their bytes (a Git LFS pointer's with its object), or why they cannot be read as what they are. */
  exempt: Candidate[];
  /** Links where the tool's own files stand (the folders, what is under them, the record, the config). */
  links: string[];
  /** Entries there that are no file the tool reads (a submodule, a FIFO, one it cannot read whole, one named in bytes that are not UTF-8). */
  notFiles: string[];
  /** Fixtures whose git attributes make a checkout write other bytes than git stores, each with the attribute that does. */
  checkoutChanged?: { path: string; attribute: string }[];
  /** The record and clear.config.json, where their git attributes show a reviewer other than the text git stores (or check it out in other bytes), each with the attribute that does. */
  shownOtherwise?: { path: string; attribute: string }[];
  record: string | null;
  /** What the record says, already read (remembered by its blob id); when present, `record` is not read again. */
  recordReading?: RecordReading;
}

/** The accepted listing a record gives (path and SHA-256 of each fixture an accepted, intact batch lists) and its findings. */
export interface RecordReading {
  listed: [string, string][];
  findings: Finding[];
}

/**
 * Files the raw-capture check found clear in an earlier run, by the tool, the rules the check read,
 * the path and the bytes: a file found clear then is clear now. Only a clear verdict is kept.
 */
export interface ClearMemory {
  isClear(path: string, bytes: Uint8Array): boolean;
  remember(path: string, bytes: Uint8Array): void;
}

/** A file a change brings, with its bytes; or, where they cannot be read (an LFS object not here), why. */
export type Candidate = { path: string } & ({ bytes: Uint8Array } | { missing: string });

export interface TreeToVerify {
  /** The tool's own places, when the change touches them (always, for verify). */
  guarded: GuardedState | null;
  /** Files anywhere else, checked by name and content. */
  candidates: Candidate[];
  /** Paths that name one of the tool's places in other letter case, each refused. */
  otherSpelling?: string[];
}

/** The record read once: each batch whose digest holds lists its fixtures (a later listing of a path supersedes an earlier one). */
export function readRecordListing(record: string | Uint8Array, file: string): RecordReading {
  const listed = new Map<string, string>();
  const findings: Finding[] = [];
  try {
    for (const b of parseRecord(typeof record === "string" ? record : recordText(record, file), file).batches) {
      if (b.accepted && !holds(b)) findings.push(finding("batch-edited", { file, line: b.line }, { id: b.id }));
      if (b.acceptanceUnread) findings.push(finding("accept-not-counted", { file, line: b.acceptanceUnread.line }, { id: b.id, why: b.acceptanceUnread.why }));
      if (!holds(b)) continue;
      if (b.kit.named && b.kit.transports === 0) findings.push(finding("kit-not-quoted", { file, line: b.line }, { id: b.id }));
      for (const f of b.fixtures) listed.set(f.path, f.sha256);
    }
  } catch (err) {
    if (!(err instanceof RecordError)) throw err;
    findings.push(finding("record-unreadable", { file }, { detail: err.message }));
  }
  return { listed: [...listed], findings };
}

/**
 * The batches a record accepted before (in the last commit, in a commit's parent) that it now
 * holds with other text, ACCEPT and a digest that holds kept: a digest anyone can work out again,
 * so only the record as it stood says what the person accepted. Under another id too: a batch
 * accepted now that lists a fixture of an accepted batch this change took out stands in its place.
 * A batch taken out with its fixtures, or no longer accepted, covers nothing and is not one.
 */
export function acceptedRewritten(before: string, after: string, file: string, since: string): Finding[] {
  let earlier: ParsedBatch[];
  let batches: ParsedBatch[];
  try {
    earlier = parseRecord(before, file).batches.filter(holds);
    batches = parseRecord(after, file).batches;
  } catch (err) {
    // An earlier record this tool cannot read accepted nothing it knows of; a later one is reported as unreadable.
    if (err instanceof RecordError) return [];
    throw err;
  }
  const kept = new Set(batches.map((b) => b.id));
  const takenOut = new Map<string, string>();
  for (const b of earlier) if (!kept.has(b.id)) for (const f of b.fixtures) takenOut.set(f.path, b.id);
  const holding = batches.filter(holds);
  const out: Finding[] = movedBatches(earlier, holding, file, since);
  // A run of the same sitting (after a change of rules or configuration) appends a batch under the
  // same id: the nth accepted batch of an id is held against the nth the record accepted before, and
  // one past those is a new acceptance.
  const acceptedCopies = copiesOf(earlier);
  const copies = copiesOf(holding);
  for (const b of holding) {
    const was = acceptedCopies.get(b.id)?.[copies.get(b.id)?.indexOf(b) ?? -1];
    if (was !== undefined && was.digestActual !== b.digestActual) out.push(finding("accepted-batch-rewritten", { file, line: b.line }, { id: b.id, how: "was accepted with other text", since }));
    const replaced = was === undefined ? b.fixtures.map((f) => takenOut.get(f.path)).find((id) => id !== undefined) : undefined;
    if (replaced !== undefined) out.push(finding("accepted-batch-rewritten", { file, line: b.line }, { id: b.id, how: `lists fixtures of batch ${replaced}, taken out here, which was accepted`, since }));
  }
  return out;
}

/** The batches of each id, in the record's order. */
function copiesOf(batches: ParsedBatch[]): Map<string, ParsedBatch[]> {
  const copies = new Map<string, ParsedBatch[]>();
  for (const b of batches) append(copies, b.id, b);
  return copies;
}

/**
 * Accepted batches moved in the record so that an earlier acceptance stands in force again. A later
 * accepted listing of a fixture is the one that must match: moving an accepted batch below one
 * accepted after it would bring back bytes that acceptance replaced, with no new ACCEPT. A batch
 * accepted in this change is a new acceptance wherever it stands (a copy of an earlier batch
 * appended and accepted again is one, as a run of the same sitting writes it); a batch taken out,
 * or rewritten, is the other checks' to speak for.
 */
function movedBatches(before: ParsedBatch[], after: ParsedBatch[], file: string, since: string): Finding[] {
  const key = (b: ParsedBatch): string => `${b.id}\u0000${b.digestActual}`;
  const inForce = (batches: ParsedBatch[]): Map<string, { batch: ParsedBatch; sha256: string }> => {
    const listed = new Map<string, { batch: ParsedBatch; sha256: string }>();
    for (const b of batches) for (const f of b.fixtures) listed.set(f.path, { batch: b, sha256: f.sha256 });
    return listed;
  };
  const heldBefore = new Map<string, number>();
  for (const b of before) heldBefore.set(key(b), (heldBefore.get(key(b)) ?? 0) + 1);
  // The nth copy of a batch in the record is new where the earlier record held fewer than n.
  const seen = new Map<string, number>();
  const isNew = new Set<ParsedBatch>();
  for (const b of after) {
    const n = (seen.get(key(b)) ?? 0) + 1;
    seen.set(key(b), n);
    if (n > (heldBefore.get(key(b)) ?? 0)) isNew.add(b);
  }
  const was = inForce(before);
  const out = new Map<ParsedBatch, Finding>();
  for (const [fixture, now] of inForce(after)) {
    const prev = was.get(fixture);
    if (prev === undefined || prev.sha256 === now.sha256 || isNew.has(now.batch) || out.has(now.batch) || !seen.has(key(prev.batch))) continue;
    out.set(now.batch, finding("accepted-batch-rewritten", { file, line: now.batch.line }, { id: now.batch.id, how: `was moved below batch ${prev.batch.id}, accepted after it, and stands in force again for fixtures that batch replaced`, since }));
  }
  return [...out.values()];
}

function acceptedListing(state: GuardedState, findings: Finding[]): Map<string, string> {
  const reading = state.recordReading ?? (state.record === null ? null : readRecordListing(state.record, state.layout.clearance));
  if (reading === null) return new Map();
  pushAll(findings, reading.findings);
  return new Map(reading.listed);
}

/**
 * Whether a file (or an object's text) is a raw capture, as a finding. The check's rules and code
 * are loaded on the first file that needs them (see ./raw-capture.ts); a change of accepted
 * fixtures, links and deletions alone loads neither.
 */
export type RawCaptureJudge = (path: string, bytes: Uint8Array) => Finding | null;

/** A file that could be one: named .json, or holding anything (a payload may be written as YAML, TOML or base64, with no brace). An empty file is passed without loading the rules. */
function couldBeRawCapture(path: string, bytes: Uint8Array): boolean {
  return path.endsWith(".json") || bytes.byteLength > 0;
}

async function rawCapture(path: string, bytes: Uint8Array, judgeOf: () => Promise<RawCaptureJudge>): Promise<Finding | null> {
  return couldBeRawCapture(path, bytes) ? (await judgeOf())(path, bytes) : null;
}

/** A file that holds a payload, or that cannot be read as what it is, as a finding; null when it is clear. */
async function candidateFinding(c: Candidate, check: () => Promise<RawCaptureJudge>, memory?: ClearMemory): Promise<Finding | null> {
  if ("missing" in c) return finding("raw-capture-committed", { file: c.path }, { why: `it cannot be shown to hold no payload (${c.missing})` });
  if (memory?.isClear(c.path, c.bytes)) return null;
  const found = await rawCapture(c.path, c.bytes, check);
  if (found === null) memory?.remember(c.path, c.bytes);
  return found;
}

async function guardedFindings(state: GuardedState, check: () => Promise<RawCaptureJudge>, findings: Finding[], memory?: ClearMemory): Promise<void> {
  pushAll(findings, state.links.map((file) => finding("symlink-in-repo", { file })));
  pushAll(findings, state.notFiles.map((file) => finding("not-a-file", { file }, { what: "stands where the tool's own files do and is no file the tool can read (not a regular file, one it cannot read whole, or one named in bytes that are not UTF-8); not read" })));
  pushAll(findings, state.inbox.map((file) => finding("raw-capture-committed", { file }, { why: "it is under the captures inbox" })));
  for (const e of state.exempt) {
    const f = await candidateFinding(e, check, memory);
    if (f) findings.push(f);
  }
  const listed = acceptedListing(state, findings);
  const exempt = new Set(state.exempt.map((e) => e.path));
  const present = new Set(state.fixtures.map((f) => f.path));
  pushAll(findings, (state.checkoutChanged ?? []).map((c) => finding("fixture-checkout-changed", { file: c.path }, { attribute: c.attribute })));
  pushAll(findings, (state.shownOtherwise ?? []).map((c) => finding("record-shown-otherwise", { file: c.path }, { attribute: c.attribute })));
  for (const f of state.fixtures) {
    if (exempt.has(f.path)) continue;
    const want = listed.get(f.path);
    if (want === undefined) findings.push(finding("fixture-not-accepted", { file: f.path }));
    else if (want !== f.sha256) findings.push(finding("fixture-changed", { file: f.path }));
  }
  for (const p of [...listed.keys()].sort()) if (!present.has(p)) findings.push(finding("fixture-missing", { file: p }));
}

/** What the names of the files a change brings are checked as: one text, a name a line. */
const NAMES_LABEL = "the names of the files it brings";
/** A character a name's shown start may not hold: a control, one that shows nothing or turns text around, a blank. */
const UNSHOWN = /[\p{C}\s]/u;

/** A name that holds a payload, as a finding shows it: its first four characters and its length. */
function shownName(name: string): string {
  const chars = [...name];
  const head = chars.slice(0, 4).map((c) => (UNSHOWN.test(c) ? "*" : c)).join("");
  return `${head}… (a name of ${chars.length} characters, not shown: it holds the payload)`;
}

/** How many names holding a payload are looked for, one after another, in one check. */
const MAX_NAMES_FOUND = 64;

/** The first name that holds a payload, read with the rest as one text, a name a line; null where none does. */
async function nameHolding(names: string[], check: () => Promise<RawCaptureJudge>): Promise<{ name: string; why: string } | null> {
  if (names.length === 0) return null;
  const readings = names.map(readingsOfName);
  const f = await rawCapture(NAMES_LABEL, Buffer.from(readings.map((r) => r.join("\n")).join("\n"), "utf8"), check);
  if (f === null) return null;
  // The line a payload starts at tells the name; a payload that is the whole text starts at the first.
  let [at, line] = [0, 1];
  for (const [i, texts] of readings.entries()) {
    if (line > (f.line ?? 1)) break;
    at = i;
    for (const text of texts) line += text.split("\n").length;
  }
  const why = f.message.includes("cannot be shown") ? "the names of its files cannot be shown to hold no payload" : "its name holds a payload of a known host";
  return { name: names[at] as string, why };
}

/**
 * The names of the files a change brings travel with it as their bytes do, and a name can hold a
 * payload (a file named after a prompt, a capture spread over folder names): the names (and those
 * the findings give) are read as one text, a name a line, and each name found to hold one is
 * refused, shown by its start alone, in its own finding and in every other that names it.
 */
async function namesFindings(names: string[], findings: Finding[], check: () => Promise<RawCaptureJudge>, memory?: ClearMemory): Promise<Finding[]> {
  // Each name found clear before is known by itself: a file taken away or added leaves the others known.
  const nameBytes = (name: string): Buffer => Buffer.from(name, "utf8");
  let [left, out] = [names.filter((name) => !memory?.isClear(NAMES_LABEL, nameBytes(name))), findings];
  for (let n = 0; n < MAX_NAMES_FOUND; n++) {
    const found = await nameHolding(left, check);
    if (found === null) {
      for (const name of left) memory?.remember(NAMES_LABEL, nameBytes(name));
      break;
    }
    const shown = shownName(found.name);
    out = [...out.map((x) => (x.file === found.name ? { ...x, file: shown } : x)), finding("raw-capture-committed", { file: shown }, { why: found.why })];
    left = left.filter((name) => name !== found.name);
  }
  return out;
}

/**
 * `check` is asked for only where a change brings a file with content (or one named .json): a change of links, deletions and empty files loads no rules.
 * `memory`, where given, answers for a file found clear before and keeps each file found clear now.
 */
export async function verifyPass(tree: TreeToVerify, check: () => Promise<RawCaptureJudge>, memory?: ClearMemory): Promise<Finding[]> {
  const findings: Finding[] = [];
  if (tree.guarded) await guardedFindings(tree.guarded, check, findings, memory);
  pushAll(findings, (tree.otherSpelling ?? []).map((file) => finding("place-in-other-spelling", { file })));
  for (const c of tree.candidates) {
    const f = await candidateFinding(c, check, memory);
    if (f) findings.push(f);
  }
  const named = findings.flatMap((f) => (f.file === undefined ? [] : [f.file]));
  // In one order however the files were listed, so that a text found clear once is known again.
  return namesFindings([...new Set([...tree.candidates.map((c) => c.path), ...named])].sort(), findings, check, memory);
}
