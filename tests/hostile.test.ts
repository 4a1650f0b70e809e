import { execFileSync, spawn, spawnSync } from "node:child_process";
import http from "node:http";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, clear, clearJson, folderDigest, PROJECT_ROOT, tempDir } from "./helpers.js";

// Hostile payloads, built at run time: each is cleared with no trace of the name in the fixture,
// the report or any output, or refused with a finding naming the file and pointer. None exits 0
// with the name left in.

const NAME = ["mar", "got"].join("");
const cases: [string, (u: string) => object][] = [
  ["immutable Linux", (u) => ({ cwd: `/var/home/${u}/p` })],
  ["BSD", (u) => ({ cwd: `/usr/home/${u}/p` })],
  ["NFS", (u) => ({ cwd: `/export/home/${u}/p` })],
  ["WSL sees Windows", (u) => ({ cwd: `/mnt/c/Users/${u}/p` })],
  ["Git Bash", (u) => ({ cwd: `/c/Users/${u}/p` })],
  ["Cygwin", (u) => ({ cwd: `/cygdrive/d/Users/${u}/p` })],
  ["Windows reaches WSL", (u) => ({ cwd: `\\\\wsl$\\Ubuntu\\home\\${u}\\p` })],
  ["a Windows home share", (u) => ({ cwd: `\\\\fileserver\\home$\\${u}\\p` })],
  ["a Windows admin share", (u) => ({ cwd: `//laptop/c$/Users/${u}/p` })],
  ["macOS data volume", (u) => ({ cwd: `/System/Volumes/Data/Users/${u}/p` })],
  ["macOS other disk", (u) => ({ cwd: `/Volumes/Backup/Users/${u}/p` })],
  ["drive and Users in any case", (u) => ({ cwd: `c:\\USERS\\${u}\\p` })],
  ["tilde", (u) => ({ cwd: `~${u}/p` })],
  ["a project slug alone", (u) => ({ transcript_path: `/tmp/claude-1000/-home-${u}-proj/s.jsonl` })],
  ["a group folder", (u) => ({ cwd: `/home/users/${u}/p` })],
  ["nested JSON two levels down", (u) => ({ tool_input: { command: JSON.stringify({ a: JSON.stringify({ cwd: `/home/${u}/p` }) }) }, cwd: JSON.stringify(JSON.stringify({ d: `/home/${u}` })) })],
  ["non-ASCII owner", () => ({ cwd: "/home/José/p" })],
  ["one-letter owner", () => ({ cwd: "/home/j/p" })],
  ["leading underscore", () => ({ cwd: "/home/_svc/p" })],
  ["@ and + in the owner", () => ({ cwd: "/Users/ana@corp/p", transcript_path: "/home/ana+1/t.jsonl" })],
  ["a space in a Windows owner", () => ({ cwd: "C:\\Users\\First Last\\p" })],
  ["a home path as a member name", (u) => ({ cwd: "/tmp", extra: { [`/home/${u}/x`]: 1 } })],
];
const owners: Record<string, string> = { "non-ASCII owner": "José", "one-letter owner": "/home/j/", "leading underscore": "_svc", "@ and + in the owner": "ana", "a space in a Windows owner": "First Last" };

