import { parseFlags, UsageError } from "../cli-args.js";
import { guarded, type Command } from "../command.js";
import { blocks } from "../findings.js";
import { repoPaths, treeFromGit, treeFromWorkingTree } from "../io/repo-tree.js";
import { loadSetting, type Io } from "../io/setting.js";
import { verifyPass } from "../passes/verify.js";
import { findingLine } from "../render/human.js";
import { writeJson } from "../render/json.js";


const help = `clear verify [--root DIR] [--rev REV] [--json]

For CI: every file under fixtures/ is listed, with a matching SHA-256, in an accepted batch of
CLEARANCE.md whose digest still holds (a later accepted listing of a path supersedes an earlier
one); every fixture a batch lists is present; no link is among the fixtures; nothing under
captures-inbox/ is committed. With --rev, the commit's tree is checked, read through git.
Exit 0 when all holds, 1 with a finding naming the file, 2 on usage errors.
`;

async function run(argv: string[], io: Io): Promise<number> {
  const { values } = parseFlags(argv, { json: { type: "boolean" }, root: { type: "string" }, rev: { type: "string" } }, 0, "verify");
  const setting = loadSetting(values.root, io.cwd);
  if (setting.root === null) throw new UsageError("clear verify works inside a git repository (or give --root DIR)");
  const layout = repoPaths(setting.config);
  const tree = values.rev !== undefined ? treeFromGit(setting.root, layout, values.rev) : await treeFromWorkingTree(setting.root, layout);
  const findings = verifyPass(tree);
  const ok = !blocks(findings);
  if (values.json) writeJson(io, { command: "verify", ok, fixtures: tree.fixtures.length, findings });
  else io.stdout(`${[...findings.map(findingLine), `${tree.fixtures.length} fixture files checked: ${ok ? "all accepted" : "NOT all accepted"}`].join("\n")}\n`);
  return ok ? 0 : 1;
}

export const verifyCommand: Command = { help, run: (argv, io) => guarded(io, argv, () => run(argv, io)) };
