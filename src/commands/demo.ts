import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseFlags } from "../cli-args.js";
import { demoFlow } from "../clearance/demo-flow.js";
import { guarded, type Command } from "../command.js";
import type { Io } from "../types.js";

async function run(argv: string[], io: Io): Promise<number> {
  const { values } = parseFlags(argv, { keep: { type: "boolean" } }, 0, "demo");
  const work = await fs.mkdtemp(path.join(os.tmpdir(), "clear-demo-"));
  try {
    const ok = await demoFlow(work, io);
    io.stdout(`\n${ok ? "The flow went as it should" : "The flow did NOT go as it should"}${values.keep ? `; the repository is kept at ${work}` : ""}.\n`);
    return ok ? 0 : 1;
  } finally {
    if (!values.keep) await fs.rm(work, { recursive: true, force: true });
  }
}

export const demoCommand: Command = { run: (argv, io) => guarded(io, argv, () => run(argv, io)) };
