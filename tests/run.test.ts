import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseRecord } from "../src/record/parse.js";
import { validateAgainst } from "../src/io/load-rules.js";
import { clear, clearJson, folderDigest, PASTURE_PRESENT, PASTURE_SKIP_REASON, PROJECT_ROOT, tempDir } from "./helpers.js";
import { rebuildSitting } from "./pasture.js";

/** Whether this machine lets the tests bind-mount a folder (root, outside a container that forbids it). */
const BIND_MOUNTS = ((): boolean => {
  const dir = tempDir("clear-bind-probe-");
  mkdirSync(path.join(dir, "a"));
  mkdirSync(path.join(dir, "b"));
  try {
    execFileSync("mount", ["--bind", path.join(dir, "a"), path.join(dir, "b")], { stdio: "ignore" });
    execFileSync("umount", [path.join(dir, "b")], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

function repo(): string {
  const root = tempDir("clear-repo-");
  execFileSync("git", ["init", "-q"], { cwd: root });
  execFileSync("git", ["config", "user.email", "t@example.invalid"], { cwd: root });
  execFileSync("git", ["config", "user.name", "t"], { cwd: root });
  cpSync(path.join(PROJECT_ROOT, "examples", "sitting"), path.join(root, "captures-inbox"), { recursive: true });
  return root;
}

const accept = (root: string, how = "ACCEPT"): void => {
  const file = path.join(root, "CLEARANCE.md");
  writeFileSync(file, readFileSync(file, "utf8").replace("The tool never does. -->\n\n", `The tool never does. -->\n${how}\n`));
};

describe("clear run", () => {
  it("writes fixtures and sidecars at fixtures/<harness>/<dotted version>/, and a batch with every section; twice gives the same bytes", () => {
    const root = repo();
    const before = folderDigest(path.join(root, "captures-inbox"));
    const first = clearJson(["run"], { cwd: root });
    expect(first.code).toBe(0);
    const fixtures = path.join(root, "fixtures", "claude-code", "2.1.261");
    expect(readdirSync(fixtures).sort()).toContain("pre_tool_use.provenance.json");
    const provenance = JSON.parse(readFileSync(path.join(fixtures, "pre_tool_use.provenance.json"), "utf8"));
    // Every sidecar matches the provenance schema in rules/.
    for (const name of readdirSync(fixtures).filter((n) => n.endsWith(".provenance.json"))) {
      expect(() => validateAgainst("provenance", JSON.parse(readFileSync(path.join(fixtures, name), "utf8")), name)).not.toThrow();
    }
    expect(() => validateAgainst("provenance", { ...provenance, origin: "hand-written" }, "x")).toThrow(/origin/);
    expect(provenance).toMatchObject({ origin: "authentic-capture", harness: "claude-code", hostVersion: "2.1.261", event: "pre_tool_use", capturedAtSource: "sitting.json", batch: first.json.batch });
    const record = readFileSync(path.join(root, "CLEARANCE.md"), "utf8");
    const sections = ["### What will be committed", "### What was changed", "### What is kept as the host sent it", "### The capture", "### Files and digests", "### Pairs", "### Selection", "### Inventory", "### Secret scan", "## User acceptance"];
    for (const section of sections) expect(record).toContain(`\n${section}\n\n`);
    expect(record).toContain("**Ready for acceptance.** This batch commits 8 fixtures");
    expect(record).toContain("reach control: red as expected");
    expect(record).not.toMatch(/^ACCEPT$/m);
    const digestOf = (): string => folderDigest(path.join(root, "fixtures")) + readFileSync(path.join(root, "CLEARANCE.md"), "utf8");
    const once = digestOf();
    expect(clearJson(["run"], { cwd: root }).code).toBe(0);
    expect(digestOf()).toBe(once);
    expect(parseRecord(readFileSync(path.join(root, "CLEARANCE.md"), "utf8")).batches).toHaveLength(1);
    expect(folderDigest(path.join(root, "captures-inbox"))).toBe(before);
  });

  it("refuses, writing nothing anywhere, a capture folder that holds the repository or overlaps its fixtures folder", () => {
    const base = tempDir("clear-overlap-");
    const sitting = path.join(PROJECT_ROOT, "examples", "sitting");
    const gitInit = (dir: string): string => (mkdirSync(dir, { recursive: true }), execFileSync("git", ["init", "-q"], { cwd: dir }), dir);
    const cases: { captures: string; root: string }[] = [];
    // The capture folder inside the fixtures folder, the fixtures folder itself, the repository itself, a folder above it.
    for (const [name, within] of [["in-fixtures", "fixtures/claude-code"], ["fixtures", "fixtures"], ["root", ""]] as const) {
      const root = gitInit(path.join(base, name));
      cases.push({ captures: path.join(root, within), root });
    }
    const above = path.join(base, "above");
    cases.push({ captures: above, root: gitInit(path.join(above, "repo")) });
    // A link to the repository hides nothing: real paths are compared.
    const linked = gitInit(path.join(base, "linked"));
    for (const c of cases) cpSync(sitting, c.captures, { recursive: true });
    cpSync(sitting, path.join(linked, "fixtures", "x"), { recursive: true });
    execFileSync("ln", ["-s", path.join(linked, "fixtures", "x"), path.join(base, "link")]);
    cases.push({ captures: path.join(base, "link"), root: linked });
    for (const c of cases) {
      const before = folderDigest(c.captures);
      const r = clearJson(["run", c.captures, "--root", c.root]);
      expect(r.code, c.captures).toBe(2);
      expect(r.json.error).toMatch(/no command writes inside a capture folder/);
      expect(folderDigest(c.captures), c.captures).toBe(before);
      expect(existsSync(path.join(c.root, "CLEARANCE.md"))).toBe(false);
    }
  });

  it.skipIf(!BIND_MOUNTS)(`refuses a capture folder that a bind mount shows at the fixtures folder or that shows the repository${BIND_MOUNTS ? "" : " (skipped: mount --bind is not permitted here)"}`, () => {
    const base = tempDir("clear-bind-");
    const sitting = path.join(base, "sit");
    cpSync(path.join(PROJECT_ROOT, "examples", "sitting"), sitting, { recursive: true });
    const root = path.join(base, "repo");
    mkdirSync(path.join(root, "fixtures"), { recursive: true });
    execFileSync("git", ["init", "-q"], { cwd: root });
    const before = folderDigest(sitting);
    const view = path.join(base, "view");
    mkdirSync(view);
    for (const [source, at, captures] of [[sitting, path.join(root, "fixtures"), sitting], [root, view, view]] as const) {
      execFileSync("mount", ["--bind", source, at]);
      try {
        const r = clearJson(["run", captures, "--root", root]);
        expect(r.code, at).toBe(2);
        expect(r.json.error, at).toMatch(/no command writes inside a capture folder/);
      } finally {
        execFileSync("umount", [at]);
      }
    }
    expect(folderDigest(sitting)).toBe(before);
    expect(readdirSync(root).sort()).toEqual([".git", "fixtures"]);
  });

  it("a blocked sitting writes no fixture and a batch that says why", () => {
    const root = repo();
    writeFileSync(path.join(root, "captures-inbox", "claude-code_stop_2.1.261.1.json"), "{ broken");
    const r = clearJson(["run"], { cwd: root });
    expect(r.code).toBe(1);
    expect(existsSync(path.join(root, "fixtures"))).toBe(false);
    const record = readFileSync(path.join(root, "CLEARANCE.md"), "utf8");
    expect(record).toContain("**Blocked: 1 finding blocks this batch.**");
    expect(record).toMatch(/### What blocks\n\n- block `invalid-json`, 1 finding: [^\n]*\n {2}- at `claude-code_stop_2\.1\.261\.1\.json`\n {2}- what to do: capture again/);
    expect(record).not.toContain("### Files and digests");
  });

  it("--verbose lists every finding that blocks after the verdict, which counts them by code", () => {
    const root = repo();
    writeFileSync(path.join(root, "captures-inbox", "claude-code_stop_2.1.261.1.json"), "{ broken");
    writeFileSync(path.join(root, "captures-inbox", "claude-code_stop_2.1.261.2.json"), "[ broken");
    const short = clear(["run"], { cwd: root });
    expect(short.code).toBe(1);
    expect(short.stdout).toMatch(/BLOCKED, no fixture written \(2 findings: invalid-json ×2;/);
    expect(short.stdout).not.toMatch(/^BLOCK invalid-json/m);
    const every = clear(["run", "--verbose"], { cwd: root });
    expect(every.code).toBe(1);
    const lines = every.stdout.split("\n").filter((l) => /^BLOCK invalid-json +claude-code_stop_2\.1\.261\.[12]\.json/.test(l));
    expect(lines).toHaveLength(2);
  });

  it("a key the host sent as numbers (a byte array substitution keeps as it stands) is found by the scan, and no fixture is written", () => {
    const root = repo();
    const inbox = path.join(root, "captures-inbox");
    const file = path.join(inbox, readdirSync(inbox).find((n) => n.startsWith("claude-code_post_tool_use_2")) as string);
    const payload = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    const key = ["gh", "p_", "wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx"].join("");
    payload.tool_response = { stdout: "ok", stderr: "", interrupted: false, isImage: false, blob: [...Buffer.from(key)] };
    writeFileSync(file, JSON.stringify(payload));
    const r = clearJson(["run"], { cwd: root });
    expect(r.code).toBe(1);
    expect(r.json.findings).toEqual([expect.objectContaining({ code: "secret-found", file: "fixtures/claude-code/2.1.261/post_tool_use.json", pointer: "/tool_response/[masked]" })]);
    expect(existsSync(path.join(root, "fixtures"))).toBe(false);
  });

  it("a key in base64 as a session's id, which the record quotes where no other file shares it, is a finding at its fixture and pointer (exit 1), and the record does not hold it", () => {
    const root = repo();
    const inbox = path.join(root, "captures-inbox");
    const file = path.join(inbox, readdirSync(inbox).find((n) => n.startsWith("claude-code_session_start_2")) as string);
    const payload = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    const encoded = Buffer.from(["gh", "p_", "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"].join("")).toString("base64");
    writeFileSync(file, JSON.stringify({ ...payload, session_id: encoded }));
    const r = clearJson(["run"], { cwd: root });
    expect(r.code).toBe(1);
    const found = (r.json.findings as { code: string; file: string; pointer: string }[]).filter((f) => f.code === "secret-found").map((f) => [f.file, f.pointer]);
    expect(found).toEqual([["fixtures/claude-code/2.1.261/session_start.json", "/session_id"]]);
    expect(existsSync(path.join(root, "fixtures"))).toBe(false);
    expect(readFileSync(path.join(root, "CLEARANCE.md"), "utf8")).not.toContain(encoded.slice(4, 24));
  });

  it("a key in a value substitution keeps (an id), with a terminal's colours inside it, is found by the scan, and no fixture is written; in a URL's path, percent-encoded twice, it is replaced as a capability", () => {
    const root = repo();
    const inbox = path.join(root, "inbox-kept");
    mkdirSync(inbox);
    const key = ["gh", "p_", "wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx"].join("");
    const elicitation = (url: string, id: string): string => JSON.stringify({ session_id: "5b0c7e9a-3f1d-4c2e-9a8b-1d2e3f4a5b6c", cwd: "/tmp", hook_event_name: "Elicitation", mcp_server_name: "demo", mode: "url", url, elicitation_id: id });
    writeFileSync(path.join(inbox, "claude-code_elicitation_2.1.261.1.json"), elicitation(`https://mcp.example.com/connect/${encodeURIComponent(encodeURIComponent(key))}`, "e1"));
    writeFileSync(path.join(inbox, "claude-code_elicitation_2.1.262.1.json"), elicitation("https://mcp.example.com/connect", `${key.slice(0, 6)}\u001b[1m${key.slice(6)}\u001b[0m`));
    const r = clearJson(["run", inbox], { cwd: root });
    expect(r.code).toBe(1);
    const found = (r.json.findings as { code: string; file: string; pointer: string }[]).filter((f) => f.code === "secret-found").map((f) => [f.file, f.pointer]);
    expect(found).toEqual([["fixtures/claude-code/2.1.262/elicitation.json", "/elicitation_id"]]);
    expect(existsSync(path.join(root, "fixtures"))).toBe(false);
    expect(readFileSync(path.join(root, "CLEARANCE.md"), "utf8")).not.toContain(key.slice(4, 20));
  });

  it("a record gives each refused capture its own reason, where the reasons differ", () => {
    const root = repo();
    const inbox = path.join(root, "inbox-refused");
    mkdirSync(inbox);
    writeFileSync(path.join(inbox, "codex_stop_0.153.0.1.json"), JSON.stringify({ session_id: "s", turn_id: "t", hook_event_name: "Stop", env: Object.fromEntries(Array.from({ length: 24 }, (_, i) => [`VAR_${i}`, `value ${i}`])) }));
    writeFileSync(path.join(inbox, "codex_post_tool_use_0.153.0.1.json"), JSON.stringify({ session_id: "s", turn_id: "t", hook_event_name: "PostToolUse", tool_name: "Bash", tool_use_id: "call_1", tool_response: "y".repeat(5000) }));
    expect(clearJson(["run", inbox], { cwd: root }).code).toBe(1);
    const record = readFileSync(path.join(root, "CLEARANCE.md"), "utf8");
    const block = record.slice(record.indexOf("- block `refused-class`"));
    expect(block).toMatch(/^- block `refused-class`, 2 findings:\n {2}- at `codex_post_tool_use_0\.153\.0\.1\.json` `\/tool_response`: tool output of 5000 bytes[^\n]*\n {2}- at `codex_stop_0\.153\.0\.1\.json` `\/env`: environment dump: 24 [^\n]*\n {2}- what to do: [^\n]*env-dump-v1/);
    expect(parseRecord(record).batches).toHaveLength(1);
  });

  it.skipIf(!PASTURE_PRESENT)(`clears pasture's real Codex payloads, turned back into a sitting${PASTURE_PRESENT ? "" : ` (skipped: ${PASTURE_SKIP_REASON})`}`, () => {
    const root = repo();
    const inbox = path.join(root, "inbox-codex");
    mkdirSync(inbox);
    rebuildSitting("codex", inbox, (c) => c.version === "0.153.0");
    const r = clearJson(["run", inbox], { cwd: root });
    expect(r.json.findings).toEqual([]);
    expect(r.code).toBe(0);
    expect(existsSync(path.join(root, "fixtures", "codex", "0.153.0", "pre_tool_use.json"))).toBe(true);
  });

  it.skipIf(!PASTURE_PRESENT)(`clears pasture's Claude Code payloads, and OpenCode's once the env-dump-v1 policy is opted into${PASTURE_PRESENT ? "" : ` (skipped: ${PASTURE_SKIP_REASON})`}`, () => {
    const root = repo();
    const claude = path.join(root, "inbox-claude");
    mkdirSync(claude);
    expect(rebuildSitting("claude", claude).length).toBeGreaterThan(20);
    const c = clearJson(["run", claude], { cwd: root });
    expect(c.json.findings).toEqual([]);
    expect(existsSync(path.join(root, "fixtures", "claude-code", "2.1.261", "post_tool_batch.json"))).toBe(true);
    const opencode = path.join(root, "inbox-opencode");
    mkdirSync(opencode);
    rebuildSitting("opencode", opencode);
    const refused = clearJson(["run", opencode], { cwd: root });
    expect(refused.code).toBe(1);
    expect((refused.json.findings as { code: string }[]).map((f) => f.code)).toContain("refused-class");
    writeFileSync(path.join(root, "clear.config.json"), JSON.stringify({ policies: { "env-dump-v1": { reason: "the shell hook reads the variable names" } } }));
    const admitted = clearJson(["run", opencode], { cwd: root });
    expect(admitted.json.findings).toEqual([]);
    expect(admitted.code).toBe(0);
    expect(readFileSync(path.join(root, "CLEARANCE.md"), "utf8")).toContain("- Policy in force (clear.config.json): `env-dump-v1`: `the shell hook reads the variable names`");
  });
});

describe("a run that replaces a pending batch", () => {
  const fixture = (root: string, event: string): string => path.join(root, "fixtures", "claude-code", "2.1.261", `${event}.json`);

  it("names the files the replaced batch wrote that the new one does not, and leaves them: verify refuses them until they are taken out", () => {
    const root = repo();
    expect(clearJson(["run"], { cwd: root }).code).toBe(0);
    // The person edits one fixture of the pending batch; then two events leave the sitting.
    const edited = `${readFileSync(fixture(root, "pre_compact"), "utf8")}\n`;
    writeFileSync(fixture(root, "pre_compact"), edited);
    rmSync(path.join(root, "captures-inbox", "claude-code_session_end_2.1.261.1.json"));
    rmSync(path.join(root, "captures-inbox", "claude-code_pre_compact_2.1.261.1.json"));
    const again = clearJson(["run"], { cwd: root });
    expect(again.code).toBe(0);
    expect(again.json.replaced).toMatch(/^b-/);
    // The edited one is the person's: not named as the batch's, though left too.
    const unlisted = ["fixtures/claude-code/2.1.261/pre_compact.provenance.json", "fixtures/claude-code/2.1.261/session_end.json", "fixtures/claude-code/2.1.261/session_end.provenance.json"];
    expect([...(again.json.unlisted as string[])].sort()).toEqual(unlisted);
    for (const f of unlisted) expect(existsSync(path.join(root, f))).toBe(true);
    expect(readFileSync(fixture(root, "pre_compact"), "utf8")).toBe(edited);
    accept(root);
    const verified = (): { code: number; found: string[] } => {
      const v = clearJson(["verify"], { cwd: root });
      return { code: v.code, found: (v.json.findings as { code: string; file?: string }[]).map((f) => `${f.code} ${f.file ?? ""}`).sort() };
    };
    expect(verified()).toEqual({ code: 1, found: [...unlisted, "fixtures/claude-code/2.1.261/pre_compact.json"].sort().map((f) => `fixture-not-accepted ${f}`) });
    for (const f of [...unlisted, "fixtures/claude-code/2.1.261/pre_compact.json"]) rmSync(path.join(root, f));
    expect(verified()).toEqual({ code: 0, found: [] });
  });

  it("says in its verdict which files no batch lists now", () => {
    const root = repo();
    expect(clearJson(["run"], { cwd: root }).code).toBe(0);
    rmSync(path.join(root, "captures-inbox", "claude-code_session_end_2.1.261.1.json"));
    const r = clear(["run"], { cwd: root });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("2 files it wrote are listed by no batch now and left as they stand: fixtures/claude-code/2.1.261/session_end.json, fixtures/claude-code/2.1.261/session_end.provenance.json; verify refuses them until taken out or cleared again");
  });

  it("names only fixtures' paths the tool writes: a pending batch's row edited to name another file of the repository (its digest worked out again) names nothing", () => {
    const root = repo();
    writeFileSync(path.join(root, "notes.json"), "{}\n");
    mkdirSync(path.join(root, "fixtures", "claude-code"), { recursive: true });
    writeFileSync(path.join(root, "fixtures", "claude-code", "notes.json"), "{}\n");
    expect(clearJson(["run"], { cwd: root }).code).toBe(0);
    const record = path.join(root, "CLEARANCE.md");
    const sha = createHash("sha256").update("{}\n").digest("hex");
    const listed = "fixtures/claude-code/2.1.261/session_end.json";
    for (const other of ["notes.json", "fixtures/claude-code/notes.json", "fixtures/claude-code/2.1.261/../../../notes.json"]) {
      // The row names another file with its digest, and the batch's digest is worked out again, as anyone can.
      let text = readFileSync(record, "utf8").replace(new RegExp(`\\| \`${listed}\` \\|([^\\n]*?)\`[0-9a-f]{64}\` \\| (\\d+) \\|\\n`), (_, mid: string) => `| \`${other}\` |${mid}\`${sha}\` | 3 |\n`);
      const batch = parseRecord(text).batches.at(-1);
      text = text.replace(`sha256:${batch?.digestClaimed}`, `sha256:${batch?.digestActual}`);
      writeFileSync(record, text);
      expect(parseRecord(text).batches.at(-1)?.fixtures.map((f) => f.path)).toContain(other);
      const again = clearJson(["run"], { cwd: root });
      expect(again.json.replaced).toBe(batch?.id);
      expect(again.json.unlisted).toEqual([]);
      expect(readFileSync(path.join(root, "notes.json"), "utf8")).toBe("{}\n");
      expect(readFileSync(path.join(root, "fixtures", "claude-code", "notes.json"), "utf8")).toBe("{}\n");
    }
  });

  it("reads nothing behind a link: a folder of the replaced batch's files moved out and linked back is not named, and nothing there changes", () => {
    const root = repo();
    expect(clearJson(["run"], { cwd: root }).code).toBe(0);
    const outside = path.join(tempDir(), "moved");
    renameSync(path.join(root, "fixtures", "claude-code"), outside);
    symlinkSync(outside, path.join(root, "fixtures", "claude-code"));
    const before = folderDigest(outside);
    const codex = tempDir();
    writeFileSync(path.join(codex, "codex_session_start_0.153.0.1.json"), JSON.stringify({ session_id: "019a0000-0000-7000-8000-000000000001", transcript_path: null, cwd: "/srv/w", hook_event_name: "SessionStart", model: "gpt-5", source: "startup" }));
    const r = clearJson(["run", codex], { cwd: root });
    expect(r.json.replaced).toMatch(/^b-/);
    expect(r.json.unlisted).toEqual([]);
    expect(folderDigest(outside)).toBe(before);
  });

  it("keeps a file an accepted batch lists, though the replaced batch wrote it", () => {
    const root = repo();
    expect(clearJson(["run"], { cwd: root }).code).toBe(0);
    accept(root);
    // A pending batch writes session_end anew (the session ended otherwise); then session_end leaves the sitting.
    const capture = path.join(root, "captures-inbox", "claude-code_session_end_2.1.261.1.json");
    writeFileSync(capture, readFileSync(capture, "utf8").replace("prompt_input_exit", "clear"));
    const pending = clearJson(["run"], { cwd: root });
    expect(pending.json.replaced).toBeNull();
    rmSync(capture);
    const r = clearJson(["run"], { cwd: root });
    expect(r.json.replaced).toBe(pending.json.batch);
    expect(r.json.unlisted).toEqual([]);
    expect(existsSync(fixture(root, "session_end"))).toBe(true);
  });
});

describe("a record run appends to", () => {
  /** The example sitting again under another host version: a second batch of fixtures. */
  const laterSitting = (): string => {
    const dir = tempDir();
    const from = path.join(PROJECT_ROOT, "examples", "sitting");
    for (const name of readdirSync(from)) writeFileSync(path.join(dir, name.replace("2.1.261", "2.1.300")), readFileSync(path.join(from, name), "utf8").replace(/2\.1\.261/g, "2.1.300"));
    return dir;
  };
  const acceptedRepo = (): { root: string; record: string; accepted: string } => {
    const root = repo();
    expect(clearJson(["run"], { cwd: root }).code).toBe(0);
    accept(root);
    const record = path.join(root, "CLEARANCE.md");
    return { root, record, accepted: readFileSync(record, "utf8") };
  };

  it("in another encoding than UTF-8 is refused, naming it, and no byte of it changes; verify says so too", () => {
    const later = laterSitting();
    const { root, record, accepted } = acceptedRepo();
    const encodings: Record<string, Buffer> = {
      "UTF-16 with its byte order mark": Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(accepted, "utf16le")]),
      "a Latin-1 note after ACCEPT": Buffer.concat([Buffer.from(accepted), Buffer.from("\nrevis\u00e9 par Zo\u00e9\n", "latin1")]),
    };
    for (const [what, bytes] of Object.entries(encodings)) {
      writeFileSync(record, bytes);
      const r = clearJson(["run", later], { cwd: root });
      expect(r.code, what).toBe(2);
      expect(r.json.error, what).toMatch(/CLEARANCE\.md: is (?:UTF-16|not UTF-8)/);
      expect(readFileSync(record).equals(bytes), what).toBe(true);
      expect(existsSync(path.join(root, "fixtures", "claude-code", "2.1.300")), what).toBe(false);
      const v = clear(["verify"], { cwd: root });
      expect(v.code, what).toBe(2);
      expect(v.stderr, what).toMatch(/CLEARANCE\.md: is (?:UTF-16|not UTF-8)/);
    }
  });

  it("with a comment or a code block left open at its end is refused before anything is written: the batch would not read as one", () => {
    const later = laterSitting();
    const { root, record, accepted } = acceptedRepo();
    for (const open of ["\n<!-- notes from the review\n", "\n```text\nnotes\n", "\n~~~\n", "\n<pre>\n"]) {
      writeFileSync(record, accepted + open);
      const r = clearJson(["run", later], { cwd: root });
      expect(r.code, open).toBe(2);
      expect(r.json.error, open).toMatch(/opened at line \d+; close that block above it; the batch would be appended there, so nothing is written/);
      expect(readFileSync(record, "utf8"), open).toBe(accepted + open);
      expect(existsSync(path.join(root, "fixtures", "claude-code", "2.1.300")), open).toBe(false);
    }
    writeFileSync(record, accepted);
    expect(clearJson(["run", later], { cwd: root }).code).toBe(0);
    expect(readFileSync(record, "utf8").startsWith(accepted)).toBe(true);
  });
});

describe("clear verify", () => {
  function accepted(): string {
    const root = repo();
    expect(clear(["run"], { cwd: root }).code).toBe(0);
    accept(root);
    return root;
  }
  const codes = (root: string, args: string[] = []): { code: number; codes: string[]; files: string[] } => {
    const r = clearJson(["verify", ...args], { cwd: root });
    const findings = r.json.findings as { code: string; file?: string }[];
    return { code: r.code, codes: findings.map((f) => f.code), files: findings.map((f) => f.file ?? "") };
  };

  it("passes on an accepted state", () => {
    expect(codes(accepted()).code).toBe(0);
  });

  it("fails, naming the file, for a fixture changed after ACCEPT, a record line edited, an unlisted fixture, a missing one", () => {
    let root = accepted();
    writeFileSync(path.join(root, "fixtures/claude-code/2.1.261/session_end.json"), "{}");
    expect(codes(root)).toMatchObject({ code: 1, codes: ["fixture-changed"], files: ["fixtures/claude-code/2.1.261/session_end.json"] });
    root = accepted();
    const file = path.join(root, "CLEARANCE.md");
    writeFileSync(file, readFileSync(file, "utf8").replace("### Selection", "### Selection (edited)"));
    expect(codes(root).codes).toContain("batch-edited");
    root = accepted();
    writeFileSync(path.join(root, "fixtures/claude-code/2.1.261/extra.json"), "{}");
    expect(codes(root)).toMatchObject({ code: 1, codes: ["fixture-not-accepted"], files: ["fixtures/claude-code/2.1.261/extra.json"] });
    root = accepted();
    execFileSync("rm", [path.join(root, "fixtures/claude-code/2.1.261/session_end.json")]);
    expect(codes(root)).toMatchObject({ code: 1, codes: ["fixture-missing"], files: ["fixtures/claude-code/2.1.261/session_end.json"] });
  });

  it("reads what `git add -A` would add: an untracked raw capture anywhere, or a place in another spelling, fails; an ignored one does not", () => {
    const root = accepted();
    const raw = readFileSync(path.join(root, "captures-inbox", "claude-code_pre_tool_use_2.1.261.1.json"));
    for (const p of ["tests/data/pre.json", "claude-code_pre_tool_use_2.1.261.1.json", "Fixtures/claude-code/2.1.261/pre_tool_use.json"]) {
      mkdirSync(path.dirname(path.join(root, p)), { recursive: true });
      writeFileSync(path.join(root, p), raw);
    }
    const found = codes(root);
    expect(found.code).toBe(1);
    expect(found.files.filter((_, i) => found.codes[i] === "raw-capture-committed").sort()).toEqual(["Fixtures/claude-code/2.1.261/pre_tool_use.json", "claude-code_pre_tool_use_2.1.261.1.json", "tests/data/pre.json"]);
    expect(found.codes).toContain("place-in-other-spelling");
    writeFileSync(path.join(root, ".gitignore"), "tests/data/\nclaude-code_*.json\nFixtures/\n");
    expect(codes(root).code).toBe(0);
  });

  it("fails for a raw capture committed, and checks a commit's tree with --rev", () => {
    const root = accepted();
    execFileSync("git", ["add", "-f", "captures-inbox/claude-code_session_end_2.1.261.1.json", "fixtures", "CLEARANCE.md"], { cwd: root });
    execFileSync("git", ["commit", "-qm", "x", "--no-verify"], { cwd: root });
    expect(codes(root).codes).toEqual(["raw-capture-committed"]);
    expect(codes(root, ["--rev", "HEAD"]).codes).toEqual(["raw-capture-committed"]);
  });

  for (const [label, how] of [["inside an HTML comment", "<!-- ACCEPT -->"], ["inside a code block", "```\nACCEPT\n```"], ["as ACCEPTED", "ACCEPTED"], ["as ' accept'", " accept"], ["as 'accept'", "accept"]] as const) {
    it(`does not count ACCEPT ${label}`, () => {
      const root = repo();
      clear(["run"], { cwd: root });
      accept(root, how);
      const found = codes(root);
      expect(found.code).toBe(1);
      // Every fixture is unaccepted, and the line that reads like ACCEPT is named as not counting.
      expect(new Set(found.codes)).toEqual(new Set(["accept-not-counted", "fixture-not-accepted"]));
      expect(found.codes.filter((c) => c === "accept-not-counted")).toHaveLength(1);
    });
  }

  it("a --rev or a --range end that is no commit of the repository: exit 2 saying which option gave it, the value said back masked", () => {
    const root = accepted();
    execFileSync("git", ["add", "fixtures", "CLEARANCE.md"], { cwd: root });
    execFileSync("git", ["commit", "-qm", "accepted", "--no-verify"], { cwd: root });
    const key = ["gh", "p_", "abcdefghijklmnopqrstuvwxyz0123456789"].join("");
    const cases: [string[], string][] = [
      [["--rev", "nosuch"], "--rev: nosuch is not a commit in this repository"],
      [["--rev=-x"], "--rev: -x is not a commit in this repository"],
      [["--rev", key], "--rev: ghp_****"],
      [["--range", "nosuch..HEAD"], "--range (its BASE end): nosuch is not a commit in this repository"],
      [["--range", `HEAD..${key}`], "--range (its HEAD end): ghp_****"],
    ];
    for (const [args, said] of cases) {
      const r = clearJson(["verify", ...args], { cwd: root });
      expect(r.code, args.join(" ")).toBe(2);
      expect(String(r.json.error), args.join(" ")).toContain(said);
      expect(r.stderr, args.join(" ")).toContain(said);
      expect(r.stderr + JSON.stringify(r.json), args.join(" ")).not.toContain(key.slice(4, 20));
      expect(r.stderr, args.join(" ")).not.toContain("Needed a single revision");
    }
    expect(clearJson(["verify", "--rev", "HEAD"], { cwd: root }).code).toBe(0);
  });

  it("does not count an ACCEPT under another heading", () => {
    const root = repo();
    clear(["run"], { cwd: root });
    const file = path.join(root, "CLEARANCE.md");
    const text = readFileSync(file, "utf8");
    writeFileSync(file, `${text}## Notes\n\nACCEPT\n`);
    expect(readFileSync(file, "utf8")).toMatch(/\n## Notes\n\nACCEPT\n$/);
    expect(codes(root).code).toBe(1);
  });
});

describe("the record's parser", () => {
  it("a record edited into a shape it does not know is an error naming the line, never a silent pass", () => {
    const root = repo();
    clear(["run"], { cwd: root });
    const file = path.join(root, "CLEARANCE.md");
    const text = readFileSync(file, "utf8");
    writeFileSync(file, text.replace("## User acceptance", "## Acceptance, reworded"));
    const r = clearJson(["verify"], { cwd: root });
    expect(r.code).toBe(2);
    expect(r.json).toMatchObject({ ok: false, error: expect.stringMatching(/CLEARANCE\.md line \d+: batch b-[0-9a-f]+ has no "## User acceptance" heading/) });
    writeFileSync(file, text.replace(/<!-- clear:batch (\S+) sha256:[0-9a-f]+ -->/, "<!-- clear:batch $1 sha256:short -->"));
    const short = clearJson(["verify"], { cwd: root });
    expect(short.code).toBe(2);
    expect(short.json.error).toMatch(/CLEARANCE\.md line \d+: starts like a batch marker but is not one/);
  });
});

describe("what the record quotes from sitting.json", () => {
  it("masks a home, and a given user name in a path or alone, and writes no words that name the user beside others (the rest may be the person too)", () => {
    const name = ["mar", "got"].join("");
    const hex = Buffer.from(name).toString("hex");
    const cases: [Record<string, string>, string[], string[]][] = [
      [{ driver: name, method: "by hand", hostBinary: `/home/${name}/bin/claude` }, ["- Driven by: `user`; how: `by hand`", "- Host binary: `/home/user/bin/claude`"], []],
      [{ driver: `Margot Quillfeather`, method: "as Mar Got", hostBinary: `/opt/${name}-tools/claude` }, ["- Driven by: `[not written: it names a user the sitting taught]`; how: `[not written: it names a user the sitting taught]`", "- Host binary: `/opt/user-tools/claude`"], ["Quillfeather"]],
      [{ driver: "the author", method: `notes ${hex}` }, ["how: `[not written: it names a user the sitting taught]`"], [hex]],
    ];
    for (const [info, shown, hidden] of cases) {
      const root = repo();
      writeFileSync(path.join(root, "captures-inbox", "sitting.json"), JSON.stringify({ ...info, versionLine: "2.1.261 (Claude Code)" }));
      writeFileSync(path.join(root, "clear.config.json"), JSON.stringify({ users: [name] }));
      clear(["run"], { cwd: root });
      const record = readFileSync(path.join(root, "CLEARANCE.md"), "utf8");
      for (const line of shown) expect(record, JSON.stringify(info)).toContain(line);
      for (const word of [name, "Margot", ...hidden]) expect(record, JSON.stringify(info)).not.toContain(word);
    }
  });

  it("a mailbox or a phone number in a name the record quotes (the capture folder, a stray file, an event a capture's name gives) or in a reason clear.config.json gives is starred, in the record and in what is printed", () => {
    const mailbox = ["tv", "@", "fernmail", ".org"].join("");
    const phone = ["+44", "20", "7946", "0958"].join(" ");
    const root = repo();
    const sitting = path.join(tempDir("clear-named-"), `notes ${mailbox} ${phone} telephone-4155550188 PHONE=4155550177`);
    cpSync(path.join(root, "captures-inbox"), sitting, { recursive: true });
    const end = readFileSync(path.join(sitting, "claude-code_session_end_2.1.261.1.json"));
    writeFileSync(path.join(sitting, `${phone}.vcf`), end);
    writeFileSync(path.join(sitting, `opencode_th.${mailbox}_1.0.0.1.json`), end);
    // A declaration in force: Codex keeps its sessions under a folder named home.
    writeFileSync(path.join(sitting, "codex_session_start_0_171_0.1.json"), JSON.stringify({ session_id: "s", hook_event_name: "SessionStart", transcript_path: "/data/home/sessions/2026/05/01/rollout.jsonl" }));
    writeFileSync(path.join(root, "clear.config.json"), JSON.stringify({ declarations: { notPersons: [{ segment: "sessions", reason: `CODEX_HOME, ask ${mailbox}` }] } }));
    const r = clearJson(["run", sitting], { cwd: root });
    const record = readFileSync(path.join(root, "CLEARANCE.md"), "utf8");
    expect(record).toContain("- Capture folder: `");
    expect(record).toContain("****************.vcf");
    expect(record).toContain("- Declared not a person (clear.config.json): `sessions`: CODEX_HOME, ask ***************");
    for (const text of [record, JSON.stringify(r.json)]) {
      for (const word of [mailbox, phone, "fernmail.org", "7946", "4155550188", "4155550177"]) expect(text, word).not.toContain(word);
    }
  });

  it("a name's parted, reversed and romanized forms are found only as words of their own: ordinary paths that hold their letters across words stay clear", () => {
    const inbox = tempDir("clear-sitting-");
    cpSync(path.join(PROJECT_ROOT, "examples", "sitting"), inbox, { recursive: true });
    const payload = JSON.parse(readFileSync(path.join(inbox, "claude-code_pre_tool_use_2.1.261.1.json"), "utf8")) as Record<string, unknown>;
    const cases: [string, string][] = [
      ["ethan", "/srv/src/get_handler.ts"], ["justin", "/srv/just-in-time/x"], ["ingrid", "/srv/in_grid.tsx"], ["allen", "/srv/call_end.go"],
      ["logan", "/srv/log_analysis/x"], ["\u041c\u0430\u0440\u0438\u044f", "/etc/mysql/mariadb.conf.d/x"], ["\u0420\u043e\u043c\u0430\u043d", "/usr/share/fonts/romance/x"],
      ["logana", "/srv/catalog_analysis/x"], ["maxima", "/srv/max_images/x"],
    ];
    cases.forEach(([owner, kept], i) => writeFileSync(path.join(inbox, `claude-code_pre_tool_use_2.1.261.${i + 3}.json`), JSON.stringify({ ...payload, cwd: `/home/${owner}/proj`, tool_input: { file_path: kept }, tool_name: "Read" })));
    const r = clearJson(["substitute", inbox, "--out", path.join(tempDir("clear-out-"), "out")]);
    expect((r.json.findings as { code: string }[]).filter((f) => f.code === "user-name-left")).toEqual([]);
  });

  it("a name the sitting taught in Cyrillic or Greek letters is found romanized, and one beyond ASCII in a host name's xn-- form: the file that keeps it is refused", () => {
    const inbox = tempDir("clear-sitting-");
    cpSync(path.join(PROJECT_ROOT, "examples", "sitting"), inbox, { recursive: true });
    const payload = JSON.parse(readFileSync(path.join(inbox, "claude-code_pre_tool_use_2.1.261.1.json"), "utf8")) as Record<string, unknown>;
    const cases: [string, string][] = [
      ["C:\\Users\\\u0414\u043c\u0438\u0442\u0440\u0438\u0439\\proj", "D:\\src\\dmitry-petrov-site\\index.html"],
      ["/home/\u03bd\u03af\u03ba\u03bf\u03c2/proj", "/srv/nikos-blog/index.html"],
      ["/home/\u042e\u043b\u0438\u044f/proj", "/srv/yulia.dev/x"],
      ["/home/\u0413\u0440\u0438\u0433\u043e\u0440\u0456\u0439/proj", "/srv/hryhorii/x"],
      ["/home/\u03a3\u03c4\u03b1\u03cd\u03c1\u03bf\u03c2/proj", "/srv/stavros/x"],
      ["/home/\u0429\u0435\u0440\u0431\u0430\u043a\u043e\u0432/proj", "/srv/\u0161\u010derbakov/x"],
      ["/home/m\u00fcller/proj", `/srv/${new URL("https://m\u00fcller.dev").hostname}/x`],
    ];
    cases.forEach(([cwd, kept], i) => writeFileSync(path.join(inbox, `claude-code_pre_tool_use_2.1.261.${i + 3}.json`), JSON.stringify({ ...payload, cwd, tool_input: { file_path: kept }, tool_name: "Read" })));
    const r = clearJson(["substitute", inbox, "--out", path.join(tempDir("clear-out-"), "out")]);
    const refused = (r.json.findings as { code: string; file?: string; pointer?: string }[]).filter((f) => f.code === "user-name-left");
    cases.forEach((c, i) => expect(refused, c[1]).toContainEqual(expect.objectContaining({ file: `claude-code_pre_tool_use_2.1.261.${i + 3}.json`, pointer: "/tool_input/file_path" })));
  });

  it("a name the sitting taught, written with its words apart or in base64 glued to other text, refuses the file that keeps it", () => {
    const inbox = tempDir("clear-sitting-");
    cpSync(path.join(PROJECT_ROOT, "examples", "sitting"), inbox, { recursive: true });
    const name = ["quill", "feather"].join("");
    const payload = JSON.parse(readFileSync(path.join(inbox, "claude-code_pre_tool_use_2.1.261.1.json"), "utf8")) as Record<string, unknown>;
    const kept = [
      "/srv/docs/Quill Feather CV.pdf", "/srv/quill.feather/x", "/srv/quill_feather/x", `/srv/cache/x${Buffer.from(`/${name}/`).toString("base64url")}y`,
      "/srv/quill--feather/x", "/srv/Quill\u2013Feather/x", "/srv/feather.quill/x", "/srv/feather, quill/x", "/srv/q.feather/x",
    ];
    kept.forEach((p, i) => writeFileSync(path.join(inbox, `claude-code_pre_tool_use_2.1.261.${i + 10}.json`), JSON.stringify({ ...payload, cwd: `/home/${name}/proj`, tool_input: { file_path: p }, tool_name: "Read" })));
    const ids = [`toolu_${Buffer.from(name).toString("base64")}`, `toolu_01${Buffer.from(name).toString("hex")}`, `toolu_01${Buffer.from(name.toUpperCase()).toString("hex")}`];
    ids.forEach((id, i) => writeFileSync(path.join(inbox, `claude-code_pre_tool_use_2.1.261.${i + 30}.json`), JSON.stringify({ ...payload, cwd: `/home/${name}/proj`, tool_use_id: id })));
    const r = clearJson(["substitute", inbox, "--out", path.join(tempDir("clear-out-"), "out")]);
    const refused = (r.json.findings as { code: string; file?: string }[]).filter((f) => f.code === "user-name-left").map((f) => f.file);
    for (const n of [...kept.map((_, i) => i + 10), ...ids.map((_, i) => i + 30)]) expect(refused, String(n)).toContain(`claude-code_pre_tool_use_2.1.261.${n}.json`);
    expect(refused).not.toContain("claude-code_pre_tool_use_2.1.261.1.json");
    expect(JSON.stringify(r.json)).not.toContain(name);
  });
});
