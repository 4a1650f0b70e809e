import { pushAll } from "../collections.js";
import { createHash } from "node:crypto";
import { createReadStream, existsSync, mkdirSync, readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { UsageError } from "../errors.js";
import { readBelow, writeBelow } from "../lib/no-link.js";
import { printableLines } from "../render/human.js";
import { nameGrammar, parseCaptureName } from "../capture-name.js";
import type { Rules } from "../types.js";
import type { Harness, VersionProbe } from "./hosts.js";
import type { DrivenRecipe } from "./recipes.js";
import { refusalOf, repositoryAround, CAPTURE_DIR_VARIABLE, MAX_PAYLOAD_BYTES, OVERSIZE_SUFFIX, PARTIAL_SUFFIX } from "./sink.js";

// A sitting's folder and its sitting.json: made by `start` (or the driver), read by `status`.

export interface SittingRecord {
  driver?: string;
  method?: string;
  versionLine: string;
  startedAt: string;
  endedAt?: string;
  harness: Harness;
  recipe: string;
  hostVersion: string | null;
  /** The binary that ran, as it may be shown (the runner's home as ~), and its digest. */
  hostBinary: string;
  hostBinarySha256: string;
  [more: string]: unknown;
}

export async function fileSha256(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** A fresh sitting folder: made when missing, refused when it holds anything or could not hold captures. */
export function prepareSittingFolder(dir: string, shown: (p: string) => string): void {
  if (!path.isAbsolute(dir)) throw new UsageError(`${dir}: the sitting folder must be an absolute path`);
  if (!existsSync(dir)) {
    // Judged before it is made, by the nearest folder above it: nothing is made inside a repository.
    let above = path.dirname(dir);
    while (!existsSync(above) && path.dirname(above) !== above) above = path.dirname(above);
    const repo = repositoryAround(above);
    if (repo !== null) throw new UsageError(`${shown(dir)} is inside a git repository (${shown(repo)}); raw captures stay outside every repository`);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  }
  const refusal = refusalOf(dir);
  if (refusal !== null) throw new UsageError(`${shown(dir)} ${refusal}`);
  const present = readdirSync(dir).filter((n) => n !== "kit.json");
  if (present.length > 0)
    throw new UsageError(`${shown(dir)} already holds ${present.length} entries; a sitting starts in an empty folder`);
}

/**
 * sitting.json, never through a link: `create` at the start (refusing one that stands there), and
 * `replace` for the record the driver completes at the end, over the file it wrote.
 */
export function writeSittingRecord(dir: string, record: SittingRecord, how: "create" | "replace", shown: (p: string) => string): void {
  const refused = writeBelow(dir, "sitting.json", Buffer.from(`${JSON.stringify(record, null, 2)}\n`), how);
  if (refused !== null)
    throw new UsageError(
      `${shown(path.join(dir, refused.at))} ${refused.detail}; a sitting's record is never written through a link or over a file it did not write`,
    );
}

/** sitting.json is a small text; one larger than this is not a record start wrote. */
const SITTING_RECORD_MAX_BYTES = 1024 * 1024;

/** sitting.json as it stands in the sitting: a link is never followed, and a FIFO or a device never waited on. */
export function readSittingRecord(dir: string, shown: (p: string) => string): SittingRecord {
  const file = path.join(dir, "sitting.json");
  const read = readBelow(dir, "sitting.json", SITTING_RECORD_MAX_BYTES);
  if ("refused" in read && read.refused === "missing") throw new UsageError(`${shown(file)}: no such file; was the sitting started with clear capture start?`);
  if ("refused" in read) throw new UsageError(`${shown(file)}: ${read.detail}; not read: a sitting's record is a regular file in the sitting`);
  let value: unknown;
  try {
    value = JSON.parse(read.bytes.toString("utf8"));
  } catch {
    throw new UsageError(`${shown(file)}: cannot be read (not JSON); was the sitting started with clear capture start?`);
  }
  const r = (value !== null && typeof value === "object" ? value : {}) as Partial<SittingRecord>;
  const lacking = (["harness", "recipe", "versionLine"] as const).filter((k) => typeof r[k] !== "string");
  if (lacking.length > 0) {
    throw new UsageError(`${shown(file)}: not written by clear capture start (it gives no ${lacking.join(" and no ")}); clear capture status reads a sitting that clear capture start began`);
  }
  return r as SittingRecord;
}

export interface SittingStatus {
  harness: string;
  recipe: string;
  startedWith: string | null;
  hostNow: string | null;
  moved: boolean;
  captured: { event: string; files: number }[];
  /** Captures that cannot be cleared as they are (a refused class, broken JSON ...): the finding that blocks each. An event whose every capture is one is missing. */
  unusable: { file: string; event: string; code: string }[];
  missing: string[];
  repeats: { event: string; files: number }[];
  /** Events captured that the recipe does not expect. */
  extra: string[];
  /** Captures named with a version other than the sitting's (or unknown). */
  otherVersions: string[];
  notCaptures: string[];
}

/** What the sitting holds now against its recipe and its host version. Pure. */
export function statusOf(
  names: string[],
  rules: Rules,
  record: SittingRecord,
  recipe: DrivenRecipe,
  probe: VersionProbe | null,
  blocked: ReadonlyMap<string, string> = new Map(),
): SittingStatus {
  const grammar = nameGrammar(rules.harnesses);
  const counts = new Map<string, number>();
  const otherVersions: string[] = [];
  const notCaptures: string[] = [];
  const unusable: SittingStatus["unusable"] = [];
  for (const name of names.filter((n) => n !== "sitting.json" && n !== "kit.json").sort()) {
    const parsed = parseCaptureName(name, grammar);
    const event = parsed.kind === "capture" ? parsed.name.event : parsed.kind === "unknown-event" ? parsed.stem : null;
    const version = parsed.kind === "capture" ? parsed.name.version : parsed.kind === "unknown-event" ? parsed.version : null;
    if (event === null) {
      notCaptures.push(name);
      continue;
    }
    if (version !== record.hostVersion) otherVersions.push(name);
    const code = blocked.get(name);
    if (code !== undefined) unusable.push({ file: name, event, code });
    else counts.set(event, (counts.get(event) ?? 0) + 1);
  }
  const captured = [...counts].map(([event, files]) => ({ event, files })).sort((a, b) => (a.event < b.event ? -1 : 1));
  const hostNow = probe?.version ?? null;
  return {
    harness: record.harness,
    recipe: recipe.name,
    startedWith: record.hostVersion,
    hostNow,
    moved: hostNow !== record.hostVersion,
    captured,
    unusable,
    missing: recipe.events.filter((e) => !counts.has(e)),
    repeats: captured.filter((c) => c.files > 1),
    extra: captured.filter((c) => !recipe.events.includes(c.event)).map((c) => c.event),
    otherVersions,
    notCaptures,
  };
}

/** How many entries of a list a short status names. */
const NAMED = 5;

/** The first few names of a list, saying where the rest are; every one with --verbose. */
function firstFew(names: string[], verbose: boolean): string {
  if (verbose || names.length <= NAMED) return names.join(", ");
  return `${names.slice(0, NAMED).join(", ")}, ... (--verbose lists every one)`;
}

export function statusText(s: SittingStatus, verbose = false): string {
  const lines: string[] = [];
  if (s.moved)
    lines.push(
      `STOP: the host version moved since start (${s.startedWith ?? "unknown"} at start, ${s.hostNow ?? "no answer to --version"} now). ` +
        "Captures from here on are not this sitting's; start a new sitting.",
    );
  if (s.otherVersions.length > 0)
    lines.push(
      `STOP: ${s.otherVersions.length} captures are named with a version other than ${s.startedWith ?? "unknown"} (${firstFew(s.otherVersions, verbose)}).`,
    );
  lines.push(
    `${s.harness} ${s.startedWith ?? "unknown"}, recipe ${s.recipe}: ` +
      `${s.captured.length} events captured, ${s.missing.length} missing, ${s.repeats.length} repeated`,
  );
  pushAll(
    lines,
    s.captured.map((c) => `  captured  ${c.event}${c.files > 1 ? ` (${c.files} files)` : ""}${s.extra.includes(c.event) ? " (not in the recipe)" : ""}`),
  );
  pushAll(lines, s.missing.map((e) => `  missing   ${e}${s.unusable.some((u) => u.event === e) ? " (captured, but not clearable: see below)" : ""}`));
  pushAll(lines, s.unusable.map((u) => `  not clearable  ${u.file}: ${u.code} (clear inventory says why)`));
  if (s.notCaptures.length > 0) lines.push(`  ${s.notCaptures.length} entries are not captures: ${firstFew(s.notCaptures, verbose)}`);
  // What the sink leaves in place of a payload it kept none of: said, since the event it was is lost.
  const oversize = s.notCaptures.filter((n) => n.endsWith(`.json${OVERSIZE_SUFFIX}`));
  if (oversize.length > 0) lines.push(`  not kept  ${oversize.length} payloads above the sink's cap of ${MAX_PAYLOAD_BYTES} bytes: ${firstFew(oversize, verbose)}`);
  const partial = s.notCaptures.filter((n) => n.endsWith(PARTIAL_SUFFIX));
  if (partial.length > 0) lines.push(`  not kept  ${partial.length} payloads the sink began and never finished writing: ${firstFew(partial, verbose)}`);
  // A folder's entry names and a host's answer to --version are printed as data: one line each, no control.
  return printableLines(lines);
}

/** The lines a person types in the shell that runs the host. */
export function captureShellLines(dir: string, home = os.homedir()): string[] {
  // Inside a shell's double quotes only $, `, " and \ mean anything: each is escaped, so a folder
  // named "$(...)" is a name when the line is pasted, never a command.
  const literal = (text: string): string => text.replace(/[$`"\\]/g, "\\$&");
  // The runner's home is written $HOME, which the shell expands inside double quotes: the line names nobody.
  const under = home && home !== "/" && dir.startsWith(`${home}/`);
  const quoted = under ? `"$HOME${literal(dir.slice(home.length))}"` : `"${literal(dir)}"`;
  return [`export ${CAPTURE_DIR_VARIABLE}=${quoted}`];
}
