import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { RulesError } from "../errors.js";
import type { ClearConfig } from "../io/repo.js";
import { lsIndex, lsTree, objectsNamed, readBlobs } from "../io/git.js";
import { isBundledRules } from "../io/rules-dir.js";
import type { RawCaptureJudge } from "../passes/verify.js";

// A raw capture is known by the harnesses the rules name, and a repository's rules folder may
// name more than the bundled ones. A push (or a pull request) can add a harness in one commit, a
// capture of it in the next and take the harness away again in a third: judged only by the rules
// of the checkout, the capture would pass. So each commit is judged by the working tree's rules
// and, where its own rules folder names harnesses the working tree's does not hold byte for byte,
// by those too. An overlay only adds what is recognised, so judging by both never lets through
// what either one refuses.

type Judge = () => Promise<RawCaptureJudge>;

/** The judge of each commit, given the clear.config.json each holds. */
export type CommitJudges = (commits: { commit: string; config: ClearConfig }[]) => Map<string, Judge>;

/** The harnesses folder of the rules folder a config names (paths.rules, or rules/), from the repository's root. */
function folderOf(config: ClearConfig): string {
  const rules = (config.paths?.rules ?? "rules").replace(/^\.\//, "").replace(/\/+$/, "");
  // git's batch reads one name a line: a name holding a line break cannot be asked about.
  if (/[\n\r]/.test(rules)) throw new RulesError(`clear.config.json's paths.rules holds a line break; no rules folder is named so`);
  return `${rules}/harnesses`;
}

/** A harness file as git holds it: its name in the harnesses folder and its blob. */
interface HarnessEntry {
  name: string;
  sha: string;
}

/** The harness files a rules folder's harnesses/ tree holds: its `*.json` files, links and folders left out. */
function harnessFiles(root: string, tree: string): HarnessEntry[] {
  return lsTree(tree, [], root, false)
    .filter((e) => e.mode.startsWith("100") && e.path.endsWith(".json"))
    .map((e) => ({ name: e.path, sha: e.sha }));
}

/** The harness files the index holds in a harnesses folder: its `*.json` files directly in it, links left out. */
function stagedHarnessFiles(root: string, folder: string): HarnessEntry[] {
  const prefix = `${folder}/`;
  return lsIndex([prefix], root)
    .filter((e) => e.mode.startsWith("100") && e.path.startsWith(prefix) && e.path.endsWith(".json") && !e.path.slice(prefix.length).includes("/"))
    .map((e) => ({ name: e.path.slice(prefix.length), sha: e.sha }));
}

/** The tree id of each `<commit>:<path>` that names a tree; others are left out. */
function treeIds(root: string, names: string[]): Map<string, string> {
  const found = objectsNamed(names, root);
  return new Map(names.flatMap((n, i) => (found[i]?.type === "tree" ? [[n, found[i].id] as [string, string]] : [])));
}

/** Whether the working tree's rules folder holds every one of these files with the same bytes. */
function heldOnDisk(rulesDir: string, files: { name: string; bytes: Buffer }[]): boolean {
  return files.every((f) => {
    try {
      return readFileSync(path.join(rulesDir, "harnesses", f.name)).equals(f.bytes);
    } catch {
      return false;
    }
  });
}

/** The raw-capture judge of harness files read from a commit, laid over the bundled rules as a rules folder is. */
async function judgeOfFiles(source: string, folder: string, files: { name: string; bytes: Buffer }[]): Promise<RawCaptureJudge> {
  const [{ loadRawCaptureRules }, { rawCaptureCheck, rawCaptureFinding }] = await Promise.all([import("../io/load-rules.js"), import("../passes/raw-capture.js")]);
  const dir = mkdtempSync(path.join(os.tmpdir(), "clear-commit-rules-"));
  try {
    mkdirSync(path.join(dir, "harnesses"));
    for (const f of files) writeFileSync(path.join(dir, "harnesses", f.name), f.bytes);
    const loaded = loadRawCaptureRules(dir);
    const check = rawCaptureCheck(loaded.harnesses, loaded.payloads);
    return (p, bytes) => rawCaptureFinding(p, bytes, check);
  } catch (err) {
    if (!(err instanceof RulesError)) throw err;
    const said = err.message.split(`${dir}/harnesses`).join(folder).split(dir).join(folder);
    throw new RulesError(`${source}: ${said}; the files it brings cannot be judged by the rules it holds`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A judge that refuses what either judge refuses. */
function either(a: Judge, b: Judge): Judge {
  let both: Promise<RawCaptureJudge> | null = null;
  const load = async (): Promise<RawCaptureJudge> => {
    const [first, second] = await Promise.all([a(), b()]);
    return (p, bytes) => first(p, bytes) ?? second(p, bytes);
  };
  return () => (both ??= load());
}

/**
 * The judge of each commit: the working tree's, and where the commit's rules folder (its
 * clear.config.json's paths.rules, or rules/) holds harness files the working tree's does not
 * hold byte for byte, those files' judge as well. Commits holding the same files share one judge.
 * In the tool's own repository, whose rules folder is the bundled one, the bundled rules stand alone.
 */
export function commitJudges(root: string, rulesDir: string, base: Judge): CommitJudges {
  return (commits) => {
    const out = new Map<string, Judge>(commits.map(({ commit }) => [commit, base]));
    if (isBundledRules(path.join(root, "rules"))) return out;
    const ids = treeIds(root, commits.map(({ commit, config }) => `${commit}:${folderOf(config)}`));
    const byTree = new Map<string, Judge>();
    for (const { commit, config } of commits) {
      const tree = ids.get(`${commit}:${folderOf(config)}`);
      if (tree === undefined) continue;
      if (!byTree.has(tree)) byTree.set(tree, filesJudge(root, rulesDir, base, `commit ${commit.slice(0, 12)}`, folderOf(config), harnessFiles(root, tree)));
      out.set(commit, byTree.get(tree) as Judge);
    }
    return out;
  };
}

/** The judge of harness files git holds: the working tree's alone where it holds every one of them, else both. */
function filesJudge(root: string, rulesDir: string, base: Judge, source: string, folder: string, entries: HarnessEntry[]): Judge {
  if (entries.length === 0) return base;
  const blobs = readBlobs(entries.map((e) => e.sha), root);
  const files = entries.map((e) => ({ name: e.name, bytes: blobs.get(e.sha) ?? Buffer.alloc(0) }));
  if (heldOnDisk(rulesDir, files)) return base;
  let own: Promise<RawCaptureJudge> | null = null;
  return either(base, () => (own ??= judgeOfFiles(source, folder, files)));
}

/**
 * The judge of what is staged: the working tree's, and the harness catalogues the index holds
 * (in the rules folder the staged clear.config.json names) where the working tree's lack them.
 * Worked out only when a file asks for the rules: a commit of accepted fixtures reads none.
 */
export function stagedJudge(root: string, rulesDir: string, base: Judge, stagedConfig: () => ClearConfig): Judge {
  if (isBundledRules(path.join(root, "rules"))) return base;
  let judge: Judge | null = null;
  return () => {
    if (judge === null) {
      const folder = folderOf(stagedConfig());
      judge = filesJudge(root, rulesDir, base, "the index", folder, stagedHarnessFiles(root, folder));
    }
    return judge();
  };
}
