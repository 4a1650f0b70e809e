import { realpathSync } from "node:fs";
import os from "node:os";
import { printableLines } from "../render/human.js";
import { parseFlags, UsageError } from "../cli-args.js";
import { guarded, type Command } from "../command.js";
import { MANAGER_KINDS, type ManagerKind } from "../io/hook-managers/detect.js";
import { makeDisplay } from "../display.js";
import { loadRules } from "../io/load-rules.js";
import { hookStatus, installHooks, uninstallHooks, type HooksResult } from "../io/hooks.js";
import { repoRoot } from "../io/repo.js";
import { gitTopLevel } from "../io/top-level.js";
import type { Io } from "../types.js";

/**
 * The repository whose hooks are wired: the top of its working tree. git runs hooks there, so the
 * scripts and manager configs of a folder below it (or of the .git folder) would never be found,
 * and status would follow files no hook runs.
 */
function hooksRoot(rootFlag: string | undefined, cwd: string): string {
  const root = repoRoot(rootFlag, cwd);
  if (root === null) throw new UsageError("clear hooks works inside a git repository (or give --root DIR)");
  const top = gitTopLevel(root);
  if (top === null || realpathSync(top) !== realpathSync(root)) {
    const where = top === null ? "it is in no git working tree" : `that is ${top}`;
    throw new UsageError(`clear hooks: --root ${rootFlag} is not the top of its repository's working tree (${where}); give the top, where git runs hooks`);
  }
  return root;
}

async function run(argv: string[], io: Io): Promise<number> {
  const flags = { root: { type: "string" }, yes: { type: "boolean" }, manager: { type: "string" } } as const;
  const { values, positionals } = parseFlags(argv, flags, 1, "hooks");
  const action = positionals[0];
  const root = hooksRoot(values.root, io.cwd);
  if (values.manager !== undefined && !MANAGER_KINDS.includes(values.manager as ManagerKind)) {
    throw new UsageError(`clear hooks: --manager takes ${MANAGER_KINDS.join(", ")}`);
  }
  const options = { yes: values.yes === true, manager: values.manager as ManagerKind | undefined };
  const actions: Record<string, () => HooksResult> = {
    install: () => installHooks(root, options),
    uninstall: () => uninstallHooks(root, options),
    status: () => hookStatus(root),
  };
  const act = action !== undefined && Object.hasOwn(actions, action) ? actions[action] : undefined;
  if (act === undefined) throw new UsageError("clear hooks takes install, status or uninstall");
  const result = act();
  // Paths outside the repository (a shared hooks folder) are shown as every path is: no home, no name.
  const home = os.homedir();
  const display = makeDisplay(loadRules(), [], home);
  const shown = (line: string): string => display.path(home && home !== "/" ? line.split(home).join("~") : line);
  // A path git is configured with (core.hooksPath) is data: escaped, so it can neither move the terminal nor start a line.
  io.stdout(printableLines(result.lines.map(shown)));
  return result.ok ? 0 : 1;
}

export const hooksCommand: Command = { run: (argv, io) => guarded(io, argv, () => run(argv, io)) };
