import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { hostsCache } from "../src/capture/hosts.js";
import { OPENCODE_PLUGIN_HOOKS } from "../src/capture/transports.js";
import { loadRules } from "../src/io/load-rules.js";
import { validateAgainst } from "../src/io/load-rules.js";
import { clear, PROJECT_ROOT, sha256, tempDir } from "./helpers.js";

// clear capture setup, start, status and dry-run: what each writes, checked against what the
// hosts publish of their own settings and plugin types.

const IN_CI = process.env.CI !== undefined && process.env.CI !== "" && process.env.CI !== "false";
const TSC = path.join(PROJECT_ROOT, "node_modules", "typescript", "bin", "tsc");

/** The hosts' published types (the Claude Agent SDK that matches Claude Code 2.1.328; @opencode-ai/plugin 1.18.33), unpacked into the cache. */
function publishedTypes(): { sdk: string; plugin: string } | null {
  const dir = path.join(hostsCache(), "types");
  const sdk = path.join(dir, "sdk", "package", "sdk.d.ts");
  const plugin = path.join(dir, "plugin", "package", "dist", "index.d.ts");
  if (!existsSync(sdk) || !existsSync(plugin)) {
    mkdirSync(dir, { recursive: true });
    const packed = spawnSync("npm", ["pack", "@anthropic-ai/claude-agent-sdk@0.3.328", "@opencode-ai/plugin@1.18.33"], {
      cwd: dir,
      encoding: "utf8",
    });
    if (packed.status !== 0) {
      if (IN_CI) throw new Error(`npm pack of the hosts' published types failed: ${packed.stderr}`);
      return null;
    }
    for (const [tgz, into] of [
      ["anthropic-ai-claude-agent-sdk-0.3.328.tgz", "sdk"],
      ["opencode-ai-plugin-1.18.33.tgz", "plugin"],
    ] as const) {
      mkdirSync(path.join(dir, into), { recursive: true });
      execFileSync("tar", ["xzf", path.join(dir, tgz), "-C", path.join(dir, into)]);
    }
  }
  return { sdk, plugin };
}

function typeCheck(source: string): { code: number | null; out: string } {
  const dir = tempDir("clear-types-");
  writeFileSync(path.join(dir, "check.ts"), source);
  const r = spawnSync(
    process.execPath,
    [
      TSC,
      "--noEmit",
      "--strict",
      "--skipLibCheck",
      "--module",
      "nodenext",
      "--moduleResolution",
      "nodenext",
      "--target",
      "es2022",
      "--allowImportingTsExtensions",
      path.join(dir, "check.ts"),
    ],
    { encoding: "utf8" },
  );
  return { code: r.status, out: r.stdout + r.stderr };
}

const VERSIONS = { "claude-code": "2.1.328", codex: "0.169.0", opencode: "1.18.33" } as const;

function setup(harness: keyof typeof VERSIONS): { project: string; sitting: string; code: number; stdout: string; stderr: string } {
  const base = tempDir("clear-setup-");
  const project = path.join(base, "project");
  const sitting = path.join(base, "sitting");
  mkdirSync(sitting);
  const r = clear(["capture", "setup", harness, "--project", project, "--into", sitting, "--host-version", VERSIONS[harness]]);
  return { project, sitting, code: r.code, stdout: r.stdout, stderr: r.stderr };
}

/** A sitting folder whose kit.json is a link to a person's notes beside it. */
function sittingWithLinkedKit(prefix: string): { base: string; notes: string; sitting: string } {
  const base = tempDir(prefix);
  const notes = path.join(base, "notes.txt");
  writeFileSync(notes, "my notes\n");
  const sitting = path.join(base, "sitting");
  mkdirSync(sitting);
  symlinkSync(notes, path.join(sitting, "kit.json"));
  return { base, notes, sitting };
}

