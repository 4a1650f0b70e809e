import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "../args.js";
import { guarded, type Io } from "./common.js";
import { inventoryCommand } from "./inventory.js";
import { pairCommand } from "./pair.js";
import { substituteCommand } from "./substitute.js";

export const demoHelp = `clear demo [--keep]

Runs the pipeline on the bundled example sitting (examples/sitting), in a temporary folder:
inventory, pair, substitute. The temporary folder is removed afterwards unless --keep is given.
`;

const EXAMPLE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "examples", "sitting");

export async function demoCommand(argv: string[], io: Io): Promise<number> {
  return guarded(io, argv, async () => {
    const args = parseArgs(argv, { keep: "bool", help: "bool" });
    if (args.bools.has("help")) {
      io.stdout(demoHelp);
      return 0;
    }
    const work = await fs.mkdtemp(path.join(os.tmpdir(), "clear-demo-"));
    const sitting = path.join(work, "captures-inbox", "sitting");
    const out = path.join(work, "cleared");
    await fs.mkdir(sitting, { recursive: true });
    for (const name of await fs.readdir(EXAMPLE)) await fs.copyFile(path.join(EXAMPLE, name), path.join(sitting, name));
    const say = (title: string): void => io.stdout(`\n== ${title}\n\n`);
    const demoIo: Io = { ...io, cwd: work };
    try {
      say(`clear inventory ${sitting}`);
      const inv = await inventoryCommand([sitting], demoIo);
      say(`clear pair ${sitting}`);
      const pair = await pairCommand([sitting], demoIo);
      say(`clear substitute ${sitting} --out ${out}`);
      const sub = await substituteCommand([sitting, "--out", out], demoIo);
      const sample = "claude-code_post_tool_use_failure_2.1.261.1.json";
      say(`one capture before and after (${sample})`);
      io.stdout(`raw:     ${await fs.readFile(path.join(sitting, sample), "utf8")}\n`);
      io.stdout(`cleared: ${await fs.readFile(path.join(out, sample), "utf8")}\n`);
      io.stdout(`\nexit codes: inventory ${inv}, pair ${pair}, substitute ${sub}${args.bools.has("keep") ? `; kept ${work}` : ""}\n`);
      return Math.max(inv, pair, sub);
    } finally {
      if (!args.bools.has("keep")) await fs.rm(work, { recursive: true, force: true });
    }
  });
}
