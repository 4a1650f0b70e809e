// npm run build && node bench/capture.mjs [--drive]: the capture sink's start as a ratio to
// `node -e 0` (the target is at most 1.3x), both fed the same payload on stdin; medians of
// interleaved rounds. With --drive, one driven sitting per installed host, in seconds, beside
// the host's own `--version` as its floor. Nothing asserted; what it prints is also written to
// bench/CAPTURE-RESULTS.md with the machine's description.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const cli = path.join(root, "dist", "cli.js");
const payload = JSON.stringify({ session_id: "bench", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" } });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const printed = [];
const say = (line) => {
  printed.push(line);
  console.log(line);
};

function seconds(args, env = {}) {
  const t = process.hrtime.bigint();
  const r = spawnSync(args[0], args.slice(1), { input: payload, env: { ...process.env, ...env }, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${args.join(" ")}: exit ${r.status} ${r.stderr}`);
  return Number(process.hrtime.bigint() - t) / 1e9;
}

function sinkStart(rounds) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "clear-capture-bench-"));
  const times = { floor: [], sink: [], unset: [] };
  for (let round = 0; round < rounds; round++) {
    times.floor.push(seconds([process.execPath, "-e", "0"]));
    times.sink.push(
      seconds([process.execPath, cli, "capture", "hook", "claude-code", "PreToolUse", "--host-version", "2.1.328"], {
        CLEAR_CAPTURE_DIR: dir,
      }),
    );
    times.unset.push(seconds([process.execPath, cli, "capture", "hook", "claude-code", "PreToolUse"], { CLEAR_CAPTURE_DIR: "" }));
  }
  const written = readdirSync(dir).length;
  rmSync(dir, { recursive: true, force: true });
  const [f, s, u] = [median(times.floor), median(times.sink), median(times.unset)];
  say(
    `capture hook, writing a capture: ${(s * 1000).toFixed(0)} ms, ${(s / f).toFixed(2)}x node -e 0 ` +
      `(${(f * 1000).toFixed(0)} ms; target at most 1.3x; ${written} files written)`,
  );
  say(`capture hook, CLEAR_CAPTURE_DIR unset: ${(u * 1000).toFixed(0)} ms, ${(u / f).toFixed(2)}x node -e 0`);
}

/** One driven sitting per installed pinned host, beside the host's own `--version` as its floor. */
function drivenSittings() {
  const { HARNESSES, pinnedBin } = hosts;
  for (const harness of HARNESSES) {
    const bin = pinnedBin(harness);
    if (!existsSync(bin)) {
      say(`drive ${harness}: the pinned host is not installed (clear capture install ${harness})`);
      continue;
    }
    const floor = seconds([bin, "--version"]);
    const base = mkdtempSync(path.join(os.tmpdir(), "clear-drive-bench-"));
    const t = process.hrtime.bigint();
    const r = spawnSync(process.execPath, [cli, "capture", "drive", harness, "--into", path.join(base, "sitting"), "--json"], {
      encoding: "utf8",
    });
    const s = Number(process.hrtime.bigint() - t) / 1e9;
    const report = JSON.parse(r.stdout);
    say(
      `drive ${harness} (${report.steps.length} steps, ${report.captured.length} events, ${report.missing.length} missing): ` +
        `${s.toFixed(1)} s; the host's --version alone: ${floor.toFixed(2)} s`,
    );
    rmSync(base, { recursive: true, force: true });
  }
}

const hosts = await import("../dist/capture/hosts.js");
sinkStart(Number(process.env.CLEAR_BENCH_ROUNDS ?? 41));
if (process.argv.includes("--drive")) drivenSittings();
const machine = `${os.cpus().length} x ${os.cpus()[0]?.model ?? "cpu"}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}`;
const written = [
  "# Capture benchmark results",
  "",
  `Written by \`node bench/capture.mjs${process.argv.includes("--drive") ? " --drive" : ""}\`; medians of interleaved rounds for the sink's start.`,
  "",
  `Machine: ${machine}`,
  "",
  ...printed.map((line) => `- ${line}`),
];
writeFileSync(path.join(root, "bench", "CAPTURE-RESULTS.md"), `${written.join("\n")}\n`);