describe("hostile payloads", () => {
  for (const [label, build] of cases) {
    it(`${label}: cleared with no trace, or refused naming file and pointer`, () => {
      const dir = tempDir();
      const name = "claude-code_pre_tool_use_2_1_261.1.json";
      writeFileSync(path.join(dir, name), JSON.stringify({ session_id: "s", hook_event_name: "PreToolUse", tool_use_id: "t", ...build(NAME) }));
      const before = folderDigest(dir);
      const out = path.join(tempDir(), "out");
      const r = clear(["substitute", dir, "--out", out, "--json"]);
      const trace = owners[label] ?? NAME;
      expect(r.stdout + r.stderr, "printed output").not.toContain(trace);
      expect(folderDigest(dir)).toBe(before);
      const json = JSON.parse(r.stdout) as { files: { refused: { code: string; file: string; pointer: string }[] }[] };
      if (r.code === 0) {
        expect(readFileSync(path.join(out, name), "utf8")).not.toContain(trace);
      } else {
        expect(r.code).toBe(1);
        const refused = json.files[0]?.refused ?? [];
        expect(refused.length).toBeGreaterThan(0);
        for (const f of refused) expect(f.file === name && typeof f.pointer === "string").toBe(true);
        expect(existsSync(path.join(out, name))).toBe(false);
      }
    });
  }

  it("OpenCode tool events: a prose reason or agent kept as an enum is refused, not written", () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "opencode_tool_execute_before_1_18_29.1.json"), JSON.stringify({ input: { tool: "bash", sessionID: "ses_1", callID: "c1" }, output: { args: { command: "ls", reason: `because ${NAME} asked me to look` } } }));
    const out = path.join(tempDir(), "out");
    const r = clear(["substitute", dir, "--out", out, "--json"]);
    expect(r.stdout).not.toContain(NAME);
    if (r.code === 0) expect(readFileSync(path.join(out, "opencode_tool_execute_before_1_18_29.1.json"), "utf8")).not.toContain(NAME);
  });

  it("prints no raw value: a duplicate member name that is a home, a mismatched event, the runner's own home", () => {
    const home = tempDir();
    const dir = path.join(home, "caps");
    mkdirSync(dir);
    writeFileSync(path.join(dir, "codex_stop_0_153_0.1.json"), `{"session_id":"s","/home/${NAME}/k":1,"/home/${NAME}/k":2}`);
    writeFileSync(path.join(dir, "codex_session_start_0_153_0.1.json"), JSON.stringify({ session_id: "s", hook_event_name: `${NAME} said hello` }));
    for (const args of [["inventory", dir], ["inventory", dir, "--json"], ["pair", dir, "--json"], ["substitute", dir, "--out", path.join(home, "o"), "--json"]]) {
      const r = clear(args, { env: { HOME: home } });
      expect(r.stdout + r.stderr, args.join(" ")).not.toContain(NAME);
    }
    expect(clear(["inventory", dir], { env: { HOME: home } }).stdout).toContain("Inventory of ~/caps");
  });

  it("two substitutions into one new --out at once: exactly one writes, the other says why", async () => {
    const dir = tempDir();
    for (let i = 1; i <= 200; i++) writeFileSync(path.join(dir, `codex_pre_tool_use_0_153_0.${i}.json`), JSON.stringify({ session_id: "s", turn_id: `t${i}`, cwd: `/home/${NAME}/p` }));
    const out = path.join(tempDir(), "out");
    const runOne = (): Promise<number> =>
      new Promise((resolve) => {
        const child = spawn(process.execPath, [CLI, "substitute", dir, "--out", out, "--json"], { stdio: "ignore" });
        child.on("exit", (code) => resolve(code ?? -1));
      });
    const codes = (await Promise.all([runOne(), runOne()])).sort();
    expect(codes[0]).toBe(0);
    expect(codes[1]).toBe(2);
    expect(readdirSync(out)).toHaveLength(200);
    expect(readdirSync(path.dirname(out))).toEqual(["out"]);
  });

  it("reads a legal capture of 8 MiB of escapes whole (linear, not quadratic)", () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "codex_stop_0_153_0.1.json"), `{"session_id":"s","last_assistant_message":"${"\\n".repeat(4 * 1024 * 1024 - 40)}"}`);
    const { code, json } = clearJson(["inventory", dir, "--max-file-bytes", String(16 * 1024 * 1024)]);
    expect((json.files as { valid: boolean }[])[0]?.valid).toBe(true);
    expect(code).toBe(1); // the recipe's session_start and pre_tool_use are missing
  });

  it("a name missing its .n is not read as a shorter version with a large counter", () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "claude-code_pre_tool_use_2.1.261.json"), "{}");
    const { json } = clearJson(["inventory", dir]);
    expect((json.findings as { code: string; file?: string; message: string }[]).find((f) => f.file === "claude-code_pre_tool_use_2.1.261.json")).toMatchObject({ code: "not-a-capture", message: expect.stringContaining("no .<n> counter") });
    expect(json.files).toEqual([]);
  });
});

