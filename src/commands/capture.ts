import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseFlags, UsageError } from "../cli-args.js";
import { drive } from "../capture/drive.js";
import { dryRun } from "../capture/dry-run.js";
import { HARNESSES, HOST_PINS, installPinned, isHarness, pinnedBin, probeVersion, type Harness } from "../capture/hosts.js";
import { checklist, recipeFor } from "../capture/recipes.js";
import { catalogueEvents, setupTransports, sinkCall } from "../capture/setup.js";
import {
  captureShellLines,
  fileSha256,
  prepareSittingFolder,
  readSittingRecord,
  statusOf,
  statusText,
  writeSittingRecord,
} from "../capture/sitting.js";
import { sinkProcess } from "../capture/sink.js";
import { guarded, type Command } from "../command.js";
import { loadSetting, type Setting } from "../io/setting.js";
import type { Io } from "../types.js";
import { runLine } from "../line.js";
import { printableLines } from "../render/human.js";
import { writeJson } from "../render/json.js";
import { secretShapeIn } from "../said-back.js";
import { checkedValue, namesOf } from "./checked-output.js";

function harnessOf(name: string | undefined, sub: string): Harness {
  if (!isHarness(name)) throw new UsageError(`clear capture ${sub} needs a harness: ${HARNESSES.join(", ")}`);
  return name;
}

/** `--host-bin`, else the pinned copy in the cache, else the host's binary on PATH. */
function hostBinFor(harness: Harness, given: string | undefined, cwd: string): string {
  if (given !== undefined) return path.resolve(cwd, given);
  const pinned = pinnedBin(harness);
  return existsSync(pinned) ? pinned : HOST_PINS[harness].bin;
}

function hostVersionFor(harness: Harness, values: { "host-version"?: string; "host-bin"?: string }, io: Io, setting: Setting): string {
  if (values["host-version"] !== undefined) return values["host-version"];
  const bin = hostBinFor(harness, values["host-bin"], io.cwd);
  const probe = probeVersion(bin);
  if (probe?.version == null)
    throw new UsageError(`${setting.display.path(bin)} --version did not give a version; give --host-version or --host-bin`);
  return probe.version;
}

const absolute = (io: Io, dir: string): string => path.resolve(io.cwd, dir);

/** Lines on stdout as every command prints them: a host's answer or a folder's name neither moves the terminal nor starts a line. */
const printOut = (io: Io, lines: string[]): void => io.stdout(printableLines(lines));


async function setup(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseFlags(
    argv,
    { project: { type: "string" }, into: { type: "string" }, "host-version": { type: "string" }, "host-bin": { type: "string" } },
    1,
    "capture setup",
  );
  const harness = harnessOf(positionals[0], "setup");
  if (values.project === undefined)
    throw new UsageError("clear capture setup needs --project DIR (a throwaway folder outside every repository)");
  const setting = loadSetting(undefined, io.cwd);
  await refuseSecretShapes([["--project", values.project], ["--into", values.into]], setting);
  const version = hostVersionFor(harness, values, io, setting);
  const project = absolute(io, values.project);
  const r = setupTransports(harness, project, {
    version,
    rules: setting.rules,
    kitDir: values.into ? absolute(io, values.into) : project,
    shown: setting.display.path,
  });
  const lines = r.kit.transports.map((t) => `  ${t.path}  sha256 ${t.sha256}`);
  // Codex runs a project's hooks only where the project and its hooks are trusted; untrusted, a sitting captures nothing.
  const trust =
    harness === "codex" ? ["Codex runs these hooks only in a trusted project with trusted hooks: codex exec --trust --dangerously-bypass-hook-trust, as capture drive runs it"] : [];
  printOut(io, [`${HOST_PINS[harness].displayName} ${version}: transports written into ${setting.display.path(project)}`, ...lines, `kit: ${setting.display.path(r.kitPath)}`, ...trust]);
  return 0;
}

/** A folder printed in a shell line, or a text recorded in sitting.json, is never a secret shape: such a value is refused, masked. */
async function refuseSecretShapes(given: [string, string | undefined][], setting: Setting): Promise<void> {
  const found = await secretShapeIn(given, setting.rules, setting.display);
  if (found) throw new UsageError(`${found.flag} ${found.shown}: holds a secret shape, which the tool neither prints nor records; choose another`);
}

