import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { join } from "../src/passes/scan.js";
import { clear, tempDir, type Run } from "./helpers.js";

// What a one-line error says back of the command line or of a file it could not read is checked as
// a fixture is: a token given as a path, a flag, a recipe, a --choose value, a range or a command
// keeps only its key prefix; a name (a home's owner, --user, clear.config.json's users) becomes the
// placeholder; a broken JSON file is said with its line and column, never with the parser's quote.
// The message still names the file or the flag.

// A well-shaped GitHub token and a user name, built here so that no source file holds them.
const TOKEN = join(["gh", "p_", "aB3dE5fG7hJ9kL1mN3pQ", "5rS7tU9vW1xY3z5A"]);
const TAIL = TOKEN.slice(8);
const NAME = join(["zorb", "axq"]);

const PHONE = ["415", "555", "0100"].join("-");

const printed = (r: Run): string => r.stdout + r.stderr;

function expectNothingOf(r: Run, words: string[] = [TAIL, NAME, PHONE]): void {
  const all = printed(r);
  for (const w of words) expect(all.toLowerCase()).not.toContain(w.toLowerCase());
}

function gitRepo(): string {
  const root = tempDir("clear-said-back-");
  execFileSync("git", ["init", "-q", root]);
  execFileSync("git", ["-C", root, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-q", "--allow-empty", "-m", "init"]);
  return root;
}

describe("an error says back no token and no name", () => {
  const missing = path.join(os.tmpdir(), "clear-said-back-none");

  it.each([
    ["scan of a path", ["scan", path.join(missing, TOKEN)], "no such file or folder"],
    ["scan of another's home", ["scan", `/home/${NAME}/x`], "/home/user/x"],
    ["an unknown flag", ["scan", `--${TOKEN}`], "Unknown option"],
    ["an unknown flag beside --user", ["substitute", missing, "--out", missing, "--user", NAME, `--x-${NAME}`], "Unknown option"],
    ["--root", ["run", "--root", path.join(missing, TOKEN)], "--root"],
    ["a capture folder", ["inventory", path.join(missing, TOKEN)], "no such folder"],
    ["a review folder", ["review", path.join(missing, TOKEN)], "no such folder"],
    ["a command", [TOKEN], "unknown command"],
    ["a recipe", ["inventory", missing, "--recipe", TOKEN], "no recipe named"],
    ["a folder named for a mailbox", ["inventory", path.join(missing, `${NAME}@example.org`, "s")], "no such folder"],
    ["a phone number as --recipe", ["inventory", missing, "--recipe", `tel-${PHONE}`], "no recipe named"],
  ])("%s", (_what, args, says) => {
    const r = clear(args);
    expect(r.code).toBe(2);
    expectNothingOf(r);
    expect(r.stderr).toContain(says);
    if (args.includes(TOKEN)) expect(r.stderr).toContain(TOKEN.slice(0, 4));
    const j = clear([...args, "--json"]);
    expectNothingOf(j);
  });

  it("--choose and --range in a repository whose clear.config.json names the user", () => {
    const root = gitRepo();
    writeFileSync(path.join(root, "clear.config.json"), JSON.stringify({ users: [NAME] }));
    const sitting = tempDir("clear-said-back-sitting-");
    for (const value of [TOKEN, NAME]) {
      const chosen = clear(["select", sitting, "--choose", value, "--json"], { cwd: root });
      expectNothingOf(chosen);
      expect(chosen.stderr).toContain("--choose");
      const range = clear(["verify", "--range", `${value}..HEAD`], { cwd: root });
      expect(range.code).toBe(2);
      expectNothingOf(range);
      expect(range.stderr).toContain("--range");
    }
  });

  it("a broken clear.config.json, rules file or kit.json is said by line and column, not by the parser's quote", () => {
    const root = gitRepo();
    writeFileSync(path.join(root, "clear.config.json"), `{"users": ["${NAME}"], "x": ${NAME}}`);
    const config = clear(["verify", "--root", root]);
    expect(config.code).toBe(2);
    expectNothingOf(config);
    expect(config.stderr).toMatch(/clear\.config\.json: not valid JSON at line 1, column \d+ \(unexpected 'z'\)/);

    const other = gitRepo();
    mkdirSync(path.join(other, "rules", "recipes"), { recursive: true });
    writeFileSync(path.join(other, "rules", "recipes", "x.json"), `{"name": ${NAME}}`);
    const rules = clear(["run", "--root", other]);
    expect(rules.code).toBe(2);
    expectNothingOf(rules);
    expect(rules.stderr).toMatch(/x\.json: not valid JSON at line 1, column 10 \(unexpected 'z'\)/);

    const kit = path.join(tempDir("clear-said-back-kit-"), "kit.json");
    writeFileSync(kit, `{"head": ${NAME}}`);
    const read = clear(["verify-kit", "--kit", kit, "--root", gitRepo()]);
    expect(read.code).toBe(2);
    expectNothingOf(read);
    expect(read.stderr).toContain("kit.json: cannot be read as JSON at line 1, column 10 (unexpected 'z')");
  });
});

describe("clear capture start and setup print no secret shape and write none", () => {
  it.each([
    ["--into", (dir: string) => ["capture", "start", "claude-code", "--into", path.join(dir, `cap_${TOKEN}`)]],
    ["--driver", (dir: string) => ["capture", "start", "claude-code", "--into", path.join(dir, "cap"), "--driver", `me ${TOKEN}`]],
    ["--project", (dir: string) => ["capture", "setup", "claude-code", "--project", path.join(dir, `proj_${TOKEN}`)]],
  ])("a secret shape in %s is refused, masked", (flag, args) => {
    const dir = tempDir("clear-said-back-capture-");
    const r = clear(args(dir));
    expect(r.code).toBe(2);
    expectNothingOf(r, [TAIL]);
    expect(r.stderr).toContain(`${flag} `);
    expect(r.stderr).toContain("holds a secret shape");
  });

  it("the export line writes the runner's home as $HOME", async () => {
    const { captureShellLines } = await import("../src/capture/sitting.js");
    const home = `/home/${NAME}`;
    expect(captureShellLines(`${home}/sittings/one`, home)).toEqual(['export CLEAR_CAPTURE_DIR="$HOME/sittings/one"']);
    expect(captureShellLines("/srv/sittings/one", home)).toEqual(['export CLEAR_CAPTURE_DIR="/srv/sittings/one"']);
  });

  it("the export line, run by a shell, sets the very folder named: a folder named like a command or a quote runs nothing", async () => {
    const { captureShellLines } = await import("../src/capture/sitting.js");
    const parent = tempDir();
    const marker = path.join(parent, "ran");
    for (const name of [`$(touch ${marker})`, `\`touch ${marker}\``, 'a"b', "back\\slash", "it's", "$HOME", "sp ace"]) {
      const dir = path.join(parent, name);
      for (const home of ["/nowhere", parent]) {
        const [line] = captureShellLines(dir, home);
        const r = spawnSync("sh", ["-c", `${line}; printf %s "$CLEAR_CAPTURE_DIR"`], { encoding: "utf8", env: { ...process.env, HOME: parent } });
        expect(r.stdout, `${name} ${line}`).toBe(dir);
      }
    }
    expect(existsSync(marker)).toBe(false);
  });
});
