import { parseFlags, requireDir } from "../cli-args.js";
import { guarded, type Command } from "../command.js";
import { blocks } from "../findings.js";
import { loadSetting, progressFor } from "../io/setting.js";
import type { Io } from "../types.js";
import { companionRefusals, runLine, teachersOf, teachingTexts } from "../line.js";
import { pushAll } from "../collections.js";
import { renderInventory } from "../render/human.js";
import { writeJson } from "../render/json.js";
import { checkedValue } from "./checked-output.js";
import { sittingNames } from "../passes/substitute/index.js";

const FLAGS = {
  json: { type: "boolean" },
  verbose: { type: "boolean" },
  fields: { type: "boolean" },
  recipe: { type: "string", multiple: true },
  root: { type: "string" },
  "max-file-bytes": { type: "string" },
} as const;

async function run(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseFlags(argv, FLAGS, 1, "inventory");
  const setting = loadSetting(values.root, io.cwd, { maxFileBytes: values["max-file-bytes"] });
  setting.progress = progressFor(io, values.json);
  const recipes = values.recipe ?? [];
  const line = await runLine(setting, requireDir(positionals[0], "inventory"), "inventory", { recipes, fields: true });
  pushAll(line.inventory.findings, await companionRefusals(line, setting));
  // File names, member names and the folder's own path may spell what the sitting holds: what is printed of them is checked first.
  const inventory = await checkedValue({ ...line.inventory, dir: setting.display.path(line.inventory.dir) }, setting, sittingNames(teachersOf(line.sitting, line.captures), setting.rules, setting.users, setting.display, teachingTexts(line.sitting)));
  const blocked = blocks(inventory.findings);
  if (values.json) writeJson(io, { command: "inventory", ok: !blocked, ...inventory });
  else io.stdout(renderInventory(inventory, inventory.dir, values.fields === true, values.verbose === true));
  return blocked ? 1 : 0;
}

export const inventoryCommand: Command = { run: (argv, io) => guarded(io, argv, () => run(argv, io)) };
