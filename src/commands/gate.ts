import { parseFlags, UsageError } from "../cli-args.js";
import { guarded, type Command } from "../command.js";
import { commitJudges, stagedJudge } from "../clearance/commit-rules.js";
import { checkCommits, checkRulesFolder, checkStaged, commitsToPush, configAt, rawCaptureJudge, refused, rewrittenAsWhole } from "../clearance/gate.js";
import { blocks } from "../findings.js";
import { repoPaths } from "../io/repo-tree.js";
import { loadConfig, repoRoot, rulesDirFor } from "../io/repo.js";
import type { Io } from "../types.js";

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
  const rulesDir = rulesDirFor(root, config);
  await checkRulesFolder(rulesDir);
  const judge = rawCaptureJudge(rulesDir);
  if (hook === "pre-commit") {
    // What the commit itself holds counts too: harness catalogues staged beside a capture of theirs.
    const staged = stagedJudge(root, rulesDir, judge, () => configAt(root, "index"));
    const found = await checkStaged(root, repoPaths(config), staged);
    if (found.every((f) => f.severity !== "block")) return 0;
    // The output's check and the report's renderer are loaded only for a refusal: a clean commit never needs them.
    const { checkedFindings, rawCaptureTexts } = await import("./checked-output.js");
    const { findings } = await checkedFindings({ findings: found }, root, io.cwd, rawCaptureTexts(root, [{ source: "", findings: found }]));
    const { gateReport } = await import("../render/human.js");
    io.stderr(gateReport([{ commit: null, findings }], "commit", { verbose }));
    return 1;
  }
  const push = await commitsToPush(root, { stdin: await readStdin(), remote: positionals[1], url: positionals[2], env: process.env }, judge);
  const verdicts = await checkCommits(root, push.commits, judge, commitJudges(root, rulesDir, judge));
  // What the push does as a whole to what the destination holds, as well as each commit against its parents.
  const findings = [...push.findings, ...rewrittenAsWhole(root, push.replaced, verdicts)];
  const bad = [...(blocks(findings) ? [{ commit: null, findings }] : []), ...refused(verdicts)];
  if (bad.length === 0) return 0;
  const { checkedFindings, rawCaptureTexts } = await import("./checked-output.js");
  const teachers = rawCaptureTexts(root, bad.map((v) => ({ source: v.commit ?? push.commits.at(-1) ?? null, findings: v.findings })));
  const { shown } = await checkedFindings({ shown: bad }, root, io.cwd, teachers);
  const { gateReport } = await import("../render/human.js");
  io.stderr(gateReport(shown, "push", { note: `checked ${push.commits.length} commit${push.commits.length === 1 ? "" : "s"}: ${push.how}`, verbose }));
  return 1;
}

export const gateCommand: Command = { run: (argv, io) => guarded(io, argv, () => run(argv, io)) };
