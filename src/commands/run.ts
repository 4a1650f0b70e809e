import { readFile } from "node:fs/promises";
import path from "node:path";
import { parseFlags, UsageError } from "../cli-args.js";
import { parseRecord } from "../clearance/parse.js";
import { guarded, type Command } from "../command.js";
import { sha256Hex } from "../digest.js";
import { finding, type Finding } from "../findings.js";
import { homeGrammar, userNamePattern } from "../homes.js";
import { loadSetting, type Io } from "../io/setting.js";
import { repoPaths } from "../io/repo-tree.js";
import { writeRepoFiles } from "../io/write-repo.js";
import { provenancePass } from "../passes/provenance.js";
import { batchId, recordBatch } from "../passes/record.js";
import { scanEngine, scanPass } from "../passes/scan.js";
import { selectPass } from "../passes/select.js";
import { clearSitting, readSitting, type Cleared } from "../pipeline.js";
import { writeJson } from "../render/json.js";

import type { ScanResult, Selection } from "../types.js";

const help = `clear run [<capture-dir>] [--root DIR] [--json]

Every pass in order on a sitting (default: captures-inbox/ of the repository): inventory, pair,
substitute, select, scan, digest. Then the selected fixtures and their provenance sidecars are
written under fixtures/<harness>/<version>/ and a batch is appended to CLEARANCE.md (replacing the
batch still awaiting acceptance; accepted batches are never touched). When anything blocks, no
fixture is written, the batch says why, and the exit code is 1. The tool never writes ACCEPT.
`;

function blockers(cleared: Cleared, selection: Selection, scan: ScanResult): Finding[] {
  const out = cleared.inventory.findings.filter((f) => f.severity === "block" && f.code !== "missing-event");
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
  const lines = existing.split("\n");
  const keep = last && !last.accepted ? lines.slice(0, starts.at(-1)).join("\n") : existing;
  return `${keep.replace(/\n*$/, "\n\n")}${batch}`;
}

async function run(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseFlags(argv, { json: { type: "boolean" }, root: { type: "string" } }, 1, "run");
  const setting = loadSetting(values.root, io.cwd);
  if (setting.root === null) throw new UsageError("clear run works inside a git repository (or give --root DIR)");
  const root = setting.root;
  const paths = repoPaths(setting.config);
  const sitting = await readSitting(positionals[0] ? path.resolve(io.cwd, positionals[0]) : path.join(root, paths.capturesInbox), setting);
  const cleared = clearSitting(sitting, setting);
  const selection = selectPass(cleared.captures, cleared.substitution, cleared.pairing, setting.rules);
  const id = batchId(cleared.captures);
  const fixtures = provenancePass(sitting, cleared.captures, cleared.substitution, cleared.pairing, selection, paths.fixtures, id);
  const engine = scanEngine(setting.rules.secrets, homeGrammar(setting.rules.homes, setting.users), userNamePattern(setting.users));
  const scan = await scanPass(fixtures.map((f) => ({ file: f.path, text: Buffer.from(f.bytes).toString("utf8") })), engine, setting.display);
  const blocking = blockers(cleared, selection, scan);
  const written = blocking.length === 0 ? fixtures : [];
  const batch = recordBatch({ ...cleared, sittingShown: setting.display.path(sitting.dir), selection, scan, fixtures: written, blockers: blocking, sidecarDigest: (f) => sha256Hex(f.sidecar) }, id);
  const recordPath = path.join(root, paths.clearance);
  const existing = await readFile(recordPath, "utf8").catch(() => null);
  const record = nextRecord(existing, batch);
  await writeRepoFiles(root, [...written.flatMap((f) => [{ path: f.path, bytes: f.bytes }, { path: f.sidecarPath, bytes: f.sidecar }]), { path: paths.clearance, bytes: Buffer.from(record) }]);
  const ok = blocking.length === 0;
  if (values.json) writeJson(io, { command: "run", ok, batch: id, fixtures: written.map((f) => f.path), findings: blocking, scan: { findings: scan.findings.length, control: scan.control } });
  else io.stdout(`${ok ? `batch ${id}: ${written.length} fixtures written; read ${paths.clearance} and write ACCEPT under the batch's acceptance heading` : `batch ${id}: BLOCKED, no fixture written (${blocking.length} findings; see ${paths.clearance})`}\n`);
  return ok ? 0 : 1;
}

export const runCommand: Command = { help, run: (argv, io) => guarded(io, argv, () => run(argv, io)) };
