import { spawn, spawnSync, execFileSync } from "node:child_process";
import { closeSync, constants, existsSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MAX_PAYLOAD_BYTES, OVERSIZE_SUFFIX, PARTIAL_SUFFIX, snakeEvent, hostVersionOf, parseHookArgs, readToEnd } from "../src/capture/sink.js";
import { SINK_MAX_PAYLOAD_BYTES, SINK_OVERSIZE_SUFFIX, SINK_PARTIAL_SUFFIX } from "../src/capture-name.js";
import { loadRules } from "../src/io/load-rules.js";
import { CLI, clearJson, tempDir } from "./helpers.js";

// The sink a host's hook runs: bytes unchanged, the lowest free counter, nothing on stdout, exit 0
// whatever happens, and one warning when it refuses.

interface SinkRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

function sink(args: string[], dir: string | undefined, input: Buffer | string | null, extraEnv: Record<string, string> = {}): SinkRun {
  const env: Record<string, string | undefined> = { ...process.env, ...extraEnv };
  if (dir === undefined) delete env.CLEAR_CAPTURE_DIR;
  else env.CLEAR_CAPTURE_DIR = dir;
  delete env.CLEAR_HOST_VERSION;
  Object.assign(env, extraEnv);
  const r = spawnSync(process.execPath, [CLI, "capture", "hook", ...args], {
    input: input ?? undefined,
    stdio: input === null ? ["ignore", "pipe", "pipe"] : "pipe",
    env,
    encoding: "utf8",
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function sinkAsync(args: string[], dir: string, input: Buffer): Promise<SinkRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, "capture", "hook", ...args], { env: { ...process.env, CLEAR_CAPTURE_DIR: dir } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

/** A folder outside every git repository (the system's temporary folder is). */
function sittingDir(): string {
  return tempDir("clear-sink-");
}

const PAYLOAD = Buffer.from('{"session_id":"s-1",  "hook_event_name":"PreToolUse","tool_input":{"command":"ls \\u00e9"}}\r\n\t ', "utf8");

describe("the sink writes the bytes unchanged", () => {
  it("names the file <harness>_<snake_event>_<version>.1.json with the exact bytes, prints nothing on stdout and says the notice once", () => {
    const dir = sittingDir();
    const first = sink(["claude-code", "PreToolUse", "--host-version", "2.1.328"], dir, PAYLOAD);
    const second = sink(["claude-code", "PreToolUse", "--host-version=2.1.328"], dir, Buffer.from("{}"));
    expect([first.code, first.stdout, second.code, second.stdout]).toEqual([0, "", 0, ""]);
    expect(readdirSync(dir).sort()).toEqual(["claude-code_pre_tool_use_2.1.328.1.json", "claude-code_pre_tool_use_2.1.328.2.json"]);
    expect(readFileSync(path.join(dir, "claude-code_pre_tool_use_2.1.328.1.json")).equals(PAYLOAD)).toBe(true);
    expect(first.stderr).toMatch(/capture mode is recording this sitting to /);
    expect(second.stderr).toBe("");
  });

  it("50 concurrent invocations write 50 files with distinct counters 1..50, each holding its own exact bytes, and one notice", async () => {
    const dir = sittingDir();
    const payloads = Array.from({ length: 50 }, (_, i) =>
      Buffer.concat([Buffer.from(`{"i":${i},"pad":"`), Buffer.alloc(i * 997, 0x61 + (i % 26)), Buffer.from('"}\n')]),
    );
    const runs = await Promise.all(payloads.map((p) => sinkAsync(["codex", "PostToolUse", "--host-version", "0.169.0"], dir, p)));
    expect(runs.every((r) => r.code === 0 && r.stdout === "")).toBe(true);
    expect(
      runs
        .map((r) => r.stderr)
        .join("")
        .match(/capture mode is recording/g),
    ).toHaveLength(1);
    const names = readdirSync(dir);
    expect(names.map((n) => Number(/\.([0-9]+)\.json$/.exec(n)?.[1])).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 50 }, (_, i) => i + 1),
    );
    const found = names.map((n) => readFileSync(path.join(dir, n)));
    for (const p of payloads) expect(found.filter((f) => f.equals(p))).toHaveLength(1);
  });

  it("takes the lowest free counter and never overwrites", () => {
    const dir = sittingDir();
    writeFileSync(path.join(dir, "opencode_tool_execute_before_1.18.33.1.json"), "one");
    writeFileSync(path.join(dir, "opencode_tool_execute_before_1.18.33.3.json"), "three");
    sink(["opencode", "tool.execute.before", "--host-version", "1.18.33"], dir, "two");
    sink(["opencode", "tool.execute.before", "--host-version", "1.18.33"], dir, "four");
    const read = (n: number): string => readFileSync(path.join(dir, `opencode_tool_execute_before_1.18.33.${n}.json`), "utf8");
    expect([read(1), read(2), read(3), read(4)]).toEqual(["one", "two", "three", "four"]);
  });

  it("names the version unknown when none is given, takes it from CLEAR_HOST_VERSION, and reads a --version line", () => {
    const dir = sittingDir();
    sink(["codex", "SessionStart"], dir, "{}");
    sink(["codex", "Stop"], dir, "{}", { CLEAR_HOST_VERSION: "0.169.0" });
    sink(["codex", "PreToolUse", "--host-version", "codex-cli 0.169.0"], dir, "{}");
    const odd = sink(["codex", "PostToolUse", "--host-version", "../../etc"], dir, "{}");
    expect(readdirSync(dir).sort()).toEqual([
      "codex_post_tool_use_unknown.1.json",
      "codex_pre_tool_use_0.169.0.1.json",
      "codex_session_start_unknown.1.json",
      "codex_stop_0.169.0.1.json",
    ]);
    expect(odd.stderr).toMatch(/not a version; the capture is named unknown/);
  });
});

describe("the sink refuses, writes nothing, exits 0 with one warning", () => {
  const parent = sittingDir();
  const repo = path.join(parent, "repo");
  mkdirSync(path.join(repo, "deep", "sitting"), { recursive: true });
  execFileSync("git", ["init", "-q", repo]);
  const bare = path.join(parent, "bare.git");
  execFileSync("git", ["init", "-q", "--bare", bare]);
  mkdirSync(path.join(bare, "inside"));
  const real = path.join(parent, "real");
  mkdirSync(real);
  const link = path.join(parent, "link");
  symlinkSync(real, link);
  const file = path.join(parent, "file");
  writeFileSync(file, "");
  const cases: [string, string, RegExp][] = [
    ["a relative folder", "captures", /is not an absolute path/],
    ["a missing folder", path.join(parent, "missing"), /does not exist/],
    ["a symbolic link", link, /is a symbolic link/],
    ["a symbolic link named with a trailing slash", `${link}/`, /is a symbolic link/],
    ["a symbolic link named with a trailing slash and dot", `${link}/.`, /not a plain absolute path/],
    ["a symbolic link named through a doubled slash", `${link}//`, /is a symbolic link/],
    ["a folder named with a part that climbs back", `${link}/../link`, /not a plain absolute path/],
    ["a file", file, /is not a directory/],
    ["a folder inside a git work tree", path.join(repo, "deep", "sitting"), /inside a git repository/],
    ["a repository's .git folder", path.join(repo, ".git"), /inside a git repository/],
    ["a folder inside a bare repository", path.join(bare, "inside"), /inside a git repository/],
  ];
  for (const [what, dir, why] of cases) {
    it(what, () => {
      const r = sink(["claude-code", "SessionStart", "--host-version", "2.1.328"], dir, PAYLOAD);
      expect([r.code, r.stdout]).toEqual([0, ""]);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toMatch(why);
      expect(readdirSync(real)).toEqual([]);
      expect(readdirSync(path.join(repo, "deep", "sitting"))).toEqual([]);
      expect(readdirSync(path.join(bare, "inside"))).toEqual([]);
    });
  }
  it("a folder whose name holds a terminal escape or a line break is said escaped, on one line, whether refused or written to", () => {
    const odd = `e\u001b[31mRED\nclear: capture mode is recording this sitting to \u202eelsewhere`;
    const made = path.join(parent, odd);
    mkdirSync(made);
    for (const dir of [made, path.join(parent, `missing ${odd}`)]) {
      const r = sink(["claude-code", "SessionStart", "--host-version", "2.1.328"], dir, PAYLOAD);
      expect([r.code, r.stdout]).toEqual([0, ""]);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).not.toMatch(/[\u001b\u202e]/);
      expect(r.stderr).toContain("e\\u001b[31mRED\\u000aclear: capture mode");
    }
    expect(readdirSync(made)).toEqual(["claude-code_session_start_2.1.328.1.json"]);
  });
  it("never creates the folder", () => {
    sink(["claude-code", "SessionStart"], path.join(parent, "missing"), PAYLOAD);
    expect(readdirSync(parent)).not.toContain("missing");
  });
});

