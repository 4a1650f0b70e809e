import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { makeRealisticSitting } from "../bench/realistic.mjs";
import { adviceFor } from "../src/advice.js";
import { checkedValue } from "../src/commands/checked-output.js";
import { loadSetting } from "../src/io/setting.js";
import { sittingNames } from "../src/passes/substitute/index.js";
import { inventoryCommand } from "../src/commands/inventory.js";
import { runCommand } from "../src/commands/run.js";
import { selectCommand } from "../src/commands/select.js";
import { substituteCommand } from "../src/commands/substitute.js";
import { loadRules } from "../src/io/load-rules.js";
import { join } from "../src/passes/scan.js";
import type { Io } from "../src/types.js";
import { clear, clearJson, PROJECT_ROOT, tempDir } from "./helpers.js";

// Human output is a short summary: counts, and findings grouped by code with their first files
// and what to do; --verbose gives every line and --json every item. A progress line on a
// terminal is wiped before anything else is printed.

const SUMMARY_LINES = 60;
const lineCount = (text: string): number => text.split("\n").filter((l, i, all) => i < all.length - 1 || l !== "").length;

/** A member name no rule spells, built here so that no output may print it. */
const STRAY_MEMBER = ["stray", "member", "q7"].join("_");

/** 5,000 captures with repeats, refused tool outputs, unknown fields and a few broken files. */
function noisySitting(): string {
  const dir = path.join(tempDir("clear-output-"), "sitting");
  makeRealisticSitting(dir, 5000, 11);
  for (const n of [5, 6, 7]) {
    const file = path.join(dir, `codex_stop_0_153_0.${n}.json`);
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, "utf8")), [STRAY_MEMBER]: "value" }));
  }
  writeFileSync(path.join(dir, "claude-code_stop_2_1_261.1.json"), '{"session_id":');
  writeFileSync(path.join(dir, "codex_stop_0_153_0.9001.json"), Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]));
  writeFileSync(path.join(dir, "codex_stop_0_153_0.9002.json"), '{"session_id":"a","session_id":"b"}');
  writeFileSync(path.join(dir, "notes.txt"), "a note\n");
  symlinkSync("/etc/hostname", path.join(dir, "claude-code_session_end_2_1_261.1.json"));
  return dir;
}

/** The lines of one group: its title and what is indented under it. */
function groupOf(text: string, title: RegExp): string[] {
  const lines = text.split("\n");
  const at = lines.findIndex((l) => title.test(l));
  if (at < 0) return [];
  const indent = (l: string): number => l.length - l.trimStart().length;
  const end = lines.findIndex((l, i) => i > at && (l === "" || indent(l) <= indent(lines[at] as string)));
  return lines.slice(at, end < 0 ? undefined : end);
}

