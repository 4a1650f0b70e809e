// npm run bench: every speed target of the one line as a ratio to its floor, each floor a bare
// script run in the same process tree and the same rounds (medians of interleaved rounds, wall and
// cpu). Realistic sittings (bench/realistic.mjs); nothing asserted. Prints a table and writes it to
// bench/RESULTS.md with the machine's description. BENCH_ROUNDS sets the rounds (default 5).
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { makeRealisticSitting } from "./realistic.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
// CLEAR_CLI measures another build (an older commit's dist/cli.js) the same way.
const cli = process.env.CLEAR_CLI ?? path.join(here, "..", "dist", "cli.js");
const floor = path.join(here, "floor.mjs");
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const TIME = existsSync("/usr/bin/time") ? "/usr/bin/time" : null;
const COMMANDS = ["inventory", "pair", "substitute", "select", "scan", "run", "verify", "gate", "hooks", "kit", "verify-kit", "review", "demo", "capture"];

/** One process: wall seconds, cpu seconds and peak memory in MB (null where /usr/bin/time is absent). */
function measure(args, cwd, ok = [0, 1]) {
  const start = process.hrtime.bigint();
  const r = TIME ? spawnSync(TIME, ["-f", "%U %S %M", process.execPath, ...args], { cwd, encoding: "utf8", maxBuffer: 1 << 30 }) : spawnSync(process.execPath, args, { cwd, encoding: "utf8", maxBuffer: 1 << 30 });
  const wall = Number(process.hrtime.bigint() - start) / 1e9;
  if (!ok.includes(r.status)) throw new Error(`${args.join(" ")}: exit ${r.status}\n${r.stderr}`);
  const [user, sys, kb] = TIME ? r.stderr.trim().split("\n").at(-1).split(" ").map(Number) : [NaN, NaN, NaN];
  return { wall, cpu: user + sys, mb: Number.isFinite(kb) ? kb / 1024 : null };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const git = (cwd, ...args) => execFileSync("git", args, { cwd, stdio: "pipe" });

/** Runs every task once per round, interleaved, and keeps the medians. `prepare(k)` runs before each round, untimed. */
function rounds(tasks, prepare = () => {}) {
  const got = Object.fromEntries(Object.keys(tasks).map((t) => [t, { wall: [], cpu: [], mb: [] }]));
  for (let k = 0; k < ROUNDS; k++) {
    prepare(k);
    for (const [name, task] of Object.entries(tasks)) {
      const m = task(k);
      got[name].wall.push(m.wall);
      got[name].cpu.push(m.cpu);
      if (m.mb !== null) got[name].mb.push(m.mb);
    }
  }
  return Object.fromEntries(Object.entries(got).map(([n, r]) => [n, { wall: median(r.wall), cpu: median(r.cpu), mb: r.mb.length ? median(r.mb) : null }]));
}

function repo(dir) {
  mkdirSync(dir, { recursive: true });
  git(dir, "init", "-q");
  git(dir, "config", "user.email", "bench@example.invalid");
  git(dir, "config", "user.name", "bench");
  return dir;
}

/** inventory, substitute and run on 2,000 realistic captures, against reading and against writing. */
function passesAt(work, count) {
  const sitting = path.join(work, `sitting-${count}`);
  makeRealisticSitting(sitting, count);
  const r = rounds({
    "floor: read+parse+hash": () => measure([floor, "read", sitting], work),
    "floor: +atomic write": (k) => measure([floor, "write", sitting, path.join(work, `floor-out-${count}-${k}`)], work),
    "clear inventory --json": () => measure([cli, "inventory", sitting, "--json"], work),
    "clear substitute --json": (k) => measure([cli, "substitute", sitting, "--out", path.join(work, `sub-out-${count}-${k}`), "--json"], work),
    "clear run --json": (k) => measure([cli, "run", sitting, "--root", repo(path.join(work, `run-${count}-${k}`)), "--json"], work),
  });
  return r;
}

/** clear run writing 2,000 fixtures, against writing as many files atomically; then verify of them against hashing them. */
function writingAndVerify(work) {
  const sitting = path.join(work, "distinct");
  makeRealisticSitting(sitting, 2000, 11, { distinct: true, maxBytes: 1800 });
  const written = rounds({
    "floor: read+parse+hash, write 2 files each": (k) => measure([floor, "write2", sitting, path.join(work, `w2-${k}`)], work),
    "clear run writing 2,000 fixtures": (k) => measure([cli, "run", sitting, "--root", repo(path.join(work, `runw-${k}`))], work),
  });
  const root = path.join(work, "runw-0");
  const record = path.join(root, "CLEARANCE.md");
  writeFileSync(record, readFileSync(record, "utf8").replace("The tool never does. -->\n\n", "The tool never does. -->\nACCEPT\n"));
  const verified = rounds({
    "floor: read+hash the fixtures": () => measure([floor, "hash", path.join(root, "fixtures")], work),
    "clear verify (2,000 fixtures)": () => measure([cli, "verify"], root, [0]),
  });
  return { written, verified, root };
}

/** The gate: the fast path against node and one git diff --cached; a commit of one fixture in 2,000 against the fast path. */
function gate(work, accepted) {
  const fast = repo(path.join(work, "gate-fast"));
  writeFileSync(path.join(fast, "notes.md"), "# notes\n");
  git(fast, "add", "notes.md");
  // Every accepted fixture committed but one; each round stages that one: the gate checks all 2,000.
  const one = "fixtures/claude-code/2.1.0/post_tool_use.json";
  git(accepted, "add", "-A");
  git(accepted, "rm", "-q", "--cached", "--", one);
  git(accepted, "commit", "-qm", "accepted", "--no-verify");
  const oneFloor = `require("child_process").execFileSync("git", ["diff", "--cached", "--name-only", "-z"])`;
  return rounds(
    {
      "floor: node + git diff --cached": () => measure(["-e", oneFloor], fast),
      "clear gate pre-commit, fast path": () => measure([cli, "gate", "pre-commit"], fast, [0]),
      "clear gate pre-commit, one fixture in 2,000": () => measure([cli, "gate", "pre-commit"], accepted, [0]),
    },
    () => execFileSync("git", ["add", "--", one], { cwd: accepted }),
  );
}

function starts(work) {
  const tasks = { "node -e 0": () => measure(["-e", "0"], work), "clear --version": () => measure([cli, "--version"], work) };
  for (const c of COMMANDS) tasks[`clear ${c} --help`] = () => measure([cli, c, "--help"], work, [0]);
  return rounds(tasks);
}

const work = mkdtempSync(path.join(os.tmpdir(), "clear-bench-"));
const rows = [["what", "wall s", "cpu s", "peak MB", "floor", "wall ratio", "cpu ratio", "target"]];
const row = (r, name, floorName, target, by = "wall") => {
  const m = r[name];
  const f = floorName ? r[floorName] : null;
  const ratio = (k) => (f ? `${(m[k] / f[k]).toFixed(2)}x` : "");
  const met = f && target ? ((by === "mb" ? m.mb / f.mb : m.wall / f.wall) <= target ? "met" : "MISSED") : "";
  rows.push([name, m.wall.toFixed(3), m.cpu.toFixed(3), m.mb === null ? "-" : m.mb.toFixed(0), floorName ?? "", ratio("wall"), ratio("cpu"), target ? `${by === "mb" ? "peak " : ""}<= ${target}x ${met}` : ""]);
};
try {
  const p2 = passesAt(work, 2000);
  for (const [name, floorName] of [["floor: read+parse+hash", null], ["floor: +atomic write", null], ["clear inventory --json", "floor: read+parse+hash"], ["clear substitute --json", "floor: +atomic write"], ["clear run --json", "floor: +atomic write"]]) row(p2, name, floorName, floorName ? 1.5 : null);
  const { written, verified, root } = writingAndVerify(work);
  row(written, "floor: read+parse+hash, write 2 files each", null, null);
  row(written, "clear run writing 2,000 fixtures", "floor: read+parse+hash, write 2 files each", 1.5);
  row(verified, "floor: read+hash the fixtures", null, null);
  row(verified, "clear verify (2,000 fixtures)", "floor: read+hash the fixtures", 1.5);
  const g = gate(work, root);
  row(g, "floor: node + git diff --cached", null, null);
  row(g, "clear gate pre-commit, fast path", "floor: node + git diff --cached", 1.3);
  row(g, "clear gate pre-commit, one fixture in 2,000", "clear gate pre-commit, fast path", 2);
  const s = starts(work);
  row(s, "node -e 0", null, null);
  for (const name of Object.keys(s).filter((n) => n !== "node -e 0")) row(s, name, "node -e 0", 2);
  const p1k = passesAt(work, 1000);
  const p10k = passesAt(work, 10000);
  for (const name of ["floor: read+parse+hash", "clear run --json"]) rows.push([`${name}, 10,000 captures`, p10k[name].wall.toFixed(3), p10k[name].cpu.toFixed(3), p10k[name].mb?.toFixed(0) ?? "-", "", "", "", ""]);
  const peak = p10k["clear run --json"].mb / p10k["floor: read+parse+hash"].mb;
  rows.push(["clear run, 10,000 captures: peak memory", "", "", p10k["clear run --json"].mb.toFixed(0), "floor: read+parse+hash, 10,000 captures", `${peak.toFixed(2)}x (memory)`, "", `<= 2x ${peak <= 2 ? "met" : "MISSED"}`]);
  for (const n of ["clear run --json", "clear substitute --json"]) {
    const times = p10k[n].wall / p1k[n].wall;
    rows.push([`${n}, 10x the captures (1,000 to 10,000)`, p10k[n].wall.toFixed(3), p10k[n].cpu.toFixed(3), "", `${n} at 1,000`, `${times.toFixed(2)}x`, "", `<= 10x ${times <= 10 ? "met" : "MISSED"}`]);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
const table = rows.map((r) => `| ${r.map((c, i) => String(c).padEnd(widths[i])).join(" | ")} |`);
table.splice(1, 0, `| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`);
const machine = `${os.cpus().length} x ${os.cpus()[0]?.model ?? "cpu"}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}`;
const text = [`Machine: ${machine}`, `Rounds: ${ROUNDS} interleaved, medians; ratios of wall time unless marked`, "", ...table].join("\n");
console.log(text);
writeFileSync(path.join(here, "RESULTS.md"), `# Benchmark results\n\nWritten by \`npm run bench\` (bench/run.mjs); medians of interleaved rounds on realistic sittings (bench/realistic.mjs).\n\n${text}\n`);
