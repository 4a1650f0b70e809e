import { parseFlags, UsageError } from "../cli-args.js";
import { guarded, type Command } from "../command.js";
import { checkCommits, checkStaged, commitsToPush, refused } from "../clearance/gate.js";
import { loadRawCaptureRules } from "../io/load-rules.js";
import { repoPaths } from "../io/repo-tree.js";
import { loadConfig, repoRoot, rulesDirFor } from "../io/repo.js";
import type { Io } from "../types.js";
import { rawCaptureCheck, type RawCaptureCheck } from "../passes/raw-capture.js";
import { gateReport } from "../render/human.js";

const help = `clear gate pre-commit | pre-push [<remote> <url>] [--verbose]

What the installed git hooks run. pre-commit checks what is staged (the index, not the working
tree). pre-push checks every commit the destination does not have yet (by the ref lines git gives
on standard input and the remote's tracking refs; with no ref lines, the pre-commit framework's
PRE_COMMIT_FROM_REF/TO_REF, else every local branch and tag the remote lacks), so a commit made
with --no-verify still cannot leave the machine. Refused: a fixture no accepted batch lists with
its digest, a link where the tool's own files stand, and a raw capture anywhere in the tree, by
its name or by its content. A refusal says each kind of finding once: how many, the first files
and what to do; --verbose lists every finding of every commit.
`;

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return "";
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

async function run(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseFlags(argv, { verbose: { type: "boolean" } }, 3, "gate");
  const verbose = values.verbose === true;
  const hook = positionals[0];
  if (hook !== "pre-commit" && hook !== "pre-push") throw new UsageError("clear gate takes pre-commit or pre-push");
  const root = repoRoot(undefined, io.cwd);
  if (root === null) throw new UsageError("clear gate runs inside a git repository");
  const config = loadConfig(root);
  let check: RawCaptureCheck | null = null;
  const lazyCheck = (): RawCaptureCheck => {
    if (check === null) {
      const r = loadRawCaptureRules(rulesDirFor(root, config));
      check = rawCaptureCheck(r.harnesses, r.payloads);
    }
    return check;
  };
  if (hook === "pre-commit") {
    const findings = checkStaged(root, repoPaths(config), lazyCheck);
    if (findings.every((f) => f.severity !== "block")) return 0;
    io.stderr(gateReport([{ commit: null, findings }], "commit", { verbose }));
    return 1;
  }
  const push = commitsToPush(root, { stdin: await readStdin(), remote: positionals[1], env: process.env });
  const bad = refused(checkCommits(root, push.commits, lazyCheck));
  if (bad.length === 0) return 0;
  io.stderr(gateReport(bad, "push", { note: `checked ${push.commits.length} commits: ${push.how}`, verbose }));
  return 1;
}

export const gateCommand: Command = { help, run: (argv, io) => guarded(io, argv, () => run(argv, io)) };