describe("clear capture setup", () => {
  const rules = loadRules();
  let types: { sdk: string; plugin: string } | null = null;
  beforeAll(() => {
    types = publishedTypes();
  }, 300_000);

  it("Claude Code: .claude/settings.json with a hook for every catalogued event the host knows, typed as the host's published Settings", () => {
    const { project, code } = setup("claude-code");
    expect(code).toBe(0);
    const text = readFileSync(path.join(project, ".claude", "settings.json"), "utf8");
    const hooks = (JSON.parse(text) as { hooks: Record<string, { matcher: string; hooks: { command: string }[] }[]> }).hooks;
    const catalogue = rules.harnesses.find((h) => h.harness === "claude-code")!.events.filter((e) => e.since === undefined).map((e) => e.event);
    expect(Object.keys(hooks).sort()).toEqual(catalogue.filter((e) => e !== "WorktreeCreate").sort());
    for (const [event, entries] of Object.entries(hooks))
      expect(entries[0]!.hooks[0]!.command).toMatch(new RegExp(`capture hook claude-code ${event} --host-version 2\\.1\\.328$`));
    if (types === null) return;
    const published = readFileSync(types.sdk, "utf8");
    const known = JSON.parse(`[${/HOOK_EVENTS: readonly \[([^\]]*)\]/.exec(published)![1]!.replace(/'/g, '"')}]`) as string[];
    for (const event of Object.keys(hooks)) expect(known, event).toContain(event);
    const good = typeCheck(`import type { Settings } from ${JSON.stringify(types.sdk)};\nexport const s: Settings = ${text};\n`);
    expect(good.out).toBe("");
    const broken = typeCheck(
      `import type { Settings } from ${JSON.stringify(types.sdk)};\nexport const s: Settings = ${text.replace('"type": "command"', '"type": "commands"')};\n`,
    );
    expect(broken.code).not.toBe(0);
  });

  it("OpenCode: a plugin whose hooks are every member of @opencode-ai/plugin's Hooks but the plugin's setup, loadable as an ES module", () => {
    const { project, code } = setup("opencode");
    expect(code).toBe(0);
    const plugin = path.join(project, ".opencode", "plugins", "clear-capture.js");
    const loaded = spawnSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `const m = await import(${JSON.stringify(plugin)}); const h = await m.ClearCapture({}); console.log(Object.keys(h).sort().join(","));`,
      ],
      { encoding: "utf8" },
    );
    expect(loaded.stdout.trim().split(",")).toEqual(["event", ...OPENCODE_PLUGIN_HOOKS].sort());
    if (types === null) return;
    const good = typeCheck(
      `import type { Hooks } from ${JSON.stringify(types.plugin)};\n` +
        `export const names: (keyof Hooks)[] = ${JSON.stringify(["event", ...OPENCODE_PLUGIN_HOOKS])};\n`,
    );
    expect(good.out).toBe("");
    expect(
      typeCheck(
        `import type { Hooks } from ${JSON.stringify(types.plugin)};\nexport const names: (keyof Hooks)[] = ["tool.execute.sideways"];\n`,
      ).code,
    ).not.toBe(0);
    // And the other way: every member of Hooks is registered but the plugin's own setup and
    // teardown (config would hand the person's whole configuration to the sink).
    const published = types.plugin;
    const whole = (names: string[]): string =>
      `import type { Hooks } from ${JSON.stringify(published)};\n` +
      `const names = ${JSON.stringify(["event", ...names])} as const;\n` +
      `type Missing = Exclude<keyof Hooks, "dispose" | "config" | "tool" | "auth" | "provider" | (typeof names)[number]>;\n` +
      `export const none: [Missing] extends [never] ? true : Missing = true;\n`;
    expect(typeCheck(whole(OPENCODE_PLUGIN_HOOKS)).out).toBe("");
    expect(typeCheck(whole(OPENCODE_PLUGIN_HOOKS.filter((h) => h !== "shell.env"))).code).not.toBe(0);
  });

  it("OpenCode: a hook input that cannot be serialised (a cycle, a BigInt) is said on standard error in a sitting, never dropped without a word", () => {
    const { project, code } = setup("opencode");
    expect(code).toBe(0);
    const plugin = path.join(project, ".opencode", "plugins", "clear-capture.js");
    const sitting = tempDir("clear-unserialisable-");
    const call = (dir: string | undefined) => {
      const env: Record<string, string | undefined> = { ...process.env, CLEAR_CAPTURE_DIR: dir };
      if (dir === undefined) delete env.CLEAR_CAPTURE_DIR;
      return spawnSync(
        process.execPath,
        [
          "--input-type=module",
          "-e",
          `const m = await import(${JSON.stringify(plugin)}); const h = await m.ClearCapture({}); const cyclic = {}; cyclic.self = cyclic; await h["chat.params"](cyclic, {}); await h["tool.execute.before"]({ size: 1n }, {});`,
        ],
        { encoding: "utf8", env },
      );
    };
    const inSitting = call(sitting);
    expect([inSitting.status, inSitting.stdout]).toEqual([0, ""]);
    expect(inSitting.stderr.trim().split("\n")).toEqual([
      "clear capture: the chat.params input could not be serialised; nothing was written",
      "clear capture: the tool.execute.before input could not be serialised; nothing was written",
    ]);
    expect(readdirSync(sitting)).toEqual([]);
    expect(call(undefined).stderr).toBe("");
  });

  it("Codex: .codex/hooks.json with a command hook for every catalogued event, and a word on trust", () => {
    const { project, code, stdout } = setup("codex");
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Codex runs these hooks only in a trusted project with trusted hooks: codex exec --trust --dangerously-bypass-hook-trust/m);
    const hooks = (JSON.parse(readFileSync(path.join(project, ".codex", "hooks.json"), "utf8")) as { hooks: Record<string, unknown> })
      .hooks;
    expect(Object.keys(hooks).sort()).toEqual(
      rules.harnesses
        .find((h) => h.harness === "codex")!
        .events.map((e) => e.event)
        .sort(),
    );
  });

  it("records the SHA-256 of every file it wrote in a kit.json that meets its schema", () => {
    for (const harness of ["claude-code", "codex", "opencode"] as const) {
      const { project, sitting } = setup(harness);
      const kit = JSON.parse(readFileSync(path.join(sitting, "kit.json"), "utf8")) as {
        transports: { path: string; sha256: string; bytes: number; executable: boolean }[];
        hostVersions: Record<string, string>;
      };
      expect(() => validateAgainst("kit", kit, "kit.json")).not.toThrow();
      expect(kit.hostVersions).toEqual({ [harness]: VERSIONS[harness] });
      for (const t of kit.transports) {
        const bytes = readFileSync(path.join(project, t.path));
        const executable = (statSync(path.join(project, t.path)).mode & 0o111) !== 0;
        expect([t.sha256, t.bytes, t.executable]).toEqual([sha256(bytes), bytes.length, executable]);
      }
    }
  });

  it("refuses a project inside a git repository, and a transport already there with other content", () => {
    const repo = tempDir("clear-setup-repo-");
    execFileSync("git", ["init", "-q", repo]);
    const inside = clear(["capture", "setup", "codex", "--project", path.join(repo, "p"), "--host-version", "0.169.0"]);
    expect(inside.code).toBe(2);
    expect(inside.stderr).toMatch(/inside a git repository/);
    expect(existsSync(path.join(repo, "p"))).toBe(false);
    const project = tempDir("clear-setup-own-");
    mkdirSync(path.join(project, ".codex"));
    writeFileSync(path.join(project, ".codex", "hooks.json"), "{}\n");
    const clash = clear(["capture", "setup", "codex", "--project", project, "--host-version", "0.169.0"]);
    expect(clash.code).toBe(2);
    expect(readFileSync(path.join(project, ".codex", "hooks.json"), "utf8")).toBe("{}\n");
  });

  it("refuses a link anywhere on the way to a file it writes (a host's folder, a folder below it, the file itself), naming it, and writes nothing", () => {
    const base = tempDir("clear-setup-link-");
    const elsewhere = path.join(base, "elsewhere");
    mkdirSync(path.join(elsewhere, ".claude"), { recursive: true });
    mkdirSync(path.join(elsewhere, "plugins"));
    const cases = [
      { harness: "claude-code", link: ".claude", to: path.join(elsewhere, ".claude") },
      { harness: "opencode", link: ".opencode/plugins", to: path.join(elsewhere, "plugins") },
      { harness: "codex", link: ".codex/hooks.json", to: path.join(elsewhere, "hooks.json") },
    ] as const;
    for (const [i, c] of cases.entries()) {
      const project = path.join(base, `project-${i}`);
      mkdirSync(path.dirname(path.join(project, c.link)), { recursive: true });
      symlinkSync(c.to, path.join(project, c.link));
      const sitting = path.join(base, `sitting-${i}`);
      const r = clear(["capture", "setup", c.harness, "--project", project, "--into", sitting, "--host-version", VERSIONS[c.harness]]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.trim().split("\n")).toEqual([expect.stringContaining(`${path.join(project, c.link)} is a symbolic link`)]);
      expect(existsSync(sitting)).toBe(false);
    }
    expect(readdirSync(elsewhere).sort()).toEqual([".claude", "plugins"]);
    expect([readdirSync(path.join(elsewhere, ".claude")), readdirSync(path.join(elsewhere, "plugins"))]).toEqual([[], []]);
  });

  it("never writes kit.json through a link nor over a kit.json it did not write; one holding the very bytes it writes is left as it is", () => {
    const { base, notes, sitting } = sittingWithLinkedKit("clear-setup-kit-");
    const linked = clear(["capture", "setup", "codex", "--project", path.join(base, "p1"), "--into", sitting, "--host-version", "0.169.0"]);
    expect(linked.code).toBe(2);
    expect(linked.stderr).toContain(`${path.join(sitting, "kit.json")} is a symbolic link`);
    expect(readFileSync(notes, "utf8")).toBe("my notes\n");
    expect(existsSync(path.join(base, "p1"))).toBe(false);
    const project = path.join(base, "p2");
    mkdirSync(project);
    writeFileSync(path.join(project, "kit.json"), '{"mine":1}\n');
    const other = clear(["capture", "setup", "codex", "--project", project, "--host-version", "0.169.0"]);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain(`${path.join(project, "kit.json")} already exists with other content`);
    expect(readdirSync(project)).toEqual(["kit.json"]);
    expect(readFileSync(path.join(project, "kit.json"), "utf8")).toBe('{"mine":1}\n');
    const again = path.join(base, "p3");
    const first = clear(["capture", "setup", "codex", "--project", again, "--host-version", "0.169.0"]);
    const kit = readFileSync(path.join(again, "kit.json"));
    const second = clear(["capture", "setup", "codex", "--project", again, "--host-version", "0.169.0"]);
    expect([first.code, second.code]).toEqual([0, 0]);
    expect(readFileSync(path.join(again, "kit.json")).equals(kit)).toBe(true);
  });

  it("refuses a project that is the user's home ($HOME, by its real path) or a folder above it, writing nothing there", () => {
    const base = tempDir("clear-setup-home-");
    const home = path.join(base, "home", "user");
    mkdirSync(home, { recursive: true });
    symlinkSync(home, path.join(base, "to-home"));
    for (const project of [home, path.join(base, "home"), path.join(base, "to-home")]) {
      const r = clear(["capture", "setup", "codex", "--project", project, "--host-version", "0.169.0"], { env: { HOME: home } });
      expect(r.code, project).toBe(2);
      expect(r.stderr).toMatch(/is your home folder or holds it; .*: use a throwaway project folder$/m);
    }
    expect(readdirSync(home)).toEqual([]);
    const below = clear(["capture", "setup", "codex", "--project", path.join(home, "scratch"), "--host-version", "0.169.0"], { env: { HOME: home } });
    expect(below.code, below.stderr).toBe(0);
  });

  it("makes a sitting folder not there yet (the README's way), refuses one inside a repository before writing anything, and judges a missing folder by what stands above it", () => {
    const base = tempDir("clear-setup-new-");
    const made = clear(["capture", "setup", "codex", "--project", path.join(base, "project"), "--into", path.join(base, "a", "sitting"), "--host-version", "0.169.0"]);
    expect(made.code, made.stderr).toBe(0);
    expect(readdirSync(path.join(base, "a", "sitting"))).toEqual(["kit.json"]);
    const start = clear(["capture", "start", "codex", "--into", path.join(base, "a", "sitting"), "--host-bin", fakeHost("0.169.0 (fake)")]);
    expect(start.code, start.stderr).toBe(0);
    const deep = clear(["capture", "setup", "codex", "--project", path.join(base, "x", "y", "z"), "--host-version", "0.169.0"]);
    expect(deep.code, deep.stderr).toBe(0);
    expect(existsSync(path.join(base, "x", "y", "z", ".codex", "hooks.json"))).toBe(true);
    const repo = tempDir("clear-setup-repo-");
    execFileSync("git", ["init", "-q", repo]);
    const project = path.join(tempDir("clear-setup-p-"), "project");
    const refused = clear(["capture", "setup", "codex", "--project", project, "--into", path.join(repo, "sit", "deeper"), "--host-version", "0.169.0"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/sit\/deeper is inside a git repository/);
    expect(existsSync(project)).toBe(false);
    expect(readdirSync(repo)).toEqual([".git"]);
  });
});