/** A sitting whose folder is named after the owner its captures' homes teach: `<base>/s`, with two captures. */
function sittingInNamedFolder(): { base: string; sitting: string } {
  const base = path.join(tempDir(), NAME);
  const sitting = path.join(base, "s");
  mkdirSync(sitting, { recursive: true });
  const payload = (event: string): string => JSON.stringify({ session_id: "s1", transcript_path: `/home/${NAME}/t.jsonl`, cwd: `/home/${NAME}/p`, hook_event_name: event });
  writeFileSync(path.join(sitting, "claude-code_session_start_2.1.261.1.json"), payload("SessionStart"));
  writeFileSync(path.join(sitting, "claude-code_session_end_2.1.261.1.json"), payload("SessionEnd"));
  return { base, sitting };
}

describe("identifiers and paths that could carry a name", () => {
  it("pair never prints an identifier holding a home or a user name, and scan never a home in a path outside the repository", () => {
    const home = tempDir();
    const dir = path.join(home, "home", NAME, "caps");
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, "codex_pre_tool_use_0_153_0.1.json"), JSON.stringify({ session_id: `/home/${NAME}/s`, turn_id: `/home/${NAME}/t`, tool_use_id: `${NAME} said so` }));
    writeFileSync(path.join(dir, "codex_post_tool_use_0_153_0.1.json"), JSON.stringify({ session_id: `/home/${NAME}/s`, turn_id: `/home/${NAME}/t`, tool_use_id: `${NAME} said so` }));
    for (const args of [["pair", dir], ["pair", dir, "--json"], ["select", dir, "--json"], ["scan", dir, "--json"], ["scan", dir]]) {
      const r = clear(args, { cwd: home });
      expect(r.stdout + r.stderr, args.join(" ")).not.toContain(NAME);
    }
    const pairs = clearJson(["pair", dir]).json.pairs as { id: string }[];
    expect(pairs).toHaveLength(1);
    expect(pairs[0]?.id).toMatch(/^\S{4}\*+$/u);
  });

  it("a Windows XP home is cleared too", () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "codex_session_start_0_153_0.1.json"), JSON.stringify({ session_id: "s", cwd: `C:\\Documents and Settings\\${NAME} Li\\Desktop` }));
    const out = path.join(tempDir(), "out");
    expect(clear(["substitute", dir, "--out", out]).code).toBe(0);
    expect(readFileSync(path.join(out, "codex_session_start_0_153_0.1.json"), "utf8")).toContain("Documents and Settings\\\\user\\\\Desktop");
  });

  it("a host version that spells the name blocks the run naming each file, and no byte written holds the name", () => {
    const sitting = path.join(tempDir(), "s");
    mkdirSync(sitting);
    const version = `2.1.261-${NAME}`;
    const payload = (event: string): string => JSON.stringify({ session_id: "s1", transcript_path: `/home/${NAME}/t.jsonl`, cwd: `/home/${NAME}/p`, hook_event_name: event });
    writeFileSync(path.join(sitting, `claude-code_session_start_${version}.1.json`), payload("SessionStart"));
    writeFileSync(path.join(sitting, `claude-code_session_end_${version}.1.json`), payload("SessionEnd"));
    const root = tempDir();
    execFileSync("git", ["init", "-q"], { cwd: root });
    const r = clearJson(["run", sitting, "--root", root]);
    expect(r.code).toBe(1);
    const blocking = (r.json.findings as { code: string; file?: string; message: string }[]).filter((f) => f.message.includes("host version spells a user name"));
    // Each file is named, with the name in it starred: what run prints is checked for the names the sitting taught.
    const starred = `2.1.261-${"*".repeat(NAME.length)}`;
    expect(blocking.map((f) => f.file).sort()).toEqual([`claude-code_session_end_${starred}.1.json`, `claude-code_session_start_${starred}.1.json`]);
    expect(JSON.stringify(r.json)).not.toMatch(new RegExp(NAME, "i"));
    expect(readdirSync(root).filter((f) => f !== ".git")).toEqual(["CLEARANCE.md"]);
    expect(readFileSync(path.join(root, "CLEARANCE.md"), "utf8")).not.toMatch(new RegExp(NAME, "i"));
  });

  it("a version that spells the name, plainly or in base64, is written nowhere: substitute refuses the file, run stops naming the fixture by harness and event", () => {
    const encoded = Buffer.from(NAME).toString("base64").replace(/=+$/, "");
    const payload = JSON.stringify({ session_id: "s1", transcript_path: `/home/${NAME}/t.jsonl`, cwd: `/home/${NAME}/p`, hook_event_name: "SessionStart" });
    for (const version of [`2.1.261-${NAME}`, `2.1.261-rc.${encoded}`]) {
      const sitting = path.join(tempDir(), "s");
      mkdirSync(sitting);
      writeFileSync(path.join(sitting, `claude-code_session_start_${version}.1.json`), payload);
      const out = path.join(tempDir(), "out");
      const sub = clearJson(["substitute", sitting, "--out", out]);
      expect(sub.code, version).toBe(1);
      expect((sub.json.findings as { code: string }[]).map((f) => f.code), version).toEqual(["refused-class"]);
      expect(readdirSync(out), version).toEqual([]);
      const root = tempDir();
      execFileSync("git", ["init", "-q"], { cwd: root });
      const run = clear(["run", sitting, "--root", root]);
      expect(run.code, version).toBeGreaterThan(0);
      for (const printed of [JSON.stringify(sub.json), run.stdout + run.stderr]) {
        expect(printed, version).not.toMatch(new RegExp(NAME, "i"));
        expect(printed, version).not.toContain(encoded);
      }
      if (existsSync(path.join(root, "CLEARANCE.md"))) expect(readFileSync(path.join(root, "CLEARANCE.md"), "utf8")).not.toContain(encoded);
    }
  });

  it("inventory, pair and substitute print the capture folder and --out with a name the sitting taught starred", () => {
    const { base, sitting: dir } = sittingInNamedFolder();
    const runs = [["inventory", dir], ["inventory", dir, "--json"], ["pair", dir, "--json"], ["substitute", dir, "--out", path.join(base, "a")], ["substitute", dir, "--out", path.join(base, "b"), "--json"]];
    for (const args of runs) {
      const r = clear(args);
      expect(r.code, `${args.join(" ")}\n${r.stderr}`).toBeLessThan(2);
      expect(r.stdout + r.stderr, args.join(" ")).not.toMatch(new RegExp(NAME, "i"));
      expect(r.stdout, args.join(" ")).toContain(`${"*".repeat(NAME.length)}/`);
    }
  });

  it("a home that sitting.json names teaches its owner too: an id that spells it is refused, and nothing printed or written holds it", () => {
    const dir = tempDir();
    const base = { session_id: "s1", transcript_path: "/tmp/t.jsonl", cwd: "/tmp/p", tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: `toolu_${NAME}_01` };
    writeFileSync(path.join(dir, "claude-code_pre_tool_use_2.1.261.1.json"), JSON.stringify({ ...base, hook_event_name: "PreToolUse" }));
    writeFileSync(path.join(dir, "claude-code_post_tool_use_2.1.261.1.json"), JSON.stringify({ ...base, hook_event_name: "PostToolUse", tool_response: "ok" }));
    writeFileSync(path.join(dir, "sitting.json"), JSON.stringify({ driver: `/home/${NAME}`, versionLine: "2.1.261 (Claude Code)" }));
    for (const args of [["inventory", dir, "--json"], ["pair", dir], ["pair", dir, "--json"], ["select", dir, "--json"]]) {
      const r = clear(args);
      expect(r.stdout + r.stderr, args.join(" ")).not.toMatch(new RegExp(NAME, "i"));
    }
    const root = tempDir();
    execFileSync("git", ["init", "-q"], { cwd: root });
    const r = clearJson(["run", dir, "--root", root]);
    expect(r.code).toBe(1);
    expect(r.json.findings).toContainEqual(expect.objectContaining({ code: "no-clearable-capture", message: expect.stringContaining("user-name-left"), pointer: "/tool_use_id" }));
    expect(readdirSync(root).filter((f) => f !== ".git")).toEqual(["CLEARANCE.md"]);
    expect(readFileSync(path.join(root, "CLEARANCE.md"), "utf8")).not.toMatch(new RegExp(NAME, "i"));
  });

  it("the kit's binary path, its transports' paths and the capture folder are written masked in the record", () => {
    const { sitting } = sittingInNamedFolder();
    const transports = [{ path: `home/${NAME}/hook.sh`, sha256: "1".repeat(64), bytes: 1 }];
    writeFileSync(path.join(sitting, "kit.json"), JSON.stringify({ head: "0".repeat(40), rootEdits: [], transports, hostVersions: {}, binary: { path: `bin/${NAME}-hook`, sha256: "0".repeat(64), bytes: 1 } }));
    const root = tempDir();
    execFileSync("git", ["init", "-q"], { cwd: root });
    const r = clear(["run", sitting, "--root", root]);
    expect(r.code, r.stdout + r.stderr).toBeLessThan(2);
    const record = readFileSync(path.join(root, "CLEARANCE.md"), "utf8");
    expect(record).toContain("- Binary: `bin/user-hook`");
    expect(record).toContain("- Transport `home/user/hook.sh`: kit sha256");
    expect(record).not.toMatch(new RegExp(NAME, "i"));
    // The sidecars quote the kit's transports as the record does.
    const sidecars = execFileSync("git", ["ls-files", "-o", "-z", "fixtures"], { cwd: root, encoding: "utf8" }).split("\0").filter((f) => f.endsWith(".provenance.json"));
    expect(sidecars.length).toBeGreaterThan(0);
    for (const f of sidecars) expect(JSON.parse(readFileSync(path.join(root, f), "utf8")).kit.transports[0].path, f).toBe("home/user/hook.sh");
  });

  it("pair, select and substitute print no secret shape a sitting holds: an id that is a token, a key inside a path", () => {
    const dir = tempDir();
    const token = ["gh", "p_", "wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx"].join("");
    const key = ["AK", "IA", "Q3EGRZ7XK2M4PW5B"].join("");
    const base = { session_id: "s1", transcript_path: "/tmp/t.jsonl", cwd: `/home/${NAME}/${key}`, tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: token };
    writeFileSync(path.join(dir, "claude-code_pre_tool_use_2.1.261.1.json"), JSON.stringify({ ...base, hook_event_name: "PreToolUse" }));
    writeFileSync(path.join(dir, "claude-code_post_tool_use_2.1.261.1.json"), JSON.stringify({ ...base, hook_event_name: "PostToolUse", tool_response: "ok" }));
    const outs = tempDir();
    const runs = [["pair", dir], ["pair", dir, "--json"], ["select", dir], ["select", dir, "--json"], ["substitute", dir, "--out", path.join(outs, "a"), "--json"], ["substitute", dir, "--out", path.join(outs, "b"), "--verbose"]];
    for (const args of runs) {
      const r = clear(args);
      expect(r.code, `${args.join(" ")}\n${r.stderr}`).toBeLessThan(2);
      expect(r.stdout + r.stderr, args.join(" ")).not.toContain(token.slice(4, 20));
      expect(r.stdout + r.stderr, args.join(" ")).not.toContain(key.slice(4));
      if (args.includes("--json")) expect(() => JSON.parse(r.stdout)).not.toThrow();
    }
    expect((clearJson(["pair", dir]).json.pairs as { id: string }[])[0]?.id).toMatch(/^\*+$/);
  });

  it("a token in a capture's version: not a version (pre-release parts are short), and no command prints it", () => {
    const dir = tempDir();
    const token = ["gh", "p_", "wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx"].join("");
    const base = { session_id: "s1", transcript_path: "/tmp/t.jsonl", cwd: "/tmp/p" };
    writeFileSync(path.join(dir, `claude-code_session_start_2.1.261-${token}.1.json`), JSON.stringify({ ...base, hook_event_name: "SessionStart" }));
    writeFileSync(path.join(dir, `claude-code_session_end_2_1_261-${token}.1.json`), JSON.stringify({ ...base, hook_event_name: "SessionEnd" }));
    const inventory = clearJson(["inventory", dir]);
    expect((inventory.json.findings as { code: string }[]).filter((f) => f.code === "not-a-capture")).toHaveLength(2);
    const root = tempDir();
    execFileSync("git", ["init", "-q"], { cwd: root });
    for (const args of [["inventory", dir], ["inventory", dir, "--json"], ["run", dir, "--root", root, "--json"], ["run", dir, "--root", root], ["select", dir, "--json"]]) {
      const r = clear(args);
      expect(r.code, `${args.join(" ")}\n${r.stderr}`).toBe(1);
      expect(r.stdout + r.stderr, args.join(" ")).not.toContain(token.slice(4, 20));
    }
    expect(readFileSync(path.join(root, "CLEARANCE.md"), "utf8")).not.toContain(token.slice(4, 20));
  });

  it("inventory, pair and select print no name the sitting's home paths teach: in an id, in a stray file's name", () => {
    const dir = tempDir();
    const base = { session_id: "s1", transcript_path: `/home/${NAME}/t.jsonl`, cwd: `/home/${NAME}/p`, tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: `toolu_${NAME}_01` };
    writeFileSync(path.join(dir, "claude-code_pre_tool_use_2.1.261.1.json"), JSON.stringify({ ...base, hook_event_name: "PreToolUse" }));
    writeFileSync(path.join(dir, "claude-code_post_tool_use_2.1.261.1.json"), JSON.stringify({ ...base, hook_event_name: "PostToolUse", tool_response: "ok" }));
    writeFileSync(path.join(dir, `notes-for-${NAME}.json`), "{}");
    for (const args of [["inventory", dir], ["inventory", dir, "--json", "--fields"], ["pair", dir], ["pair", dir, "--json"], ["select", dir, "--verbose"], ["select", dir, "--json"]]) {
      const r = clear(args);
      expect(r.code, `${args.join(" ")}\n${r.stderr}`).toBeLessThan(2);
      expect((r.stdout + r.stderr).toLowerCase(), args.join(" ")).not.toContain(NAME.toLowerCase());
    }
    // Still said, with the name starred: the stray file, and the pair's id.
    expect(clear(["inventory", dir]).stdout).toMatch(/notes-for-\*+\.json/);
    expect(JSON.stringify(clearJson(["pair", dir]).json)).toMatch(/toolu_\*+_01/);
  });

  it("the gate and verify print no name the raw captures they refuse teach, in the name of a file committed beside them", () => {
    const root = tempDir();
    const git = (...args: string[]): string => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.invalid", ...args], { cwd: root, encoding: "utf8" });
    git("init", "-q", "-b", "main");
    git("commit", "-q", "--allow-empty", "-m", "start");
    const start = git("rev-parse", "HEAD").trim();
    mkdirSync(path.join(root, "captures-inbox"));
    const base = { session_id: "s1", hook_event_name: "PreToolUse", cwd: `/home/${NAME}/p`, tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "t1" };
    writeFileSync(path.join(root, "captures-inbox", "claude-code_pre_tool_use_2.1.261.1.json"), JSON.stringify(base));
    writeFileSync(path.join(root, "captures-inbox", `notes-for-${NAME}.txt`), "seen\n");
    git("add", "-f", "captures-inbox");
    const said = (args: string[], input?: string): string => {
      const r = spawnSync(process.execPath, [CLI, ...args], { cwd: root, encoding: "utf8", input: input ?? "" });
      expect(r.status, `${args.join(" ")}\n${r.stderr}`).toBe(1);
      expect(r.stdout + r.stderr, args.join(" ")).toContain("raw-capture-committed");
      expect((r.stdout + r.stderr).toLowerCase(), args.join(" ")).not.toContain(NAME.toLowerCase());
      return r.stdout + r.stderr;
    };
    // Still said, with the name starred.
    expect(said(["gate", "pre-commit"])).toMatch(/captures-inbox\/notes-for-\*+\.txt/);
    said(["verify"]);
    git("commit", "-q", "--no-verify", "-m", "raw");
    const head = git("rev-parse", "HEAD").trim();
    for (const args of [["verify", "--rev", "HEAD"], ["verify", "--rev", "HEAD", "--json"], ["verify", "--range", `${start}..${head}`]]) said(args);
    execFileSync("git", ["init", "-q", "--bare", path.join(root, ".remote")]);
    git("remote", "add", "origin", path.join(root, ".remote"));
    said(["gate", "pre-push", "origin"], `refs/heads/main ${head} refs/heads/main ${"0".repeat(40)}\n`);
  });

  it("the gate and verify print no name a raw payload staged under fixtures/ teaches, in its own name or another's: it is judged as a fixture no batch lists", () => {
    const root = tempDir();
    const git = (...args: string[]): string => execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.invalid", ...args], { cwd: root, encoding: "utf8" });
    git("init", "-q", "-b", "main");
    git("commit", "-q", "--allow-empty", "-m", "start");
    const folder = path.join(root, "fixtures", "claude-code", "2.1.261");
    mkdirSync(folder, { recursive: true });
    const base = { session_id: "s1", hook_event_name: "SessionStart", cwd: `/home/${NAME}/p`, source: "startup" };
    writeFileSync(path.join(folder, `notes-${NAME}.json`), JSON.stringify(base));
    git("add", "fixtures");
    for (const args of [["gate", "pre-commit", "--verbose"], ["verify", "--verbose"], ["verify", "--json"]]) {
      const r = spawnSync(process.execPath, [CLI, ...args], { cwd: root, encoding: "utf8" });
      expect(r.status, `${args.join(" ")}\n${r.stderr}`).toBe(1);
      expect(r.stdout + r.stderr, args.join(" ")).toContain("fixture-not-accepted");
      expect((r.stdout + r.stderr).toLowerCase(), args.join(" ")).not.toContain(NAME.toLowerCase());
    }
  });

  it("a token the fixtures would keep as an id blocks the run naming file and pointer, and the record quotes it nowhere", () => {
    const dir = tempDir();
    const token = ["gh", "p_", "wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx"].join("");
    const base = { session_id: "s1", transcript_path: "/tmp/t.jsonl", cwd: "/tmp/p", tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: token };
    writeFileSync(path.join(dir, "claude-code_pre_tool_use_2.1.261.1.json"), JSON.stringify({ ...base, hook_event_name: "PreToolUse" }));
    writeFileSync(path.join(dir, "claude-code_post_tool_use_2.1.261.1.json"), JSON.stringify({ ...base, hook_event_name: "PostToolUse", tool_response: "ok" }));
    const root = tempDir();
    execFileSync("git", ["init", "-q"], { cwd: root });
    const r = clearJson(["run", dir, "--root", root]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.json.findings).toContainEqual(expect.objectContaining({ code: "secret-found", file: "fixtures/claude-code/2.1.261/pre_tool_use.json", pointer: "/tool_use_id" }));
    const record = readFileSync(path.join(root, "CLEARANCE.md"), "utf8");
    expect(record).not.toContain(token.slice(4, 20));
    expect(record).toContain("[a secret shape, not written]");
  });

  it("a capture named with an event that spells the name: the blocked batch says so without it, prose and values alike", () => {
    const dir = tempDir();
    const payload = (event: string): string => JSON.stringify({ session_id: "s1", transcript_path: `/home/${NAME}/t.jsonl`, cwd: `/home/${NAME}/p`, hook_event_name: event });
    writeFileSync(path.join(dir, "claude-code_session_start_2.1.261.1.json"), payload("SessionStart"));
    writeFileSync(path.join(dir, `claude-code_${NAME}_2.1.261.1.json`), payload("SessionStart"));
    const root = tempDir();
    execFileSync("git", ["init", "-q"], { cwd: root });
    expect(clear(["run", dir, "--root", root]).code).toBe(1);
    const record = readFileSync(path.join(root, "CLEARANCE.md"), "utf8");
    expect(record).toContain("unknown-event");
    expect(record).not.toMatch(new RegExp(NAME, "i"));
  });
});

