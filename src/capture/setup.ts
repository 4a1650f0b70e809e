import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, realpathSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { UsageError } from "../errors.js";
import { validateAgainst } from "../io/load-rules.js";
import { lstatOrNull } from "../io/repo.js";
import { readBelow, wayBelow, writeBelow, type WriteRefusal } from "../lib/no-link.js";
import type { Kit, KitFile, Rules } from "../types.js";
import { HOST_PINS, type Harness } from "./hosts.js";
import { prepareSittingFolder } from "./sitting.js";
import { repositoryAround } from "./sink.js";
import { transportsFor, type SinkCall, type TransportFile } from "./transports.js";

// `clear capture setup`: the transports written into a throwaway project folder, and a kit.json
// with the SHA-256 of every file written, so the record names the exact transports used.

/** How the transports call this installation's sink. */
export function sinkCall(): SinkCall {
  return { node: process.execPath, cli: path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "cli.js") };
}

/** Dotted versions compared part by part (a pre-release suffix is ignored). */
function notOlder(version: string, than: string): boolean {
  const parts = (v: string): number[] => v.split("-")[0]!.split(".").map(Number);
  const [a, b] = [parts(version), parts(than)];
  for (let i = 0; i < Math.max(a.length, b.length); i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  return true;
}

/** The host's own event names, from its catalogue in the rules: those a host of this version declares (all, when the version is unknown). */
export function catalogueEvents(rules: Rules, harness: Harness, version = "unknown"): string[] {
  const catalogue = rules.harnesses.find((h) => h.harness === harness);
  if (!catalogue) throw new UsageError(`rules/harnesses has no catalogue for ${harness}`);
  const known = /^[0-9]+\.[0-9]+\.[0-9]+/.test(version);
  return catalogue.events.filter((e) => !known || e.since === undefined || notOlder(version, e.since)).map((e) => e.event);
}

const sha256 = (bytes: Buffer | string): string => createHash("sha256").update(bytes).digest("hex");

/** A path's real path, a part not made yet judged by the nearest folder above it that exists. */
function realPathOf(p: string): string {
  const rest: string[] = [];
  for (let at = path.resolve(p); ; at = path.dirname(at)) {
    try {
      return path.join(realpathSync(at), ...rest.reverse());
    } catch {
      if (path.dirname(at) === at) return path.resolve(p);
      rest.push(path.basename(at));
    }
  }
}

/** The user's home as every source names it: the passwd entry too, since $HOME may be set to another folder. */
function userHomes(): string[] {
  const homes = [os.homedir(), process.env.HOME ?? ""];
  try {
    homes.push(os.userInfo().homedir);
  } catch {
    // no passwd entry for this uid: the other two stand
  }
  return homes.filter((h) => h !== "");
}

/** Refuses a project folder inside any git repository (the user's among them), and the user's home or a folder above it. */
export function checkProjectFolder(project: string, shown: (p: string) => string): void {
  // A folder not made yet is judged by the nearest folder above it that exists.
  let at = project;
  while (!existsSync(at) && path.dirname(at) !== at) at = path.dirname(at);
  const repo = repositoryAround(at);
  if (repo !== null)
    throw new UsageError(
      `${shown(project)} is inside a git repository (${shown(repo)}); transports for a sitting go into a throwaway folder outside every repository`,
    );
  // Hooks written into a home (~/.claude/settings.json, ~/.codex/hooks.json) would run in every session of that user.
  const real = realPathOf(project);
  for (const home of userHomes()) {
    const below = path.relative(real, realPathOf(home));
    if (below === "" || (below !== ".." && !below.startsWith("../") && !path.isAbsolute(below)))
      throw new UsageError(
        `${shown(project)} is your home folder or holds it; hooks written there would run in every session you start: use a throwaway project folder`,
      );
  }
}

const NEVER_THROUGH = "setup never writes through a link or over a file it did not write";

function writeRefusal(base: string, r: WriteRefusal, shown: (p: string) => string): UsageError {
  return new UsageError(`${shown(path.join(base, r.at))} ${r.detail}; ${NEVER_THROUGH}`);
}

/** A file setup is to write, and whether it already stands there with these very bytes. */
interface PlannedFile {
  base: string;
  rel: string;
  text: string;
  present: boolean;
}

/**
 * Where a file setup writes stands now: absent, or a regular file already holding these bytes (a
 * setup run again). A link on the way or at the file, or other bytes, is refused before anything
 * is written.
 */
function planFile(base: string, rel: string, text: string, shown: (p: string) => string, otherwise: string): PlannedFile {
  const way = wayBelow(base, rel);
  if (way !== null && way.refused !== "missing") throw writeRefusal(base, way, shown);
  const target = path.join(base, ...rel.split("/"));
  if (way !== null || lstatOrNull(target) === null) return { base, rel, text, present: false };
  const bytes = Buffer.from(text);
  const read = readBelow(base, rel, bytes.length);
  if ("refused" in read && read.refused !== "oversize") throw writeRefusal(base, read, shown);
  if ("refused" in read || !read.bytes.equals(bytes)) throw new UsageError(`${shown(target)} already exists with other content; ${otherwise}`);
  return { base, rel, text, present: true };
}

/** Writes a planned file by exclusive create: a link or a file put there since the plan is refused, never written through. */
function writePlanned(file: PlannedFile, shown: (p: string) => string): void {
  if (file.present) return;
  const refused = writeBelow(file.base, file.rel, Buffer.from(file.text), "create");
  if (refused !== null) throw writeRefusal(file.base, refused, shown);
}

// Setup writes every transport without an execute bit (a hook's command names the sink; no script is run by its path): kit.json says so.
const kitFileOf = (file: TransportFile): KitFile => ({ path: file.path, sha256: sha256(file.text), bytes: Buffer.byteLength(file.text), executable: false });

export interface SetupResult {
  project: string;
  version: string;
  kit: Kit;
  kitPath: string;
}

/** The kit of a sitting: the sink the transports call (as its head) and each transport's digest. */
export function kitOf(harness: Harness, version: string, files: KitFile[], call: SinkCall): Kit {
  const sink = readFileSync(path.join(path.dirname(call.cli), "capture", "sink.js"));
  const rootEdits = [
    `transports generated by clear capture setup for ${HOST_PINS[harness].displayName} ${version}; the head is the SHA-256 of the sink they call`,
  ];
  return { head: sha256(sink), rootEdits, binary: null, transports: files, hostVersions: { [harness]: version } };
}

export function setupTransports(
  harness: Harness,
  project: string,
  opts: { version: string; rules: Rules; kitDir: string; shown: (p: string) => string },
): SetupResult {
  const { shown } = opts;
  checkProjectFolder(project, shown);
  const call = sinkCall();
  const transports = transportsFor(harness, catalogueEvents(opts.rules, harness, opts.version), call, opts.version);
  const kit = kitOf(harness, opts.version, transports.map(kitFileOf), call);
  validateAgainst("kit", kit, "kit.json");
  // Every file is judged before any is written, so a refusal leaves nothing behind.
  const fresh = "setup writes into a fresh throwaway project folder";
  const planned = transports.map((f) => planFile(project, f.path, f.text, shown, fresh));
  // The sitting folder is made ready (or refused) before any transport is written.
  if (path.resolve(opts.kitDir) !== path.resolve(project)) prepareSittingFolder(opts.kitDir, shown);
  const kitText = `${JSON.stringify(kit, null, 2)}\n`;
  const notOurs = "it is not the kit.json this setup writes, and setup never overwrites it: move it away or choose another folder";
  const kitFile = planFile(opts.kitDir, "kit.json", kitText, shown, notOurs);
  mkdirSync(project, { recursive: true });
  for (const file of [...planned, kitFile]) writePlanned(file, shown);
  return { project, version: opts.version, kit, kitPath: path.join(opts.kitDir, "kit.json") };
}
