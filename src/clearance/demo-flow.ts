import { spawnSync } from "node:child_process";
import { promises as fs } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { installHooks } from "../io/hooks.js";
import { loadSetting } from "../io/setting.js";
import type { Io } from "../types.js";
import { clearIntoRepo } from "../line.js";

// The whole flow on the bundled example, in a temporary git repository: hooks, run, the gate
// refusing, ACCEPT written as a person would, the commit going through.

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

/** The demo's flow in `work`, said step by step; true when every step went as it should. */
export async function demoFlow(work: string, io: Io): Promise<boolean> {
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