/** A stand-in host binary whose --version says what the test sets. */
function fakeHost(line: string): string {
  const bin = path.join(tempDir("clear-fake-host-"), "host");
  writeFileSync(bin, `#!/bin/sh\necho ${JSON.stringify(line)}\n`);
  chmodSync(bin, 0o755);
  return bin;
}

describe("clear capture start and status", () => {
  it("status of a sitting clear capture start did not begin (the bundled example) is exit 2 naming what its sitting.json lacks", () => {
    const r = clear(["capture", "status", path.join(PROJECT_ROOT, "examples", "sitting")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/sitting\.json: not written by clear capture start \(it gives no harness and no recipe\)/);
    expect(r.stderr).not.toMatch(/versionLine/);
  });

  it("status names a payload the sink kept none of (above its cap) and one it never finished writing, and the event stays missing", () => {
    const host = fakeHost("0.169.0 (fake)");
    const sitting = path.join(tempDir("clear-start-cap-"), "sitting");
    expect(clear(["capture", "start", "codex", "--into", sitting, "--host-bin", host]).code).toBe(0);
    const sink = spawnSync(process.execPath, [path.join(PROJECT_ROOT, "dist", "cli.js"), "capture", "hook", "codex", "SessionStart", "--host-version", "0.169.0"], {
      input: Buffer.alloc(64 * 1024 * 1024 + 1, 0x20),
      env: { ...process.env, CLEAR_CAPTURE_DIR: sitting },
      encoding: "utf8",
    });
    expect([sink.status, sink.stdout]).toEqual([0, ""]);
    writeFileSync(path.join(sitting, "codex_pre_tool_use.writing-7-abc.partial"), '{"tool_input":');
    const status = clear(["capture", "status", sitting, "--host-bin", host]);
    expect(status.code).toBe(1);
    expect(status.stdout).toContain("  not kept  1 payloads above the sink's cap of 67108864 bytes: codex_session_start_0.169.0.1.json.oversize");
    expect(status.stdout).toContain("  not kept  1 payloads the sink began and never finished writing: codex_pre_tool_use.writing-7-abc.partial");
    expect(status.stdout).toMatch(/^ {2}missing {3}session_start$/m);
  });

  it("start probes --version, writes sitting.json from the flags and prints the checklist; status is live and a moved host is a stop", () => {
    const host = fakeHost("0.169.0 (fake)");
    const sitting = path.join(tempDir("clear-start-"), "sitting");
    const start = clear([
      "capture",
      "start",
      "codex",
      "--into",
      sitting,
      "--driver",
      "a person",
      "--method",
      "codex exec",
      "--host-bin",
      host,
    ]);
    expect(start.code, start.stderr).toBe(0);
    expect(start.stdout).toMatch(/export CLEAR_CAPTURE_DIR=/);
    expect(start.stdout).toMatch(/\[ \] 1\. bash: /);
    // Each step's events on a line of their own, not a newline shown as an escape.
    expect(start.stdout).toMatch(/^ {8}expect: [a-z_]+/m);
    expect(start.stdout).not.toContain("\\u000a");
    const record = JSON.parse(readFileSync(path.join(sitting, "sitting.json"), "utf8")) as Record<string, string>;
    expect(record).toMatchObject({
      driver: "a person",
      method: "codex exec",
      versionLine: "0.169.0 (fake)",
      harness: "codex",
      recipe: "codex-driven",
      hostVersion: "0.169.0",
    });
    expect(() => new Date(record.startedAt!).toISOString()).not.toThrow();
    const hook = (event: string): void => {
      spawnSync(
        process.execPath,
        [path.join(PROJECT_ROOT, "dist", "cli.js"), "capture", "hook", "codex", event, "--host-version", "0.169.0"],
        // As Codex sends it: every payload names its event.
        { input: JSON.stringify({ hook_event_name: event }), env: { ...process.env, CLEAR_CAPTURE_DIR: sitting } },
      );
    };
    hook("SessionStart");
    hook("PreToolUse");
    hook("PreToolUse");
    const status = clear(["capture", "status", sitting, "--host-bin", host, "--json"]);
    const s = JSON.parse(status.stdout) as {
      ok: boolean;
      missing: string[];
      repeats: { event: string; files: number }[];
      captured: { event: string }[];
      moved: boolean;
    };
    expect(status.code).toBe(1);
    expect(s.captured.map((c) => c.event)).toEqual(["pre_tool_use", "session_start"]);
    expect(s.repeats).toEqual([{ event: "pre_tool_use", files: 2 }]);
    expect(s.missing).toContain("post_compact");
    expect(s.moved).toBe(false);
    const moved = clear(["capture", "status", sitting, "--host-bin", fakeHost("0.170.0 (fake)")]);
    expect(moved.code).toBe(1);
    expect(moved.stdout).toMatch(/^STOP: the host version moved since start \(0\.169\.0 at start, 0\.170\.0 now\)/);
  });

  it("status counts a capture that cannot be cleared (a refused class, broken JSON) as no capture of its event, naming it and why", () => {
    const host = fakeHost("0.169.0 (fake)");
    const sitting = tempDir("clear-status-");
    writeFileSync(path.join(sitting, "sitting.json"), JSON.stringify({ versionLine: "0.169.0 (fake)", startedAt: "2026-01-01T00:00:00Z", harness: "codex", recipe: "codex-driven", hostVersion: "0.169.0" }));
    const env = Object.fromEntries(Array.from({ length: 24 }, (_, i) => [`VAR_${i}`, `value ${i}`]));
    writeFileSync(path.join(sitting, "codex_session_start_0.169.0.1.json"), JSON.stringify({ session_id: "s", hook_event_name: "SessionStart", source: "startup" }));
    writeFileSync(path.join(sitting, "codex_pre_tool_use_0.169.0.1.json"), JSON.stringify({ session_id: "s", turn_id: "t", hook_event_name: "PreToolUse", tool_name: "Bash", tool_use_id: "call_1", tool_input: { command: "ls", env } }));
    writeFileSync(path.join(sitting, "codex_stop_0.169.0.1.json"), "{ broken");
    const r = clear(["capture", "status", sitting, "--host-bin", host, "--json"]);
    const s = JSON.parse(r.stdout) as { ok: boolean; captured: { event: string }[]; missing: string[]; unusable: { file: string; event: string; code: string }[] };
    expect(r.code).toBe(1);
    expect(s.captured.map((c) => c.event)).toEqual(["session_start"]);
    expect(s.missing).toEqual(expect.arrayContaining(["pre_tool_use", "stop"]));
    expect(s.unusable).toEqual([
      { file: "codex_pre_tool_use_0.169.0.1.json", event: "pre_tool_use", code: "refused-class" },
      { file: "codex_stop_0.169.0.1.json", event: "stop", code: "invalid-json" },
    ]);
    const text = clear(["capture", "status", sitting, "--host-bin", host]).stdout;
    expect(text).toContain("  missing   pre_tool_use (captured, but not clearable: see below)");
    expect(text).toContain("  not clearable  codex_pre_tool_use_0.169.0.1.json: refused-class");
  });

  it("status reads sitting.json only as a regular file in the sitting: a link to a record elsewhere and a FIFO are exit 2 naming it, never followed nor waited on", () => {
    const host = fakeHost("0.169.0 (fake)");
    const record = JSON.stringify({ versionLine: "0.169.0 (fake)", startedAt: "2026-01-01T00:00:00Z", harness: "codex", recipe: "codex-driven", hostVersion: "0.169.0" });
    const elsewhere = path.join(tempDir("clear-status-elsewhere-"), "record.json");
    writeFileSync(elsewhere, record);
    const linked = tempDir("clear-status-");
    symlinkSync(elsewhere, path.join(linked, "sitting.json"));
    const viaLink = clear(["capture", "status", linked, "--host-bin", host], { timeout: 20_000 });
    expect(viaLink.code).toBe(2);
    expect(viaLink.stderr).toMatch(/sitting\.json.*symbolic link; never followed/);
    const fifo = tempDir("clear-status-");
    execFileSync("mkfifo", [path.join(fifo, "sitting.json")]);
    const viaFifo = clear(["capture", "status", fifo, "--host-bin", host], { timeout: 20_000 });
    expect(viaFifo.code).toBe(2);
    expect(viaFifo.stderr).toMatch(/sitting\.json.*not a regular file/);
  });

  it("status names the first five entries that are not captures or carry another version; --verbose names every one", () => {
    const host = fakeHost("0.169.0 (fake)");
    const sitting = tempDir("clear-status-");
    writeFileSync(path.join(sitting, "sitting.json"), JSON.stringify({ versionLine: "0.169.0 (fake)", startedAt: "2026-01-01T00:00:00Z", harness: "codex", recipe: "codex-driven", hostVersion: "0.169.0" }));
    const strays = Array.from({ length: 7 }, (_, i) => `stray-${i}.txt`);
    const others = Array.from({ length: 7 }, (_, i) => `codex_stop_0.168.0.${i + 1}.json`);
    for (const name of [...strays, ...others]) writeFileSync(path.join(sitting, name), "{}");
    const short = clear(["capture", "status", sitting, "--host-bin", host]);
    expect(short.code).toBe(1);
    expect(short.stdout).toContain(`7 entries are not captures: ${strays.slice(0, 5).join(", ")}, ... (--verbose lists every one)`);
    expect(short.stdout).toContain(`(${others.slice(0, 5).join(", ")}, ... (--verbose lists every one)).`);
    const every = clear(["capture", "status", sitting, "--host-bin", host, "--verbose"]);
    expect(every.code).toBe(1);
    expect(every.stdout).toContain(`7 entries are not captures: ${strays.join(", ")}\n`);
    expect(every.stdout).toContain(`(${others.join(", ")}).`);
  });

  it("status prints no secret shape sitting.json states and no name the captures teach, in the version or in any entry's name", () => {
    const host = fakeHost("0.169.0 (fake)");
    const sitting = tempDir("clear-status-");
    const name = ["mar", "got"].join("");
    const token = ["gh", "p_", "wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx"].join("");
    const record = { versionLine: "0.169.0 (fake)", startedAt: "2026-01-01T00:00:00Z", harness: "codex", recipe: "codex-driven", hostVersion: token };
    writeFileSync(path.join(sitting, "sitting.json"), JSON.stringify(record));
    writeFileSync(path.join(sitting, "codex_session_start_0.169.0.1.json"), JSON.stringify({ session_id: "s", cwd: `/home/${name}/p` }));
    writeFileSync(path.join(sitting, `codex_pre_tool_use_0.169.0-${name}.1.json`), "{}");
    writeFileSync(path.join(sitting, `notes-${token}.json`), "{}");
    writeFileSync(path.join(sitting, `${name}-notes.txt`), "{}");
    // A name that would print a line of its own, and one that would move the terminal.
    writeFileSync(path.join(sitting, "a\nSTOP: forged.txt"), "{}");
    writeFileSync(path.join(sitting, "b\u001b[2J.txt"), "{}");
    for (const json of [[], ["--json"]]) {
      const r = clear(["capture", "status", sitting, "--host-bin", host, ...json]);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout + r.stderr).not.toContain(token.slice(4, 20));
      expect(r.stdout + r.stderr).not.toMatch(new RegExp(name, "i"));
      expect(r.stdout).toMatch(/notes-\*+\.json/);
      expect(r.stdout + r.stderr).not.toMatch(/^STOP: forged|\u001b/m);
    }
  });

  it("start prints a host's answer to --version and the folder's name as data: no terminal escape, no line of their own", () => {
    const bin = path.join(tempDir("clear-fake-host-"), "host");
    writeFileSync(bin, "#!/bin/sh\nprintf '2.1.328 (Claude Code)\\033[2J\\033]0;pwned\\007 \\r evil\\n'\n");
    chmodSync(bin, 0o755);
    const sitting = path.join(tempDir("clear-start-"), "sit\u001b[31mting\nNext: forged");
    const r = clear(["capture", "start", "claude-code", "--into", sitting, "--host-bin", bin]);
    const text = r.stdout + r.stderr;
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
    expect(text).not.toMatch(/^Next: forged/m);
  });

  it("drive refuses a --step its recipe does not have, before it writes anything, and says the steps there are", () => {
    const into = path.join(tempDir("clear-drive-step-"), "sitting");
    const r = clear(["capture", "drive", "codex", "--into", into, "--step", "nosuch", "--isolate", "never"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('the recipe codex-driven has no step named "nosuch"; its steps: bash,');
    expect(existsSync(into)).toBe(false);
    const pasted = clear(["capture", "drive", "codex", "--into", into, "--step", "/home/someone/x", "--isolate", "never"]);
    expect(pasted.code).toBe(2);
    expect(pasted.stderr).toContain("has no step by that name");
    expect(pasted.stderr).not.toContain("someone");
  });

  it("drive refuses a kit.json that is a link in the sitting before the host runs, and leaves no throwaway folder behind", () => {
    const { base, notes, sitting } = sittingWithLinkedKit("clear-drive-kit-");
    const tmp = path.join(base, "tmp");
    mkdirSync(tmp);
    const r = clear(["capture", "drive", "codex", "--into", sitting, "--host-bin", fakeHost("0.169.0 (fake)"), "--isolate", "never"], { env: { TMPDIR: tmp } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${path.join(sitting, "kit.json")} is a symbolic link`);
    expect(readFileSync(notes, "utf8")).toBe("my notes\n");
    expect(readdirSync(sitting)).toEqual(["kit.json"]);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it("install never writes a file of the hosts' cache through a link", () => {
    const cache = tempDir("clear-install-cache-");
    const notes = path.join(tempDir("clear-install-notes-"), "notes.txt");
    writeFileSync(notes, "my notes\n");
    mkdirSync(path.join(cache, "codex-0.169.0"));
    symlinkSync(notes, path.join(cache, "codex-0.169.0", "package.json"));
    // Offline, so a refusal that did not come before npm fails fast instead of downloading the host.
    const r = clear(["capture", "install", "codex"], { env: { CLEAR_HOSTS_CACHE: cache, npm_config_offline: "true" } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("package.json is a symbolic link");
    expect(readFileSync(notes, "utf8")).toBe("my notes\n");
  });

  it("start refuses a folder that already holds a sitting, or one inside a repository", () => {
    const host = fakeHost("2.1.328 (Claude Code)");
    const sitting = tempDir("clear-start-used-");
    writeFileSync(path.join(sitting, "claude-code_stop_2.1.328.1.json"), "{}");
    expect(clear(["capture", "start", "claude-code", "--into", sitting, "--host-bin", host]).code).toBe(2);
    const repo = tempDir("clear-start-repo-");
    execFileSync("git", ["init", "-q", repo]);
    const r = clear(["capture", "start", "claude-code", "--into", path.join(repo, "s"), "--host-bin", host]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/inside a git repository/);
  });
});

describe("clear capture dry-run", () => {
  for (const harness of ["claude-code", "codex", "opencode"] as const) {
    it(`${harness}: one synthetic payload through the transport's exact hook command, checked, and the folder removed`, () => {
      const before = readdirSync(os.tmpdir()).filter((n) => n.startsWith("clear-dry-run-")).length;
      const r = clear(["capture", "dry-run", harness, "--host-version", VERSIONS[harness]]);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toMatch(
        new RegExp(
          `dry run ok: expected ${harness}_session_(start|created)_${VERSIONS[harness].replace(/\./g, "\\.")}\\.1\\.json; ` +
            "found \\S+; bytes equal; stdout empty; exit 0; notice said",
        ),
      );
      expect(readdirSync(os.tmpdir()).filter((n) => n.startsWith("clear-dry-run-")).length).toBe(before);
    });
  }

  it("leaves nothing in the temporary folder, the sink's once-only notice marker included", () => {
    const tmp = tempDir("clear-dry-run-tmp-");
    for (const harness of ["claude-code", "opencode"] as const) {
      const r = clear(["capture", "dry-run", harness, "--host-version", VERSIONS[harness]], { env: { TMPDIR: tmp } });
      expect(r.code, r.stdout + r.stderr).toBe(0);
    }
    expect(readdirSync(tmp)).toEqual([]);
  });
});
