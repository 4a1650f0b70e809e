#!/usr/bin/env node
import { wantsHelp } from "./cli-args.js";
import type { Command } from "./command.js";
import { demoCommand } from "./commands/demo.js";
import { inventoryCommand } from "./commands/inventory.js";
import { pairCommand } from "./commands/pair.js";
import { gateCommand } from "./commands/gate.js";
import { hooksCommand } from "./commands/hooks.js";
import { runCommand } from "./commands/run.js";
import { verifyCommand } from "./commands/verify.js";
import { scanCommand } from "./commands/scan.js";
import { selectCommand } from "./commands/select.js";
import { substituteCommand } from "./commands/substitute.js";
import { processIo, type Io } from "./io/setting.js";
import { toolVersion } from "./version.js";

const COMMANDS: Record<string, Command> = {
  inventory: inventoryCommand,
  pair: pairCommand,
  substitute: substituteCommand,
  select: selectCommand,
  scan: scanCommand,
  run: runCommand,
  verify: verifyCommand,
  gate: gateCommand,
  hooks: hooksCommand,
  demo: demoCommand,
};

const HELP = `clear: clear raw captured hook payloads into committed test fixtures with provenance

Usage:
  clear inventory  <capture-dir> [--recipe NAME]... [--json] [--fields]
  clear pair       <capture-dir> [--json]
  clear substitute <capture-dir> --out <dir> [--user NAME]... [--json]
  clear select     <capture-dir> [--choose FILE]... [--json]
  clear scan       <path>... [--json] [--sarif FILE]
  clear run        [<capture-dir>] [--root DIR] [--json]
  clear verify     [--root DIR] [--rev REV] [--json]
  clear gate       pre-commit | pre-push
  clear hooks      install | status | uninstall [--root DIR]
  clear demo       [--keep]
  clear --help | clear <command> --help | clear --version

No command ever writes inside a capture directory, follows a symlink, or deletes a capture.
Exit codes: 0 clean, 1 something blocks, 2 usage error or unreadable input.
`;

export async function main(argv: string[], io: Io): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    const topic = name === "help" ? rest[0] : undefined;
    io.stdout(topic && COMMANDS[topic] ? COMMANDS[topic].help : HELP);
    return 0;
  }
  if (name === "--version" || name === "-V") {
    io.stdout(`${toolVersion()}\n`);
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.stderr(`clear: unknown command "${name}"\n\n${HELP}`);
    return 2;
  }
  if (wantsHelp(rest)) {
    io.stdout(command.help);
    return 0;
  }
  return command.run(rest, io);
}

main(process.argv.slice(2), processIo).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`clear: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 2;
  },
);
