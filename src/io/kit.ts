import { promises as fs } from "node:fs";
import path from "node:path";
import { UsageError } from "../errors.js";
import { sha256Hex } from "../digest.js";
import { escapeRegex } from "../regex.js";
import type { Kit, KitFile, TransportRules } from "../types.js";
import { finding, type Finding } from "../findings.js";
import { digestSafely, digestWithMode, isRefusal, readSafely, underSystemFolder, type Refusal } from "./safe-file.js";
import { pushAll } from "../collections.js";
import { checkoutChangedPaths, filteredPaths, type AttributeSource } from "./git-filters.js";
import { git, LINK_MODE, lsIndex, lsTree, readBlobs, SUBMODULE_MODE, type TreeEntry } from "./git.js";
import { RulesError, validateAgainst } from "./load-rules.js";
import { duplicateKeyAt, whyNotJson } from "./schema-errors.js";

// The kit at the edges: hashing a kit folder into kit.json, reading one back, and the committed
// transports of a repository (at HEAD, or in the working tree).

export function transportPatterns(rules: TransportRules): string[] {
  return [...new Set(Object.values(rules.transports).flat())].sort();
}

/** Why a kit entry was not read, as a finding naming it. */
function refusalFinding(file: string, r: Refusal): Finding {
  return r.kind === "link" ? finding("kit-link", { file }) : finding("kit-not-a-file", { file }, { what: r.what });
}

/** The files a pattern names in a folder, and the links or other entries on the way that refuse it. */
async function matchPattern(dir: string, pattern: string, out: { files: string[]; findings: Finding[] }): Promise<void> {
  const parts = pattern.split("/");
  const leaf = new RegExp(`^${escapeRegex(parts.at(-1) as string).replace(/\\\*/g, "[^/]*")}$`);
  for (let k = 1; k < parts.length; k++) {
    const rel = parts.slice(0, k).join("/");
    const stat = await fs.lstat(path.join(dir, rel)).catch(() => null);
    if (stat === null) return;
    if (stat.isSymbolicLink()) {
      // Patterns that share a folder (plugin/*.ts, plugin/*.js) meet its link once each: it is one finding.
      if (!out.findings.some((f) => f.code === "kit-link" && f.file === rel)) out.findings.push(finding("kit-link", { file: rel }));
      return;
    }
    if (!stat.isDirectory()) return;
  }
  const folder = parts.slice(0, -1).join("/");
  const entries = await fs.readdir(path.join(dir, folder), { withFileTypes: true }).catch(() => []);
  for (const e of entries) {
    const rel = folder === "" ? e.name : `${folder}/${e.name}`;
    if (!leaf.test(e.name) || e.isDirectory()) continue;
    if (e.isSymbolicLink()) out.findings.push(finding("kit-link", { file: rel }));
    else if (e.isFile()) out.files.push(rel);
    else out.findings.push(finding("kit-not-a-file", { file: rel }, { what: "is not a regular file" }));
  }
}

async function kitFiles(dir: string, patterns: string[]): Promise<{ files: KitFile[]; findings: Finding[] }> {
  const found = { files: [] as string[], findings: [] as Finding[] };
  for (const p of patterns) await matchPattern(dir, p, found);
  const files: KitFile[] = [];
  for (const rel of [...new Set(found.files)].sort()) {
    // The mode is recorded with the bytes: with no copy beside kit.json, it is what a committed transport's is held against.
    const d = await digestWithMode(path.join(dir, rel));
    if (isRefusal(d)) found.findings.push(refusalFinding(rel, d));
    else files.push({ path: rel, ...d });
  }
  return { files, findings: found.findings };
}