describe("short human output on a sitting of 5,000 captures", () => {
  let dir = "";
  beforeAll(() => {
    dir = noisySitting();
  });

  it("inventory: captures counted by harness, version and event; findings grouped by code with a count, the first files and what to do", () => {
    const r = clear(["inventory", dir]);
    expect(r.code).toBe(1);
    expect(lineCount(r.stdout), r.stdout).toBeLessThanOrEqual(SUMMARY_LINES);
    expect(r.stdout).toMatch(/^claude-code +2\.1\.261 +post_tool_use +1250 +1250$/m);
    expect(r.stdout).toMatch(/^codex +0\.153\.0 +pre_tool_use +0 +0 +missing \(recipe codex-measured\)$/m);
    const repeats = groupOf(r.stdout, /^ {2}note {2}extra-capture: \d+ findings in \d+ files$/);
    expect(repeats.length).toBeGreaterThan(1);
    expect(repeats.length).toBeLessThanOrEqual(5);
    expect(repeats.slice(1).some((l) => /\.json: repeat \.\d+ of /.test(l))).toBe(true);
    expect(repeats.at(-1)).toBe(`    What to do: ${adviceFor("extra-capture", "sitting")}.`);
    const broken = groupOf(r.stdout, /^ {2}BLOCK invalid-json: 1 finding in 1 file$/);
    expect(broken).toContain("    claude-code_stop_2_1_261.1.json line 1, column 15");
    expect(broken.at(-1)).toBe(`    What to do: ${adviceFor("invalid-json", "sitting")}.`);
    const unknown = groupOf(r.stdout, /^ {2}note {2}unknown-field: 3 findings in 3 files$/);
    expect(unknown.some((l) => l.includes("codex_stop_0_153_0.5.json /[masked]"))).toBe(true);
    for (const code of ["refused-class", "missing-event", "not-utf8", "duplicate-key", "symlink", "not-a-capture"]) {
      expect(r.stdout).toMatch(new RegExp(`^  BLOCK ${code}: \\d+ findings?`, "m"));
    }
    expect(r.stdout).not.toContain(STRAY_MEMBER);
    expect(r.stdout).toMatch(/5003 captures \(5000 valid\), 9 missing events, \d+ blocking findings, \d+ notes; .*: BLOCKED\n$/);
  });

  it("inventory --verbose gives every capture a row and every finding a line; --json gives every item", () => {
    const verbose = clear(["inventory", dir, "--verbose"]).stdout;
    const { json } = clearJson(["inventory", dir]);
    const files = json.files as { name: string }[];
    const findings = json.findings as { code: string }[];
    expect(files.length).toBe(5003);
    for (const f of files) expect(verbose).toMatch(new RegExp(`^${f.name.replaceAll(".", "\\.")} `, "m"));
    expect(verbose.split("\n").filter((l) => /^ {2}(BLOCK|note ) /.test(l)).length).toBe(findings.length);
    expect(findings.filter((f) => f.code === "extra-capture").length).toBeGreaterThan(4900);
    expect(verbose + JSON.stringify(json)).not.toContain(STRAY_MEMBER);
  });

  it("pair: pairs and files not paired counted by scope, with their first few; --verbose lists each", () => {
    const r = clear(["pair", dir]);
    expect(lineCount(r.stdout), r.stdout).toBeLessThanOrEqual(SUMMARY_LINES);
    expect(r.stdout).toMatch(/^Pairs, by scope: 1250$/m);
    expect(groupOf(r.stdout, /^ {2}claude-code tool_use_id: 1250 pairs of 2500 files$/).length).toBe(4);
    // Each file pairing could not read is skipped and blocks: the stray note and the link among them.
    expect(r.stdout).toMatch(/^Skipped: 5$/m);
    expect(r.stdout).toMatch(/1250 pairs, \d+ files not paired, 5 skipped: BLOCKED \(a skipped file's pairs are not known\)\n$/);
    expect(r.code).toBe(1);
    const verbose = clear(["pair", dir, "--verbose"]).stdout;
    expect(verbose.split("\n").filter((l) => l.startsWith("  tool_use_id ")).length).toBe(1250);
  });

  it("select: one line for each event chosen, the ones not chosen counted", () => {
    const r = clear(["select", dir]);
    expect(lineCount(r.stdout), r.stdout).toBeLessThanOrEqual(SUMMARY_LINES);
    expect(r.stdout).toMatch(/^ {2}not chosen: 1249 captures \(\d+ to \d+ bytes\), among them codex_stop_0_153_0\.\d+\.json/m);
    // What would block clear run blocks select too: the sitting's unreadable and refused captures, grouped.
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^Findings by code: \d+ blocking, 0 notes$/m);
    expect(r.stdout).toContain("BLOCK refused-class:");
    const verbose = clear(["select", dir, "--verbose"]).stdout;
    expect(verbose.split("\n").filter((l) => l.startsWith("  not chosen: ")).length).toBeGreaterThan(4900);
  });
});

describe("what a command prints of a sitting's values", () => {
  it("is starred only where one string holds what the scan finds: no reading joins the end of one string to the start of the next", async () => {
    const setting = loadSetting(undefined, tempDir(), { users: ["capturer"] });
    const names = sittingNames([], setting.rules, ["capturer"], setting.display);
    const out = await checkedValue({ a: ["extra-capture", "repeat .2 of pre_tool_use", "the capturer ran it"] }, setting, names);
    expect(out.a).toEqual(["extra-capture", "repeat .2 of pre_tool_use", "the ******** ran it"]);
  });
});

describe("a file name is printed on its own line, whatever it holds", () => {
  it("a line break or a terminal escape in a name is written as an escape by every command, short and verbose", () => {
    const dir = path.join(tempDir("clear-names-"), "sitting");
    mkdirSync(dir);
    writeFileSync(path.join(dir, "codex_session_start_0_153_0.1.json"), JSON.stringify({ session_id: "s", hook_event_name: "SessionStart", cwd: "/tmp/p" }));
    // Names that would print a line of their own, or colour and move the terminal.
    const names = ["codex_stop_0_153_0.9\nBLOCK forged.json", "codex_stop_0_153_0.8\rBLOCK forged.json", "x\u001b[31mred\u001b[2J.json", "codex_stop_0_153_0.7\u2028BLOCK forged.json"];
    for (const name of names) writeFileSync(path.join(dir, name), "{}");
    const out = tempDir();
    const runs = [["inventory", dir], ["inventory", dir, "--verbose"], ["pair", dir, "--verbose"], ["select", dir, "--verbose"], ["substitute", dir, "--out", path.join(out, "a")], ["substitute", dir, "--out", path.join(out, "b"), "--verbose"], ["scan", dir, "--verbose"]];
    for (const args of runs) {
      const r = clear(args);
      const text = r.stdout + r.stderr;
      expect(text, args.join(" ")).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u2028]/);
      expect(text.split("\n").filter((l) => /^\s*BLOCK forged/.test(l)), args.join(" ")).toEqual([]);
    }
    expect(clear(["inventory", dir]).stdout).toContain("codex_stop_0_153_0.9\\u000aBLOCK forged.json");
  });

  it("--json and SARIF write a C1 control, a bidi override, a zero-width or a separator in a name as an escape, and parse to the name", () => {
    const dir = path.join(tempDir("clear-names-"), "sitting");
    mkdirSync(dir);
    writeFileSync(path.join(dir, "codex_session_start_0_153_0.1.json"), JSON.stringify({ session_id: "s", hook_event_name: "SessionStart", cwd: "/tmp/p" }));
    // U+009B starts a terminal sequence as ESC [ does; U+202E turns the rest of the line around.
    const names = ["x\u009b2Jred.json", "x\u202egnp.json", "x\u200bhidden.json", "x\u2066isolated\u2069.json", "x\u2029para.json"];
    // A home path in each, so that the scan has a finding to place in every file.
    for (const name of names) writeFileSync(path.join(dir, name), JSON.stringify({ cwd: ["", "home", "capturer", "p"].join("/") }));
    const sarif = path.join(tempDir(), "out.sarif");
    const runs = [["inventory", dir, "--json"], ["pair", dir, "--json"], ["scan", dir, "--json", "--sarif", sarif]];
    for (const args of runs) {
      const r = clear(args);
      expect(r.stdout, args.join(" ")).not.toMatch(/[\u0080-\u009f\u200b-\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069]/u);
      const said = JSON.stringify(JSON.parse(r.stdout));
      for (const name of names) expect(said, args.join(" ")).toContain(JSON.stringify(name).slice(1, -1));
    }
    const log = readFileSync(sarif, "utf8");
    expect(log).not.toMatch(/[\u0080-\u009f\u200b-\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069]/u);
    const uris = JSON.stringify(JSON.parse(log));
    for (const name of names) expect(uris).toContain(encodeURIComponent(name));
  });
});