describe("sitting.json's versionLines, member names and all", () => {
  const sittingWith = (versionLines: Record<string, string>, cwd?: string): string => {
    const root = tempDir("clear-repo-");
    execFileSync("git", ["init", "-q"], { cwd: root });
    const dir = path.join(root, "captures-inbox");
    cpSync(path.join(PROJECT_ROOT, "examples", "sitting"), dir, { recursive: true });
    if (cwd !== undefined) {
      const start = path.join(dir, "claude-code_session_start_2.1.261.1.json");
      writeFileSync(start, JSON.stringify({ ...(JSON.parse(readFileSync(start, "utf8")) as object), cwd }));
    }
    writeFileSync(path.join(dir, "sitting.json"), JSON.stringify({ driver: "a person", versionLines: { "claude-code": "2.1.261 (Claude Code)", ...versionLines } }));
    return root;
  };

  it("a member name that is a name the sitting taught is masked where the record writes it", () => {
    const root = sittingWith({ [NAME]: "2.1.261" }, `/home/${NAME}/work`);
    expect(clear(["run", "--root", root]).code).toBe(0);
    const record = readFileSync(path.join(root, "CLEARANCE.md"), "utf8");
    expect(record).toContain("`user: 2.1.261`");
    expect(record).not.toMatch(new RegExp(NAME, "i"));
  });

  it("a key-shaped member name is refused naming the field, and reaches no written file", () => {
    const key = ["key-", "cc60d5d32cbe5401", "4c2b54b95523cf69"].join("");
    const root = sittingWith({ [key]: "2.1.261" });
    const r = clearJson(["run", "--root", root]);
    expect(r.code).toBe(1);
    expect(r.json.findings).toContainEqual(expect.objectContaining({ code: "invalid-sitting", file: "sitting.json", pointer: "/versionLines" }));
    rmSync(path.join(root, "captures-inbox"), { recursive: true });
    expect(() => execFileSync("grep", ["-r", "-l", "--", key.slice(4, 20), root])).toThrow();
  });
});