/** The one executable file under the kit's bin/, unless --binary names one; links and other entries there are findings. */
async function findBinary(dir: string, given: string | undefined, findings: Finding[]): Promise<string | null> {
  if (given !== undefined) {
    // kit.json names the binary by its path in the kit: one outside it could be named only by a path that climbs out.
    const inKit = path.relative(dir, path.resolve(given));
    if (inKit === "" || inKit.split(path.sep)[0] === ".." || path.isAbsolute(inKit)) throw new UsageError("--binary names a file outside the kit folder: put the binary in the kit (a kit holds its own bytes) and name it there");
    return path.resolve(given);
  }
  const bin = path.join(dir, "bin");
  const stat = await fs.lstat(bin).catch(() => null);
  if (stat === null) return null;
  if (stat.isSymbolicLink()) {
    findings.push(finding("kit-link", { file: "bin" }));
    return null;
  }
  const entries = await fs.readdir(bin, { withFileTypes: true });
  const executables = [];
  for (const e of entries) {
    if (e.isSymbolicLink()) findings.push(finding("kit-link", { file: `bin/${e.name}` }));
    else if (e.isFile() && ((await fs.lstat(path.join(bin, e.name))).mode & 0o111) !== 0) executables.push(path.join(bin, e.name));
  }
  if (executables.length > 1) throw new UsageError(`${bin}: ${executables.length} executable files; name the binary with --binary`);
  return executables[0] ?? null;
}

/** kit.json's content for a kit folder, or the findings that keep it from being recorded faithfully. */
export async function recordKit(dir: string, head: string, opts: { binary?: string; rootEdits: string[]; hostVersions: Record<string, string> }, rules: TransportRules): Promise<{ kit: Kit; findings: Finding[] }> {
  const top = await fs.lstat(dir).catch(() => null);
  if (top === null || !top.isDirectory() || underSystemFolder(dir)) throw new UsageError(`${dir}: not a kit folder (${top?.isSymbolicLink() ? "a symbolic link; name the real folder" : "not a directory"})`);
  const findings: Finding[] = [];
  const binaryPath = await findBinary(dir, opts.binary, findings);
  let binary: KitFile | null = null;
  if (binaryPath) {
    const d = await digestSafely(binaryPath);
    const shown = path.relative(dir, binaryPath).split(path.sep).join("/");
    if (isRefusal(d)) findings.push(refusalFinding(shown, d));
    else binary = { path: shown, ...d };
  }
  const transports = await kitFiles(dir, transportPatterns(rules));
  return { kit: { head, rootEdits: opts.rootEdits, binary, transports: transports.files, hostVersions: opts.hostVersions }, findings: [...findings, ...transports.findings] };
}

export async function readKit(file: string): Promise<Kit> {
  const bytes = await readSafely(file);
  if (isRefusal(bytes)) throw new RulesError(`${file}: ${bytes.what}; not read`);
  let value: unknown;
  const text = bytes.toString("utf8");
  try {
    value = JSON.parse(text);
  } catch {
    throw new RulesError(`${file}: cannot be read as JSON ${whyNotJson(text)}`);
  }
  // Two values for one member: a reader would see one, the check the other.
  const twice = duplicateKeyAt(text);
  if (twice !== null) throw new RulesError(`${file}: cannot be read as JSON ${twice}`);
  validateAgainst("kit", value, file, true);
  return value as Kit;
}

function matcher(patterns: string[]): (p: string) => boolean {
  const res = patterns.map((g) => new RegExp(`^${escapeRegex(g).replace(/\\\*/g, "[^/]*")}$`));
  return (p) => res.some((r) => r.test(p));
}

/** A committed transport: its bytes' digest and size, its text, and whether it is committed executable. */
export interface CommittedTransport {
  sha256: string;
  bytes: number;
  text: string | null;
  executable: boolean;
}

/** What git holds where a transport (or a folder on its way) stands, when it is no regular file: a link's bytes are where it points, a submodule's none. */
function notAFile(e: TreeEntry): string | null {
  if (e.mode === LINK_MODE) return "is committed as a symbolic link, whose bytes are the path it points to";
  if (e.mode === SUBMODULE_MODE) return "is committed as a submodule";
  return e.mode === "100644" || e.mode === "100755" ? null : `is committed with mode ${e.mode}`;
}

