import { parseFlags, requireDir } from "../cli-args.js";
import { guarded, type Command } from "../command.js";
import { loadSetting, progressFor } from "../io/setting.js";
import type { Io } from "../types.js";
import { runLine } from "../line.js";
import { renderPairing } from "../render/human.js";
import { writeJson } from "../render/json.js";

const help = `clear pair <capture-dir> [--json] [--verbose] [--root DIR]

States which captures belong to one host operation, by the host's own per-operation identifiers
(tool call, sub-agent, turn or prompt, session), finest first. A file pairs only at its finest
identifier; a session id every file shares, and a placeholder id, pair nothing. Files that pair
with nothing are listed with the scope and the reason; invalid files are skipped and named.
Pairs and files not paired are counted by scope with their first few; --verbose lists each one.
Never writes. Exit 0, or 2 when the folder cannot be read.
`;

async function run(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseFlags(argv, { json: { type: "boolean" }, verbose: { type: "boolean" }, root: { type: "string" } }, 1, "pair");
  const setting = loadSetting(values.root, io.cwd);
  setting.progress = progressFor(io, values.json);
  const { sitting, pairing } = await runLine(setting, requireDir(positionals[0], "pair"), "pair");
  if (values.json) writeJson(io, { command: "pair", dir: setting.display.path(sitting.dir), ...pairing });
  else io.stdout(renderPairing(pairing, values.verbose === true));
  return 0;
}

export const pairCommand: Command = { help, run: (argv, io) => guarded(io, argv, () => run(argv, io)) };
