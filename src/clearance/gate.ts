import { blocks, type Finding } from "../findings.js";
import { git } from "../io/git.js";
import { treeFromGit, type RepoLayout } from "../io/repo-tree.js";
import type { Io } from "../io/setting.js";
import { verifyPass } from "../passes/verify.js";
import { findingLine } from "../render/human.js";

// The gate: the staged tree at pre-commit, every pushed commit's tree at pre-push, each checked
// by the one verify pass. A commit touching none of the fixtures, the inbox and the record passes.

const ZERO = /^0+$/;

function touches(paths: string[], layout: RepoLayout): boolean {
  return paths.some((p) => p === layout.clearance || p.startsWith(`${layout.fixtures}/`) || p.startsWith(`${layout.capturesInbox}/`));
}

function report(io: Io, where: string, findings: Finding[]): void {
  io.stderr(`clear gate: ${where} is refused:\n${findings.map((f) => `  ${findingLine(f)}`).join("\n")}\n`);
  io.stderr("  What to do: unstage raw captures; run clear run, read CLEARANCE.md and write ACCEPT under the new batch; then commit again.\n");
}

export function preCommit(root: string, layout: RepoLayout, io: Io): number {
  const staged = git(["diff", "--cached", "--name-only", "-z"], root).toString("utf8").split("\0").filter(Boolean);
  if (!touches(staged, layout)) return 0;
  const findings = verifyPass(treeFromGit(root, layout, "index"));
  if (!blocks(findings)) return 0;
  report(io, "this commit", findings);
  return 1;
}

function commitsToPush(root: string, localSha: string, remoteSha: string): string[] {
  const range = ZERO.test(remoteSha) ? [localSha, "--not", "--remotes"] : [localSha, `^${remoteSha}`];
  return git(["rev-list", ...range], root).toString("utf8").split("\n").filter(Boolean);
}

export function prePush(root: string, layout: RepoLayout, io: Io, stdin: string): number {
  let refused = 0;
  for (const line of stdin.split("\n").filter(Boolean)) {
    const [localRef, localSha, , remoteSha] = line.split(" ") as [string, string, string, string];
    if (ZERO.test(localSha)) continue; // a deletion carries no commit
    for (const commit of commitsToPush(root, localSha, remoteSha ?? "0")) {
      const findings = verifyPass(treeFromGit(root, layout, commit));
      if (!blocks(findings)) continue;
      report(io, `commit ${commit.slice(0, 12)} on ${localRef}`, findings);
      refused++;
    }
  }
  return refused > 0 ? 1 : 0;
}