describe("short human output of scan over many files", () => {
  it("groups secrets by rule with their first files and says what to do once; --verbose and --json give every finding", () => {
    const dir = path.join(tempDir("clear-output-scan-"), "tree");
    for (let folder = 0; folder < 30; folder++) {
      mkdirSync(path.join(dir, `f${folder}`), { recursive: true });
      const text = (i: number): string => JSON.stringify({ n: i, text: "the file read line, project output" });
      for (let i = 0; i < 100; i++) writeFileSync(path.join(dir, `f${folder}`, `${i}.json`), text(i));
    }
    const rules = loadRules().secrets.rules.filter((r) => r.target !== "raw").slice(0, 3);
    for (const [i, rule] of rules.entries()) {
      const planted = JSON.stringify({ tool_response: join(rule.match[0] as string[]) });
      for (let copy = 0; copy < 5; copy++) writeFileSync(path.join(dir, `planted-${i}-${copy}.json`), planted);
    }
    const r = clear(["scan", dir]);
    expect(r.code).toBe(1);
    expect(lineCount(r.stdout), r.stdout).toBeLessThanOrEqual(SUMMARY_LINES);
    for (const rule of rules) {
      const group = groupOf(r.stdout, new RegExp(`^ {2}${rule.id.replaceAll("/", "\\/")}: 5 findings in 5 files$`));
      expect(group.length, rule.id).toBe(4);
      expect(group.slice(1).every((l) => l.startsWith(`    SECRET ${rule.id} `))).toBe(true);
    }
    expect(r.stdout.split("\n").filter((l) => l.includes("What to do: ")).length).toBe(1);
    expect(r.stdout).toContain(`  What to do: ${adviceFor("secret-found", "sitting")}.`);
    expect(r.stdout).toContain("Not scanned: 0; waived: 0; unused waivers: 0");
    expect(r.stdout).toMatch(/3015 files scanned, 15 findings, 0 not scanned; control: red as expected\n$/);
    const verbose = clear(["scan", dir, "--verbose"]).stdout;
    expect(verbose.split("\n").filter((l) => l.startsWith("SECRET ")).length).toBe(15);
    expect((clearJson(["scan", dir]).json.findings as unknown[]).length).toBe(15);
  });
});

