import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, lstatSync, readlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { classifier, classifyDocument } from "../src/classify.js";
import { makeDisplay } from "../src/display.js";
import { judgeRefusals } from "../src/refusals.js";
import { loadRules } from "../src/io/load-rules.js";
import { scanJson } from "../src/json/reader.js";
import { substitutePass } from "../src/passes/substitute/index.js";
import type { Capture, Rules, Substitution } from "../src/types.js";

export const PROJECT_ROOT = path.resolve(import.meta.dirname, "..");
export const CLI = path.join(PROJECT_ROOT, "dist", "cli.js");
export const PASTURE = path.resolve(PROJECT_ROOT, "..", "shared", "external", "pasture");
export const PASTURE_PRESENT = existsSync(PASTURE);
export const PASTURE_SKIP_REASON = `pasture's cleared payloads are not at ${PASTURE}; these tests read them in place`;
export const PASTURE_FIXTURES = (harness: "claude" | "codex" | "opencode"): string =>
  path.join(PASTURE, "internal", "lifecycle", "ingress", harness, "testdata", "fixtures");

export function tempDir(prefix = "clear-test-"): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

interface RunOptions {
  cwd?: string;
  env?: Record<string, string>;
  /** Milliseconds after which the process is killed (its code then -1): a run that must end in bounded time fails, never hangs the suite. */
  timeout?: number;
}

/** Runs the built `clear` binary the way a user does. */
export function clear(args: string[], options: RunOptions = {}): Run {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: options.cwd ?? os.tmpdir(),
    encoding: "utf8",
    env: { ...process.env, ...options.env },
    maxBuffer: 256 * 1024 * 1024,
    ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

export function clearJson(args: string[], options: RunOptions = {}): { code: number; json: Record<string, unknown> & { schemaVersion: number }; stderr: string } {
  const r = clear([...args, "--json"], options);
  let json;
  try {
    json = JSON.parse(r.stdout);
  } catch {
    throw new Error(`stdout is not one JSON object (exit ${r.code}):\n${r.stdout}\n${r.stderr}`);
  }
  return { code: r.code, json, stderr: r.stderr };
}

/** A digest of a folder's every entry (names, kinds, link targets, bytes), to prove nothing changed. */
export function folderDigest(dir: string): string {
  const h = createHash("sha256");
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = path.join(d, name);
      const st = lstatSync(p);
      h.update(`${path.relative(dir, p)}\u0000${st.mode}\u0000`);
      if (st.isSymbolicLink()) h.update(`link:${readlinkSync(p)}`);
      else if (st.isDirectory()) walk(p);
      else if (st.isFile()) h.update(readFileSync(p));
    }
  };
  walk(dir);
  return h.digest("hex");
}

export function sha256(bytes: Buffer | Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

let bundled: Rules | null = null;
const bundledRules = (): Rules => (bundled ??= loadRules());

/** A capture in memory, as the inventory pass hands it on (classified, refused classes judged), for calling the pure passes directly. */
export function captureOf(text: string, name: string, harness: string, event: string, rules: Rules = bundledRules()): Capture {
  const bytes = Buffer.from(text, "utf8");
  const doc = scanJson(text, { maxDepth: 256 });
  const fields = classifier(rules.fields.find((f) => f.harness === harness));
  const leaves = classifyDocument(doc, event, fields);
  const refusals = judgeRefusals(doc, { file: name, harness, event }, rules.refusals, fields, null, makeDisplay(rules, [], null));
  return { name, harness, event, hostEvent: undefined, version: "0.0.0", n: 1, size: bytes.length, sha256: sha256(bytes), doc, leaves, refusals };
}

/** Clears captures with the pure substitution pass and the bundled rules, no process spawned. */
export function clearInMemory(captures: Capture[], users: string[] = [], rules: Rules = bundledRules()): Substitution {
  return substitutePass(captures, rules, { users, literals: [] }, makeDisplay(rules, users, null));
}