describe("the review page", () => {
  /** Starts clear review on a folder, fetches one path of it, and stops it. */
  const reviewed = async (dir: string, paths: (url: URL, page: string) => string[]): Promise<{ page: string; others: { status: number; body: string }[] }> => {
    const child = spawn(process.execPath, [CLI, "review", dir], { cwd: tempDir(), stdio: ["ignore", "pipe", "pipe"] });
    try {
      const url = new URL(await new Promise<string>((resolve, reject) => {
        let out = "";
        child.stdout?.on("data", (d: Buffer) => (out += d.toString()).includes("\n") && resolve(out.split("\n")[0] as string));
        child.on("exit", (code) => reject(new Error(`review exited ${code}`)));
      }));
      const get = (p: string): Promise<{ status: number; body: string }> =>
        new Promise((resolve, reject) => {
          http.get({ host: "127.0.0.1", port: url.port, path: p, headers: { Host: url.host } }, (res) => {
            let body = "";
            res.on("data", (d: Buffer) => (body += d.toString()));
            res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
          }).on("error", reject);
        });
      const page = (await get(`/?token=${url.searchParams.get("token")}`)).body;
      const others = await Promise.all(paths(url, page).map(get));
      return { page, others };
    } finally {
      child.kill("SIGINT");
    }
  };

  it("shows no name the sitting taught and no secret shape, in capture names, pair ids or findings; a starred capture's span still reveals", async () => {
    const dir = tempDir();
    const token = ["gh", "p_", "wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx"].join("");
    for (const name of readdirSync(path.join(PROJECT_ROOT, "examples", "sitting")).filter((n) => n.endsWith(".json") && n !== "sitting.json")) {
      const text = readFileSync(path.join(PROJECT_ROOT, "examples", "sitting", name), "utf8").replace(/capturer/g, NAME).replace("toolu_01AbCdEfGhIjKlMnOpQrStUv", token);
      writeFileSync(path.join(dir, name), text);
    }
    // An event the catalogue does not know, spelled with the name: it blocks, and the page says which file.
    writeFileSync(path.join(dir, `claude-code_${NAME}_2.1.261.1.json`), readFileSync(path.join(dir, "claude-code_session_end_2.1.261.1.json")));
    const { page, others } = await reviewed(dir, (url, html) => {
      // A mark's data-file is the name percent-encoded, as the page's reveal request sends it.
      const mark = /data-file="(claude-code_\*+_2\.1\.261\.1\.json)"[^>]*? data-span="(\d+)"/.exec(html);
      return mark ? [`/reveal?token=${url.searchParams.get("token")}&file=${mark[1]}&span=${mark[2]}`] : [];
    });
    expect(page).toContain("unknown-event");
    expect(page).not.toMatch(new RegExp(NAME, "i"));
    expect(page).not.toContain(token.slice(4, 20));
    expect(others).toHaveLength(1);
    expect(others[0]?.status).toBe(200);
    // The raw value is sent on a reveal, and only then.
    expect(typeof (JSON.parse(others[0]?.body ?? "{}") as { value: unknown }).value).toBe("string");
  });
});
