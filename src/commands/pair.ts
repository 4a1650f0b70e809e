import { parseFlags, requireDir } from "../cli-args.js";
import { guarded, type Command } from "../command.js";
import { loadSetting, progressFor } from "../io/setting.js";
import type { Io } from "../types.js";
import { runLine } from "../line.js";
import { renderPairing } from "../render/human.js";
import { writeJson } from "../render/json.js";
import { checkedValue } from "./checked-output.js";

async function run(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseFlags(argv, { json: { type: "boolean" }, verbose: { type: "boolean" }, root: { type: "string" } }, 1, "pair");
  const setting = loadSetting(values.root, io.cwd);
  setting.progress = progressFor(io, values.json);
  const { sitting, pairing: found, names } = await runLine(setting, requireDir(positionals[0], "pair"), "pair");
  const { dir, ...pairing } = await checkedValue({ dir: setting.display.path(sitting.dir), ...found }, setting, names);
  // A file pairing could not read may hold any of the pairs: the pairing cannot speak for the folder, as inventory cannot.
  const ok = pairing.skipped.length === 0;
  if (values.json) writeJson(io, { command: "pair", ok, dir, ...pairing });
  else io.stdout(renderPairing(pairing, values.verbose === true));
  return ok ? 0 : 1;
}

export const pairCommand: Command = { run: (argv, io) => guarded(io, argv, () => run(argv, io)) };
