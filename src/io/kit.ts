import { existsSync, promises as fs, readFileSync } from "node:fs";
import path from "node:path";
import fg from "fast-glob";
import { UsageError } from "../cli-args.js";
import { sha256Hex } from "../digest.js";
import { escapeRegex } from "../regex.js";
import type { Kit, KitFile, TransportRules } from "../types.js";
import { digestFile } from "./digest-file.js";
import { git, lsIndex, lsTree, readBlobs } from "./git.js";
import { RulesError, validateAgainst } from "./load-rules.js";

// The kit at the edges: hashing a kit folder into kit.json, reading one back, and the committed
// transports of a repository (at HEAD, or in the working tree).

export function transportPatterns(rules: TransportRules): string[] {
  return [...new Set(Object.values(rules.transports).flat())].sort();
}

async function kitFiles(dir: string, patterns: string[]): Promise<KitFile[]> {
  const found = await fg(patterns, { cwd: dir, dot: true, onlyFiles: true, followSymbolicLinks: false });
  return Promise.all(found.sort().map(async (p) => ({ path: p, ...(await digestFile(path.join(dir, p))) })));
}

/** The one executable file under the kit's bin/, unless --binary names one. */
async function findBinary(dir: string, given: string | undefined): Promise<string | null> {
  if (given !== undefined) return path.resolve(given);
  const bin = path.join(dir, "bin");
  if (!existsSync(bin)) return null;
  const entries = await fs.readdir(bin, { withFileTypes: true });
  const executables = [];
  for (const e of entries) if (e.isFile() && ((await fs.stat(path.join(bin, e.name))).mode & 0o111) !== 0) executables.push(path.join(bin, e.name));
  if (executables.length > 1) throw new UsageError(`${bin}: ${executables.length} executable files; name the binary with --binary`);
  return executables[0] ?? null;
}

export async function recordKit(dir: string, head: string, opts: { binary?: string; rootEdits: string[]; hostVersions: Record<string, string> }, rules: TransportRules): Promise<Kit> {
  const binaryPath = await findBinary(dir, opts.binary);
  const binary = binaryPath ? { path: path.relative(dir, binaryPath).split(path.sep).join("/"), ...(await digestFile(binaryPath)) } : null;
  return { head, rootEdits: opts.rootEdits, binary, transports: await kitFiles(dir, transportPatterns(rules)), hostVersions: opts.hostVersions };
}

export function readKit(file: string): Kit {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new RulesError(`${file}: cannot be read as JSON (${(err as Error).message})`);
  }
  validateAgainst("kit", value, file);
  return value as Kit;
}

function matcher(patterns: string[]): (p: string) => boolean {
  const res = patterns.map((g) => new RegExp(`^${escapeRegex(g).replace(/\\\*/g, "[^/]*")}$`));
  return (p) => res.some((r) => r.test(p));
}

/** The committed transports: at HEAD through git, or as they stand in the working tree. */
export async function committedTransports(root: string, rules: TransportRules, workingTree: boolean): Promise<Map<string, { sha256: string; text: string | null }>> {
  const patterns = transportPatterns(rules);
  const out = new Map<string, { sha256: string; text: string | null }>();
  if (workingTree) {
    for (const p of await fg(patterns, { cwd: root, dot: true, onlyFiles: true, followSymbolicLinks: false })) {
      const bytes = await fs.readFile(path.join(root, p));
      out.set(p, { sha256: sha256Hex(bytes), text: bytes.toString("utf8") });
    }
    return out;
  }
  const matches = matcher(patterns);
  const hasHead = (() => {
    try {
      git(["rev-parse", "--verify", "HEAD"], root);
      return true;
    } catch {
      return false;
    }
  })();
  const entries = (hasHead ? lsTree("HEAD", ["."], root) : lsIndex(["."], root)).filter((e) => matches(e.path));
  const blobs = readBlobs(entries.map((e) => e.sha), root);
  for (const e of entries) {
    const bytes = blobs.get(e.sha) as Buffer;
    out.set(e.path, { sha256: sha256Hex(bytes), text: bytes.toString("utf8") });
  }
  return out;
}

/** A file's text at a commit of the repository, or null when the commit or the file is not there. */
export function textAt(root: string, rev: string, file: string): string | null {
  try {
    return git(["show", `${rev}:${file}`], root).toString("utf8");
  } catch {
    return null;
  }
}
