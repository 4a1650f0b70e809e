import { parseFlags, UsageError } from "../cli-args.js";
import { guarded, type Command } from "../command.js";
import { blocks, type Finding } from "../findings.js";
import { git } from "../io/git.js";
import { repoPaths, treeFromGit, type RepoLayout } from "../io/repo-tree.js";
import { loadConfig, repoRoot } from "../io/repo.js";
import type { Io } from "../io/setting.js";
import { verifyPass } from "../passes/verify.js";
import { findingLine } from "../render/human.js";

const help = `clear gate pre-commit | pre-push

What the installed git hooks run. pre-commit checks the staged tree (the index, not the working
tree); pre-push reads the refs on stdin and checks the tree of every commit being pushed, new
branches and tags included, so a commit made with --no-verify still cannot leave the machine.
A commit that touches none of fixtures/, captures-inbox/ and CLEARANCE.md passes at once.
`;

const ZERO = /^0+$/;

function touches(paths: string[], layout: RepoLayout): boolean {
  return paths.some((p) => p === layout.clearance || p.startsWith(`${layout.fixtures}/`) || p.startsWith(`${layout.capturesInbox}/`));
}

function report(io: Io, where: string, findings: Finding[]): void {
  io.stderr(`clear gate: ${where} is refused:\n${findings.map((f) => `  ${findingLine(f)}`).join("\n")}\n`);
  io.stderr("  What to do: unstage raw captures; run clear run, read CLEARANCE.md and write ACCEPT under the new batch; then commit again.\n");
}

function preCommit(root: string, layout: RepoLayout, io: Io): number {
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

function prePush(root: string, layout: RepoLayout, io: Io, stdin: string): number {
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

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return "";
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

async function run(argv: string[], io: Io): Promise<number> {
  const { positionals } = parseFlags(argv, {}, 1, "gate");
  const hook = positionals[0];
  if (hook !== "pre-commit" && hook !== "pre-push") throw new UsageError("clear gate takes pre-commit or pre-push");
  const root = repoRoot(undefined, io.cwd);
  if (root === null) throw new UsageError("clear gate runs inside a git repository");
  // The fast path loads no rules and no scanner: only the repository's layout.
  const layout = repoPaths(loadConfig(root));
  return hook === "pre-commit" ? preCommit(root, layout, io) : prePush(root, layout, io, await readStdin());
}

export const gateCommand: Command = { help, run: (argv, io) => guarded(io, argv, () => run(argv, io)) };
