import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, clear, clearJson, tempDir } from "./helpers.js";

const HOOKS = (version: string): string => JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: "command", command: `hook lifecycle --host-version ${version}` }] }] } }, null, 2);
const PLUGIN = (version: string): string => `export const plugin = { hostVersion: "${version}" };\n`;

function write(root: string, rel: string, text: string): void {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), text);
}

/** A repository whose head has the transports at 2.1.0, and a kit built from it with versions moved to 2.1.261. */
function setup(): { repo: string; kitDir: string; head: string } {
  const repo = tempDir("clear-kit-repo-");
  const git = (...args: string[]): string => execFileSync("git", args, { cwd: repo, encoding: "utf8" }).trim();
  git("init", "-q");
  git("config", "user.email", "t@example.invalid");
  git("config", "user.name", "t");
  write(repo, "hooks/hooks.json", HOOKS("2.1.0"));
  write(repo, ".opencode/plugins/lifecycle.ts", PLUGIN("1.18.0"));
  git("add", ".");
  git("commit", "-qm", "head");
  const head = git("rev-parse", "HEAD");
  const kitDir = tempDir("clear-kit-");
  write(kitDir, "hooks/hooks.json", HOOKS("2.1.261"));
  write(kitDir, ".opencode/plugins/lifecycle.ts", PLUGIN("1.18.29"));
  write(kitDir, "bin/pasture", "#!/bin/sh\necho pasture\n");
  chmodSync(path.join(kitDir, "bin/pasture"), 0o755);
  expect(clear(["kit", "record", kitDir, "--head", head, "--host-version", "claude-code=2.1.261"], { cwd: repo }).code).toBe(0);
  return { repo, kitDir, head };
}

function commit(repo: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) write(repo, rel, text);
  execFileSync("git", ["add", "-A"], { cwd: repo });
  execFileSync("git", ["commit", "-qm", "transports"], { cwd: repo });
}

/** A one-capture sitting with the kit's kit.json beside it, cleared with clear run. */
function runWithKit(repo: string, kitDir: string): void {
  const inbox = path.join(repo, "captures-inbox");
  write(inbox, "claude-code_session_start_2.1.261.1.json", JSON.stringify({ session_id: "s", hook_event_name: "SessionStart", source: "startup" }));
  writeFileSync(path.join(inbox, "kit.json"), readFileSync(path.join(kitDir, "kit.json")));
  clear(["run"], { cwd: repo });
}

const verify = (repo: string, kitDir: string) => clearJson(["verify-kit", "--kit", path.join(kitDir, "kit.json")], { cwd: repo });

describe("clear kit record", () => {
  it("hashes the binary under bin/ and every transport, with the head and host versions", () => {
    const { kitDir, head } = setup();
    const kit = JSON.parse(readFileSync(path.join(kitDir, "kit.json"), "utf8"));
    expect(kit.head).toBe(head);
    expect(kit.binary).toMatchObject({ path: "bin/pasture", bytes: 23 });
    expect(kit.transports.map((t: { path: string }) => t.path)).toEqual([".opencode/plugins/lifecycle.ts", "hooks/hooks.json"]);
    expect(kit.hostVersions).toEqual({ "claude-code": "2.1.261" });
  });
});

