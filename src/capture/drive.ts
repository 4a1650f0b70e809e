import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { UsageError } from "../errors.js";
import { writeBelow } from "../lib/no-link.js";
import { nameGrammar, parseCaptureName } from "../capture-name.js";
import type { Rules } from "../types.js";
import { DRIVERS, type DriveFolders } from "./drivers.js";
import { HOST_PINS, npmStore, probeVersion, type Harness, type VersionProbe } from "./hosts.js";
import { startModelServer, type ModelRequest } from "./model-server.js";
import type { DrivenRecipe, RecipeStep, StepRun } from "./recipes.js";
import { fillScript, type Script } from "./script.js";
import { setupTransports } from "./setup.js";
import { fileSha256, prepareSittingFolder, writeSittingRecord, type SittingRecord } from "./sitting.js";
import { CAPTURE_DIR_VARIABLE } from "./sink.js";

// `clear capture drive`: a sitting without a person or a network. The real host binary runs each
// recipe step in a throwaway home and project, against the scripted model on 127.0.0.1, with the
// transports from setup; its real hooks write the sitting.

export interface DriveOptions {
  harness: Harness;
  into: string;
  recipe: DrivenRecipe;
  hostBin: string;
  rules: Rules;
  shown: (p: string) => string;
  say: (line: string) => void;
  /** How the network was closed off, said in sitting.json. */
  network: string;
  keep: boolean;
  /** Only these steps (all when empty). */
  only: string[];
}

export interface StepResult {
  name: string;
  trigger: string;
  exitCode: number | null;
  timedOut: boolean;
  seconds: number;
  expected: string[];
  fired: string[];
  missing: string[];
  attempts?: number;
}

export interface DriveReport {
  harness: Harness;
  recipe: string;
  versionLine: string;
  steps: StepResult[];
  captured: string[];
  missing: string[];
  requests: { route: string; status: number; count: number }[];
}

export const THROWAWAY_OWNER = "sitter";

function eventsIn(dir: string, rules: Rules): Map<string, number> {
  const grammar = nameGrammar(rules.harnesses);
  const counts = new Map<string, number>();
  for (const name of readdirSync(dir)) {
    const parsed = parseCaptureName(name, grammar);
    const event = parsed.kind === "capture" ? parsed.name.event : parsed.kind === "unknown-event" ? parsed.stem : null;
    if (event !== null) counts.set(event, (counts.get(event) ?? 0) + 1);
  }
  return counts;
}

/** Every scenario of the recipe, with the sitting's own folders filled in. */
export function recipeScript(recipe: DrivenRecipe, values: Record<string, string>): Script {
  const script: Script = {};
  for (const step of recipe.steps ?? []) {
    script[step.name] = step.run?.script ?? [];
    Object.assign(script, step.run?.scenarios ?? {});
  }
  return fillScript(script, values);
}

function runHost(
  bin: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
  timeoutSeconds: number,
  started: (kill: (s: NodeJS.Signals) => void) => void,
  input: { text: string; holdMs: number } | null,
): Promise<{ code: number | null; timedOut: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(bin, args, { cwd, env, stdio: [input ? "pipe" : "ignore", "ignore", "ignore"], detached: true });
    started((s) => child.kill(s));
    let hold: NodeJS.Timeout | null = null;
    if (input && child.stdin) {
      // A host that goes before its input is read closes the pipe: nothing to say then.
      child.stdin.on("error", () => undefined);
      child.stdin.write(input.text);
      hold = setTimeout(() => child.stdin?.end(), input.holdMs);
    }
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-(child.pid as number), "SIGKILL");
      } catch {
        // already gone
      }
    }, timeoutSeconds * 1000);
    child.on("error", () => resolve({ code: null, timedOut }));
    child.on("close", (code) => {
      clearTimeout(timer);
      if (hold) clearTimeout(hold);
      resolve({ code, timedOut });
    });
  });
}

