// npm run build && node bench/gate.mjs: the gate's latency. The fast path (a commit touching no
// fixture) as a ratio to `node -e 0`, and a commit that stages 200 accepted fixtures. Medians of
// interleaved rounds; nothing asserted.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ACCEPTANCE_HEADING, batchDigest } from "../dist/clearance/parse.js";
import { sha256Hex } from "../dist/digest.js";

const cli = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "dist", "cli.js");
const git = (cwd, ...args) => execFileSync("git", args, { cwd, stdio: "pipe" });

function repo() {
  const root = mkdtempSync(path.join(os.tmpdir(), "clear-gate-bench-"));
  git(root, "init", "-q");
  writeFileSync(path.join(root, "notes.txt"), "n\n");
  git(root, "add", "notes.txt");
  return root;
}

function acceptedFixtures(root, count) {
  const rows = [];
  for (let i = 0; i < count; i++) {
    const rel = `fixtures/codex/0.153.0/event_${i}.json`;
    const bytes = Buffer.from(JSON.stringify({ session_id: "s", turn_id: `t${i}` }));
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), bytes);
    rows.push(`| \`${rel}\` | event_${i} | \`${"0".repeat(64)}\` | 1 | \`${sha256Hex(bytes)}\` | ${bytes.length} |`);
  }
  const body = ["", "## Batch b-bench", "", ...rows, ""];
  writeFileSync(path.join(root, "CLEARANCE.md"), [`<!-- clear:batch b-bench sha256:${batchDigest(body)} -->`, ...body, ACCEPTANCE_HEADING, "", "ACCEPT", ""].join("\n"));
  git(root, "add", "fixtures", "CLEARANCE.md");
}

function seconds(args, cwd) {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { cwd, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${args.join(" ")}: exit ${r.status} ${r.stderr}`);
  return Number(process.hrtime.bigint() - t) / 1e9;
}

const fast = repo();
const heavy = repo();
acceptedFixtures(heavy, 200);
const times = { floor: [], fast: [], heavy: [] };
for (let round = 0; round < 9; round++) {
  times.floor.push(seconds(["-e", "0"], fast));
  times.fast.push(seconds([cli, "gate", "pre-commit"], fast));
  times.heavy.push(seconds([cli, "gate", "pre-commit"], heavy));
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const [f, q, h] = [median(times.floor), median(times.fast), median(times.heavy)];
console.log(`gate pre-commit, fast path (no fixture touched): ${(q * 1000).toFixed(0)} ms, ${(q / f).toFixed(2)}x node -e 0 (${(f * 1000).toFixed(0)} ms; target at most 3x)`);
console.log(`gate pre-commit, a commit staging 200 accepted fixtures: ${(h * 1000).toFixed(0)} ms, ${(h / f).toFixed(2)}x node -e 0`);
for (const d of [fast, heavy]) rmSync(d, { recursive: true, force: true });