describe("clear verify-kit", () => {
  it("exits 0 when the committed transports equal the kit's", () => {
    const { repo, kitDir } = setup();
    commit(repo, { "hooks/hooks.json": HOOKS("2.1.261"), ".opencode/plugins/lifecycle.ts": PLUGIN("1.18.29") });
    const r = verify(repo, kitDir);
    expect(r.json.findings).toEqual([]);
    expect(r.code).toBe(0);
  });

  it("one byte changed: exit 1, naming it, beyond version strings", () => {
    const { repo, kitDir } = setup();
    commit(repo, { "hooks/hooks.json": HOOKS("2.1.261").replace("lifecycle", "lifecyclE"), ".opencode/plugins/lifecycle.ts": PLUGIN("1.18.29") });
    const r = verify(repo, kitDir);
    expect(r.code).toBe(1);
    expect(r.json.findings).toEqual([expect.objectContaining({ code: "transport-differs", file: "hooks/hooks.json", message: expect.stringContaining("beyond version strings") })]);
  });

  it("a difference in version strings only: exit 1, reported as such, with the lines", () => {
    const { repo, kitDir } = setup();
    commit(repo, { "hooks/hooks.json": HOOKS("2.1.262"), ".opencode/plugins/lifecycle.ts": PLUGIN("1.18.29") });
    const r = verify(repo, kitDir);
    expect(r.code).toBe(1);
    expect(r.json.findings).toEqual([expect.objectContaining({ code: "transport-differs", message: expect.stringContaining("version strings only") })]);
    const t = (r.json.transports as { path: string; diff?: string[] }[]).find((x) => x.path === "hooks/hooks.json");
    expect(t?.diff?.some((l) => l.includes("2.1.262"))).toBe(true);
  });

  it("a transport missing and one extra: each reported", () => {
    const { repo, kitDir } = setup();
    execFileSync("git", ["rm", "-q", ".opencode/plugins/lifecycle.ts"], { cwd: repo });
    commit(repo, { "hooks/hooks.json": HOOKS("2.1.261"), ".codex/hooks.json": "{}" });
    const r = verify(repo, kitDir);
    expect(r.code).toBe(1);
    expect((r.json.findings as { code: string; file: string }[]).map((f) => [f.code, f.file])).toEqual([
      ["transport-extra", ".codex/hooks.json"],
      ["transport-missing", ".opencode/plugins/lifecycle.ts"],
    ]);
  });

  it("a plugin OpenCode loads beside the kit's (.js in plugins/, .ts or .js in plugin/) is an extra transport, never passed over", () => {
    for (const extra of [".opencode/plugins/other.js", ".opencode/plugin/other.ts", ".opencode/plugin/other.js"]) {
      const { repo, kitDir } = setup();
      commit(repo, { "hooks/hooks.json": HOOKS("2.1.261"), ".opencode/plugins/lifecycle.ts": PLUGIN("1.18.29"), [extra]: PLUGIN("1.18.29") });
      const r = verify(repo, kitDir);
      expect(r.code).toBe(1);
      expect((r.json.findings as { code: string; file: string }[]).map((f) => [f.code, f.file])).toEqual([["transport-extra", extra]]);
    }
  });

  it("a kit.json that breaks its schema: exit 2, naming the pointer", () => {
    const { repo, kitDir } = setup();
    const file = path.join(kitDir, "kit.json");
    const kit = JSON.parse(readFileSync(file, "utf8"));
    kit.transports[0].sha256 = "not-a-digest";
    writeFileSync(file, JSON.stringify(kit));
    const r = clear(["verify-kit", "--kit", file], { cwd: repo });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("/transports/0/sha256");
  });

  it("a kit.json with a member of its own: exit 2, the member's name masked, its place shown", () => {
    const { repo, kitDir } = setup();
    const file = path.join(kitDir, "kit.json");
    const kit = JSON.parse(readFileSync(file, "utf8"));
    kit.zelda_private_notes = 1;
    kit.transports[0].zelda = "x";
    writeFileSync(file, JSON.stringify(kit));
    for (const args of [[], ["--json"]]) {
      const r = clear(["verify-kit", "--kit", file, ...args], { cwd: repo });
      expect(r.code).toBe(2);
      expect(r.stdout + r.stderr).not.toContain("zelda");
      expect(r.stderr).toContain("/transports/0: must NOT have additional properties ([masked])");
    }
  });

  it("kit record refuses a --binary outside the kit folder, which kit.json could name only by a path that climbs out, and writes no kit.json", () => {
    const { repo, kitDir, head } = setup();
    rmSync(path.join(kitDir, "kit.json"));
    const outside = path.join(tempDir("clear-kit-bin-"), "host");
    write(path.dirname(outside), "host", "#!/bin/sh\n");
    for (const binary of [outside, path.join(kitDir, "..", path.basename(path.dirname(outside)), "host"), kitDir]) {
      const r = clear(["kit", "record", kitDir, "--head", head, "--binary", binary], { cwd: repo });
      expect(r.code, binary).toBe(2);
      expect(r.stderr, binary).toContain("--binary names a file outside the kit folder");
      expect(existsSync(path.join(kitDir, "kit.json")), binary).toBe(false);
    }
    const inside = clear(["kit", "record", kitDir, "--head", head, "--binary", path.join(kitDir, "bin", "pasture")], { cwd: repo });
    expect(inside.code).toBe(0);
    expect(JSON.parse(readFileSync(path.join(kitDir, "kit.json"), "utf8")).binary.path).toBe("bin/pasture");
    // What kit record writes, verify-kit reads (it compares; it does not refuse the file).
    expect(verify(repo, kitDir).code).not.toBe(2);
  });

  it("the lines a diff quotes hold no home's owner and no key: both are starred, in the human and the JSON output", () => {
    const { repo, kitDir } = setup();
    const key = ["gh", "p_", "abcdefghijklmnopqrstuvwxyz0123456789"].join("");
    const hooks = JSON.stringify({ command: "/home/zelda/proj/node_modules/.bin/fixture-clear capture hook", env: { GITHUB_TOKEN: key } });
    write(kitDir, "hooks/hooks.json", hooks);
    expect(clear(["kit", "record", kitDir, "--head", execFileSync("git", ["rev-parse", "HEAD"], { cwd: repo, encoding: "utf8" }).trim()], { cwd: repo }).code).toBe(0);
    const human = clear(["verify-kit", "--kit", path.join(kitDir, "kit.json")], { cwd: repo });
    const json = verify(repo, kitDir);
    expect(human.code).toBe(1);
    expect(json.code).toBe(1);
    expect((json.json.findings as { code: string }[]).map((f) => f.code)).toContain("kit-not-from-head");
    expect(human.stdout).toContain("/home/*****/proj");
    for (const printed of [human.stdout + human.stderr, JSON.stringify(json.json)]) {
      expect(printed).not.toContain("zelda");
      expect(printed).not.toContain(key.slice(4));
    }
    // The home on a line both copies hold, the name alone on a line only one does: learned from the whole texts.
    const pretty = (note: string): string => JSON.stringify({ command: "/home/zelda/proj/node_modules/.bin/fixture-clear capture hook", note }, null, 2);
    commit(repo, { "hooks/hooks.json": pretty("kept") });
    write(kitDir, "hooks/hooks.json", pretty("maintainer zelda"));
    expect(clear(["kit", "record", kitDir, "--head", execFileSync("git", ["rev-parse", "HEAD"], { cwd: repo, encoding: "utf8" }).trim()], { cwd: repo }).code).toBe(0);
    const unchanged = verify(repo, kitDir);
    expect(JSON.stringify(unchanged.json)).toContain("maintainer *****");
    expect(JSON.stringify(unchanged.json)).not.toContain("zelda");
  });

  it("a kit whose transports changed more than version strings against its head: reported", () => {
    const { repo, kitDir } = setup();
    write(kitDir, "hooks/hooks.json", HOOKS("2.1.261").replace("lifecycle", "something-else"));
    expect(clear(["kit", "record", kitDir, "--head", execFileSync("git", ["rev-parse", "HEAD"], { cwd: repo, encoding: "utf8" }).trim()], { cwd: repo }).code).toBe(0);
    commit(repo, { "hooks/hooks.json": HOOKS("2.1.261").replace("lifecycle", "something-else"), ".opencode/plugins/lifecycle.ts": PLUGIN("1.18.29") });
    const r = verify(repo, kitDir);
    expect(r.code).toBe(1);
    expect((r.json.findings as { code: string; file: string }[]).map((f) => [f.code, f.file])).toEqual([["kit-not-from-head", "hooks/hooks.json"]]);
  });

  it("a kit whose own copy is not the bytes kit.json names (a kit.json from another sitting) is no proof against its head: the copy is a finding, never compared", () => {
    const { repo, kitDir } = setup();
    const head = execFileSync("git", ["rev-parse", "HEAD"], { cwd: repo, encoding: "utf8" }).trim();
    // The committed transport changed beyond version strings; kit.json claims those bytes, and its copy is the head's.
    const changed = HOOKS("2.1.261").replace("lifecycle", "something-else");
    commit(repo, { "hooks/hooks.json": changed, ".opencode/plugins/lifecycle.ts": PLUGIN("1.18.29") });
    const file = path.join(kitDir, "kit.json");
    const kit = JSON.parse(readFileSync(file, "utf8"));
    const entry = kit.transports.find((t: { path: string }) => t.path === "hooks/hooks.json");
    Object.assign(entry, { sha256: createHash("sha256").update(changed).digest("hex"), bytes: Buffer.byteLength(changed) });
    kit.head = head;
    writeFileSync(file, JSON.stringify(kit));
    write(kitDir, "hooks/hooks.json", HOOKS("2.1.0"));
    const r = verify(repo, kitDir);
    expect(r.code).toBe(1);
    expect((r.json.findings as { code: string; file: string }[]).map((f) => [f.code, f.file])).toEqual([["kit-copy-differs", "hooks/hooks.json"]]);
    expect(JSON.stringify(r.json)).not.toContain("2.1.0");
  });

  it("a kit.json whose size for a transport is not its bytes' (the digest equal): exit 1, the transport differs", () => {
    const { repo, kitDir } = setup();
    commit(repo, { "hooks/hooks.json": HOOKS("2.1.261"), ".opencode/plugins/lifecycle.ts": PLUGIN("1.18.29") });
    const file = path.join(kitDir, "kit.json");
    const kit = JSON.parse(readFileSync(file, "utf8"));
    kit.transports[1].bytes = 5;
    writeFileSync(file, JSON.stringify(kit));
    const r = verify(repo, kitDir);
    expect(r.code).toBe(1);
    const findings = r.json.findings as { code: string; file: string; message: string }[];
    expect(findings).toContainEqual(expect.objectContaining({ code: "transport-differs", file: "hooks/hooks.json", message: expect.stringContaining("another size") }));
  });

  it("a kit.json naming one transport twice, a member twice, or a path not in its plain form: exit 2, naming the place", () => {
    const { repo, kitDir } = setup();
    commit(repo, { "hooks/hooks.json": HOOKS("2.1.261"), ".opencode/plugins/lifecycle.ts": PLUGIN("1.18.29") });
    const file = path.join(kitDir, "kit.json");
    const original = readFileSync(file, "utf8");
    const kit = JSON.parse(original);
    const edited = (edit: (k: typeof kit) => void): string => {
      const k = JSON.parse(original);
      edit(k);
      return JSON.stringify(k, null, 2);
    };
    const digest = kit.transports[1].sha256 as string;
    const cases: [string, string][] = [
      [edited((k) => k.transports.push({ ...k.transports[1] })), "at /transports/2/path: names the transport /transports/1/path names"],
      [original.replace(`"sha256": "${digest}"`, `"sha256": "${"0".repeat(64)}",\n      "sha256": "${digest}"`), "a member name appears twice in one object"],
      ...["./hooks/hooks.json", "hooks//hooks.json", "hooks/hooks.json/", "hooks/./hooks.json"].map((p): [string, string] => [edited((k) => (k.transports[1].path = p)), "at /transports/1/path"]),
    ];
    for (const [text, said] of cases) {
      writeFileSync(file, text);
      const r = clear(["verify-kit", "--kit", file], { cwd: repo });
      expect([r.code, r.stdout], said).toEqual([2, ""]);
      expect(r.stderr).toContain(said);
    }
  });

  it("reports a binary that no longer has its recorded digest", () => {
    const { repo, kitDir } = setup();
    commit(repo, { "hooks/hooks.json": HOOKS("2.1.261"), ".opencode/plugins/lifecycle.ts": PLUGIN("1.18.29") });
    writeFileSync(path.join(kitDir, "bin/pasture"), "#!/bin/sh\necho changed\n");
    expect((verify(repo, kitDir).json.findings as { code: string }[]).map((f) => f.code)).toEqual(["binary-differs"]);
  });
});

