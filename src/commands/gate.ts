import { parseFlags, UsageError } from "../cli-args.js";
import { guarded, type Command } from "../command.js";
import { checkCommits, checkStaged, commitsToPush, refused } from "../clearance/gate.js";
import { blocks } from "../findings.js";
import { loadRawCaptureRules } from "../io/load-rules.js";
import { repoPaths } from "../io/repo-tree.js";
import { loadConfig, repoRoot, rulesDirFor } from "../io/repo.js";
import type { Io } from "../types.js";
import { rawCaptureCheck, type RawCaptureCheck } from "../passes/raw-capture.js";
import { gateReport } from "../render/human.js";
import { HELP } from "./help.js";

const help = HELP["gate"];

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
  const push = commitsToPush(root, { stdin: await readStdin(), remote: positionals[1], env: process.env }, lazyCheck);
  const bad = [...(blocks(push.findings) ? [{ commit: null, findings: push.findings }] : []), ...refused(checkCommits(root, push.commits, lazyCheck))];
  if (bad.length === 0) return 0;
  io.stderr(gateReport(bad, "push", { note: `checked ${push.commits.length} commits: ${push.how}`, verbose }));
  return 1;
}

export const gateCommand: Command = { help, run: (argv, io) => guarded(io, argv, () => run(argv, io)) };
