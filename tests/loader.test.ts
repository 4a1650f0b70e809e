import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { compareHostVersions, FixtureError, listFixtures, loadFixture, type FixtureProblem, type FixtureQuery, type Where } from "../src/lib/index.js";
import { batchDigest } from "../src/record/parse.js";
import { SHAPES } from "../src/record/grammar.js";
import { acceptedRepo, acceptPending, clearVersion, gitRepo, installInto } from "./fixture-repo.js";
import { clear, PROJECT_ROOT, sha256, tempDir } from "./helpers.js";

// The library entry, `import { loadFixture, listFixtures } from "fixture-clear"`: in temporary
// repositories whose fixtures came from real clear runs, under vitest and node:test as a hook
// client's tests would run it, and every way a fixture can fail to be the accepted one.

const VERSIONS = ["2.1.9", "2.1.10-rc.1", "2.1.10"];
const PRE_TOOL_USE = (version: string): string => `fixtures/claude-code/${version}/pre_tool_use.json`;
const claude = (version: string, event: string): FixtureQuery => ({ harness: "claude-code", version, event });
let accepted: string;

beforeAll(() => {
  accepted = acceptedRepo(VERSIONS);
});

/** A copy of the accepted repository, for a test that changes it. */
function copy(): string {
  const root = tempDir("clear-fixtures-copy-");
  cpSync(accepted, root, { recursive: true });
  return root;
}

function thrown(f: () => unknown): FixtureError {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(FixtureError);
    return err as FixtureError;
  }
  throw new Error("expected a FixtureError, and nothing was thrown");
}

function expectProblem(f: () => unknown, code: FixtureProblem, fixture: string, says: RegExp): void {
  const err = thrown(f);
  expect({ code: err.code, fixture: err.fixture }).toEqual({ code, fixture });
  expect(err.message).toContain(fixture);
  expect(err.message).toMatch(says);
}

const VITEST_FILE = `import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { listFixtures, loadFixture } from "fixture-clear";

test("a hook client's test loads an accepted fixture", () => {
  const f = loadFixture<{ hook_event_name: string }>({ harness: "claude-code", version: "2.1.9", event: "pre_tool_use" });
  expect(f.payload.hook_event_name).toBe("PreToolUse");
  expect(f.raw.equals(readFileSync(new URL("../fixtures/claude-code/2.1.9/pre_tool_use.json", import.meta.url)))).toBe(true);
  expect(f.provenance).toMatchObject({ origin: "authentic-capture", harness: "claude-code", hostVersion: "2.1.9", event: "pre_tool_use" });
  expect(f.provenance.cleared.sha256).toBe(f.sha256);
});

test("latest is the newest accepted version", () => {
  expect(loadFixture({ harness: "claude-code", version: "latest", event: "session_end" }).version).toBe("2.1.10");
  expect(listFixtures({ event: "session_end" }).map((f) => f.version)).toEqual(["2.1.9", "2.1.10-rc.1", "2.1.10"]);
});
`;

const NODE_TEST_FILE = `import assert from "node:assert/strict";
import { test } from "node:test";
import { FixtureError, loadFixture } from "fixture-clear";

test("a hook client's test loads an accepted fixture", () => {
  const f = loadFixture("fixtures/claude-code/2.1.10/session_start.json");
  assert.equal(f.payload.hook_event_name, "SessionStart");
  assert.equal(f.provenance.batch, f.batch);
  assert.equal(loadFixture({ harness: "claude-code", version: "latest", event: "pre_tool_use" }).version, "2.1.10");
  assert.throws(() => loadFixture({ harness: "claude-code", version: "2.1.11", event: "pre_tool_use" }), FixtureError);
});
`;

