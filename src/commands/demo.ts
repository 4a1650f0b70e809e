import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseFlags } from "../cli-args.js";
import { guarded, type Command } from "../command.js";
import { loadSetting, type Io } from "../io/setting.js";
import { clearSitting, readSitting } from "../pipeline.js";
import { renderInventory, renderPairing, renderSubstitution } from "../render/human.js";

const help = `clear demo [--keep]

Runs the pipeline on the bundled example sitting (examples/sitting, synthetic) in a temporary
folder: inventory, pair, substitute. The folder is removed afterwards unless --keep is given.
`;

const SAMPLE = "claude-code_post_tool_use_failure_2.1.261.1.json";

export const EXAMPLE_SITTING = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "examples", "sitting");

async function run(argv: string[], io: Io): Promise<number> {
  const { values } = parseFlags(argv, { keep: { type: "boolean" } }, 0, "demo");
  const work = await fs.mkdtemp(path.join(os.tmpdir(), "clear-demo-"));
  try {
    const sittingDir = path.join(work, "captures-inbox", "sitting");
    await fs.cp(EXAMPLE_SITTING, sittingDir, { recursive: true });
    const setting = loadSetting(work, work);
    const cleared = clearSitting(await readSitting(sittingDir, setting), setting);
    io.stdout(`== clear inventory\n\n${renderInventory(cleared.inventory, setting.display.path(sittingDir), false)}`);
    io.stdout(`\n== clear pair\n\n${renderPairing(cleared.pairing)}`);
    io.stdout(`\n== clear substitute\n\n${renderSubstitution(cleared.substitution, "(in memory)")}`);
    const sample = cleared.substitution.files.find((f) => f.report.name === SAMPLE);
    const raw = cleared.captures.find((c) => c.name === SAMPLE);
    if (sample?.cleared && raw) io.stdout(`\n== one capture before and after (${SAMPLE})\n\nraw:     ${Buffer.from(raw.bytes).toString("utf8")}\ncleared: ${Buffer.from(sample.cleared).toString("utf8")}\n`);
    return cleared.substitution.files.every((f) => f.cleared !== null) ? 0 : 1;
  } finally {
    if (!values.keep) await fs.rm(work, { recursive: true, force: true });
  }
}

export const demoCommand: Command = { help, run: (argv, io) => guarded(io, argv, () => run(argv, io)) };