/** The step's standard input: every string of its lines filled in ({project}, {home}, {prompt}), one JSON value a line. */
function stdinOf(run: StepRun, fill: (text: string) => string, prompt: string): { text: string; holdMs: number } | null {
  if (!run.stdin) return null;
  const filled = (v: unknown): unknown => {
    if (typeof v === "string") return fill(v).replace(/\{prompt\}/g, () => prompt);
    if (Array.isArray(v)) return v.map(filled);
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, filled(x)]));
    return v;
  };
  return { text: run.stdin.lines.map((line) => `${JSON.stringify(filled(line))}\n`).join(""), holdMs: run.stdin.holdMs };
}

/** A step's files in the throwaway project. The host ran there before: a link it left on the way is refused, never written through. */
function writeStepFiles(project: string, files: Record<string, string>, fill: (text: string) => string, shown: (p: string) => string): void {
  for (const [rel, text] of Object.entries(files)) {
    const refused = writeBelow(project, rel, Buffer.from(fill(text)), "replace");
    if (refused !== null)
      throw new UsageError(`${shown(path.join(project, refused.at))} ${refused.detail}; a step's files are never written through a link`);
  }
}

async function runStep(step: RecipeStep, o: DriveOptions, folders: DriveFolders, env: Record<string, string>): Promise<StepResult> {
  const run = step.run ?? {};
  const fill = (text: string): string => text.replace(/\{project\}/g, folders.project).replace(/\{home\}/g, folders.home);
  writeStepFiles(folders.project, run.files ?? {}, fill, o.shown);
  let signal: (() => void) | null = null;
  let duringRefused: unknown = null;
  const during = run.during
    ? setTimeout(() => {
        try {
          writeStepFiles(folders.project, run.during?.files ?? {}, fill, o.shown);
        } catch (err) {
          duringRefused = err;
        }
        signal?.();
      }, run.during.afterMs)
    : null;
  const before = eventsIn(o.into, o.rules);
  const prompt = run.raw ? fill(run.prompt ?? "") : `[[scenario:${step.name}]] ${fill(run.prompt ?? "Go on.")}`;
  const driver = DRIVERS[o.harness];
  const started = Date.now();
  const r = await runHost(
    o.hostBin,
    driver.args(run, prompt).map(fill),
    folders.project,
    { ...env, ...(run.env ?? {}) },
    driver.stepTimeout,
    (kill) => {
      if (run.during?.signal) signal = () => kill(run.during?.signal as NodeJS.Signals);
    },
    stdinOf(run, fill, prompt),
  );
  if (during) clearTimeout(during);
  if (duringRefused !== null) throw duringRefused;
  if (run.settleMs) await new Promise((done) => setTimeout(done, run.settleMs));
  const after = eventsIn(o.into, o.rules);
  const fired = [...after]
    .filter(([e, n]) => n > (before.get(e) ?? 0))
    .map(([e]) => e)
    .sort();
  const result = {
    name: step.name,
    trigger: step.trigger,
    exitCode: r.code,
    timedOut: r.timedOut,
    seconds: Math.round((Date.now() - started) / 100) / 10,
    expected: step.events,
    fired,
    missing: step.events.filter((e) => !fired.includes(e)),
  };
  o.say(
    [
      `  ${step.name}: ${fired.length} events fired`,
      result.missing.length ? `; missing ${result.missing.join(", ")}` : "",
      r.timedOut ? " (stopped after the step's time limit)" : "",
      ` (${result.seconds} s)`,
    ].join(""),
  );
  return result;
}

function requestSummary(requests: ModelRequest[]): DriveReport["requests"] {
  const counts = new Map<string, number>();
  for (const r of requests) counts.set(`${r.route} ${r.status}`, (counts.get(`${r.route} ${r.status}`) ?? 0) + 1);
  return [...counts].sort().map(([k, count]) => ({ route: k.split(" ")[0] as string, status: Number(k.split(" ")[1]), count }));
}