describe("a hook client's tests in a temporary repository", () => {
  it("vitest loads an accepted fixture, and latest is the newest (the repository found from the test file, run from elsewhere)", () => {
    const root = copy();
    installInto(root, ["vitest"]);
    mkdirSync(path.join(root, "tests"));
    writeFileSync(path.join(root, "tests", "hook.test.ts"), VITEST_FILE);
    const vitest = path.join(PROJECT_ROOT, "node_modules", "vitest", "vitest.mjs");
    const r = spawnSync(process.execPath, [vitest, "run", "--root", root, "--reporter", "verbose"], { cwd: os.tmpdir(), encoding: "utf8" });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/2 passed/);
  });

  it("node:test loads an accepted fixture, by the path as the record lists it", () => {
    const root = copy();
    installInto(root);
    writeFileSync(path.join(root, "hook.test.mjs"), NODE_TEST_FILE);
    const r = spawnSync(process.execPath, ["--test", path.join(root, "hook.test.mjs")], { cwd: os.tmpdir(), encoding: "utf8" });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/# pass 1\b/);
    expect(r.stdout).toMatch(/# fail 0\b/);
  });

  it("loads only the library, the record's reader and SHA-256: no rules, no scanner, no schema validator", () => {
    const root = copy();
    installInto(root);
    writeFileSync(path.join(root, "hook.test.mjs"), NODE_TEST_FILE);
    const log = path.join(root, "resolved.log");
    const hooks = path.join(root, "hooks.mjs");
    const resolve = [
      'import { appendFileSync } from "node:fs";',
      "export async function resolve(s, c, next) {",
      "  const r = await next(s, c);",
      `  appendFileSync(${JSON.stringify(log)}, r.url + "\\n");`,
      "  return r;",
      "}",
    ];
    writeFileSync(hooks, `${resolve.join("\n")}\n`);
    const register = `data:text/javascript,import{register}from"node:module";register(${JSON.stringify(`file://${hooks}`)});`;
    const r = spawnSync(process.execPath, ["--import", register, path.join(root, "hook.test.mjs")], { cwd: root, encoding: "utf8" });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    const dist = path.join(PROJECT_ROOT, "dist");
    const tool = readFileSync(log, "utf8").split("\n").filter((u) => u.startsWith(`file://${dist}/`)).map((u) => path.relative(dist, new URL(u).pathname));
    expect(tool).toContain("lib/index.js");
    expect([...new Set(tool.map((m) => m.split("/")[0]))].sort()).toEqual(["digest.js", "errors.js", "lib", "record"]);
    // SHA-256 is Node's own: the library loads no package at all.
    const packages = readFileSync(log, "utf8").split("\n").filter((u) => u.includes("/node_modules/"));
    expect(packages).toEqual([]);
  });

  it("type-checks a TypeScript client against the emitted declarations", () => {
    const root = copy();
    installInto(root, ["@types/node"]);
    const client = [
      'import { listFixtures, loadFixture, type LoadedFixture } from "fixture-clear";',
      'const f: LoadedFixture<{ hook_event_name: string }> = loadFixture({ harness: "claude-code", version: "latest", event: "pre_tool_use" });',
      "const name: string = f.payload.hook_event_name;",
      "const digest: string = f.provenance.raw.sha256;",
      "const raw: Buffer = f.raw;",
      'const versions: string[] = listFixtures({ harness: "claude-code" }).map((a) => a.version);',
      "// @ts-expect-error: a query names its harness, version and event",
      'loadFixture({ harness: "claude-code" });',
      "export { name, digest, raw, versions };",
    ].join("\n");
    writeFileSync(path.join(root, "client.ts"), client);
    const tsc = path.join(PROJECT_ROOT, "node_modules", "typescript", "bin", "tsc");
    const flags = ["--noEmit", "--strict", "--skipLibCheck", "--module", "nodenext", "--moduleResolution", "nodenext", "--types", "node"];
    const r = spawnSync(process.execPath, [tsc, ...flags, path.join(root, "client.ts")], { cwd: root, encoding: "utf8" });
    expect(r.stdout + r.stderr).toBe("");
    expect(r.status).toBe(0);
  });

  it("finds the repository from the current directory when no file calls it (node -e)", () => {
    const root = copy();
    installInto(root);
    const script = [
      'const { loadFixture } = await import("fixture-clear");',
      'console.log(loadFixture({ harness: "claude-code", version: "latest", event: "session_end" }).path);',
    ].join("\n");
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: path.join(root, "fixtures"), encoding: "utf8" });
    expect(r.stdout.trim(), r.stderr).toBe("fixtures/claude-code/2.1.10/session_end.json");
  });
});