const git = (cwd: string, ...args: string[]): { code: number; out: string } => {
  const r = spawnSync("git", args, { cwd, encoding: "utf8" });
  return { code: r.status ?? -1, out: r.stdout + r.stderr };
};

/** A repository whose one commit holds a README. */
function gitRepo(prefix: string, message: string): string {
  const root = tempDir(prefix);
  execFileSync("git", ["init", "-q", "-b", "main"], { cwd: root });
  git(root, "config", "user.email", "t@example.invalid");
  git(root, "config", "user.name", "t");
  writeFileSync(path.join(root, "README.md"), "x\n");
  git(root, "add", "README.md");
  git(root, "commit", "-qm", message);
  return root;
}

/** A repository with the hooks installed and a sitting of `count` captures, each of its own host version, cleared by clear run. */
function clearedRepo(count: number): string {
  const root = gitRepo("clear-output-gate-", "init");
  expect(clear(["hooks", "install"], { cwd: root }).code).toBe(0);
  makeRealisticSitting(path.join(root, "captures-inbox"), count, 3, { distinct: true, maxBytes: 1500 });
  const run = clear(["run"], { cwd: root });
  expect(run.code, run.stdout + run.stderr).toBe(0);
  return root;
}

const acceptAll = (root: string): void => {
  const file = path.join(root, "CLEARANCE.md");
  writeFileSync(file, readFileSync(file, "utf8").replace("The tool never does. -->\n\n", "The tool never does. -->\nACCEPT\n"));
};

