import path from "node:path";
import { parseFlags, UsageError } from "../cli-args.js";
import { clearIntoRepo } from "../clearance/clear-into-repo.js";
import { guarded, type Command } from "../command.js";
import { loadSetting, progressFor, type Io } from "../io/setting.js";
import { writeJson } from "../render/json.js";

const help = `clear run [<capture-dir>] [--root DIR] [--json]

Every pass in order on a sitting (default: captures-inbox/ of the repository): inventory, pair,
substitute, select, scan, digest. Then the selected fixtures and their provenance sidecars are
written under fixtures/<harness>/<version>/ and a batch is appended to CLEARANCE.md (replacing the
batch still awaiting acceptance; a batch that carries ACCEPT is never touched). When an accepted
batch already holds this sitting's very fixtures, nothing is written. When anything blocks, no
fixture is written, the batch says why, and the exit code is 1. The tool never writes ACCEPT. One
run at a time per repository: a second one exits 2 and changes nothing. A link where fixtures/,
CLEARANCE.md, captures-inbox/ or clear.config.json stand is refused before anything is read.
`;

async function run(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseFlags(argv, { json: { type: "boolean" }, root: { type: "string" } }, 1, "run");
  const setting = loadSetting(values.root, io.cwd);
  setting.progress = progressFor(io, values.json);
  if (setting.root === null) throw new UsageError("clear run works inside a git repository (or give --root DIR)");
  const r = await clearIntoRepo(setting, setting.root, positionals[0] ? path.resolve(io.cwd, positionals[0]) : undefined);
  const ok = r.blockers.length === 0;
  const said = r.alreadyAccepted
    ? `batch ${r.batch} is already accepted in ${r.recordPath} with these very fixtures; nothing written`
    : ok
      ? `batch ${r.batch}: ${r.fixtures.length} fixtures written${r.replaced ? ` (it replaces the pending batch ${r.replaced})` : ""}; read ${r.recordPath} and write ACCEPT under the batch's acceptance heading`
      : `batch ${r.batch}: BLOCKED, no fixture written (${r.blockers.length} findings; see ${r.recordPath})`;
  if (values.json) writeJson(io, { command: "run", ok, batch: r.batch, alreadyAccepted: r.alreadyAccepted, replaced: r.replaced, fixtures: r.fixtures, findings: r.blockers, scan: { findings: r.scan.findings.length, control: r.scan.control } });
  else io.stdout(`${said}\n`);
  return ok ? 0 : 1;
}

export const runCommand: Command = { help, run: (argv, io) => guarded(io, argv, () => run(argv, io)) };
