import { parseFlags, UsageError } from "../cli-args.js";
import { commitJudges } from "../clearance/commit-rules.js";
import { checkCommits, checkRulesFolder, checkTree, commitsInRange, headCommitLater, namedTagFindings, rangeEnds, rawCaptureJudge, refused, rewrittenAsWhole, rewrittenInWorkingTree } from "../clearance/gate.js";
import { pushAll } from "../collections.js";
import { guarded, type Command } from "../command.js";
import { blocks, type Finding } from "../findings.js";
import { clearMemory } from "../io/blob-digests.js";
import { lsIndexLater } from "../io/git.js";
import { candidatePathsLater, candidatesFromWorkingTree, guardedFromWorkingTree, inOtherSpelling, repoPaths, repositoriesInside, submodulesOnDisk, touchesPlaces, untrackedPathsLater } from "../io/repo-tree.js";
import { loadConfig, repoRoot, rulesDirFor } from "../io/repo.js";
import { rawCaptureRulesKey } from "../io/rules-dir.js";
import type { Io } from "../types.js";
import { toolVersion } from "../version.js";
import { verifyPass } from "../passes/verify.js";
import { RecordError } from "../record/parse.js";
import { printable } from "../record/data.js";
import { writeJson } from "../render/json.js";

function unreadable(findings: Finding[]): void {
  const bad = findings.find((f) => f.code === "record-unreadable");
  if (bad) throw new RecordError(bad.message);
}

/** A range's findings about what it does as a whole (BASE against HEAD), which no one commit of it does. */
interface RangeFindings {
  range: string;
  findings: Finding[];
}

/** The verdict, and the findings before it: the renderers are loaded only where there are findings to print. */
async function verifyText(findings: Finding[], commits: { commit: string; findings: Finding[] }[] | undefined, range: RangeFindings | undefined, verbose: boolean, ok: boolean): Promise<string> {
  const verdict = ok ? "verified: every fixture accepted, no raw capture, no link" : "NOT verified";
  if (findings.length === 0 && (commits === undefined || commits.length === 0)) return `${printable(verdict)}\n`;
  const [{ EVERY_FINDING, findingLine, findingsText, printableLines, refusalGroups }, { groupLines }] = await Promise.all([import("../render/human.js"), import("../render/grouped.js")]);
  const whole = range === undefined ? [] : [{ commit: null, about: `range ${range.range} as a whole`, findings: range.findings }];
  if (verbose) {
    const byCommit = (c: { commit: string | null; about?: string; findings: Finding[] }): string[] => [
      `${c.about ?? `commit ${(c.commit ?? "").slice(0, 12)}`}:`,
      ...c.findings.map((f) => `  ${findingLine(f)}`),
    ];
    const lines = commits ? [...commits, ...whole].flatMap(byCommit) : findingsText(findings, "verify", true);
    return printableLines([...lines, verdict]);
  }
  if (findings.length === 0) return printableLines([verdict]);
  if (!commits) return printableLines([...findingsText(findings, "verify", false), verdict]);
  const over = `in ${commits.length} commits${whole.length > 0 ? ` and the range ${range?.range} as a whole` : ""}`;
  return printableLines([`Findings by code, ${over}:`, ...groupLines(refusalGroups([...commits, ...whole], "verify", false)), EVERY_FINDING, verdict]);
}

const FLAGS = {
  json: { type: "boolean" },
  verbose: { type: "boolean" },
  root: { type: "string" },
  rev: { type: "string" },
  range: { type: "string" },
} as const;

async function run(argv: string[], io: Io): Promise<number> {
  const { values } = parseFlags(argv, FLAGS, 0, "verify");
  if (values.rev !== undefined && values.range !== undefined) throw new UsageError("clear verify takes --rev or --range, not both");
  const root = repoRoot(values.root, io.cwd);
  if (root === null) throw new UsageError("clear verify works inside a git repository (or give --root DIR)");
  // Only the rules a raw capture is known by, and only when a file needs them, as the gate does.
  const config = loadConfig(root);
  const rulesDir = rulesDirFor(root, config);
  await checkRulesFolder(rulesDir);
  const judge = rawCaptureJudge(rulesDir);
  let findings: Finding[];
  let commits: { commit: string; findings: Finding[] }[] | undefined;
  let range: RangeFindings | undefined;
  if (values.range !== undefined) {
    const [from, to] = rangeEnds(root, values.range);
    const verdicts = await checkCommits(root, commitsInRange(root, [from, to]), judge, commitJudges(root, rulesDir, judge));
    // What the range does as a whole, as a push of it does: a batch BASE accepted is not rewritten by HEAD.
    // No commit of it did that against its parent: the range is named, not its last commit.
    const whole = [...rewrittenAsWhole(root, [{ from, to }], verdicts), ...(await namedTagFindings(root, to, judge))];
    if (whole.length > 0) range = { range: values.range, findings: whole };
    commits = refused(verdicts);
    findings = [...commits.flatMap((c) => c.findings), ...whole];
  } else if (values.rev !== undefined) findings = await checkTree(root, values.rev, judge, commitJudges(root, rulesDir, judge));
  else {
    const layout = repoPaths(config);
    // The index is listed once: for places in another spelling, the inbox and the tracked files;
    // what `git add -A` would add is read as well, as the next commit may hold it.
    // git lists them while the fixtures are read from disk.
    const [listed, others, head] = [lsIndexLater(root), untrackedPathsLater(root), headCommitLater(root)];
    const candidatePaths = candidatePathsLater(root, layout, listed, others);
    const guardedState = await guardedFromWorkingTree(root, layout, listed, others);
    const [index, untracked] = [await listed, await others];
    const otherSpelling = inOtherSpelling([...index.map((e) => e.path), ...untracked.map((u) => u.path)], layout);
    // What the check found clear before (same tool, rules, path and bytes) is not read again.
    const memory = clearMemory(root, rawCaptureRulesKey(rulesDir, toolVersion()));
    // A repository checked out inside the working tree (a submodule) is read too, as the gate reads the commit it names.
    const inside = repositoriesInside(index, untracked).filter((e) => !touchesPlaces([e.path], layout));
    const candidates = [...candidatesFromWorkingTree(root, await candidatePaths), ...(await submodulesOnDisk(root, inside))];
    findings = await verifyPass({ guarded: guardedState, candidates, otherSpelling }, judge, memory);
    memory.save();
    pushAll(findings, rewrittenInWorkingTree(root, layout, await head));
  }
  unreadable(findings);
  const ok = !blocks(findings);
  if (findings.length > 0) {
    // The output's check is loaded only where there is something to print but the verdict.
    const { checkedFindings, rawCaptureTexts } = await import("./checked-output.js");
    // A range's findings as a whole are of accepted batches, never of a raw capture: its commits' findings say where each was found.
    const found = commits?.map((c) => ({ source: c.commit, findings: c.findings })) ?? [{ source: values.rev ?? null, findings }];
    ({ findings, commits, range } = await checkedFindings({ findings, commits, range }, root, io.cwd, rawCaptureTexts(root, found)));
  }
  if (values.json) writeJson(io, { command: "verify", ok, ...(commits ? { commits } : {}), ...(range ? { range } : {}), findings });
  else io.stdout(await verifyText(findings, commits, range, values.verbose === true, ok));
  return ok ? 0 : 1;
}

export const verifyCommand: Command = { run: (argv, io) => guarded(io, argv, () => run(argv, io)) };