describe("the gate's refusal", () => {
  it("at commit: one group per code for many fixtures, its count, its first files and the advice for a commit", () => {
    const root = clearedRepo(30);
    git(root, "add", "fixtures", "CLEARANCE.md");
    const r = git(root, "commit", "-qm", "fixtures");
    expect(r.code).not.toBe(0);
    const refusal = r.out.split("\n").filter((l) => l !== "");
    expect(refusal[0]).toBe("clear gate: this commit is refused: 60 blocking findings");
    const group = groupOf(r.out, /^ {2}BLOCK fixture-not-accepted: 60 findings in 60 files$/);
    expect(group.length).toBe(6);
    expect(group.slice(2, 5).every((l) => /^ {4}fixtures\/claude-code\/\S+\.json$/.test(l.replace(/, and \d+ more$/, "")))).toBe(true);
    expect(group[4]).toMatch(/, and 57 more$/);
    expect(group[5]).toBe(`    What to do: ${adviceFor("fixture-not-accepted", "commit")}.`);
    expect(refusal.length).toBeLessThanOrEqual(8);
    const verbose = clear(["gate", "pre-commit", "--verbose"], { cwd: root });
    expect(verbose.code).toBe(1);
    expect(verbose.stderr.split("\n").filter((l) => l.startsWith("  BLOCK fixture-not-accepted ")).length).toBe(60);
    const verify = clear(["verify"], { cwd: root });
    expect(verify.code).toBe(1);
    const inCi = groupOf(verify.stdout, /^ {2}BLOCK fixture-not-accepted: 60 findings in 60 files$/);
    expect(inCi.at(-1)).toBe(`    What to do: ${adviceFor("fixture-not-accepted", "verify")}.`);
    expect(verify.stdout).toMatch(/NOT verified\n$/);
    expect(lineCount(verify.stdout)).toBeLessThanOrEqual(10);
    expect(clear(["verify", "--verbose"], { cwd: root }).stdout.split("\n").filter((l) => l.startsWith("BLOCK fixture-not-accepted ")).length).toBe(60);
  });

  it("at push: a fixture changed after ACCEPT is told what fits a push, never to unstage or git rm --cached", () => {
    const root = clearedRepo(12);
    acceptAll(root);
    git(root, "add", "fixtures", "CLEARANCE.md");
    expect(git(root, "commit", "-qm", "accepted").code).toBe(0);
    const remote = tempDir("clear-output-remote-");
    execFileSync("git", ["init", "-q", "--bare"], { cwd: remote });
    git(root, "remote", "add", "origin", remote);
    const listed = execFileSync("git", ["ls-files", "fixtures"], { cwd: root, encoding: "utf8" }).split("\n");
    const fixtures = listed.filter((f) => f.endsWith(".json") && !f.endsWith(".provenance.json"));
    for (const f of fixtures.slice(0, 4)) writeFileSync(path.join(root, f), "{}");
    git(root, "add", "fixtures");
    expect(git(root, "commit", "-qm", "changed", "--no-verify").code).toBe(0);
    const r = git(root, "push", "-q", "origin", "main");
    expect(r.code).not.toBe(0);
    expect(r.out).toContain("clear gate: 1 commit to push refused (");
    const group = groupOf(r.out, /^ {2}BLOCK fixture-changed: 4 findings in 4 files$/);
    expect(group.at(-1)).toBe(`    What to do: ${adviceFor("fixture-changed", "push")}.`);
    expect(r.out).not.toMatch(/unstage|rm --cached/);
  });
});

/** What a terminal shows after these writes: \r goes back to the line's start, ESC[K wipes to its end. */
function screen(writes: string[]): string {
  const lines: string[] = [];
  let line: string[] = [];
  let col = 0;
  for (const text of writes) {
    for (let i = 0; i < text.length; i++) {
      const ch = text[i] as string;
      if (text.startsWith("\u001b[K", i)) {
        line = line.slice(0, col);
        i += 2;
      } else if (ch === "\r") col = 0;
      else if (ch === "\n") {
        lines.push(line.join(""));
        line = [];
        col = 0;
      } else line[col++] = ch;
    }
  }
  return [...lines, line.join("")].join("\n");
}

/** An Io on a terminal that keeps stdout and stderr in the order they were written. */
function terminalIo(cwd: string): { io: Io; writes: string[]; stdout: string[] } {
  const writes: string[] = [];
  const stdout: string[] = [];
  const io: Io = {
    stdout: (t) => {
      writes.push(t);
      stdout.push(t);
    },
    stderr: (t) => writes.push(t),
    cwd,
    tty: true,
  };
  return { io, writes, stdout };
}

