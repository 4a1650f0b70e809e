import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { clear, PROJECT_ROOT, tempDir } from "./helpers.js";

// Repositories whose fixtures come from real `clear run`s of the example sitting, turned into
// other host versions, accepted the way a person accepts them.

const EXAMPLE = path.join(PROJECT_ROOT, "examples", "sitting");
const EXAMPLE_VERSION = "2.1.261";

export type Payload = Record<string, unknown>;
/** Changes one capture of a sitting by its event's stem; null leaves the event out. */
export type Edit = (event: string, payload: Payload) => Payload | null;

export function gitRepo(): string {
  const root = tempDir("clear-fixtures-");
  execFileSync("git", ["init", "-q"], { cwd: root });
  return root;
}

/** The example sitting as if Claude Code `version` had sent it, each capture through `edit`. */
export function writeSitting(dir: string, version: string, edit: Edit = (_, p) => p): void {
  mkdirSync(dir, { recursive: true });
  for (const name of readdirSync(EXAMPLE)) {
    const text = readFileSync(path.join(EXAMPLE, name), "utf8");
    if (name === "sitting.json") {
      writeFileSync(path.join(dir, name), text.replace(`"${EXAMPLE_VERSION} (Claude Code)"`, `"${version} (Claude Code)"`));
      continue;
    }
    const event = name.slice("claude-code_".length, name.indexOf(`_${EXAMPLE_VERSION}.`));
    const payload = edit(event, JSON.parse(text) as Payload);
    if (payload !== null) writeFileSync(path.join(dir, name.replace(EXAMPLE_VERSION, version)), JSON.stringify(payload));
  }
}

/** `clear run` on a sitting of `version`; the batch it writes awaits ACCEPT. */
export function clearVersion(root: string, version: string, edit?: Edit): void {
  const dir = path.join(root, "sittings", version);
  writeSitting(dir, version, edit);
  const r = clear(["run", dir], { cwd: root });
  expect(r.code, r.stdout + r.stderr).toBe(0);
}

/** Writes ACCEPT under the batch that awaits it, as a person does. */
export function acceptPending(root: string, record = "CLEARANCE.md"): void {
  const file = path.join(root, record);
  const text = readFileSync(file, "utf8");
  const note = "The tool never does. -->\n\n";
  expect(text).toContain(note);
  writeFileSync(file, text.replace(note, "The tool never does. -->\nACCEPT\n"));
}

/** A repository where each version's fixtures were cleared and accepted, in order. */
export function acceptedRepo(versions: string[]): string {
  const root = gitRepo();
  for (const v of versions) {
    clearVersion(root, v);
    acceptPending(root);
  }
  return root;
}

/** Makes `import "fixture-clear"` (and the given packages) resolve in `root`, as an installed dependency would. */
export function installInto(root: string, packages: string[] = []): void {
  mkdirSync(path.join(root, "node_modules", "@types"), { recursive: true });
  symlinkSync(PROJECT_ROOT, path.join(root, "node_modules", "fixture-clear"));
  for (const p of packages) symlinkSync(path.join(PROJECT_ROOT, "node_modules", p), path.join(root, "node_modules", p));
}
