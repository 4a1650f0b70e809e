import { promises as fs } from "node:fs";
import path from "node:path";
import { sha256Hex } from "../digest.js";
import type { TreeToVerify } from "../passes/verify.js";
import { lsIndex, lsTree, readBlobs, type TreeEntry } from "./git.js";
import { listFiles } from "./list-files.js";

// What verify and the gate check, read from the working tree, from the index, or from a commit.

export interface RepoLayout {
  fixtures: string;
  capturesInbox: string;
  clearance: string;
}

const INBOX_KEEP = new Set(["README.md", ".gitignore"]);

function inboxFiles(entries: { path: string }[], layout: RepoLayout): string[] {
  return entries.map((e) => e.path).filter((p) => p.startsWith(`${layout.capturesInbox}/`) && !INBOX_KEEP.has(p.slice(layout.capturesInbox.length + 1)));
}

/** From git: `source` is a commit (any rev) or "index" for what is staged. */
export function treeFromGit(root: string, layout: RepoLayout, source: string): TreeToVerify {
  const paths = [layout.fixtures, layout.capturesInbox, layout.clearance];
  const entries: TreeEntry[] = source === "index" ? lsIndex(paths, root) : lsTree(source, paths, root);
  const fixtureEntries = entries.filter((e) => e.path.startsWith(`${layout.fixtures}/`));
  const record = entries.find((e) => e.path === layout.clearance);
  const blobs = readBlobs([...fixtureEntries.filter((e) => e.mode !== "120000").map((e) => e.sha), ...(record ? [record.sha] : [])], root);
  return {
    fixtures: fixtureEntries.filter((e) => e.mode !== "120000").map((e) => ({ path: e.path, sha256: sha256Hex(blobs.get(e.sha) as Buffer) })),
    links: fixtureEntries.filter((e) => e.mode === "120000").map((e) => e.path),
    record: record ? (blobs.get(record.sha) as Buffer).toString("utf8") : null,
    recordPath: layout.clearance,
    inbox: inboxFiles(entries, layout),
    fixturesDir: layout.fixtures,
  };
}

/** From the working tree, with the committed inbox read from the index. */
export async function treeFromWorkingTree(root: string, layout: RepoLayout): Promise<TreeToVerify> {
  const dir = path.join(root, layout.fixtures);
  const listed = (await fs.stat(dir).catch(() => null)) ? await listFiles([dir], root) : { files: [], links: [], missing: [] };
  const rel = (p: string): string => path.relative(root, p).split(path.sep).join("/");
  const fixtures = await Promise.all(listed.files.map(async (f) => ({ path: rel(f), sha256: sha256Hex(await fs.readFile(f)) })));
  const record = await fs.readFile(path.join(root, layout.clearance), "utf8").catch(() => null);
  return { fixtures, links: listed.links.map(rel), record, recordPath: layout.clearance, inbox: inboxFiles(lsIndex([layout.capturesInbox], root), layout), fixturesDir: layout.fixtures };
}

/** Where a repository keeps its inbox, fixtures and record: the contract's defaults, or clear.config.json's paths. */
export function repoPaths(config: { paths?: { capturesInbox?: string; fixtures?: string; clearance?: string } }): RepoLayout {
  const p = config.paths ?? {};
  return { capturesInbox: p.capturesInbox ?? "captures-inbox", fixtures: p.fixtures ?? "fixtures", clearance: p.clearance ?? "CLEARANCE.md" };
}