describe("loadFixture refuses what is not the accepted fixture, naming it", () => {
  it("outside any repository, says where it looked, the runner's home shown as ~", () => {
    const home = tempDir("clear-no-repository-");
    installInto(home);
    const script = 'import { loadFixture } from "fixture-clear";\ntry { loadFixture("fixtures/a/1.0.0/b.json"); } catch (err) { console.log(err.message); }\n';
    writeFileSync(path.join(home, "client.mjs"), script);
    const r = spawnSync(process.execPath, [path.join(home, "client.mjs")], { cwd: home, encoding: "utf8", env: { ...process.env, HOME: home } });
    expect(r.stdout).toContain("fixture-clear: no git repository above the calling file ~/client.mjs or the current directory ~;");
    expect(r.stdout).not.toContain(home);
  });

  it("shows the runner's home as ~ where it is reached through a link, and wherever a message holds it (a file: URL with a host)", () => {
    const home = tempDir("clear-real-home-");
    installInto(home);
    const linked = path.join(tempDir("clear-home-link-"), "home");
    symlinkSync(home, linked);
    const url = `file://elsewhere${linked}/fixtures/a/1.0.0/b.json`;
    const loads = `() => loadFixture("fixtures/a/1.0.0/b.json"), () => loadFixture(${JSON.stringify(url)}, { root: process.cwd() })`;
    const script = `import { loadFixture } from "fixture-clear";\nfor (const load of [${loads}]) try { load(); } catch (err) { console.log(err.message); }\n`;
    writeFileSync(path.join(home, "client.mjs"), script);
    // Node runs the file, and the system gives the current directory, by their real paths: the home as the runner's HOME names it is a link to them.
    const r = spawnSync(process.execPath, [path.join(linked, "client.mjs")], { cwd: linked, encoding: "utf8", env: { ...process.env, HOME: linked } });
    expect(r.stdout, r.stderr).toContain("fixture-clear: no git repository above the calling file ~/client.mjs or the current directory ~;");
    expect(r.stdout).toContain('"file://elsewhere~/fixtures/a/1.0.0/b.json" is not a file: URL of a path on this machine');
    expect(r.stdout).not.toContain(home);
    expect(r.stdout).not.toContain(linked);
  });


  it("hands over a buffer of exactly the accepted bytes: its ArrayBuffer holds no byte more", () => {
    const fixture = loadFixture(PRE_TOOL_USE("2.1.9"), { root: accepted });
    const onDisk = readFileSync(path.join(accepted, PRE_TOOL_USE("2.1.9")));
    expect([fixture.raw.byteOffset, fixture.raw.buffer.byteLength]).toEqual([0, onDisk.length]);
    expect(Buffer.from(fixture.raw.buffer).equals(onDisk)).toBe(true);
  });

  it("a changed byte", () => {
    const root = copy();
    const file = path.join(root, PRE_TOOL_USE("2.1.9"));
    const bytes = readFileSync(file);
    bytes[bytes.indexOf("PreToolUse")] = "X".charCodeAt(0);
    writeFileSync(file, bytes);
    const says = /differ from those batch b-[0-9a-f]{12} accepted.*restore them/;
    expectProblem(() => loadFixture(claude("2.1.9", "pre_tool_use"), { root }), "changed", PRE_TOOL_USE("2.1.9"), says);
    // One byte more is caught by its size, before it is hashed.
    writeFileSync(file, Buffer.concat([readFileSync(path.join(accepted, PRE_TOOL_USE("2.1.9"))), Buffer.from(" ")]));
    expectProblem(() => loadFixture(PRE_TOOL_USE("2.1.9"), { root }), "changed", PRE_TOOL_USE("2.1.9"), /are more than the \d+ batch/);
  });

  it("bytes that git's core.autocrlf turned to CRLF on checkout, or that an editor gave a byte order mark, are refused, saying so and how to keep fixtures byte for byte", () => {
    const committed = copy();
    const git = (cwd: string, ...args: string[]): string => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd, encoding: "utf8" });
    git(committed, "add", "fixtures", "CLEARANCE.md");
    git(committed, "commit", "-q", "-m", "accepted fixtures");
    const root = tempDir("clear-autocrlf-");
    git(os.tmpdir(), "-c", "core.autocrlf=true", "clone", "-q", committed, root);
    git(root, "config", "core.autocrlf", "true");
    const fixture = PRE_TOOL_USE("2.1.9");
    const sidecar = fixture.replace(/\.json$/, ".provenance.json");
    expect(readFileSync(path.join(root, sidecar), "utf8")).toContain("\r\n");
    const says = new RegExp(`: its sidecar ${sidecar.replace(/\./g, "\\.")}: its bytes differ from those batch b-[0-9a-f]{12} accepted \\(sha256 [0-9a-f]{12}…\\) only in that their line endings are CRLF where the accepted ones are LF: git's core\\.autocrlf .*"fixtures/\\*\\* -text" at the end of \\.gitattributes`);
    expectProblem(() => loadFixture(fixture, { root }), "changed", fixture, says);
    // Doing what it says loads the accepted bytes.
    writeFileSync(path.join(root, ".gitattributes"), "fixtures/** -text\n");
    git(root, "rm", "-r", "-q", "--cached", "fixtures");
    git(root, "checkout", "HEAD", "--", "fixtures");
    expect(loadFixture(fixture, { root }).sha256).toBe(sha256(readFileSync(path.join(accepted, fixture))));
    const file = path.join(root, fixture);
    writeFileSync(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), readFileSync(file)]));
    expectProblem(() => loadFixture(fixture, { root }), "changed", fixture, /only in that a byte order mark stands at their start \(an editor saved it so\); restore it from git/);
  });

  it("a changed provenance sidecar, under the fixture's name", () => {
    const root = copy();
    const sidecar = path.join(root, "fixtures/claude-code/2.1.9/pre_tool_use.provenance.json");
    const text = readFileSync(sidecar, "utf8");
    expect(text).toContain("08:00:00Z");
    // The same size, so only the digest can tell.
    writeFileSync(sidecar, text.replace("08:00:00Z", "08:00:01Z"));
    const says = /its sidecar fixtures\/claude-code\/2\.1\.9\/pre_tool_use\.provenance\.json: its bytes/;
    expectProblem(() => loadFixture(PRE_TOOL_USE("2.1.9"), { root }), "changed", PRE_TOOL_USE("2.1.9"), says);
  });

  it("an unaccepted fixture: a file no batch lists", () => {
    const root = copy();
    const extra = "fixtures/claude-code/2.1.9/stop.json";
    writeFileSync(path.join(root, extra), readFileSync(path.join(root, PRE_TOOL_USE("2.1.9"))));
    const says = /no batch of the record lists this fixture.*write ACCEPT/;
    expectProblem(() => loadFixture(claude("2.1.9", "stop"), { root }), "not-accepted", extra, says);
  });

  it("a fixture only in a pending batch", () => {
    const root = copy();
    clearVersion(root, "2.1.11");
    const says = /only batch b-[0-9a-f]{12} lists it, and that batch awaits ACCEPT/;
    expectProblem(() => loadFixture(claude("2.1.11", "pre_tool_use"), { root }), "pending", PRE_TOOL_USE("2.1.11"), says);
    // The record is read again once it changes on disk: the same process sees the ACCEPT.
    acceptPending(root);
    expect(loadFixture(claude("2.1.11", "pre_tool_use"), { root }).version).toBe("2.1.11");
    expect(loadFixture(claude("latest", "pre_tool_use"), { root }).version).toBe("2.1.11");
  });

  it("an accepted fixture cleared again, whose new bytes await ACCEPT, says which batch lists them", () => {
    const root = copy();
    clearVersion(root, "2.1.10", (event, p) => (event === "pre_tool_use" ? { ...p, permission_mode: "plan" } : p));
    const says = /batch b-[0-9a-f]{12} lists these bytes and awaits ACCEPT/;
    expectProblem(() => loadFixture(PRE_TOOL_USE("2.1.10"), { root }), "changed", PRE_TOOL_USE("2.1.10"), says);
    // Every sidecar of the version now names the new batch: the fixtures wait for ACCEPT with it.
    const sessionEnd = "fixtures/claude-code/2.1.10/session_end.json";
    expectProblem(() => loadFixture(sessionEnd, { root }), "changed", sessionEnd, /its sidecar .*session_end\.provenance\.json: its bytes .* awaits ACCEPT/);
    acceptPending(root);
    expect(loadFixture<{ permission_mode: string }>(PRE_TOOL_USE("2.1.10"), { root }).payload.permission_mode).toBe("plan");
  });

  it("a batch edited after ACCEPT", () => {
    const root = copy();
    const record = path.join(root, "CLEARANCE.md");
    writeFileSync(record, readFileSync(record, "utf8").replace("### Selection", "### Selection (edited)"));
    expectProblem(() => loadFixture(PRE_TOOL_USE("2.1.9"), { root }), "edited", PRE_TOOL_USE("2.1.9"), /its acceptance no longer counts/);
  });

  it("a fixture, a folder above it, or the record that is a link, even to the accepted bytes", () => {
    let root = copy();
    const file = path.join(root, PRE_TOOL_USE("2.1.9"));
    renameSync(file, `${file}.real`);
    symlinkSync(`${file}.real`, file);
    expectProblem(() => loadFixture(PRE_TOOL_USE("2.1.9"), { root }), "link", PRE_TOOL_USE("2.1.9"), /is a symbolic link; never followed/);
    root = copy();
    const folder = path.join(root, "fixtures/claude-code");
    renameSync(folder, path.join(root, "elsewhere"));
    symlinkSync(path.join(root, "elsewhere"), folder);
    expectProblem(() => loadFixture(PRE_TOOL_USE("2.1.9"), { root }), "link", PRE_TOOL_USE("2.1.9"), /fixtures\/claude-code is a symbolic link/);
    root = copy();
    renameSync(path.join(root, "CLEARANCE.md"), path.join(root, "record.md"));
    symlinkSync(path.join(root, "record.md"), path.join(root, "CLEARANCE.md"));
    expectProblem(() => loadFixture(PRE_TOOL_USE("2.1.9"), { root }), "link", PRE_TOOL_USE("2.1.9"), /CLEARANCE\.md is a symbolic link/);
  });

  it("a fixture replaced by a FIFO, a folder or a socket is not-a-file, never read nor waited on; a hard link is judged by its bytes", async () => {
    const fixture = PRE_TOOL_USE("2.1.9");
    const says = /is not a regular file.*fixtures are read only from regular files inside the repository \(put the file itself there\)/;
    let root = copy();
    rmSync(path.join(root, fixture));
    execFileSync("mkfifo", [path.join(root, fixture)]);
    expectProblem(() => loadFixture(fixture, { root }), "not-a-file", fixture, says);
    root = copy();
    rmSync(path.join(root, fixture));
    mkdirSync(path.join(root, fixture));
    expectProblem(() => loadFixture(fixture, { root }), "not-a-file", fixture, says);
    root = copy();
    rmSync(path.join(root, fixture));
    const server = net.createServer().listen(path.join(root, fixture));
    await new Promise((resolve) => server.once("listening", resolve));
    try {
      expectProblem(() => loadFixture(fixture, { root }), "not-a-file", fixture, says);
    } finally {
      server.close();
    }
    // A hard link shares the file's bytes: those are what is checked, wherever else the file is named.
    root = copy();
    const elsewhere = path.join(tempDir("clear-hard-link-"), "pre_tool_use.json");
    renameSync(path.join(root, fixture), elsewhere);
    linkSync(elsewhere, path.join(root, fixture));
    expect(loadFixture(fixture, { root }).path).toBe(fixture);
    writeFileSync(elsewhere, readFileSync(elsewhere, "utf8").replace("PreToolUse", "PreToolUsX"));
    expectProblem(() => loadFixture(fixture, { root }), "changed", fixture, /differ from those batch b-[0-9a-f]{12} accepted/);
  });

  it("a listed fixture that is missing, a fixture no version of which exists, and a host's own event name", () => {
    const root = copy();
    rmSync(path.join(root, PRE_TOOL_USE("2.1.9")));
    expectProblem(() => loadFixture(PRE_TOOL_USE("2.1.9"), { root }), "missing", PRE_TOOL_USE("2.1.9"), /accepted it, and it is not there/);
    const unknown = "fixtures/claude-code/2.1.8/pre_tool_use.json";
    const versions = /accepted versions of claude-code pre_tool_use: 2\.1\.9, 2\.1\.10-rc\.1, 2\.1\.10\)/;
    expectProblem(() => loadFixture(unknown, { root }), "not-found", unknown, versions);
    const latest = "fixtures/claude-code/<latest>/stop.json";
    expectProblem(() => loadFixture(claude("latest", "stop"), { root }), "not-found", latest, /no version of claude-code stop is accepted/);
    const hostName = "fixtures/claude-code/2.1.9/PreToolUse.json";
    expectProblem(() => loadFixture(claude("2.1.9", "PreToolUse"), { root }), "query", hostName, /such as pre_tool_use/);
    expectProblem(() => loadFixture(claude("../..", "x"), { root }), "query", "fixtures/claude-code/../../x.json", /one folder or file name/);
    expectProblem(() => loadFixture(path.join(path.dirname(root), "outside.json"), { root }), "query", "a path outside the repository", /not a fixture of this repository/);
    // A path with "." or ".." parts names what the file system may not: it is given as the record lists it.
    for (const dotted of ["../outside.json", `${PRE_TOOL_USE("2.1.10")}/.`, `fixtures/claude-code/../claude-code/2.1.10/pre_tool_use.json`, `./${PRE_TOOL_USE("2.1.10")}`, `${root}/fixtures/x/../${PRE_TOOL_USE("2.1.10").slice("fixtures/".length)}`]) {
      const err = thrown(() => loadFixture(dotted, { root }));
      expect([err.code, err.fixture], dotted).toEqual(["query", null]);
      expect(err.message).toMatch(/a path with a "\." or "\.\." part/);
    }
    // Nor one that ends with a separator, which names a folder: as text, absolute, or a file: URL ("/." read as "/").
    const absolute = path.join(root, PRE_TOOL_USE("2.1.10"));
    for (const folder of [`${PRE_TOOL_USE("2.1.10")}/`, `${absolute}/`, `${pathToFileURL(absolute).href}/.`, new URL(`${pathToFileURL(absolute).href}/`)]) {
      const err = thrown(() => loadFixture(folder, { root }));
      expect([err.code, err.fixture], String(folder)).toEqual(["query", null]);
      expect(err.message).toMatch(/ends with a separator names a folder/);
    }
    expect(loadFixture(absolute, { root }).raw.length).toBeGreaterThan(0);
    expect(loadFixture(pathToFileURL(absolute), { root }).raw.length).toBeGreaterThan(0);
    expect(loadFixture(PRE_TOOL_USE("2.1.10"), { root }).raw.length).toBeGreaterThan(0);
  });

  it("a record the reader cannot read (a fence left open above a batch's marker) is refused under the fixture's name", () => {
    const root = copy();
    const record = path.join(root, "CLEARANCE.md");
    const text = readFileSync(record, "utf8");
    const second = text.indexOf("<!-- clear:batch", text.indexOf("<!-- clear:batch") + 1);
    writeFileSync(record, `${text.slice(0, second)}\`\`\`\n${text.slice(second)}`);
    const says = /: CLEARANCE\.md line \d+: a batch marker inside a code block opened at line \d+; close that block above it; until then no fixture counts as accepted$/;
    expectProblem(() => loadFixture(PRE_TOOL_USE("2.1.9"), { root }), "record", PRE_TOOL_USE("2.1.9"), says);
  });

  it("a repository without a record", () => {
    const root = tempDir("clear-no-record-");
    mkdirSync(path.join(root, ".git"));
    expectProblem(() => loadFixture(PRE_TOOL_USE("2.1.9"), { root }), "record", PRE_TOOL_USE("2.1.9"), /CLEARANCE\.md is not there/);
  });
});

