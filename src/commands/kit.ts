import path from "node:path";
import { parseFlags, UsageError } from "../cli-args.js";
import { guarded, type Command } from "../command.js";
import { recordKit } from "../io/kit.js";
import { validateAgainst } from "../io/load-rules.js";
import { loadSetting } from "../io/setting.js";
import type { Io } from "../types.js";
import { writeAtomic } from "../io/write-atomic.js";
import { printable } from "../record/data.js";
import { findingsText, printableLines } from "../render/human.js";

async function run(argv: string[], io: Io): Promise<number> {
  const [action, ...rest] = argv;
  if (action !== "record") throw new UsageError("clear kit takes record");
  const { values, positionals } = parseFlags(rest, { verbose: { type: "boolean" }, head: { type: "string" }, binary: { type: "string" }, out: { type: "string" }, "root-edit": { type: "string", multiple: true }, "host-version": { type: "string", multiple: true } }, 1, "kit record");
  const dir = positionals[0];
  if (dir === undefined) throw new UsageError("clear kit record needs the kit folder");
  if (values.head === undefined || !/^[0-9a-f]{7,64}$/.test(values.head)) throw new UsageError("clear kit record needs --head <commit sha> (hex, 7 to 64 digits)");
  const hostVersions: Record<string, string> = {};
  for (const hv of values["host-version"] ?? []) {
    const [harness, version] = hv.split("=");
    if (!harness || !version) throw new UsageError(`--host-version takes HARNESS=VERSION, not "${hv}"`);
    hostVersions[harness] = version;
  }
  const setting = loadSetting(undefined, io.cwd);
  const kitDir = path.resolve(io.cwd, dir);
  const { kit, findings } = await recordKit(kitDir, values.head, { binary: values.binary && path.resolve(io.cwd, values.binary), rootEdits: values["root-edit"] ?? [], hostVersions }, setting.rules.transports);
  if (findings.length > 0) {
    io.stdout(printableLines([...findingsText(findings, "sitting", values.verbose === true), "kit.json NOT written: a kit must hold its own bytes (no links, no devices, no FIFOs)"]));
    return 1;
  }
  const out = path.resolve(io.cwd, values.out ?? path.join(dir, "kit.json"));
  // What verify-kit would refuse to read is never written.
  validateAgainst("kit", kit, out);
  await writeAtomic(out, Buffer.from(`${JSON.stringify(kit, null, 2)}\n`));
  io.stdout(printable(`kit.json written to ${setting.display.path(out)}: ${kit.transports.length} transports, binary ${kit.binary ? kit.binary.path : "not found (name it with --binary)"}`) + "\n");
  return 0;
}

export const kitCommand: Command = { run: (argv, io) => guarded(io, argv, () => run(argv, io)) };
