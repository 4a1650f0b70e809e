import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { clear, PROJECT_ROOT, tempDir } from "./helpers.js";

// The reading of the record remembered in the git folder is keyed by the code that reads it, not
// by the version alone: a build with other parsing rules under the same version reads it again.

const g = (cwd: string, ...args: string[]): { code: number; out: string } => {
  const r = spawnSync("git", args, { cwd, encoding: "utf8" });
  return { code: r.status ?? -1, out: r.stdout + r.stderr };
};

/** This tool copied whole (its version unchanged), with `rebuild` applied to the copy's built modules: another build of the same version. */
function otherBuild(rebuild: (dist: string) => void): string {
  const copy = tempDir("clear-other-build-");
  for (const part of ["package.json", "dist", "rules"]) cpSync(path.join(PROJECT_ROOT, part), path.join(copy, part), { recursive: true });
  symlinkSync(path.join(PROJECT_ROOT, "node_modules"), path.join(copy, "node_modules"));
  rebuild(path.join(copy, "dist"));
  return path.join(copy, "dist", "cli.js");
}

function runWith(cli: string, args: string[], cwd: string): { code: number; out: string } {
  const r = spawnSync(process.execPath, [cli, ...args], { cwd, encoding: "utf8" });
  return { code: r.status ?? -1, out: r.stdout + r.stderr };
}

/** A repository with an accepted batch committed, and a staged change that touches the tool's places. */
function accepted(): string {
  const root = tempDir("clear-record-reading-");
  execFileSync("git", ["init", "-q", "-b", "main"], { cwd: root });
  g(root, "config", "user.email", "t@example.invalid");
  g(root, "config", "user.name", "t");
  mkdirSync(path.join(root, "captures-inbox"));
  cpSync(path.join(PROJECT_ROOT, "examples", "sitting"), path.join(root, "captures-inbox"), { recursive: true });
  expect(clear(["run"], { cwd: root }).code).toBe(0);
  const file = path.join(root, "CLEARANCE.md");
  writeFileSync(file, readFileSync(file, "utf8").replace("The tool never does. -->\n\n", "The tool never does. -->\nACCEPT\n"));
  g(root, "add", "fixtures", "CLEARANCE.md");
  expect(g(root, "commit", "-qm", "accepted").code).toBe(0);
  writeFileSync(path.join(root, ".gitattributes"), "*.txt text\n");
  g(root, "add", ".gitattributes");
  return root;
}

describe("the remembered reading of the record", () => {
  it("is read again by a build of the same version whose record-reading code differs, and reused by one whose code is the same", () => {
    const root = accepted();
    const cache = path.join(root, ".git", "clear-record-reading");
    for (const args of [["gate", "pre-commit"], ["verify"]]) expect(clear(args, { cwd: root }).code, args.join(" ")).toBe(0);
    const remembered = readFileSync(cache, "utf8");
    // The same code copied elsewhere: the same reader, and what it remembered holds.
    const same = otherBuild(() => undefined);
    expect(runWith(same, ["verify"], root).code).toBe(0);
    expect(readFileSync(cache, "utf8")).toBe(remembered);
    // A build that counts another word as acceptance: the batch is not accepted by it, whatever was remembered.
    const other = otherBuild((dist) => {
      const grammar = path.join(dist, "record", "grammar.js");
      writeFileSync(grammar, readFileSync(grammar, "utf8").replace('ACCEPT_WORD = "ACCEPT"', 'ACCEPT_WORD = "APPROVE"'));
    });
    for (const args of [["gate", "pre-commit"], ["verify"]]) {
      const r = runWith(other, args, root);
      expect(r.code, `${args.join(" ")} ${r.out}`).toBe(1);
      expect(r.out, args.join(" ")).toContain("fixture-not-accepted");
    }
    // And the first build's reading is its own again.
    expect(clear(["verify"], { cwd: root }).code).toBe(0);
    expect(readFileSync(cache, "utf8")).toBe(remembered);
  });
});
