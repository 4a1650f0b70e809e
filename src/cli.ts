#!/usr/bin/env node
import type { Command } from "./command.js";
import type { Io } from "./types.js";

// Nothing is imported before the command is known: the capture sink's start stays Node's own.

// Each command is loaded only when it runs, so the gate's fast path never loads the scanner.
const COMMANDS: Record<string, () => Promise<Command>> = {
  inventory: async () => (await import("./commands/inventory.js")).inventoryCommand,
  pair: async () => (await import("./commands/pair.js")).pairCommand,
  substitute: async () => (await import("./commands/substitute.js")).substituteCommand,
  select: async () => (await import("./commands/select.js")).selectCommand,
  scan: async () => (await import("./commands/scan.js")).scanCommand,
  run: async () => (await import("./commands/run.js")).runCommand,
  verify: async () => (await import("./commands/verify.js")).verifyCommand,
  gate: async () => (await import("./commands/gate.js")).gateCommand,
  hooks: async () => (await import("./commands/hooks.js")).hooksCommand,
  kit: async () => (await import("./commands/kit.js")).kitCommand,
  "verify-kit": async () => (await import("./commands/verify-kit.js")).verifyKitCommand,
  review: async () => (await import("./commands/review.js")).reviewCommand,
  compare: async () => (await import("./commands/compare.js")).compareCommand,
  demo: async () => (await import("./commands/demo.js")).demoCommand,
  capture: async () => (await import("./commands/capture.js")).captureCommand,
};

const HELP = `clear: clear raw captured hook payloads into committed test fixtures with provenance

Usage:
  clear inventory  <capture-dir> [--recipe NAME]... [--json] [--verbose] [--fields]
  clear pair       <capture-dir> [--json] [--verbose]
  clear substitute <capture-dir> --out <dir> [--user NAME]... [--json] [--verbose]
  clear select     <capture-dir> [--choose FILE]... [--json] [--verbose]
  clear scan       <path>... [--json] [--verbose] [--sarif FILE]
  clear run        [<capture-dir>] [--root DIR] [--choose FILE]... [--recipe NAME]... [--json] [--verbose]
  clear verify     [--root DIR] [--rev REV | --range BASE..HEAD] [--json] [--verbose]
  clear gate       pre-commit | pre-push [--verbose]
  clear hooks      install | status | uninstall [--root DIR]
  clear kit record <kit-dir> --head <sha> [--binary PATH] [--out FILE] [--verbose]
  clear verify-kit --kit <kit.json> [--root DIR] [--json] [--verbose]
  clear review     [<capture-dir>] [--root DIR] [--port N]
  clear compare    <dir-a> <dir-b> | <harness> <version-a> <version-b> [--json] [--verbose]
  clear demo       [--keep]
  clear capture    hook <harness> <Event> [--host-version V]
  clear capture    setup <harness> --project DIR
  clear capture    start <harness> --into DIR [--driver TEXT] [--method TEXT]
  clear capture    status DIR [--recipe NAME] [--json] [--verbose]
  clear capture    dry-run <harness>
  clear capture    drive | install                     (every flag: clear capture --help)
  clear --help | clear <command> --help | clear --version

--verbose lists every line and every finding where the summary groups them by code.

No command but clear capture writes inside a capture directory; none follows a symlink or deletes a capture.
Exit codes: 0 clean, 1 something blocks, 2 usage error or unreadable input.
`;

async function helpOf(name: string): Promise<string | undefined> {
  return ((await import("./commands/help.js")).HELP as Record<string, string | undefined>)[name];
}

export async function main(argv: string[], io: Io): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    const topic = name === "help" ? rest[0] : undefined;
    io.stdout((topic !== undefined && COMMANDS[topic] ? await helpOf(topic) : undefined) ?? HELP);
    return 0;
  }
  if (name === "--version" || name === "-V") {
    io.stdout(`${(await import("./version.js")).toolVersion()}\n`);
    return 0;
  }
  const load = COMMANDS[name];
  if (!load) {
    // Only a word is said back: a path, a control character or a pasted secret is not printed.
    // A word is said back only as an error says back the command line: a name or a key shape is masked.
    const word = /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/.test(name) ? await (await import("./said-back.js")).saidBack(name, argv) : undefined;
    const said = word !== undefined ? `unknown command "${word}"` : "unknown command (not a command's name)";
    io.stderr(`clear: ${said}\n\n${HELP}`);
    if (argv.includes("--json")) (await import("./render/json.js")).writeJson(io, { ok: false, error: said, findings: [] });
    return 2;
  }
  // A command's help is printed without loading the command: its start is Node's own.
  if ((await import("./cli-args.js")).wantsHelp(rest)) {
    io.stdout((await helpOf(name)) ?? HELP);
    return 0;
  }
  return (await load()).run(rest, io);
}

const argv = process.argv.slice(2);

/** clearance/gate-fast.ts and what it imports, as the build bundles them into one module (scripts/bundle-fast.mjs). */
const FAST_PATH = "./clearance/gate-fast.bundle.js";
const FAST_SOURCE = "./clearance/gate-fast.js";

/** The bundle; the module it is made from where a compile since (tsc alone) left the bundle older than that module, or there is none. */
async function fastPathModule(): Promise<string> {
  const { statSync } = await import("node:fs");
  const made = (file: string): number => statSync(new URL(file, import.meta.url), { throwIfNoEntry: false })?.mtimeMs ?? -1;
  return made(FAST_PATH) >= made(FAST_SOURCE) ? FAST_PATH : FAST_SOURCE;
}

/** The pre-commit gate's fast path, taken before anything else loads; whatever it cannot settle goes to the whole gate. */
async function plainlyClearCommit(): Promise<boolean> {
  if (argv[0] !== "gate" || argv[1] !== "pre-commit" || argv.length !== 2) return false;
  try {
    return ((await import(await fastPathModule())) as typeof import("./clearance/gate-fast.js")).stagedIsPlainlyClear(process.cwd());
  } catch {
    return false;
  }
}

// The capture sink runs on every tool call a host makes: it loads no rules, schemas or commands.
if (argv[0] === "capture" && argv[1] === "hook") {
  (await import("./capture/sink.js")).sinkProcess(argv.slice(2));
} else if (await plainlyClearCommit()) {
  process.exitCode = 0;
} else {
  const { processIo, keepHeapNearLive } = await import("./io/process-io.js");
  keepHeapNearLive();
  await main(argv, processIo).then(
    (code) => {
      process.exitCode = code;
    },
    async (err: unknown) => {
      // The message is not shown: the engine's own messages quote what they read (a regular
      // expression's source, a JSON text), which may be a capture's. Its kind and where it arose are.
      const kind = err instanceof Error ? err.name : typeof err;
      const frames = err instanceof Error ? (err.stack ?? "").split("\n").filter((l) => /^\s+at /.test(l)) : [];
      const text = [`${kind} (its message is not shown: it may quote a capture)`, ...frames].join("\n");
      processIo.stderr(`clear: internal error: ${await (await import("./said-back.js")).saidBack(text, argv)}\n`);
      // Under --json, one JSON object still: the kind of error, never its message.
      if (argv.includes("--json")) (await import("./render/json.js")).writeJson(processIo, { ok: false, error: `internal error (${kind})`, findings: [] });
      process.exitCode = 2;
    },
  );
}
