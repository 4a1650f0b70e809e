// npm run bench: every command as a whole process on realistic sittings of 100, 1,000 and 10,000
// captures, beside its floor run in the same process tree and the same rounds. Prints a table and
// writes it to bench/RESULTS.md with the machine's description. Medians of interleaved rounds;
// nothing is asserted.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { makeRealisticSitting } from "./realistic.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
// CLEAR_CLI measures another build (an older commit's dist/cli.js) the same way.
const cli = process.env.CLEAR_CLI ?? path.join(here, "..", "dist", "cli.js");
const floor = path.join(here, "floor.mjs");
const counts = process.argv.slice(2).map(Number).filter((n) => n > 0);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TIME = existsSync("/usr/bin/time") ? "/usr/bin/time" : null;

/** Runs one process; returns seconds and peak memory in MB (null where /usr/bin/time is absent). */
function measure(args, cwd) {
  const start = process.hrtime.bigint();
  const r = TIME ? spawnSync(TIME, ["-f", "%M", process.execPath, ...args], { cwd, encoding: "utf8", maxBuffer: 1 << 30 }) : spawnSync(process.execPath, args, { cwd, encoding: "utf8", maxBuffer: 1 << 30 });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (r.status !== 0 && r.status !== 1) throw new Error(`${args.join(" ")}: exit ${r.status}\n${r.stderr}`);
  const kb = TIME ? Number(r.stderr.trim().split("\n").at(-1)) : NaN;
  return { seconds, mb: Number.isFinite(kb) ? kb / 1024 : null };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function benchCount(count) {
  const work = mkdtempSync(path.join(os.tmpdir(), "clear-bench-"));
  try {
    const sitting = path.join(work, "sitting");
    const corpus = makeRealisticSitting(sitting, count);
    const repo = path.join(work, "repo");
    spawnSync("git", ["init", "-q", repo]);
    const tasks = {
      "node -e 0": () => ["-e", "0"],
      "floor: read+parse+hash": () => [floor, "read", sitting],
      "floor: +atomic write": (k) => [floor, "write", sitting, path.join(work, `floor-out-${k}`)],
      "clear inventory --json": () => [cli, "inventory", sitting, "--json"],
      "clear pair --json": () => [cli, "pair", sitting, "--json"],
      "clear substitute --json": (k) => [cli, "substitute", sitting, "--out", path.join(work, `sub-out-${k}`), "--json"],
      "clear run --json": () => [cli, "run", sitting, "--root", repo, "--json"],
    };
    const results = Object.fromEntries(Object.keys(tasks).map((t) => [t, { seconds: [], mb: [] }]));
    for (let k = 0; k < ROUNDS; k++) {
      for (const [name, args] of Object.entries(tasks)) {
        const m = measure(args(k), work);
        results[name].seconds.push(m.seconds);
        if (m.mb !== null) results[name].mb.push(m.mb);
      }
    }
    return { count, mb: corpus.bytes / 1e6, results: Object.fromEntries(Object.entries(results).map(([n, r]) => [n, { seconds: median(r.seconds), mb: r.mb.length ? median(r.mb) : null }])) };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const FLOOR_OF = { "clear inventory --json": "floor: read+parse+hash", "clear pair --json": "floor: read+parse+hash", "clear substitute --json": "floor: +atomic write", "clear run --json": "floor: +atomic write", "floor: read+parse+hash": "node -e 0", "floor: +atomic write": "node -e 0" };

const rows = [["captures", "MB", "what", "seconds", "files/s", "MB/s", "peak MB", "ratio to floor"]];
const runs = [];
for (const count of counts.length ? counts : [100, 1000, 10000]) {
  const run = benchCount(count);
  runs.push(run);
  for (const [name, r] of Object.entries(run.results)) {
    const base = FLOOR_OF[name] ? run.results[FLOOR_OF[name]] : null;
    const ratio = base ? `${(r.seconds / base.seconds).toFixed(2)}x ${FLOOR_OF[name]}` : "";
    rows.push([String(count), run.mb.toFixed(1), name, r.seconds.toFixed(3), (count / r.seconds).toFixed(0), (run.mb / r.seconds).toFixed(1), r.mb === null ? "-" : r.mb.toFixed(0), ratio]);
  }
}
const fixed = runs[0] ? (runs[0].results["clear inventory --json"].seconds / runs[0].results["node -e 0"].seconds).toFixed(2) : "-";
const scaling = runs.length > 1 ? runs.slice(1).map((r, i) => `${runs[i].count}->${r.count}: ${(r.results["clear substitute --json"].seconds / runs[i].results["clear substitute --json"].seconds).toFixed(1)}x time for ${(r.count / runs[i].count).toFixed(0)}x captures`).join("; ") : "-";
const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
const table = rows.map((r) => `| ${r.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`);
table.splice(1, 0, `| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`);
const machine = `${os.cpus().length} x ${os.cpus()[0]?.model ?? "cpu"}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}`;
const text = [`Machine: ${machine}`, `Rounds: ${ROUNDS} interleaved, medians`, "", ...table, "", `Fixed cost (inventory of the smallest sitting / node -e 0): ${fixed}x`, `Scaling of substitute: ${scaling}`].join("\n");
console.log(text);
writeFileSync(path.join(here, "RESULTS.md"), `# Benchmark results\n\nWritten by \`npm run bench\` (bench/run.mjs); medians of interleaved rounds on realistic sittings (bench/realistic.mjs).\n\n${text}\n`);