async function start(argv: string[], io: Io): Promise<number> {
  const options = {
    into: { type: "string" },
    driver: { type: "string" },
    method: { type: "string" },
    recipe: { type: "string" },
    "host-bin": { type: "string" },
  } as const;
  const { values, positionals } = parseFlags(argv, options, 1, "capture start");
  const harness = harnessOf(positionals[0], "start");
  if (values.into === undefined)
    throw new UsageError("clear capture start needs --into DIR (the sitting folder, outside every repository)");
  const setting = loadSetting(undefined, io.cwd);
  await refuseSecretShapes([["--into", values.into], ["--driver", values.driver], ["--method", values.method]], setting);
  const recipe = recipeFor(setting.rules, harness, values.recipe);
  const bin = hostBinFor(harness, values["host-bin"], io.cwd);
  const probe = probeVersion(bin);
  if (probe === null)
    throw new UsageError(`${setting.display.path(bin)} --version did not answer; give --host-bin or run clear capture install ${harness}`);
  const into = absolute(io, values.into);
  prepareSittingFolder(into, setting.display.path);
  const resolved = existsSync(bin) ? bin : null;
  const record = {
    ...(values.driver !== undefined ? { driver: values.driver } : {}),
    ...(values.method !== undefined ? { method: values.method } : {}),
    versionLine: probe.line,
    startedAt: new Date().toISOString(),
    harness,
    recipe: recipe.name,
    hostVersion: probe.version,
    hostBinary: setting.display.path(bin),
    hostBinarySha256: resolved ? await fileSha256(resolved) : "not a file path; found on PATH",
  };
  writeSittingRecord(into, record, "create", setting.display.path);
  const out = [
    `sitting started in ${setting.display.path(into)}: ${probe.line}`,
    "",
    "In the shell that runs the host:",
    ...captureShellLines(into).map((l) => `  ${l}`),
    "",
    `Recipe ${recipe.name}:`,
    ...checklist(recipe),
    "",
    `Then: clear capture status ${setting.display.path(into)}`,
  ];
  printOut(io, out);
  return 0;
}

async function status(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseFlags(
    argv,
    { recipe: { type: "string" }, "host-bin": { type: "string" }, json: { type: "boolean" }, verbose: { type: "boolean" } },
    1,
    "capture status",
  );
  if (positionals[0] === undefined) throw new UsageError("clear capture status needs the sitting folder");
  const setting = loadSetting(undefined, io.cwd);
  const dir = absolute(io, positionals[0]);
  const record = readSittingRecord(dir, setting.display.path);
  const harness = harnessOf(record.harness, "status");
  const recipe = recipeFor(setting.rules, harness, values.recipe ?? record.recipe);
  const probe = probeVersion(hostBinFor(harness, values["host-bin"], io.cwd));
  // The entries' names and the version sitting.json states are the sitting's words: checked, with the names its captures teach, before they are printed.
  const { captures, inventory } = await runLine(setting, dir, "inventory");
  // A capture a finding blocks (a refused class, broken JSON) is no capture of its event yet.
  const blocked = new Map(inventory.findings.filter((f) => f.severity === "block" && f.file !== undefined).map((f) => [f.file as string, f.code as string]));
  const s = await checkedValue(statusOf(readdirSync(dir), setting.rules, record, recipe, probe, blocked), setting, namesOf(captures, setting));
  const ok = !s.moved && s.otherVersions.length === 0 && s.missing.length === 0;
  if (values.json) writeJson(io, { command: "capture status", ok, ...s });
  else io.stdout(statusText(s, values.verbose === true));
  return ok ? 0 : 1;
}

async function dryRunCommand(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseFlags(
    argv,
    { "host-version": { type: "string" }, "host-bin": { type: "string" } },
    1,
    "capture dry-run",
  );
  const harness = harnessOf(positionals[0], "dry-run");
  const setting = loadSetting(undefined, io.cwd);
  const version = hostVersionFor(harness, values, io, setting);
  const r = await dryRun(harness, version, sinkCall(), catalogueEvents(setting.rules, harness, version));
  const verdict = r.ok ? "ok" : "FAILED";
  printOut(io, [
    [
      `dry run ${verdict}: expected ${r.expected}; found ${r.found.join(", ") || "nothing"}; bytes ${r.bytesEqual ? "equal" : "not equal"}; `,
      `stdout ${r.stdoutEmpty ? "empty" : "NOT empty"}; exit ${r.exitCode}; notice ${r.notice ? "said" : "NOT said"}. `,
      "The temporary folder is removed; nothing of it is a fixture.",
    ].join(""),
  ]);
  return r.ok ? 0 : 1;
}

/** The network a driven sitting runs in: a namespace with loopback only where it can be made. */
function isolated(argv: string[], mode: string): number | null {
  if (process.env.CLEAR_DRIVE_NAMESPACE !== undefined || mode === "never") return null;
  const canIsolate = process.getuid?.() === 0 && spawnSync("unshare", ["-n", "true"]).status === 0 && spawnSync("ip", ["-V"]).status === 0;
  if (!canIsolate) {
    if (mode === "always") throw new UsageError("--isolate always needs root, unshare and ip (a network namespace with loopback only)");
    return null;
  }
  const inner = [
    "-n",
    "--",
    "/bin/sh",
    "-c",
    'ip link set lo up && exec "$@"',
    "sh",
    process.execPath,
    process.argv[1] as string,
    "capture",
    "drive",
    ...argv,
  ];
  const r = spawnSync("unshare", inner, { stdio: "inherit", env: { ...process.env, CLEAR_DRIVE_NAMESPACE: "loopback-only" } });
  return r.status ?? 2;
}

