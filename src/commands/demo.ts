import { spawnSync } from "node:child_process";
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseFlags } from "../cli-args.js";
import { clearIntoRepo } from "../clearance/clear-into-repo.js";
import { guarded, type Command } from "../command.js";
import { installHooks } from "../io/hooks.js";
import { loadSetting, type Io } from "../io/setting.js";

const help = `clear demo [--keep]

The whole flow on the bundled example sitting (examples/sitting: synthetic, labelled as an
example), in a temporary git repository: install the hooks, clear the sitting into fixtures and a
CLEARANCE.md batch, show the gate refusing the commit, write ACCEPT as a person would, show the
commit going through. The project's own files are not touched. --keep leaves the repository.
`;

export const EXAMPLE_SITTING = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "examples", "sitting");

function git(cwd: string, ...args: string[]): { code: number; text: string } {
  const r = spawnSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, GIT_AUTHOR_NAME: "demo", GIT_AUTHOR_EMAIL: "demo@example.invalid", GIT_COMMITTER_NAME: "demo", GIT_COMMITTER_EMAIL: "demo@example.invalid" } });
  return { code: r.status ?? -1, text: `${r.stdout}${r.stderr}`.trim() };
}

/** What a person does after reading the batch: ACCEPT alone on the line under the comment. */
async function writeAccept(record: string): Promise<void> {
  const text = await fs.readFile(record, "utf8");
  await fs.writeFile(record, text.replace(/(The tool never does\. -->\n)\n/, "$1ACCEPT\n"));
}

async function flow(work: string, io: Io): Promise<boolean> {
  const say = (title: string, text = ""): void => io.stdout(`\n== ${title}\n${text ? `\n${text}\n` : ""}`);
  git(work, "init", "-q", "-b", "main");
  await fs.writeFile(path.join(work, ".gitignore"), "/captures-inbox/*\n!/captures-inbox/README.md\n");
  git(work, "add", ".gitignore");
  git(work, "commit", "-qm", "an empty repository that clears captures");
  await fs.cp(EXAMPLE_SITTING, path.join(work, "captures-inbox"), { recursive: true });
  say("clear hooks install", installHooks(work).lines.join("\n"));
  const result = await clearIntoRepo(loadSetting(work, work), work, undefined);
  say(`clear run: batch ${result.batch}`, result.fixtures.join("\n"));
  const record = path.join(work, "CLEARANCE.md");
  const batchHead = (await fs.readFile(record, "utf8")).split("\n").filter((l) => /^(## |- Status|- Harness|### )/.test(l));
  say("CLEARANCE.md, the headings a person reads", batchHead.join("\n"));
  git(work, "add", "fixtures", "CLEARANCE.md");
  const refused = git(work, "commit", "-qm", "fixtures from the example sitting");
  say(`git commit before ACCEPT: exit ${refused.code} (refused by the gate)`, refused.text);
  await writeAccept(record);
  git(work, "add", "CLEARANCE.md");
  const allowed = git(work, "commit", "-qm", "fixtures from the example sitting, accepted");
  say(`git commit after ACCEPT: exit ${allowed.code}`, git(work, "log", "--oneline").text);
  return result.blockers.length === 0 && refused.code !== 0 && allowed.code === 0;
}

async function run(argv: string[], io: Io): Promise<number> {
  const { values } = parseFlags(argv, { keep: { type: "boolean" } }, 0, "demo");
  const work = await fs.mkdtemp(path.join(os.tmpdir(), "clear-demo-"));
  try {
    const ok = await flow(work, io);
    io.stdout(`\n${ok ? "The flow went as it should" : "The flow did NOT go as it should"}${values.keep ? `; the repository is kept at ${work}` : ""}.\n`);
    return ok ? 0 : 1;
  } finally {
    if (!values.keep) await fs.rm(work, { recursive: true, force: true });
  }
}

export const demoCommand: Command = { help, run: (argv, io) => guarded(io, argv, () => run(argv, io)) };