describe("whatever happens, nothing on stdout and exit 0", () => {
  it("does nothing, silently, with CLEAR_CAPTURE_DIR unset or empty", () => {
    for (const dir of [undefined, ""]) {
      const r = sink(["claude-code", "SessionStart"], dir, PAYLOAD);
      expect(r).toEqual({ code: 0, stdout: "", stderr: "" });
    }
  });

  it("bad arguments: too few, an unknown option, a harness or event that cannot name a file", () => {
    const dir = sittingDir();
    for (const args of [
      [],
      ["claude-code"],
      ["claude-code", "Stop", "--verbose"],
      ["../x", "Stop"],
      ["claude-code", "../../Stop"],
      ["claude-code", "Pre/ToolUse"],
      ["claude-code", "Pre\nToolUse"],
      ["claude-code", "Stop", "--help"],
      ["a", "b", "c"],
      ["claude-code", "Stop", "--host-version"],
      ["claude-code", "Stop", "--host-version="],
      ["claude-code", "Stop", "--host-version", "--x"],
    ]) {
      const r = sink(args, dir, PAYLOAD);
      expect([r.code, r.stdout], args.join(" ")).toEqual([0, ""]);
      expect(r.stderr.trim().split("\n"), args.join(" ")).toHaveLength(1);
    }
    expect(readdirSync(dir)).toEqual([]);
  });

  it("a payload arriving in pieces on a descriptor left non-blocking (EAGAIN between them) is read whole", () => {
    const fifo = path.join(tempDir("clear-sink-fifo-"), "stdin");
    execFileSync("mkfifo", [fifo]);
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    const writer = openSync(fifo, constants.O_WRONLY);
    spawn("/bin/sh", ["-c", `sleep 0.3; printf '{"session_id":'; sleep 0.3; printf '"s-2"}'`], { stdio: ["ignore", writer, "ignore"] });
    closeSync(writer);
    try {
      expect(readToEnd(reader)).toEqual({ bytes: Buffer.from('{"session_id":"s-2"}') });
    } finally {
      closeSync(reader);
    }
  });

  it("unreadable standard input (a folder) writes nothing", () => {
    const dir = sittingDir();
    const fd = openSync(dir, "r");
    const r = spawnSync(process.execPath, [CLI, "capture", "hook", "codex", "Stop"], {
      stdio: [fd, "pipe", "pipe"],
      env: { ...process.env, CLEAR_CAPTURE_DIR: dir },
      encoding: "utf8",
    });
    closeSync(fd);
    expect([r.status, r.stdout]).toEqual([0, ""]);
    expect(r.stderr).toMatch(/standard input could not be read/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("nothing on standard input (closed, or empty) is no capture: nothing written, one warning, and status does not count it", () => {
    const dir = sittingDir();
    for (const input of [null, "", " \n"]) {
      const r = sink(["codex", "Stop", "--host-version", "0.169.0"], dir, input);
      expect([r.code, r.stdout]).toEqual([0, ""]);
      expect(r.stderr).toMatch(/^clear capture hook: standard input held no payload; nothing was written$/m);
    }
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe("a payload past the cap, and a write never seen half done", () => {
  it("keeps none of a payload one byte past the cap: an empty .json.oversize holds its counter, one warning, exit 0, inventory blocks on it", async () => {
    const dir = sittingDir();
    const big = Buffer.alloc(MAX_PAYLOAD_BYTES + 1, 0x61);
    const r = await sinkAsync(["codex", "Stop", "--host-version", "0.169.0"], dir, big);
    expect([r.code, r.stdout]).toEqual([0, ""]);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/the payload of 67108865 bytes is above the sink's cap of 67108864 bytes; nothing of it was kept; codex_stop_0\.169\.0\.1\.json\.oversize marks it/);
    expect(readdirSync(dir)).toEqual(["codex_stop_0.169.0.1.json.oversize"]);
    expect(statSync(path.join(dir, "codex_stop_0.169.0.1.json.oversize")).size).toBe(0);
    sink(["codex", "Stop", "--host-version", "0.169.0"], dir, "{}");
    expect(readdirSync(dir).sort()).toEqual(["codex_stop_0.169.0.1.json.oversize", "codex_stop_0.169.0.2.json"]);
    const inv = clearJson(["inventory", dir]);
    const findings = inv.json.findings as { code: string; severity: string; file?: string; message: string }[];
    expect(inv.code).toBe(1);
    expect(findings.find((f) => f.file === "codex_stop_0.169.0.1.json.oversize")).toMatchObject({ code: "not-a-capture", severity: "block" });
    expect(findings.find((f) => f.file === "codex_stop_0.169.0.1.json.oversize")?.message).toMatch(/above the sink's cap of 67108864 bytes/);
  });

  it("a standard input that never ends (a device) is read past the cap only so far, then left: exit 0, nothing kept, the mark left", () => {
    const dir = sittingDir();
    const zero = openSync("/dev/zero", "r");
    const r = spawnSync(process.execPath, [CLI, "capture", "hook", "codex", "Stop", "--host-version", "0.169.0"], {
      stdio: [zero, "pipe", "pipe"],
      env: { ...process.env, CLEAR_CAPTURE_DIR: dir },
      encoding: "utf8",
      timeout: 60_000,
    });
    closeSync(zero);
    expect([r.signal, r.status, r.stdout]).toEqual([null, 0, ""]);
    expect(r.stderr).toMatch(/the payload of more than [0-9]+ bytes \(the rest was left unread\) is above the sink's cap/);
    expect(readdirSync(dir)).toEqual(["codex_stop_0.169.0.1.json.oversize"]);
  });

  it("reads a descriptor whole up to the cap, and past it only counts (nothing kept)", () => {
    const file = path.join(sittingDir(), "input");
    writeFileSync(file, "0123456789");
    const at = (max: number): unknown => {
      const fd = openSync(file, "r");
      try {
        return readToEnd(fd, max);
      } finally {
        closeSync(fd);
      }
    };
    expect(at(10)).toEqual({ bytes: Buffer.from("0123456789") });
    expect(at(9)).toEqual({ tooLarge: 10, unread: false });
    expect([MAX_PAYLOAD_BYTES, OVERSIZE_SUFFIX, PARTIAL_SUFFIX]).toEqual([SINK_MAX_PAYLOAD_BYTES, SINK_OVERSIZE_SUFFIX, SINK_PARTIAL_SUFFIX]);
  });

  it("a capture's name never stands on fewer bytes than the payload: watched while the sink writes, every .json seen is whole", () => {
    const dir = sittingDir();
    const input = path.join(sittingDir(), "payload");
    const size = 48 * 1024 * 1024;
    writeFileSync(input, Buffer.alloc(size, 0x62));
    const fd = openSync(input, "r");
    const child = spawn(process.execPath, [CLI, "capture", "hook", "codex", "Stop", "--host-version", "0.169.0"], {
      stdio: [fd, "ignore", "ignore"],
      env: { ...process.env, CLEAR_CAPTURE_DIR: dir },
    });
    closeSync(fd);
    const seen = new Set<number>();
    const deadline = Date.now() + 20_000;
    const pause = new Int32Array(new SharedArrayBuffer(4));
    while (Date.now() < deadline && !seen.has(size)) {
      for (const name of readdirSync(dir).filter((n) => n.endsWith(".json"))) {
        try {
          seen.add(statSync(path.join(dir, name)).size);
        } catch {
          // gone between the listing and the look
        }
      }
      Atomics.wait(pause, 0, 0, 1);
    }
    child.kill();
    expect([...seen]).toEqual([size]);
    expect(readdirSync(dir)).toEqual(["codex_stop_0.169.0.1.json"]);
  });

  it("a FIFO, a link or a file standing at a capture's name is passed over, never opened, followed or replaced", () => {
    const dir = sittingDir();
    const outside = path.join(sittingDir(), "outside");
    execFileSync("mkfifo", [path.join(dir, "codex_stop_0.169.0.1.json")]);
    symlinkSync(outside, path.join(dir, "codex_stop_0.169.0.2.json"));
    writeFileSync(path.join(dir, "codex_stop_0.169.0.3.json"), "three");
    const r = spawnSync(process.execPath, [CLI, "capture", "hook", "codex", "Stop", "--host-version", "0.169.0"], {
      input: PAYLOAD,
      env: { ...process.env, CLEAR_CAPTURE_DIR: dir },
      encoding: "utf8",
      timeout: 20_000,
    });
    expect([r.status, r.stdout]).toEqual([0, ""]);
    expect(lstatSync(path.join(dir, "codex_stop_0.169.0.1.json")).isFIFO()).toBe(true);
    expect(lstatSync(path.join(dir, "codex_stop_0.169.0.2.json")).isSymbolicLink()).toBe(true);
    expect(existsSync(outside)).toBe(false);
    expect(readFileSync(path.join(dir, "codex_stop_0.169.0.3.json"), "utf8")).toBe("three");
    expect(readFileSync(path.join(dir, "codex_stop_0.169.0.4.json")).equals(PAYLOAD)).toBe(true);
    expect(readdirSync(dir)).toHaveLength(4);
  });

  it("a .partial a stopped sink left is named by inventory as no capture, and takes no counter", () => {
    const dir = sittingDir();
    writeFileSync(path.join(dir, `codex_stop.writing-1-x${PARTIAL_SUFFIX}`), '{"half":');
    sink(["codex", "Stop", "--host-version", "0.169.0"], dir, "{}");
    expect(readdirSync(dir).sort()).toEqual(["codex_stop.writing-1-x.partial", "codex_stop_0.169.0.1.json"]);
    const inv = clearJson(["inventory", dir]);
    const findings = inv.json.findings as { code: string; file?: string; message: string }[];
    expect(findings.find((f) => f.file === "codex_stop.writing-1-x.partial")).toMatchObject({ code: "not-a-capture" });
    expect(findings.find((f) => f.file === "codex_stop.writing-1-x.partial")?.message).toMatch(/began and never finished writing/);
  });
});

const FULL = tempDir("clear-sink-full-");
const mounted = spawnSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", FULL]).status === 0;
afterAll(() => {
  if (mounted) spawnSync("umount", [FULL]);
  rmSync(FULL, { recursive: true, force: true });
});

describe.skipIf(!mounted)(`a full disk${mounted ? "" : " (skipped: a small tmpfs cannot be mounted here)"}`, () => {
  it("a payload larger than the space left keeps no partial file, warns once, exits 0", () => {
    const small = sink(["codex", "Stop", "--host-version", "0.169.0"], FULL, "{}");
    const big = sink(["codex", "Stop", "--host-version", "0.169.0"], FULL, Buffer.alloc(512 * 1024, 0x61));
    expect([small.code, big.code, big.stdout]).toEqual([0, 0, ""]);
    expect(big.stderr).toMatch(/could not be written .*ENOSPC/);
    expect(readdirSync(FULL)).toEqual(["codex_stop_0.169.0.1.json"]);
  });
});

describe("the sink's names", () => {
  it("every catalogued event's snake form is its catalogued stem", () => {
    for (const h of loadRules().harnesses) for (const e of h.events) expect(snakeEvent(e.event), `${h.harness} ${e.event}`).toBe(e.stem);
  });
  it("reads a version or says it cannot", () => {
    expect(hostVersionOf("2.1.328 (Claude Code)").version).toBe("2.1.328");
    expect(hostVersionOf("0.165.0-alpha.1.2").version).toBe("0.165.0-alpha.1.2");
    expect(hostVersionOf("2_1_261").version).toBe("2_1_261");
    expect(hostVersionOf("1.2.3 and 4.5.6").version).toBe("unknown");
    expect(hostVersionOf(undefined)).toEqual({ version: "unknown", note: null });
  });
  it("every catalogued event names a capture; a name with a blank, a slash, a control character or an empty part names none", () => {
    for (const h of loadRules().harnesses) for (const e of h.events) expect(parseHookArgs([h.harness, e.event], {}), `${h.harness} ${e.event}`).toMatchObject({ stem: e.stem });
    for (const event of ["Pre/ToolUse", "PreToolUse/../../x", "Pre Tool", "Pre\nTool", "Pre\tTool", "tool..execute", "tool.execute.", "Stop\u0000"]) {
      expect(parseHookArgs(["opencode", event], {}), JSON.stringify(event)).toBe("the event is not an event name");
    }
  });
  it("a version too long for a file name is read as none, and the longest name a capture can have fits in 255 bytes", () => {
    const long = `1.2.3-${"a".repeat(300)}`;
    expect(hostVersionOf(long).version).toBe("unknown");
    expect(hostVersionOf(`claude ${long}`).version).toBe("unknown");
    const longest = parseHookArgs(["h".repeat(64), "e".repeat(96), "--host-version", `1.2.3-${"a".repeat(58)}`], {});
    expect(longest).toMatchObject({ version: `1.2.3-${"a".repeat(58)}` });
    const { harness, stem, version } = longest as { harness: string; stem: string; version: string };
    expect(Buffer.byteLength(`${harness}_${stem}_${version}.1000000.json`)).toBeLessThanOrEqual(255);
    expect(parseHookArgs(["codex", "e".repeat(97)], {})).toBe("the event is not an event name");
  });
});

describe("the sink's start", () => {
  it("loads no module of the tool but the entry and the sink (no rules, no schemas)", () => {
    const dir = sittingDir();
    const log = path.join(sittingDir(), "resolved.log");
    const hooks = path.join(dir, "..", `hooks-${path.basename(dir)}.mjs`);
    writeFileSync(
      hooks,
      [
        'import { appendFileSync } from "node:fs";',
        "export async function resolve(s, c, next) {",
        "  const r = await next(s, c);",
        `  appendFileSync(${JSON.stringify(log)}, r.url + "\\n");`,
        "  return r;",
        "}",
        "",
      ].join("\n"),
    );
    const register = `data:text/javascript,import{register}from"node:module";register(${JSON.stringify(`file://${hooks}`)});`;
    const r = spawnSync(process.execPath, ["--import", register, CLI, "capture", "hook", "codex", "Stop", "--host-version", "0.169.0"], {
      input: "{}",
      env: { ...process.env, CLEAR_CAPTURE_DIR: dir },
      encoding: "utf8",
    });
    expect(r.status).toBe(0);
    const tool = readFileSync(log, "utf8")
      .split("\n")
      .filter((u) => u.startsWith("file:") && !u.endsWith(".mjs"));
    expect(tool.map((u) => path.relative(path.dirname(CLI), new URL(u).pathname)).sort()).toEqual(["capture/sink.js", "cli.js"]);
    expect(readdirSync(dir)).toEqual(["codex_stop_0.169.0.1.json"]);
  });
});
