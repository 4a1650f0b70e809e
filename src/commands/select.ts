import { parseFlags, requireDir } from "../cli-args.js";
import { guarded, type Command } from "../command.js";
import { blocks } from "../findings.js";
import { loadSetting, progressFor } from "../io/setting.js";
import type { Io } from "../types.js";
import { runLine } from "../line.js";
import { renderSelection } from "../render/human.js";
import { writeJson } from "../render/json.js";

const help = `clear select <capture-dir> [--choose FILE]... [--json] [--verbose] [--root DIR]

Chooses one capture for each harness, version and event among those that can be cleared: the
smallest by raw bytes (ties to the lowest .n), except that pairs the rules keep (pre_tool_use with
post_tool_use, pre_compact with post_compact, ...) are chosen as one operation at their finest
scope whenever one exists. Every capture not chosen is counted, and with --verbose listed with its
size and why. --choose overrides a choice, and is recorded as an override. Findings are grouped
by code with their first files and what to do. Never writes. Exit 0, or 1 when an event has no
clearable capture.
`;

const FLAGS = { json: { type: "boolean" }, verbose: { type: "boolean" }, choose: { type: "string", multiple: true }, root: { type: "string" } } as const;

async function run(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseFlags(argv, FLAGS, 1, "select");
  const setting = loadSetting(values.root, io.cwd);
  setting.progress = progressFor(io, values.json);
  const { selection } = await runLine(setting, requireDir(positionals[0], "select"), "select", { choose: values.choose ?? [] });
  if (values.json) writeJson(io, { command: "select", ok: !blocks(selection.findings), ...selection });
  else io.stdout(renderSelection(selection, values.verbose === true));
  return blocks(selection.findings) ? 1 : 0;
}

export const selectCommand: Command = { help, run: (argv, io) => guarded(io, argv, () => run(argv, io)) };
