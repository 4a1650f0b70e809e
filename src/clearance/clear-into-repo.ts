import { readFile } from "node:fs/promises";
import path from "node:path";
import { sha256Hex } from "../digest.js";
import { finding, type Finding } from "../findings.js";
import { homeGrammar, userNamePattern } from "../homes.js";
import { committedTransports } from "../io/kit.js";
import { repoPaths } from "../io/repo-tree.js";
import { kitPass } from "../passes/kit.js";
import type { Setting } from "../io/setting.js";
import { writeRepoFiles } from "../io/write-repo.js";
import { provenancePass } from "../passes/provenance.js";
import { batchId, recordBatch } from "../passes/record.js";
import { scanEngine, scanPass } from "../passes/scan.js";
import { selectPass } from "../passes/select.js";
import { clearSitting, readSitting, type Cleared } from "../pipeline.js";
import type { FixtureOut, ScanResult, Selection } from "../types.js";
import { parseRecord } from "./parse.js";

// What `clear run` does, for the command and the demo alike: every pass over a sitting, then the
// fixtures, their sidecars and the batch written into the repository, all or nothing.

export interface RunResult {
  batch: string;
  fixtures: string[];
  blockers: Finding[];
  scan: ScanResult;
  recordPath: string;
}

function blockersOf(cleared: Cleared, selection: Selection, scan: ScanResult): Finding[] {
  // Refused classes are substitution's to judge: only it knows an opt-in policy that admits one.
  const out = cleared.inventory.findings.filter((f) => f.severity === "block" && f.code !== "missing-event" && f.code !== "refused-class");
  out.push(...cleared.substitution.files.flatMap((f) => f.report.refused.filter((r) => r.code === "refused-class")));
  out.push(...selection.findings.filter((f) => f.severity === "block"));
  out.push(...scan.findings.map((f) => finding("secret-found", { file: f.file, pointer: f.pointer, line: f.line, column: f.column }, { rule: f.rule, masked: f.masked })));
  if (!scan.control.red) out.push(finding("control-silent", {}, { rules: scan.control.silent.join(", ") }));
  return out;
}

/** The record with the pending batch (if any) replaced by this one; accepted batches kept as they are. */
function nextRecord(existing: string | null, batch: string): string {
  if (existing === null) return `# Clearance record\n\nEach batch below was written by \`clear run\`. A person reads it and answers with ACCEPT under its acceptance heading.\n\n${batch}`;
  const { batches, starts } = parseRecord(existing);
  const last = batches.at(-1);
  const keep = last && !last.accepted ? existing.split("\n").slice(0, starts.at(-1)).join("\n") : existing;
  return `${keep.replace(/\n*$/, "\n\n")}${batch}`;
}

export interface PreparedBatch {
  id: string;
  digest: string;
  text: string;
  cleared: Cleared;
  selection: Selection;
  scan: ScanResult;
  fixtures: FixtureOut[];
  blockers: Finding[];
}

/** Every pass and the batch text, written nowhere: what run writes and review shows. */
export async function prepareBatch(setting: Setting, root: string | null, captureDir: string): Promise<PreparedBatch> {
  const paths = repoPaths(setting.config);
  const sitting = await readSitting(captureDir, setting);
  const cleared = clearSitting(sitting, setting);
  const selection = selectPass(cleared.captures, cleared.substitution, cleared.pairing, setting.rules);
  const id = batchId(cleared.captures);
  const fixtures = provenancePass(sitting, cleared.captures, cleared.substitution, cleared.pairing, selection, paths.fixtures, id);
  const engine = scanEngine(setting.rules.secrets, homeGrammar(setting.rules.homes, setting.users), userNamePattern(setting.users));
  const scan = await scanPass(fixtures.map((f) => ({ file: f.path, text: Buffer.from(f.bytes).toString("utf8") })), engine, setting.display);
  const blockers = blockersOf(cleared, selection, scan);
  const written = blockers.length === 0 ? fixtures : [];
  const kitCheck = sitting.kit && root ? kitPass(sitting.kit, await committedTransports(root, setting.rules.transports, false), new Map(), setting.rules.transports.versionPattern).transports : null;
  const text = recordBatch({ ...cleared, sittingShown: setting.display.path(sitting.dir), selection, scan, fixtures: written, blockers, kitCheck, mask: setting.display.path, sidecarDigest: (f) => sha256Hex(f.sidecar) }, id);
  const digest = /sha256:([0-9a-f]{64})/.exec(text)?.[1] ?? "";
  return { id, digest, text, cleared, selection, scan, fixtures: written, blockers };
}

export async function clearIntoRepo(setting: Setting, root: string, captureDir: string | undefined): Promise<RunResult> {
  const paths = repoPaths(setting.config);
  const b = await prepareBatch(setting, root, captureDir ?? path.join(root, paths.capturesInbox));
  const existing = await readFile(path.join(root, paths.clearance), "utf8").catch(() => null);
  const files = b.fixtures.flatMap((f) => [{ path: f.path, bytes: f.bytes }, { path: f.sidecarPath, bytes: f.sidecar }]);
  await writeRepoFiles(root, [...files, { path: paths.clearance, bytes: Buffer.from(nextRecord(existing, b.text)) }]);
  return { batch: b.id, fixtures: b.fixtures.map((f) => f.path), blockers: b.blockers, scan: b.scan, recordPath: paths.clearance };
}