describe("what loadFixture is given, however wrong, ends in a FixtureError", () => {
  it("null, a number, a file: URL with a host or an encoded slash, a root that is a file", () => {
    const given: [unknown, object, RegExp][] = [
      [null, {}, /takes \{ harness, version, event \} or a fixture's path/],
      [42, {}, /takes \{ harness, version, event \} or a fixture's path/],
      [`file://${accepted}/fixtures/claude-code/2.1.9%2Fpre_tool_use.json`, {}, /not a file: URL of a path on this machine/],
      ["file://fileserver/share/pre_tool_use.json", {}, /not a file: URL of a path on this machine/],
      [PRE_TOOL_USE("2.1.9"), { root: path.join(accepted, "CLEARANCE.md") }, /is not a folder; give the repository's top folder/],
    ];
    for (const [fixture, where, says] of given) {
      const err = thrown(() => loadFixture(fixture as string, { ...where, root: (where as { root?: string }).root ?? accepted }));
      expect(["query", "repository"], String(fixture)).toContain(err.code);
      expect(err.message, String(fixture)).toMatch(says);
    }
  });

  it("a query's part that is not a string, even one that cannot be turned into text (no prototype, a throwing toString), is a query error that calls none of its code", () => {
    const noText = Object.create(null) as object;
    const throwing = { toString: (): string => { throw new Error("called"); } };
    const given: [unknown, string][] = [
      [noText, "<object>"],
      [throwing, "<object>"],
      [["claude-code"], "<array>"],
      [() => "claude-code", "<function>"],
      [Symbol("claude-code"), "Symbol(claude-code)"],
      [7, "7"],
    ];
    for (const [harness, shown] of given) {
      const err = thrown(() => loadFixture({ ...claude("2.1.9", "pre_tool_use"), harness } as unknown as FixtureQuery, { root: accepted }));
      expect([err.code, err.fixture], shown).toEqual(["query", `fixtures/${shown}/2.1.9/pre_tool_use.json`]);
      expect(err.message, shown).toMatch(/harness must be one folder or file name/);
    }
  });

  it("a last argument or a filter of the wrong shape: null, a root that is not a string or is empty, a filter's part that is not a string", () => {
    const q = claude("2.1.9", "pre_tool_use");
    const wrongRoot = /the last argument is \{ root: <the repository's top folder> \}/;
    for (const where of [null, { root: 42 }, { root: "" }]) {
      for (const call of [() => loadFixture(q, where as Where), () => listFixtures({}, where as Where)]) {
        const err = thrown(call);
        expect([err.code, err.message], JSON.stringify(where)).toEqual(["repository", expect.stringMatching(wrongRoot)]);
      }
    }
    for (const filter of [null, 7, { version: 5 }, { harness: ["claude-code"] }]) {
      const err = thrown(() => listFixtures(filter as Partial<FixtureQuery>, { root: accepted }));
      expect([err.code, err.message], JSON.stringify(filter)).toEqual(["query", expect.stringMatching(/listFixtures takes \{ harness\?, version\?, event\? \}, each a string/)]);
    }
  });

  const nobody = process.getuid?.() === 0 && spawnSync("setpriv", ["--version"]).status === 0;
  it.skipIf(!nobody)(`a fixture, a sidecar or the record the tests' user may not read: "unreadable", saying to let it read${nobody ? "" : " (skipped: needs root and setpriv to run as another user)"}`, () => {
    const root = copy();
    spawnSync("chmod", ["-R", "a+rX", root]);
    const fixture = PRE_TOOL_USE("2.1.9");
    const sidecar = fixture.replace(/\.json$/, ".provenance.json");
    const library = path.join(PROJECT_ROOT, "dist", "lib", "index.js");
    const load = (): { code: string; message: string } => {
      const script = `import(${JSON.stringify(library)}).then((m) => { try { m.loadFixture(${JSON.stringify(fixture)}, { root: ${JSON.stringify(root)} }); console.log("{}"); } catch (e) { console.log(JSON.stringify({ code: e.code, message: e.message })); } })`;
      const r = spawnSync("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", process.execPath, "-e", script], { encoding: "utf8", cwd: os.tmpdir() });
      return JSON.parse(r.stdout || "{}") as { code: string; message: string };
    };
    for (const file of [fixture, sidecar, "CLEARANCE.md"]) {
      spawnSync("chmod", ["000", path.join(root, file)]);
      const got = load();
      expect(got.code, file).toBe("unreadable");
      expect(got.message, file).toMatch(/let the user running the tests read it/);
      spawnSync("chmod", ["644", path.join(root, file)]);
    }
    // A folder above the fixture, or above the record, that the user may not look into hides them: neither is said to be missing.
    mkdirSync(path.join(root, "docs"));
    renameSync(path.join(root, "CLEARANCE.md"), path.join(root, "docs", "record.md"));
    writeFileSync(path.join(root, "clear.config.json"), JSON.stringify({ paths: { clearance: "docs/record.md" } }));
    spawnSync("chmod", ["-R", "a+rX", root]);
    for (const folder of ["fixtures", "fixtures/claude-code/2.1.9", "docs"]) {
      spawnSync("chmod", ["000", path.join(root, folder)]);
      const got = load();
      expect(got.code, folder).toBe("unreadable");
      expect(got.message, folder).toMatch(/could not be (?:looked at|opened) \(EACCES\); let the user running the tests read it \(its permissions, or those of a folder above it\)/);
      spawnSync("chmod", ["755", path.join(root, folder)]);
    }
    expect(load()).toEqual({});
  });
});

describe("the record and the layout", () => {
  it("reads the fixtures folder and the record where clear.config.json puts them", () => {
    const root = gitRepo();
    writeFileSync(path.join(root, "clear.config.json"), JSON.stringify({ paths: { fixtures: "test/data", clearance: "docs/record.md" } }));
    mkdirSync(path.join(root, "docs"));
    clearVersion(root, "2.1.9");
    acceptPending(root, "docs/record.md");
    const f = loadFixture({ harness: "claude-code", version: "latest", event: "pre_tool_use" }, { root });
    expect([f.path, f.version]).toEqual(["test/data/claude-code/2.1.9/pre_tool_use.json", "2.1.9"]);
    expect(loadFixture("test/data/claude-code/2.1.9/session_end.json", { root }).event).toBe("session_end");
    expectProblem(() => loadFixture(PRE_TOOL_USE("2.1.9"), { root }), "query", PRE_TOOL_USE("2.1.9"), /fixtures are test\/data\/<harness>/);
    const bad = copy();
    writeFileSync(path.join(bad, "clear.config.json"), JSON.stringify({ paths: { fixtures: "../elsewhere" } }));
    const refused = thrown(() => loadFixture(PRE_TOOL_USE("2.1.9"), { root: bad }));
    expect(refused.message).toMatch(/clear\.config\.json: paths\.fixtures is not a path relative to the repository root/);
    // A config clear verify refuses (its schema refuses an empty part) is refused here too, though the place it names reads the same.
    writeFileSync(path.join(root, "clear.config.json"), JSON.stringify({ paths: { fixtures: "test/data", clearance: "docs//record.md" } }));
    const emptyPart = thrown(() => loadFixture("test/data/claude-code/2.1.9/session_end.json", { root }));
    expect([emptyPart.code, emptyPart.message]).toEqual(["config", expect.stringMatching(/clear\.config\.json: paths\.clearance is not a path relative to the repository root/)]);
    expect(clear(["verify", "--root", root]).stderr).toMatch(/config\.schema\.json at \/paths\/clearance/);
  });

  it("refuses a record whose folder was swapped for a link after the record was read, in the same process", () => {
    const root = gitRepo();
    writeFileSync(path.join(root, "clear.config.json"), JSON.stringify({ paths: { clearance: "docs/record.md" } }));
    mkdirSync(path.join(root, "docs"));
    clearVersion(root, "2.1.9");
    acceptPending(root, "docs/record.md");
    const fixture = PRE_TOOL_USE("2.1.9");
    // Read as a record written long enough ago that its stamp vouches for its bytes (the clock moved on, not the file).
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 60_000 });
    try {
      expect(loadFixture(fixture, { root }).path).toBe(fixture);
      // Moving the folder changes no time of the record: the same file, reached through a link.
      renameSync(path.join(root, "docs"), path.join(root, "elsewhere"));
      symlinkSync(path.join(root, "elsewhere"), path.join(root, "docs"));
      expectProblem(() => loadFixture(fixture, { root }), "link", fixture, /: docs is a symbolic link; never followed; the record is read only from a regular file/);
      expect(thrown(() => listFixtures({}, { root })).code).toBe("link");
    } finally {
      vi.useRealTimers();
    }
  });

  it("reads a record whose acceptance section holds many blank lines and then many ACCEPT lines run together at once", () => {
    const root = copy();
    const fixture = PRE_TOOL_USE("2.1.9");
    const lines = 60_000;
    const marker = SHAPES.marker.render({ id: "b-0123456789ab", digest: batchDigest(["", "## Batch b-0123456789ab", ""]) });
    const batch = `\n${marker}\n\n## Batch b-0123456789ab\n\n## User acceptance\n${"\n".repeat(lines)}${"ACCEPT\n".repeat(lines)}`;
    writeFileSync(path.join(root, "CLEARANCE.md"), readFileSync(path.join(root, "CLEARANCE.md"), "utf8") + batch);
    // Looking above each ACCEPT line for what stands between it and the heading took over a minute
    // here, past the test's limit; read once, it is a tenth of a second. No speed is measured here.
    expect(loadFixture(fixture, { root }).path).toBe(fixture);
    expect(listFixtures({}, { root }).map((f) => f.path)).toContain(fixture);
  });

  it("follows clear.config.json when it changes between two loads of one process, as it follows the record: never the places an older config named", () => {
    const root = copy();
    const fixture = PRE_TOOL_USE("2.1.9");
    expect(loadFixture(fixture, { root }).path).toBe(fixture);
    mkdirSync(path.join(root, "docs"));
    writeFileSync(path.join(root, "docs", "record.md"), "# Clearance record\n");
    writeFileSync(path.join(root, "clear.config.json"), JSON.stringify({ paths: { clearance: "docs/record.md" } }));
    expectProblem(() => loadFixture(fixture, { root }), "not-accepted", fixture, /no batch of the record lists this fixture/);
    writeFileSync(path.join(root, "clear.config.json"), "{ not json");
    expect(thrown(() => loadFixture(fixture, { root })).message).toMatch(/clear\.config\.json is not valid JSON/);
    rmSync(path.join(root, "clear.config.json"));
    expect(loadFixture(fixture, { root }).path).toBe(fixture);
  });

  it("checks that the sidecar describes the fixture, in a record whose batches hold", () => {
    const root = tempDir("clear-hand-record-");
    mkdirSync(path.join(root, ".git"));
    const dir = path.join(root, "fixtures", "codex", "0.169.0");
    mkdirSync(dir, { recursive: true });
    const payload = Buffer.from('{"hook_event_name":"Stop"}');
    const cleared = { sha256: sha256(payload), bytes: payload.length - 1 };
    const sidecar = { origin: "authentic-capture", harness: "codex", hostVersion: "0.169.0", event: "stop", cleared, batch: "b-000000000001" };
    const provenance = Buffer.from(JSON.stringify(sidecar));
    writeFileSync(path.join(dir, "stop.json"), payload);
    writeFileSync(path.join(dir, "stop.provenance.json"), provenance);
    const row = (p: string, bytes: Buffer): string =>
      SHAPES.fixtureRow.render({ path: p, what: "stop", rawSha: "0".repeat(64), rawBytes: "1", sha: sha256(bytes), bytes: String(bytes.length) });
    const rows = [row("fixtures/codex/0.169.0/stop.json", payload), row("fixtures/codex/0.169.0/stop.provenance.json", provenance)];
    const body = ["", "## Batch b-000000000001", "", ...rows, ""];
    const marker = SHAPES.marker.render({ id: "b-000000000001", digest: batchDigest(body) });
    writeFileSync(path.join(root, "CLEARANCE.md"), [marker, ...body, "## User acceptance", "", "ACCEPT", ""].join("\n"));
    const says = /does not describe this fixture \(cleared differ\)/;
    const stop = { harness: "codex", version: "0.169.0", event: "stop" };
    expectProblem(() => loadFixture(stop, { root }), "provenance", "fixtures/codex/0.169.0/stop.json", says);
    expect(listFixtures({}, { root }).map((f) => f.path)).toEqual(["fixtures/codex/0.169.0/stop.json"]);
  });
});

/** A repository whose record was written by hand: each fixture with its sidecar, all in one accepted batch. */
function handRepo(fixtures: { harness: string; version: string; event: string; payload?: Buffer }[], { sidecarRows = true } = {}): string {
  const root = tempDir("clear-hand-repo-");
  mkdirSync(path.join(root, ".git"));
  const batch = "b-000000000002";
  const rows: string[] = [];
  const row = (p: string, bytes: Buffer): string =>
    SHAPES.fixtureRow.render({ path: p, what: "hand", rawSha: "0".repeat(64), rawBytes: "1", sha: sha256(bytes), bytes: String(bytes.length) });
  for (const f of fixtures) {
    const dir = path.join(root, "fixtures", f.harness, f.version);
    mkdirSync(dir, { recursive: true });
    const payload = f.payload ?? Buffer.from(JSON.stringify({ hook_event_name: "Stop", version: f.version }));
    const cleared = { sha256: sha256(payload), bytes: payload.length };
    const provenance = Buffer.from(JSON.stringify({ origin: "authentic-capture", harness: f.harness, hostVersion: f.version, event: f.event, cleared, batch }));
    writeFileSync(path.join(dir, `${f.event}.json`), payload);
    writeFileSync(path.join(dir, `${f.event}.provenance.json`), provenance);
    const rel = `fixtures/${f.harness}/${f.version}/${f.event}`;
    rows.push(row(`${rel}.json`, payload), ...(sidecarRows ? [row(`${rel}.provenance.json`, provenance)] : []));
  }
  const body = ["", `## Batch ${batch}`, "", ...rows, ""];
  const marker = SHAPES.marker.render({ id: batch, digest: batchDigest(body) });
  writeFileSync(path.join(root, "CLEARANCE.md"), [marker, ...body, "## User acceptance", "", "ACCEPT", ""].join("\n"));
  return root;
}

describe("a hostile query, a careless path", () => {
  const codex = (version: string): { harness: string; version: string; event: string } => ({ harness: "codex", version, event: "stop" });

  it("a path names the one file it names: a folder named latest is not the newest version, and listFixtures never lists it", () => {
    const root = handRepo([codex("0.9.0"), codex("latest")]);
    const says = /no fixture stands in a folder named latest; ask \{ harness, version: "latest", event \}/;
    expectProblem(() => loadFixture("fixtures/codex/latest/stop.json", { root }), "query", "fixtures/codex/latest/stop.json", says);
    expect(listFixtures({}, { root }).map((f) => f.path)).toEqual(["fixtures/codex/0.9.0/stop.json"]);
    expect(loadFixture(codex("latest"), { root }).path).toBe("fixtures/codex/0.9.0/stop.json");
  });

  it("latest is the newest host version: build metadata takes no part, and a folder that is not a version is never the newest", () => {
    const root = handRepo([codex("0.9.0"), codex("1.0.0+build.7"), codex("unknown")]);
    expect(loadFixture(codex("latest"), { root }).version).toBe("1.0.0+build.7");
    expect(listFixtures({ version: "latest" }, { root }).map((f) => f.version)).toEqual(["1.0.0+build.7"]);
    expect(compareHostVersions("1.0.0+build.7", "1.0.0-rc.1")).toBeGreaterThan(0);
    const onlyUnknown = handRepo([codex("unknown")]);
    const says = /no version of codex stop is accepted \(only folders that are not host versions: unknown; ask for one by name\)/;
    expectProblem(() => loadFixture(codex("latest"), { root: onlyUnknown }), "not-found", "fixtures/codex/<latest>/stop.json", says);
    expect(listFixtures({ version: "latest" }, { root: onlyUnknown })).toEqual([]);
    expect(loadFixture(codex("unknown"), { root: onlyUnknown }).version).toBe("unknown");
  });

  it("accepted bytes that are not UTF-8 are refused as not-json, never parsed with U+FFFD in place of what was accepted", () => {
    const payload = Buffer.concat([Buffer.from('{"hook_event_name":"Stop","last_assistant_message":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    const root = handRepo([{ ...codex("0.9.0"), payload }]);
    expectProblem(() => loadFixture(codex("0.9.0"), { root }), "not-json", "fixtures/codex/0.9.0/stop.json", /its accepted bytes are not UTF-8/);
  });

  it("a sidecar no accepted batch lists is refused under the fixture's name, saying it is the sidecar", () => {
    const root = handRepo([codex("0.9.0")], { sidecarRows: false });
    const says = /: its sidecar fixtures\/codex\/0\.9\.0\/stop\.provenance\.json: no batch of the record lists this sidecar/;
    expectProblem(() => loadFixture(codex("0.9.0"), { root }), "not-accepted", "fixtures/codex/0.9.0/stop.json", says);
  });

  it("lists only a fixture whose event is a snake-case stem, so that each item listed loads as it is given", () => {
    const root = handRepo([codex("0.9.0"), { ...codex("0.9.0"), event: "Stop" }, { ...codex("0.9.0"), event: "session.start" }]);
    const listed = listFixtures({}, { root });
    expect(listed.map((f) => f.path)).toEqual(["fixtures/codex/0.9.0/stop.json"]);
    for (const item of listed) expect(loadFixture(item, { root }).path).toBe(item.path);
    for (const hostName of ["fixtures/codex/0.9.0/Stop.json", "fixtures/codex/0.9.0/session.start.json"]) {
      expectProblem(() => loadFixture(hostName, { root }), "query", hostName, /not a fixture of this repository: fixtures are fixtures\/<harness>\/<version>\/<snake_event>\.json/);
    }
  });

  it("reads each part of a query once: a getter that answers differently later cannot lead the path elsewhere", () => {
    let reads = 0;
    const query = {
      harness: "claude-code",
      event: "pre_tool_use",
      get version(): string {
        reads++;
        return reads <= 3 ? "2.1.9" : "../../../../etc";
      },
    };
    expect(loadFixture(query, { root: accepted }).path).toBe(PRE_TOOL_USE("2.1.9"));
    expect(reads).toBe(1);
  });

  it("never puts a control, format or line-separator character or a lone surrogate of a query into a message, and refuses a name holding one", () => {
    const escape = "\u001b[2J";
    const bidi = "\u202e";
    for (const [key, bad] of [["harness", `claude${escape}`], ["version", `2.1.9${bidi}`], ["event", "stop\u2028"], ["version", "2.1.9\ud800"]] as const) {
      const err = thrown(() => loadFixture({ ...claude("2.1.9", "pre_tool_use"), [key]: bad }, { root: accepted }));
      expect(err.code, key).toBe("query");
      expect(err.message, key).toMatch(new RegExp(`${key} must be one folder or file name`));
      expect(err.message, key).not.toMatch(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u);
    }
    const byPath = thrown(() => loadFixture(`fixtures/claude-code/2.1.9/pre_tool_use.json${escape}`, { root: accepted }));
    expect(byPath.message).toContain("pre_tool_use.json\\u{1b}[2J: not a fixture of this repository");
  });

  it("a helper package that wraps loadFixture is not the caller: the repository is the test's, even where the package holds a .git", () => {
    const root = copy();
    installInto(root);
    const helper = path.join(root, "node_modules", "hook-helper");
    mkdirSync(path.join(helper, ".git"), { recursive: true });
    writeFileSync(path.join(helper, "package.json"), JSON.stringify({ name: "hook-helper", type: "module", main: "index.js" }));
    const wrap = 'import { loadFixture } from "fixture-clear";\nexport const load = (event) => loadFixture({ harness: "claude-code", version: "latest", event });\n';
    writeFileSync(path.join(helper, "index.js"), wrap);
    const client = 'import { load } from "hook-helper";\ntry { console.log(load("pre_tool_use").path); } catch (err) { console.log(err.message); }\n';
    writeFileSync(path.join(root, "hook.test.mjs"), client);
    const r = spawnSync(process.execPath, [path.join(root, "hook.test.mjs")], { cwd: os.tmpdir(), encoding: "utf8" });
    expect(r.stdout.trim(), r.stderr).toBe(PRE_TOOL_USE("2.1.10"));
    // A repository without a record is named in the message, so a wrong one shows.
    const bare = thrown(() => loadFixture(PRE_TOOL_USE("2.1.9"), { root: helper }));
    expect(bare.message).toContain(`CLEARANCE.md is not there in the repository ${helper}: `);
  });
});

describe("host versions in release order", () => {
  it("compares parts as numbers and puts a pre-release below its release", () => {
    const preReleases = ["0.10.0-alpha", "0.10.0-alpha.1", "0.10.0-alpha.beta", "0.10.0-beta.2", "0.10.0-beta.11", "0.10.0-rc.1"];
    const order = ["0.9.0", ...preReleases, "0.10.0", "0.10.1", "2.1.9", "2.1.10", "10.0.0"];
    const shuffled = [...order].reverse();
    expect(shuffled.sort(compareHostVersions)).toEqual(order);
    expect(compareHostVersions("2.1.10", "2.1.10")).toBe(0);
    expect(compareHostVersions("unknown", "0.0.1")).toBeLessThan(0);
  });
});