async function driveCommand(argv: string[], io: Io): Promise<number> {
  const options = {
    into: { type: "string" },
    recipe: { type: "string" },
    "host-bin": { type: "string" },
    isolate: { type: "string" },
    keep: { type: "boolean" },
    step: { type: "string", multiple: true },
    json: { type: "boolean" },
  } as const;
  const { values, positionals } = parseFlags(argv, options, 1, "capture drive");
  const harness = harnessOf(positionals[0], "drive");
  if (values.into === undefined)
    throw new UsageError("clear capture drive needs --into DIR (the sitting folder, outside every repository)");
  const mode = values.isolate ?? "auto";
  if (!["auto", "always", "never"].includes(mode)) throw new UsageError("--isolate takes auto, always or never");
  const setting = loadSetting(undefined, io.cwd);
  await refuseSecretShapes([["--into", values.into]], setting);
  const recipe = recipeFor(setting.rules, harness, values.recipe);
  if (!recipe.steps) throw new UsageError(`the recipe ${recipe.name} has no steps a driver can run`);
  const steps = recipe.steps.map((s) => s.name);
  for (const wanted of values.step ?? []) {
    if (steps.includes(wanted)) continue;
    // Only a step's shape is said back: a path or a pasted secret is not printed.
    const said = /^[a-z][a-z0-9-]{0,39}$/.test(wanted) ? `no step named "${wanted}"` : "no step by that name";
    throw new UsageError(`the recipe ${recipe.name} has ${said}; its steps: ${steps.join(", ")}`);
  }
  const outer = isolated(argv, mode);
  if (outer !== null) return outer;
  const interfaces = Object.keys(os.networkInterfaces()).sort();
  const network = process.env.CLEAR_DRIVE_NAMESPACE
    ? `run in a network namespace with loopback only (unshare -n; interfaces: ${interfaces.join(", ")})`
    : "run without a network namespace (the hosts' settings keep them off the network)";
  const say = values.json ? () => undefined : (line: string) => io.stderr(printableLines([line]));
  say(`driving ${HOST_PINS[harness].displayName} through recipe ${recipe.name}; ${network}`);
  const into = absolute(io, values.into);
  const report = await drive({
    harness,
    into,
    recipe,
    hostBin: hostBinFor(harness, values["host-bin"], io.cwd),
    rules: setting.rules,
    shown: setting.display.path,
    say,
    network,
    keep: values.keep === true,
    only: values.step ?? [],
  });
  const ok = report.missing.length === 0;
  if (values.json) writeJson(io, { command: "capture drive", ok, sitting: setting.display.path(into), ...report });
  else
    printOut(io, [
      `${report.versionLine}: ${report.captured.length} events captured in ${setting.display.path(into)}${ok ? "; every event of the recipe" : `; missing ${report.missing.join(", ")}`}`,
      `Next: clear run ${setting.display.path(into)}`,
    ]);
  return ok ? 0 : 1;
}

async function install(argv: string[], io: Io): Promise<number> {
  const { positionals } = parseFlags(argv, {}, HARNESSES.length, "capture install");
  const harnesses = positionals.length === 0 ? HARNESSES : positionals.map((p) => harnessOf(p, "install"));
  let failed = 0;
  for (const h of harnesses) {
    try {
      const r = installPinned(h);
      const ok = r.probe?.version === HOST_PINS[h].version;
      if (!ok) failed++;
      printOut(io, [`${h}: ${r.installed ? "installed" : "already installed"}; --version says ${r.probe?.line ?? "nothing"}${ok ? "" : ` (pinned ${HOST_PINS[h].version})`}`]);
    } catch (err) {
      failed++;
      io.stderr(printableLines([`clear capture install ${h}: ${(err as Error).message}`]));
    }
  }
  return failed === 0 ? 0 : 1;
}

const SUBCOMMANDS: Record<string, (argv: string[], io: Io) => Promise<number>> = {
  setup,
  start,
  status,
  "dry-run": dryRunCommand,
  drive: driveCommand,
  install,
};

async function run(argv: string[], io: Io): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === "hook") {
    sinkProcess(rest);
    return 0;
  }
  const handler = sub === undefined ? undefined : SUBCOMMANDS[sub];
  if (!handler)
    throw new UsageError(
      `clear capture: unknown subcommand ${JSON.stringify(sub ?? "")}; one of hook, ${Object.keys(SUBCOMMANDS).join(", ")}`,
    );
  return handler(rest, io);
}

export const captureCommand: Command = { run: (argv, io) => guarded(io, argv, () => run(argv, io)) };