/** Each step of the recipe in turn; a step whose trigger is unreliable is run again, as the recipe allows. */
async function runSteps(o: DriveOptions, folders: DriveFolders, env: Record<string, string>, fresh: () => void): Promise<StepResult[]> {
  const steps: StepResult[] = [];
  for (const step of (o.recipe.steps ?? []).filter((s) => o.only.length === 0 || o.only.includes(s.name))) {
    fresh();
    let result = await runStep(step, o, folders, env);
    for (let attempt = 2; attempt <= (step.run?.attempts ?? 1) && result.missing.length > 0; attempt++) {
      o.say(`  ${step.name}: again (attempt ${attempt}), as the recipe allows for this trigger`);
      // Each attempt meets the script afresh: a failure answered once is answered once again.
      fresh();
      const again = await runStep(step, o, folders, env);
      const fired = [...new Set([...result.fired, ...again.fired])].sort();
      result = { ...again, fired, missing: step.events.filter((e) => !fired.includes(e)), attempts: attempt };
    }
    steps.push(result);
  }
  return steps;
}

export async function drive(o: DriveOptions): Promise<DriveReport> {
  const probe = probeVersion(o.hostBin);
  if (probe === null)
    throw new UsageError(`${o.shown(o.hostBin)} --version did not answer; install the pinned host with clear capture install ${o.harness}`);
  prepareSittingFolder(o.into, o.shown);
  const base = mkdtempSync(path.join(os.tmpdir(), `clear-drive-${o.harness}-`));
  // The throwaway home has a home's shape, so clearance reads its last part as the owner and
  // substitutes it, instead of taking whatever follows a bare "home/" for a user's name.
  const folders = {
    home: path.join(base, "home", THROWAWAY_OWNER),
    project: path.join(base, "project"),
    modelUrl: "",
    npmStore: npmStore(),
  };
  try {
    for (const d of [folders.home, folders.project]) mkdirSync(d, { recursive: true });
    setupTransports(o.harness, folders.project, { version: probe.version ?? "unknown", rules: o.rules, kitDir: o.into, shown: o.shown });
    return await driveWithServer(o, probe, folders);
  } finally {
    // A refusal on the way (a kit.json that is a link) leaves no throwaway folder behind either.
    if (!o.keep) rmSync(base, { recursive: true, force: true });
  }
}

/** The sitting's record, the scripted model and the steps, in the throwaway folders setup has filled. */
async function driveWithServer(o: DriveOptions, probe: VersionProbe, folders: DriveFolders): Promise<DriveReport> {
  const record: SittingRecord = {
    driver: "clear capture drive",
    method: `${HOST_PINS[o.harness].displayName} non-interactive runs against a scripted model on 127.0.0.1 (no model, no person); ${o.network}`,
    versionLine: probe.line,
    startedAt: new Date().toISOString(),
    harness: o.harness,
    recipe: o.recipe.name,
    hostVersion: probe.version,
    hostBinary: o.shown(o.hostBin),
    hostBinarySha256: await fileSha256(o.hostBin),
    model: "scripted",
  };
  writeSittingRecord(o.into, record, "create", o.shown);
  const server = await startModelServer(recipeScript(o.recipe, { project: folders.project, home: folders.home }), DRIVERS[o.harness].models);
  folders.modelUrl = server.url;
  const driver = DRIVERS[o.harness];
  let steps: StepResult[] = [];
  try {
    driver.prepare(folders);
    const env = { ...driver.env(folders), [CAPTURE_DIR_VARIABLE]: o.into };
    steps = await runSteps(o, folders, env, () => server.freshTurns());
  } finally {
    await server.close();
  }
  const captured = [...eventsIn(o.into, o.rules).keys()].sort();
  const report: DriveReport = {
    harness: o.harness,
    recipe: o.recipe.name,
    versionLine: probe.line,
    steps,
    captured,
    missing: o.recipe.events.filter((e) => !captured.includes(e)),
    requests: requestSummary(server.requests),
  };
  writeSittingRecord(o.into, { ...record, endedAt: new Date().toISOString(), steps, modelRequests: report.requests }, "replace", o.shown);
  return report;
}
