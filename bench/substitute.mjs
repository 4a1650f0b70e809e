// bench/substitute: MB/s of `clear substitute` over the generated 5,000-capture sitting.
// Usage: npm run build && node bench/substitute.mjs [count]   (default: 5000)
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { makeCorpus } from "./corpus.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const cli = path.join(here, "..", "dist", "cli.js");
const count = Number(process.argv[2] ?? 5000);
const dir = mkdtempSync(path.join(os.tmpdir(), "clear-bench-"));
try {
  const corpus = makeCorpus(path.join(dir, "sitting"), count);
  const out = path.join(dir, "cleared");
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [cli, "substitute", path.join(dir, "sitting"), "--out", out, "--json"], { encoding: "utf8", maxBuffer: 1 << 30 });
  const s = Number(process.hrtime.bigint() - t) / 1e9;
  if (r.status !== 0) throw new Error(`exit ${r.status}: ${r.stderr}`);
  const mb = corpus.bytes / 1e6;
  console.log(`substitute: ${count} captures, ${mb.toFixed(1)} MB in ${s.toFixed(2)} s: ${(count / s).toFixed(0)} files/s, ${(mb / s).toFixed(1)} MB/s; ${readdirSync(out).length} cleared files written`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