describe("the record quotes the kit", () => {
  it("lists each transport's kit digest and whether the committed bytes equal it", () => {
    const { repo, kitDir } = setup();
    commit(repo, { "hooks/hooks.json": HOOKS("2.1.262"), ".opencode/plugins/lifecycle.ts": PLUGIN("1.18.29") });
    runWithKit(repo, kitDir);
    const record = readFileSync(path.join(repo, "CLEARANCE.md"), "utf8");
    expect(record).toMatch(/- Transport `\.opencode\/plugins\/lifecycle\.ts`: kit sha256 `[0-9a-f]{64}`; committed: bytes equal/);
    expect(record).toMatch(/- Transport `hooks\/hooks\.json`: kit sha256 `[0-9a-f]{64}`; committed: sha256 [0-9a-f]{64} differs/);
  });
});

describe("clear verify and the kit", () => {
  it("refuses an accepted batch that names a kit but quotes no transport", () => {
    const { repo, kitDir } = setup();
    commit(repo, { "hooks/hooks.json": HOOKS("2.1.261"), ".opencode/plugins/lifecycle.ts": PLUGIN("1.18.29") });
    runWithKit(repo, kitDir);
    const file = path.join(repo, "CLEARANCE.md");
    const accepted = readFileSync(file, "utf8").replace("The tool never does. -->\n\n", "The tool never does. -->\nACCEPT\n");
    writeFileSync(file, accepted);
    expect(clearJson(["verify"], { cwd: repo }).code).toBe(0);
    // The same batch without its transport lines, its digest made to hold again, is refused for that.
    const lines = accepted.split("\n").filter((l) => !l.startsWith("- Transport "));
    const marker = lines.findIndex((l) => l.startsWith("<!-- clear:batch"));
    const heading = lines.indexOf("## User acceptance");
    const digest = createHash("sha256").update(lines.slice(marker + 1, heading).join("\n")).digest("hex");
    lines[marker] = (lines[marker] as string).replace(/sha256:[0-9a-f]{64}/, `sha256:${digest}`);
    writeFileSync(file, lines.join("\n"));
    expect((clearJson(["verify"], { cwd: repo }).json.findings as { code: string }[]).map((f) => f.code)).toEqual(["kit-not-quoted"]);
  });
});

