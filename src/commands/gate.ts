import { parseFlags, UsageError } from "../cli-args.js";
import { guarded, type Command } from "../command.js";
import { preCommit, prePush } from "../clearance/gate.js";
import { repoPaths } from "../io/repo-tree.js";
import { loadConfig, repoRoot } from "../io/repo.js";
import type { Io } from "../io/setting.js";

const help = `clear gate pre-commit | pre-push

What the installed git hooks run. pre-commit checks the staged tree (the index, not the working
tree); pre-push reads the refs on stdin and checks the tree of every commit being pushed, new
branches and tags included, so a commit made with --no-verify still cannot leave the machine.
A commit that touches none of fixtures/, captures-inbox/ and CLEARANCE.md passes at once.
`;

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