describe("the progress line on a terminal", () => {
  let dir = "";
  beforeAll(() => {
    delete process.env.CLEAR_QUIET;
    dir = path.join(tempDir("clear-output-progress-"), "sitting");
    makeRealisticSitting(dir, 320, 9, { maxBytes: 1500 });
  });

  it("is said, and wiped before the summary: the screen holds the summary alone", async () => {
    const { io, writes, stdout } = terminalIo(dir);
    expect(await inventoryCommand.run([dir], io)).toBe(1);
    expect(writes.join("")).toContain("inventory of 320 entries");
    expect(screen(writes)).toBe(stdout.join(""));
    const out = path.join(tempDir(), "out");
    const cleared = terminalIo(dir);
    expect(await substituteCommand.run([dir, "--out", out], cleared.io)).toBe(0);
    expect(cleared.writes.join("")).toContain("writing 320 cleared files");
    expect(screen(cleared.writes)).toBe(cleared.stdout.join(""));
  });

  it("is wiped before an error that stops a command halfway", async () => {
    const { io, writes } = terminalIo(dir);
    expect(await selectCommand.run([dir, "--choose", "codex_stop_0_153_0.999.json"], io)).toBe(2);
    expect(writes.join("")).toContain("substituting 320 captures");
    expect(screen(writes)).toBe("clear: --choose: not a valid capture in this sitting: codex_stop_0_153_0.999.json\n");
  });

  it("is wiped before clear run says what it wrote", async () => {
    const root = tempDir("clear-output-run-");
    execFileSync("git", ["init", "-q"], { cwd: root });
    const inbox = path.join(root, "captures-inbox");
    mkdirSync(inbox);
    makeRealisticSitting(inbox, 320, 9, { maxBytes: 1500 });
    const { io, writes, stdout } = terminalIo(root);
    expect(await runCommand.run([], io)).toBe(0);
    expect(writes.join("")).toContain("scanning ");
    expect(stdout.join("")).toMatch(/^batch b-\S+: \d+ fixtures written/);
    expect(screen(writes)).toBe(stdout.join(""));
  });
});

describe("a repository's file named after a key or a home", () => {
  it("is printed by the gate and verify with the key starred, short, verbose and --json, at commit, at push and for a range", () => {
    const root = gitRepo("clear-output-named-", "base");
    const key = join(["AKIA", "Z7VRSQ5T", "EXNWL3KH"]);
    mkdirSync(path.join(root, "fixtures", "claude-code", "2.1.261"), { recursive: true });
    writeFileSync(path.join(root, "fixtures", "claude-code", "2.1.261", `${key}.json`), "{}\n");
    git(root, "add", "fixtures");
    const said = (r: { stdout: string; stderr: string }): string => r.stdout + r.stderr;
    const commit = clear(["gate", "pre-commit"], { cwd: root });
    expect(commit.code).toBe(1);
    expect(commit.stderr).toContain(`fixtures/claude-code/2.1.261/${"*".repeat(key.length)}.json`);
    const runs = [clear(["gate", "pre-commit", "--verbose"], { cwd: root }), clear(["verify"], { cwd: root }), clear(["verify", "--verbose"], { cwd: root }), clear(["verify", "--json"], { cwd: root })];
    git(root, "commit", "-qm", "named", "--no-verify");
    const head = git(root, "rev-parse", "HEAD").out.trim();
    runs.push(clear(["verify", "--range", "HEAD~1..HEAD", "--json"], { cwd: root }), clear(["verify", "--rev", "HEAD", "--verbose"], { cwd: root }));
    const push = spawnSync(process.execPath, [path.join(PROJECT_ROOT, "dist", "cli.js"), "gate", "pre-push", "origin"], { cwd: root, encoding: "utf8", input: `refs/heads/main ${head} refs/heads/main ${"0".repeat(40)}\n` });
    expect(push.status).toBe(1);
    for (const r of [commit, ...runs, push]) {
      expect(r.stdout + r.stderr).toMatch(/fixture-not-accepted/);
      expect(said(r)).not.toContain(key.slice(4));
    }
    expect(push.stderr).toContain(head.slice(0, 12));
  });
});
