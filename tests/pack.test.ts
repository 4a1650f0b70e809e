import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PROJECT_ROOT, tempDir } from "./helpers.js";
import { git, run } from "./hooks-setup.js";

// The package as another repository installs it: packed from a copy of this tree (so prepack
// builds dist/ from nothing), installed from the tarball into a fresh repository with its
// dependencies from the npm registry, and the whole flow run there from node_modules/.bin.

function packedTarball(): string {
  const copy = tempDir("clear-pack-src-");
  const files = execFileSync("git", ["ls-files", "-co", "--exclude-standard", "-z"], { cwd: PROJECT_ROOT, encoding: "utf8" }).split("\0").filter(Boolean);
  for (const file of files) {
    mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
    cpSync(path.join(PROJECT_ROOT, file), path.join(copy, file));
  }
  symlinkSync(path.join(PROJECT_ROOT, "node_modules"), path.join(copy, "node_modules"));
  const out = tempDir("clear-pack-out-");
  const manifest = readFileSync(path.join(copy, "package.json"), "utf8");
  const json = execFileSync("npm", ["pack", "--json", "--pack-destination", out], { cwd: copy, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  // The tree's own manifest keeps its prepare (npm ci builds with it); only the packed one drops it.
  expect(readFileSync(path.join(copy, "package.json"), "utf8")).toBe(manifest);
  expect(JSON.parse(manifest).scripts.prepare).toBeDefined();
  const packed = JSON.parse(json) as { filename: string }[];
  return path.join(out, packed[0]!.filename);
}

function accept(record: string): void {
  const text = readFileSync(record, "utf8");
  writeFileSync(record, text.replace("The tool never does. -->\n\n", "The tool never does. -->\nACCEPT\n"));
}

describe("the package", () => {
  it("packs dist, rules, the example sitting, README and LICENSE, and no tests or benches", () => {
    const tarball = packedTarball();
    const entries = execFileSync("tar", ["-tzf", tarball], { encoding: "utf8" }).split("\n").filter(Boolean).map((e) => e.replace(/^package\//, ""));
    const expected = ["package.json", "README.md", "LICENSE", "dist/cli.js", "dist/schemas.js", "rules/homes.json", "examples/sitting/sitting.json"];
    expect(entries).toEqual(expect.arrayContaining([...expected, "dist/lib/index.js", "dist/lib/index.d.ts"]));
    // Declarations of the library entry are part of the package; sources are not.
    const source = (e: string): boolean =>
      /^(tests|bench|src|scripts|\.ci)\//.test(e) || e.endsWith(".test.js") || (e.endsWith(".ts") && !e.endsWith(".d.ts"));
    const sources = entries.filter(source);
    expect(sources).toEqual([]);
    const packedManifest = execFileSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" });
    const manifest = JSON.parse(packedManifest) as Record<string, Record<string, string> | boolean | undefined>;
    expect(manifest.private).toBeUndefined();
    const scripts = manifest.scripts as Record<string, string>;
    for (const installScript of ["preinstall", "install", "postinstall", "prepare"]) expect(scripts[installScript]).toBeUndefined();

    const root = tempDir("clear-consumer-");
    execFileSync("git", ["init", "-q", "-b", "main"], { cwd: root });
    git(root, "config", "user.email", "t@example.invalid");
    git(root, "config", "user.name", "t");
    writeFileSync(path.join(root, "package.json"), `${JSON.stringify({ name: "consumer", private: true }, null, 2)}\n`);
    writeFileSync(path.join(root, ".gitignore"), "node_modules/\n/captures-inbox/*\n");
    const installed = run(root, ["npm", "install", "--save-dev", "--no-audit", "--no-fund", tarball]);
    expect(installed.code, installed.out).toBe(0);
    expect(installed.out).not.toMatch(/install-scripts|install scripts/i);
    const bin = (name: string, ...args: string[]) => run(root, [path.join(root, "node_modules", ".bin", name), ...args]);
    expect(bin("clear", "--version").out.trim()).toBe(JSON.parse(readFileSync(path.join(PROJECT_ROOT, "package.json"), "utf8")).version);
    git(root, "add", "-A");
    expect(git(root, "commit", "-qm", "a repository that clears captures").code).toBe(0);

    const hooks = bin("fixture-clear", "hooks", "install");
    expect(hooks.code, hooks.out).toBe(0);
    expect(bin("fixture-clear", "hooks", "status").code).toBe(0);
    cpSync(path.join(root, "node_modules", "fixture-clear", "examples", "sitting"), path.join(root, "captures-inbox"), { recursive: true });
    const cleared = bin("fixture-clear", "run");
    expect(cleared.code, cleared.out).toBe(0);
    git(root, "add", "fixtures", "CLEARANCE.md");
    const refused = git(root, "commit", "-qm", "fixtures before ACCEPT");
    expect(refused.code).not.toBe(0);
    expect(refused.out).toContain("clear gate");
    accept(path.join(root, "CLEARANCE.md"));
    git(root, "add", "CLEARANCE.md");
    const allowed = git(root, "commit", "-qm", "fixtures, accepted");
    expect(allowed.code, allowed.out).toBe(0);
    const verified = bin("fixture-clear", "verify", "--rev", "HEAD");
    expect(verified.code, verified.out).toBe(0);
    // A hook client's test reads the accepted fixture through the package's library entry.
    const test = [
      'import assert from "node:assert/strict";',
      'import { test } from "node:test";',
      'import { loadFixture } from "fixture-clear";',
      'const sessionEnd = () => loadFixture({ harness: "claude-code", version: "latest", event: "session_end" });',
      'test("loads", () => assert.equal(sessionEnd().payload.hook_event_name, "SessionEnd"));',
    ];
    writeFileSync(path.join(root, "hook.test.mjs"), `${test.join("\n")}\n`);
    const loaded = run(root, [process.execPath, "--test", "hook.test.mjs"]);
    expect(loaded.code, loaded.out).toBe(0);
  }, 600_000);
});