describe("the committed transports are regular files with the kit's bytes and mode", () => {
  /** The kit's hooks.json committed as a link whose target is those very bytes, a file named so beside it holding other hooks: git's bytes for the link are the kit's. */
  function linkedAsTheKit(repo: string, kitDir: string, base: string): void {
    const bytes = readFileSync(path.join(kitDir, "hooks/hooks.json"), "utf8");
    write(repo, `${base}/${bytes}`, HOOKS("2.1.261").replace("lifecycle", "something-else"));
    rmSync(path.join(repo, base, "hooks.json"), { force: true });
    symlinkSync(bytes, path.join(repo, base, "hooks.json"));
  }

  it("at HEAD and in the working tree: a transport committed as a link (git holds its target as its bytes) is a finding, never equal; a link on the way in the working tree too", () => {
    const { repo, kitDir } = setup();
    commit(repo, { "hooks/hooks.json": HOOKS("2.1.261"), ".opencode/plugins/lifecycle.ts": PLUGIN("1.18.29") });
    linkedAsTheKit(repo, kitDir, "hooks");
    execFileSync("git", ["add", "-A"], { cwd: repo });
    execFileSync("git", ["commit", "-qm", "linked"], { cwd: repo });
    expect(execFileSync("git", ["ls-tree", "HEAD", "hooks/hooks.json"], { cwd: repo, encoding: "utf8" })).toMatch(/^120000 /);
    for (const flags of [[], ["--working-tree"]]) {
      const r = clearJson(["verify-kit", "--kit", path.join(kitDir, "kit.json"), ...flags], { cwd: repo });
      expect(r.code, flags.join()).toBe(1);
      const findings = r.json.findings as { code: string; file: string }[];
      expect(findings.filter((f) => f.code === "transport-not-a-file").map((f) => f.file), flags.join()).toEqual(["hooks/hooks.json"]);
      expect((r.json.transports as { path: string; state: string }[]).find((t) => t.path === "hooks/hooks.json")?.state, flags.join()).toBe("missing");
    }
    // A folder on the transports' way linked elsewhere, in the working tree.
    const other = setup();
    commit(other.repo, { "hooks/hooks.json": HOOKS("2.1.261"), ".opencode/plugins/lifecycle.ts": PLUGIN("1.18.29") });
    const elsewhere = tempDir("clear-kit-elsewhere-");
    write(elsewhere, "plugins/lifecycle.ts", PLUGIN("1.18.29"));
    write(elsewhere, "plugins/more.ts", PLUGIN("1.18.29"));
    rmSync(path.join(other.repo, ".opencode"), { recursive: true });
    symlinkSync(elsewhere, path.join(other.repo, ".opencode"));
    const r = clearJson(["verify-kit", "--kit", path.join(other.kitDir, "kit.json"), "--working-tree"], { cwd: other.repo });
    expect(r.code).toBe(1);
    expect((r.json.findings as { code: string; file: string }[]).filter((f) => f.code === "transport-not-a-file").map((f) => f.file)).toEqual([".opencode"]);
  });

  it("a transport whose git attributes make a checkout write other bytes (eol=crlf, ident, a filter): exit 1 at HEAD, naming it", () => {
    for (const attribute of ["text eol=crlf", "ident", "filter=crypt"]) {
      const { repo, kitDir } = setup();
      commit(repo, { "hooks/hooks.json": HOOKS("2.1.261"), ".opencode/plugins/lifecycle.ts": PLUGIN("1.18.29"), ".gitattributes": `hooks/hooks.json ${attribute}\n` });
      const r = verify(repo, kitDir);
      expect(r.code, attribute).toBe(1);
      expect((r.json.findings as { code: string; file: string }[]).map((f) => [f.code, f.file]), attribute).toEqual([["transport-checkout-changed", "hooks/hooks.json"]]);
    }
  });

  it("a transport committed with the kit's bytes but not its mode: exit 1, naming it", () => {
    const { repo, kitDir } = setup();
    commit(repo, { "hooks/hooks.json": HOOKS("2.1.261"), ".opencode/plugins/lifecycle.ts": PLUGIN("1.18.29") });
    execFileSync("git", ["update-index", "--chmod=+x", "hooks/hooks.json"], { cwd: repo });
    execFileSync("git", ["commit", "-qm", "mode"], { cwd: repo });
    const r = verify(repo, kitDir);
    expect(r.code).toBe(1);
    expect((r.json.findings as { code: string; file: string }[]).map((f) => [f.code, f.file])).toEqual([["transport-mode-differs", "hooks/hooks.json"]]);
  });

  it("no copy beside kit.json: the mode kit.json records is held against the committed one, each way (exit 1), and kit record writes it", () => {
    const { repo, kitDir } = setup();
    chmodSync(path.join(kitDir, ".opencode/plugins/lifecycle.ts"), 0o755);
    const { head } = JSON.parse(readFileSync(path.join(kitDir, "kit.json"), "utf8")) as { head: string };
    expect(clear(["kit", "record", kitDir, "--head", head], { cwd: repo }).code).toBe(0);
    const recorded = JSON.parse(readFileSync(path.join(kitDir, "kit.json"), "utf8")) as { transports: { path: string; executable: boolean }[] };
    expect(recorded.transports.map((t) => [t.path, t.executable])).toEqual([[".opencode/plugins/lifecycle.ts", true], ["hooks/hooks.json", false]]);
    const alone = tempDir("clear-kit-mode-alone-");
    writeFileSync(path.join(alone, "kit.json"), readFileSync(path.join(kitDir, "kit.json")));
    commit(repo, { "hooks/hooks.json": HOOKS("2.1.261"), ".opencode/plugins/lifecycle.ts": PLUGIN("1.18.29") });
    execFileSync("git", ["update-index", "--chmod=+x", "hooks/hooks.json"], { cwd: repo });
    execFileSync("git", ["commit", "-qm", "mode"], { cwd: repo });
    const r = clearJson(["verify-kit", "--kit", path.join(alone, "kit.json")], { cwd: repo });
    expect(r.code).toBe(1);
    const blocking = (r.json.findings as { code: string; file: string; severity: string; message: string }[]).filter((f) => f.severity === "block");
    expect(blocking.map((f) => [f.code, f.file])).toEqual([
      ["transport-mode-differs", ".opencode/plugins/lifecycle.ts"],
      ["transport-mode-differs", "hooks/hooks.json"],
    ]);
    expect(blocking[0]?.message).toMatch(/the kit's is executable, the committed one is not/);
    expect(blocking[1]?.message).toMatch(/committed executable, the kit's is not/);
    // Committed as the kit recorded them: nothing blocks.
    execFileSync("git", ["update-index", "--chmod=-x", "hooks/hooks.json"], { cwd: repo });
    execFileSync("git", ["update-index", "--chmod=+x", ".opencode/plugins/lifecycle.ts"], { cwd: repo });
    execFileSync("git", ["commit", "-qm", "modes"], { cwd: repo });
    const kept = clearJson(["verify-kit", "--kit", path.join(alone, "kit.json")], { cwd: repo });
    expect(kept.code, JSON.stringify(kept.json.findings)).toBe(0);
  });

  it("a copy beside kit.json whose mode changed since kit record: the committed mode must be both the copy's and the recorded one (exit 1)", () => {
    const { repo, kitDir } = setup();
    commit(repo, { "hooks/hooks.json": HOOKS("2.1.261"), ".opencode/plugins/lifecycle.ts": PLUGIN("1.18.29") });
    chmodSync(path.join(kitDir, "hooks/hooks.json"), 0o755);
    const r = verify(repo, kitDir);
    expect(r.code).toBe(1);
    expect((r.json.findings as { code: string; file: string }[]).map((f) => [f.code, f.file])).toEqual([["transport-mode-differs", "hooks/hooks.json"]]);
  });

  it("a kit.json that records no mode, no copy beside it: the mode is said to be unchecked, a note", () => {
    const { repo, kitDir } = setup();
    commit(repo, { "hooks/hooks.json": HOOKS("2.1.261"), ".opencode/plugins/lifecycle.ts": PLUGIN("1.18.29") });
    const kit = JSON.parse(readFileSync(path.join(kitDir, "kit.json"), "utf8")) as { transports: Record<string, unknown>[] };
    for (const t of kit.transports) delete t.executable;
    const alone = tempDir("clear-kit-nomode-");
    writeFileSync(path.join(alone, "kit.json"), JSON.stringify(kit));
    const r = clearJson(["verify-kit", "--kit", path.join(alone, "kit.json")], { cwd: repo });
    expect(r.code).toBe(0);
    const unchecked = (r.json.findings as { code: string; file: string; severity: string }[]).filter((f) => f.code === "transport-mode-unchecked");
    expect(unchecked.map((f) => [f.file, f.severity])).toEqual([
      [".opencode/plugins/lifecycle.ts", "note"],
      ["hooks/hooks.json", "note"],
    ]);
  });

  it("a kit.json edited to name the committed bytes, no copy beside it: those bytes are held against the kit's head, and the copies' absence is said", () => {
    const { repo, kitDir, head } = setup();
    const changed = HOOKS("2.1.261").replace("lifecycle", "something-else");
    commit(repo, { "hooks/hooks.json": changed, ".opencode/plugins/lifecycle.ts": PLUGIN("1.18.29") });
    const kit = JSON.parse(readFileSync(path.join(kitDir, "kit.json"), "utf8"));
    Object.assign(kit.transports.find((t: { path: string }) => t.path === "hooks/hooks.json"), { sha256: createHash("sha256").update(changed).digest("hex"), bytes: Buffer.byteLength(changed) });
    kit.head = head;
    const alone = tempDir("clear-kit-alone-");
    writeFileSync(path.join(alone, "kit.json"), JSON.stringify(kit));
    const r = clearJson(["verify-kit", "--kit", path.join(alone, "kit.json")], { cwd: repo });
    expect(r.code).toBe(1);
    const findings = (r.json.findings as { code: string; file: string }[]).map((f) => [f.code, f.file]);
    expect(findings).toContainEqual(["kit-not-from-head", "hooks/hooks.json"]);
    expect(findings.filter(([code]) => code === "kit-copy-absent").map(([, file]) => file)).toEqual([".opencode/plugins/lifecycle.ts", "hooks/hooks.json"]);
    // The kit as recorded, alone: its digests are the committed bytes' and its head's differ in version strings only.
    commit(repo, { "hooks/hooks.json": HOOKS("2.1.261") });
    writeFileSync(path.join(alone, "kit.json"), readFileSync(path.join(kitDir, "kit.json")));
    const kept = clearJson(["verify-kit", "--kit", path.join(alone, "kit.json")], { cwd: repo });
    expect(kept.code, JSON.stringify(kept.json.findings)).toBe(0);
    expect((kept.json.findings as { code: string; severity: string }[]).every((f) => f.code === "kit-copy-absent" && f.severity === "note")).toBe(true);
  });
});

describe("a kit is read without ever being led elsewhere", () => {
  it("verify-kit: a transport linked to /proc/self/environ and a binary linked to /dev/zero are findings, never read", () => {
    const { repo, kitDir } = setup();
    commit(repo, { "hooks/hooks.json": HOOKS("2.1.261"), ".opencode/plugins/lifecycle.ts": PLUGIN("1.18.29") });
    rmSync(path.join(kitDir, "hooks", "hooks.json"));
    symlinkSync("/proc/self/environ", path.join(kitDir, "hooks", "hooks.json"));
    rmSync(path.join(kitDir, "bin", "pasture"));
    symlinkSync("/dev/zero", path.join(kitDir, "bin", "pasture"));
    const secret = ["ci", "secret", String(Date.now())].join("-");
    const r = spawnSync(process.execPath, [CLI, "verify-kit", "--kit", path.join(kitDir, "kit.json")], { cwd: repo, encoding: "utf8", timeout: 30_000, env: { ...process.env, CLEAR_TEST_SECRET: secret } });
    expect(r.signal).toBeNull();
    expect(r.status).toBe(1);
    expect(`${r.stdout}${r.stderr}`).not.toContain(secret);
    // Grouped by code by default; --verbose lists every finding.
    expect(r.stdout).toContain("  BLOCK kit-link: 2 findings in 2 files\n");
    expect(r.stdout).toContain("--verbose lists every finding.");
    const every = spawnSync(process.execPath, [CLI, "verify-kit", "--kit", path.join(kitDir, "kit.json"), "--verbose"], { cwd: repo, encoding: "utf8", timeout: 30_000 });
    expect(every.status).toBe(1);
    expect(every.stdout).toMatch(/^BLOCK kit-link\s+hooks\/hooks\.json/m);
    expect(every.stdout).toMatch(/^BLOCK kit-link\s+bin\/pasture/m);
  });

  it("verify-kit: a committed transport's name holding a terminal escape or a line break is printed escaped, on its own line", () => {
    const { repo, kitDir } = setup();
    commit(repo, { "hooks/hooks.json": HOOKS("2.1.261"), ".opencode/plugins/lifecycle.ts": PLUGIN("1.18.29"), ".opencode/plugins/e\u001b[31mRED\nFAKE LINE.ts": PLUGIN("1.18.29") });
    const r = spawnSync(process.execPath, [CLI, "verify-kit", "--kit", path.join(kitDir, "kit.json")], { cwd: repo, encoding: "utf8", timeout: 30_000 });
    expect(r.stdout).toMatch(/RED\\u000aFAKE LINE\.ts/);
    expect(r.stdout + r.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
    expect(r.stdout).not.toMatch(/^FAKE/m);
  });

  it("verify-kit: a folder of the kit linked elsewhere is a finding, and nothing behind it is read or shown", () => {
    for (const folder of ["hooks", "bin"]) {
      const { repo, kitDir } = setup();
      commit(repo, { "hooks/hooks.json": HOOKS("2.1.261"), ".opencode/plugins/lifecycle.ts": PLUGIN("1.18.29") });
      const secret = ["leaked", "value", String(Date.now())].join("-");
      const elsewhere = tempDir("clear-kit-elsewhere-");
      // Behind the link: the transport with a secret line added, and a binary of other bytes.
      write(elsewhere, "hooks.json", HOOKS("2.1.261").replace("{", `{"SECRET":"${secret}",`));
      write(elsewhere, "pasture", `#!/bin/sh\necho ${secret}\n`);
      rmSync(path.join(kitDir, folder), { recursive: true });
      symlinkSync(elsewhere, path.join(kitDir, folder));
      for (const json of [false, true]) {
        const r = spawnSync(process.execPath, [CLI, "verify-kit", "--kit", path.join(kitDir, "kit.json"), json ? "--json" : "--verbose"], { cwd: repo, encoding: "utf8", timeout: 30_000 });
        expect(r.status, folder).toBe(1);
        expect(`${r.stdout}${r.stderr}`, folder).not.toContain(secret);
        const file = folder === "hooks" ? "hooks/hooks.json" : "bin/pasture";
        if (json) expect((JSON.parse(r.stdout).findings as { code: string; file: string }[]).filter((f) => f.code === "kit-link").map((f) => f.file), folder).toEqual([file]);
        else expect(r.stdout, folder).toMatch(new RegExp(`kit-link\\s+${file.replace(".", "\\.")}`));
      }
    }
  });

  it("kit record: a link or a FIFO among the transports is a finding, and no kit.json is written", () => {
    for (const plant of ["link", "fifo", "linked folder"] as const) {
      const kitDir = tempDir("clear-kit-hostile-");
      write(kitDir, "hooks/hooks.json", HOOKS("2.1.261"));
      const target = path.join(kitDir, ".opencode", "plugins", "lifecycle.ts");
      mkdirSync(path.dirname(target), { recursive: true });
      if (plant === "link") symlinkSync("/proc/self/environ", target);
      else if (plant === "fifo") execFileSync("mkfifo", [target]);
      else {
        rmSync(path.join(kitDir, ".opencode"), { recursive: true });
        const elsewhere = tempDir("clear-kit-elsewhere-");
        write(elsewhere, "plugins/lifecycle.ts", PLUGIN("1.18.29"));
        symlinkSync(elsewhere, path.join(kitDir, ".opencode"));
      }
      const r = spawnSync(process.execPath, [CLI, "kit", "record", kitDir, "--head", "abcdef1"], { cwd: kitDir, encoding: "utf8", timeout: 30_000 });
      expect(r.signal, plant).toBeNull();
      expect(r.status, plant).toBe(1);
      const code = plant === "fifo" ? "kit-not-a-file" : "kit-link";
      expect(r.stdout, plant).toContain(`  BLOCK ${code}: 1 finding in 1 file\n`);
      const every = spawnSync(process.execPath, [CLI, "kit", "record", kitDir, "--head", "abcdef1", "--verbose"], { cwd: kitDir, encoding: "utf8", timeout: 30_000 });
      expect(every.status, plant).toBe(1);
      expect(every.stdout, plant).toMatch(new RegExp(`^BLOCK ${code} +\\.opencode`, "m"));
      expect(existsSync(path.join(kitDir, "kit.json")), plant).toBe(false);
    }
  });
});
