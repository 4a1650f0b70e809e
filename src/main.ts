import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { inventoryCommand, inventoryHelp } from "./commands/inventory.js";
import { pairCommand, pairHelp } from "./commands/pair.js";
import { substituteCommand, substituteHelp } from "./commands/substitute.js";
import { demoCommand, demoHelp } from "./commands/demo.js";
import type { Io } from "./commands/common.js";

const COMMANDS: Record<string, { run: (argv: string[], io: Io) => Promise<number>; help: string }> = {
  inventory: { run: inventoryCommand, help: inventoryHelp },
  pair: { run: pairCommand, help: pairHelp },
  substitute: { run: substituteCommand, help: substituteHelp },
  demo: { run: demoCommand, help: demoHelp },
};

const HELP = `clear: clear raw captured hook payloads into committed test fixtures with provenance

Usage:
  clear inventory  <capture-dir> [--recipe NAME] [--json]
  clear pair       <capture-dir> [--json]
  clear substitute <capture-dir> --out <dir> [--user NAME]... [--json]
  clear demo
  clear --help | clear <command> --help | clear --version

No command ever writes inside a capture directory, follows a symlink, or deletes a capture.
Exit codes: 0 clean, 1 something blocks, 2 usage error or unreadable input.
`;

function version(): string {
  const pkg = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "package.json");
  return (JSON.parse(readFileSync(pkg, "utf8")) as { version: string }).version;
}

export async function main(argv: string[], io: Io): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === "--help" || command === "-h" || command === "help") {
    const topic = command === "help" ? rest[0] : undefined;
    io.stdout(topic && COMMANDS[topic] ? COMMANDS[topic].help : HELP);
    return 0;
  }
  if (command === "--version" || command === "-V") {
    io.stdout(`${version()}\n`);
    return 0;
  }
  const entry = COMMANDS[command];
  if (!entry) {
    io.stderr(`clear: unknown command "${command}"\n\n${HELP}`);
    return 2;
  }
  return entry.run(rest, io);
}

