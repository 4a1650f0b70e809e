// bench/inventory: files/s, MB/s and peak memory of `clear inventory` over generated sittings.
// Usage: npm run build && node bench/inventory.mjs [count ...]   (default: 1000 5000)
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { makeCorpus } from "./corpus.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const cli = path.join(here, "..", "dist", "cli.js");

if (process.argv[2] === "--child") {
  // One measured run in a fresh process, so its peak memory is its own.
  const { loadSetting } = await import("../dist/io/setting.js");
  const { inventoryOf, readSitting } = await import("../dist/pipeline.js");
  const setting = loadSetting(undefined, process.cwd());
  const start = process.hrtime.bigint();
  const { inventory: inv } = inventoryOf(await readSitting(process.argv[3], setting), setting);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  // What stays after a full collection: the per-capture summaries the output is made of.
  globalThis.gc();
  const retainedMb = process.memoryUsage().heapUsed / 1e6;
  process.stdout.write(JSON.stringify({ seconds, files: inv.files.length, maxRssKb: process.resourceUsage().maxRSS, retainedMb }));
  process.exit(0);
}

const counts = process.argv.slice(2).map(Number).filter((n) => n > 0);
for (const count of counts.length ? counts : [1000, 5000]) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "clear-bench-"));
  try {
    const corpus = makeCorpus(path.join(dir, "sitting"), count);
    const child = spawnSync(process.execPath, ["--expose-gc", fileURLToPath(import.meta.url), "--child", path.join(dir, "sitting")], { encoding: "utf8" });
    if (child.status !== 0) throw new Error(child.stderr);
    const r = JSON.parse(child.stdout);
    const mb = corpus.bytes / 1e6;
    console.log(
      `inventory: ${count} captures, ${mb.toFixed(1)} MB in ${r.seconds.toFixed(2)} s: ${(count / r.seconds).toFixed(0)} files/s, ${(mb / r.seconds).toFixed(1)} MB/s, peak RSS ${(r.maxRssKb / 1024).toFixed(0)} MB, heap kept after a full collection ${r.retainedMb.toFixed(1)} MB`,
    );
    // The same through the command line, JSON output included.
    const t = process.hrtime.bigint();
    const cmd = spawnSync(process.execPath, [cli, "inventory", path.join(dir, "sitting"), "--json"], { encoding: "utf8", maxBuffer: 1 << 30 });
    const s = Number(process.hrtime.bigint() - t) / 1e9;
    // Exit 1 is expected: the generated sitting does not hold every event its recipes expect.
    console.log(`  clear inventory --json: exit ${cmd.status}, ${s.toFixed(2)} s wall, ${(mb / s).toFixed(1)} MB/s`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
