import { parseFlags, requireDir } from "../cli-args.js";
import { guarded, type Command } from "../command.js";
import { blocks } from "../findings.js";
import { loadSetting, progressFor } from "../io/setting.js";
import type { Io, Selection } from "../types.js";
import { companionRefusals, runLine } from "../line.js";
import { renderSelection } from "../render/human.js";
import { writeJson } from "../render/json.js";
import { checkedValue } from "./checked-output.js";

const FLAGS = { json: { type: "boolean" }, verbose: { type: "boolean" }, choose: { type: "string", multiple: true }, root: { type: "string" } } as const;

/** Every capture not chosen, with the event it was passed over for: the same items each `selected[]` entry holds, read as one list. */
function notChosenOf(selection: Selection): { harness: string; event: string; version: string; file: string; bytes: number; why: string }[] {
  return selection.selected.flatMap(({ harness, event, version, notChosen }) => notChosen.map((n) => ({ harness, event, version, file: n.file, bytes: n.bytes, why: n.why })));
}

async function run(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseFlags(argv, FLAGS, 1, "select");
  const setting = loadSetting(values.root, io.cwd);
  setting.progress = progressFor(io, values.json);
  const line = await runLine(setting, requireDir(positionals[0], "select"), "select", { choose: values.choose ?? [] });
  // What would block clear run blocks here too: a capture that could not be read is not passed over in silence.
  const unreadable = [...line.inventory.findings.filter((f) => f.severity === "block" && f.code !== "missing-event"), ...(await companionRefusals(line, setting))];
  const selection = await checkedValue({ ...line.selection, findings: [...unreadable, ...line.selection.findings] }, setting, line.names);
  if (values.json) writeJson(io, { command: "select", ok: !blocks(selection.findings), ...selection, notChosen: notChosenOf(selection) });
  else io.stdout(renderSelection(selection, values.verbose === true));
  return blocks(selection.findings) ? 1 : 0;
}

export const selectCommand: Command = { run: (argv, io) => guarded(io, argv, () => run(argv, io)) };