/** The leading folders of the patterns ("hooks" of "hooks/hooks.json"): a link committed there leads every transport below it elsewhere. */
function folderSet(patterns: string[]): Set<string> {
  return new Set(patterns.flatMap((p) => p.split("/").slice(0, -1).map((_, k, parts) => parts.slice(0, k + 1).join("/"))));
}

/**
 * The committed transports: at HEAD through git, or as they stand in the working tree. A
 * transport (or a folder on its way) that is a link, a submodule or no regular file is a finding,
 * never one of them: its bytes are not a hook's.
 */
export async function committedTransports(root: string, rules: TransportRules, workingTree: boolean): Promise<{ files: Map<string, CommittedTransport>; findings: Finding[] }> {
  const patterns = transportPatterns(rules);
  const out = new Map<string, CommittedTransport>();
  if (workingTree) {
    const found = { files: [] as string[], findings: [] as Finding[] };
    for (const p of patterns) await matchPattern(root, p, found);
    for (const rel of [...new Set(found.files)].sort()) {
      const file = path.join(root, rel);
      const bytes = await readSafely(file);
      const mode = (await fs.lstat(file).catch(() => null))?.mode ?? 0;
      if (isRefusal(bytes)) found.findings.push(transportRefused(rel, bytes.kind === "link" ? "is a symbolic link" : bytes.what));
      else out.set(rel, { sha256: sha256Hex(bytes), bytes: bytes.length, text: bytes.toString("utf8"), executable: (mode & 0o111) !== 0 });
    }
    // matchPattern speaks of a kit's folder; here the folder is the repository's.
    return { files: out, findings: found.findings.map((f) => transportRefused(f.file ?? "", f.code === "kit-link" ? "is a symbolic link" : "is not a regular file")) };
  }
  const matches = matcher(patterns);
  const folders = folderSet(patterns);
  const hasHead = (() => {
    try {
      git(["rev-parse", "--verify", "HEAD"], root);
      return true;
    } catch {
      return false;
    }
  })();
  const listed = (hasHead ? lsTree("HEAD", ["."], root) : lsIndex(["."], root)).filter((e) => matches(e.path) || folders.has(e.path));
  const findings = listed.flatMap((e) => {
    const why = notAFile(e);
    return why === null ? [] : [transportRefused(e.path, why)];
  });
  const entries = listed.filter((e) => notAFile(e) === null && matches(e.path));
  pushAll(findings, checkoutFindings(root, entries.map((e) => e.path), hasHead ? { commit: "HEAD" } : { index: true }));
  const blobs = readBlobs(entries.map((e) => e.sha), root);
  for (const e of entries) {
    const bytes = blobs.get(e.sha) as Buffer;
    out.set(e.path, { sha256: sha256Hex(bytes), bytes: bytes.length, text: bytes.toString("utf8"), executable: e.mode === "100755" });
  }
  return { files: out, findings };
}

const transportRefused = (file: string, what: string): Finding => finding("transport-not-a-file", { file }, { what });

/**
 * The committed transports a checkout writes in other bytes than git holds (their attributes give
 * eol=crlf, an encoding, ident) or whose stored bytes are a filter's (git-crypt's, say): git's bytes
 * equal to the kit's then say nothing of what a clone runs.
 */
function checkoutFindings(root: string, paths: string[], source: AttributeSource): Finding[] {
  const changed = [...checkoutChangedPaths(root, paths, source)].map(([file, attribute]) => finding("transport-checkout-changed", { file }, { what: `its git attributes give it ${attribute}` }));
  const filtered = [...filteredPaths(root, paths, source)].map(([file]) => finding("transport-checkout-changed", { file }, { what: "its git attributes give it a filter, whose clean side wrote what git holds" }));
  return [...changed, ...filtered];
}

/** A file's text at a commit of the repository, or null when the commit or the file is not there. */
export function textAt(root: string, rev: string, file: string): string | null {
  try {
    return git(["show", `${rev}:${file}`], root).toString("utf8");
  } catch {
    return null;
  }
}
