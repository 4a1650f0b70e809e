import { promises as fs } from "node:fs";
import path from "node:path";
import { sha256Hex } from "../digest.js";
import { finding, type Finding } from "../findings.js";
import { homeGrammar, userNamePattern } from "../homes.js";
import { committedTransports } from "../io/kit.js";
import { CONFIG_FILE, placesOf, repoPaths } from "../io/repo-tree.js";
import { kitPass } from "../passes/kit.js";
import type { Setting } from "../io/setting.js";
import { OutputError } from "../io/errors.js";
import { withRunLock } from "../io/run-lock.js";
import { readRepoFile, writeRepoFiles } from "../io/write-repo.js";
import { provenancePass } from "../passes/provenance.js";
import { batchId, recordBatch } from "../passes/record.js";
import { scanEngine, scanPass } from "../passes/scan.js";
import { selectPass } from "../passes/select.js";
import { clearSitting, readSitting, type Cleared } from "../pipeline.js";
import type { FixtureOut, ScanResult, Selection } from "../types.js";
import { parseRecord } from "../record/parse.js";
import { alreadyAccepted, withBatch } from "../record/write.js";

// What `clear run` does, for the command and the demo alike: every pass over a sitting, then the
// fixtures, their sidecars and the batch written into the repository, all or nothing.

export interface RunResult {
  batch: string;
  /** Set when an accepted batch already holds exactly this sitting's fixtures: nothing was written. */
  alreadyAccepted: boolean;
  /** The pending batch this one replaced, if any. */
  replaced: string | null;
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

/** A link where the tool's own files stand, on disk, is refused before anything is read or written. */
async function refuseLinks(root: string, layout: ReturnType<typeof repoPaths>): Promise<void> {
  const { places, above } = placesOf(layout);
  for (const p of [...above, ...places, CONFIG_FILE]) {
    if ((await fs.lstat(path.join(root, p)).catch(() => null))?.isSymbolicLink()) {
      throw new OutputError(`${p}: is a symbolic link where the tool's own files stand; the tool never reads or writes through one (replace it with the real folder or file)`);
    }
  }
}

export async function clearIntoRepo(setting: Setting, root: string, captureDir: string | undefined): Promise<RunResult> {
  const paths = repoPaths(setting.config);
  return withRunLock(root, async () => {
    await refuseLinks(root, paths);
    const b = await prepareBatch(setting, root, captureDir ?? path.join(root, paths.capturesInbox));
    const existing = (await readRepoFile(root, paths.clearance))?.toString("utf8") ?? null;
    const listed = parseRecord(b.text, paths.clearance).batches[0]?.fixtures ?? [];
    const result = { batch: b.id, fixtures: b.fixtures.map((f) => f.path), blockers: b.blockers, scan: b.scan, recordPath: paths.clearance };
    if (b.blockers.length === 0 && alreadyAccepted(existing, b.id, listed, paths.clearance)) return { ...result, alreadyAccepted: true, replaced: null };
    const next = withBatch(existing, b.text, paths.clearance);
    const files = b.fixtures.flatMap((f) => [{ path: f.path, bytes: f.bytes }, { path: f.sidecarPath, bytes: f.sidecar }]);
    await writeRepoFiles(root, [...files, { path: paths.clearance, bytes: Buffer.from(next.text) }]);
    return { ...result, alreadyAccepted: false, replaced: next.replaced };
  });
}
