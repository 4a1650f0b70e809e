import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { homeGrammar, type HomeGrammar } from "../src/homes.js";
import { homePathRule } from "../src/passes/substitute/home-path.js";
import { loadRules } from "../src/io/load-rules.js";
import { scanJson } from "../src/json/reader.js";
import { scanEngine } from "../src/passes/scan.js";
import type { Finding } from "../src/types.js";
import { clear, clearJson, folderDigest, PASTURE_PRESENT, PASTURE_SKIP_REASON, tempDir } from "./helpers.js";
import { clearanceRules, dottedToPointer, rebuildSitting } from "./pasture.js";

interface RuleRow {
  rule: string;
  pointers: string[];
  changed: string[];
}
interface FileRow {
  name: string;
  rawBytes: number;
  clearedBytes: number | null;
  rules: RuleRow[];
  review: string[];
  undocumented: string[];
  exemptions: { rule: string; pointer: string; reason: string; remainingCount: number; remaining: string[] }[];
  refused: Finding[];
}

// A user name built at run time, so the repository never holds a real-looking home path.
const U = ["ma", "rg", "ot"].join("");

function write(dir: string, name: string, body: object | string): void {
  writeFileSync(path.join(dir, name), typeof body === "string" ? body : JSON.stringify(body));
}

function run(dir: string, extra: string[] = []): { code: number; out: string; json: Record<string, unknown>; files: FileRow[] } {
  const out = path.join(tempDir("clear-out-"), "cleared");
  const { code, json } = clearJson(["substitute", dir, "--out", out, ...extra]);
  return { code, out, json, files: json.files as FileRow[] };
}

function stringsOutside(text: string): string {
  const doc = scanJson(text, { maxDepth: 256 });
  let out = "";
  let at = 0;
  for (const s of doc.spans.filter((x) => x.kind === "string")) {
    out += `${text.slice(at, s.start)}\u0000`;
    at = s.end;
  }
  return out + text.slice(at);
}

describe("clear substitute", () => {
  it("writes no file the scan finds a secret shape in: each is refused, naming the file and pointer; the clean ones are written", () => {
    const dir = tempDir();
    // Every rule's planted value that stands alone in a string, kept verbatim as an identifier would be
    // (the rules that read a member's name or a whole service account's file need more around it).
    const rules = loadRules();
    const byContext = new Set(["clear/aws-secret", "clear/sensitive-member", "@secretlint/secretlint-rule-gcp", "@secretlint/secretlint-rule-basicauth"]);
    const planted = scanEngine(rules.secrets, homeGrammar(rules.homes), null).control.planted.filter((p) => !byContext.has(p.rule));
    const values = planted.flatMap((p) => Object.values(p.members).filter((v) => !/[\s"]/.test(v)));
    expect(values.length).toBeGreaterThan(20);
    values.forEach((value, i) => write(dir, `claude-code_pre_tool_use_2_1_261.${i + 1}.json`, { session_id: "s-1", hook_event_name: "PreToolUse", tool_name: "Bash", tool_use_id: value }));
    write(dir, "claude-code_session_end_2_1_261.1.json", { session_id: "s-1", hook_event_name: "SessionEnd", reason: "other" });
    const before = folderDigest(dir);
    const { code, out, files, json } = run(dir);
    expect(code).toBe(1);
    expect(folderDigest(dir)).toBe(before);
    const written = readdirSync(out);
    expect(written).toContain("claude-code_session_end_2_1_261.1.json");
    for (const name of written) {
      const text = readFileSync(path.join(out, name), "utf8");
      expect(values.filter((v) => text.includes(v)), name).toEqual([]);
    }
    // Each value is refused with its file, or was substituted away (the checks above read every written byte).
    const found = (json.findings as Finding[]).filter((f) => f.code === "secret-found");
    const refused = files.filter((f) => f.clearedBytes === null).map((f) => f.name);
    expect(refused.length).toBeGreaterThan(values.length - 3);
    // A value holding user@host (a URL's credentials) is refused before the scan, as a person's mailbox
    // would be; one holding, in base64, a name another value's home taught is refused as that name.
    const byScan = new Set(found.map((f) => f.file));
    for (const name of refused.filter((n) => !byScan.has(n)))
      expect((files.find((f) => f.name === name)?.refused ?? []).map((r) => r.code), name).toEqual([expect.stringMatching(/^(?:contact-left|user-name-left)$/)]);
    expect([...byScan].filter((n) => !refused.includes(n as string))).toEqual([]);
    // One value is a home, /home/control-owner/project: the base64 of "control@..." in another is that
    // name, and a mailbox: the final check, which reads encoded values for contacts, refuses it first.
    const byFinalCheck = refused.filter((n) => !byScan.has(n));
    expect(byScan.size).toBeGreaterThan(values.length - 4);
    expect(byScan.size + byFinalCheck.length).toBeGreaterThan(values.length - 3);
    expect(written.filter((n) => refused.includes(n))).toEqual([]);
    for (const f of found) expect(f.pointer).toBe("/tool_use_id");
    expect(JSON.stringify(json)).not.toContain(values[0]);
  });

  it("replaces every home spelling and all free text, keeps every other byte, and writes under the capture's own name", () => {
    const dir = tempDir();
    const raw = `{"session_id":"s-1",  "transcript_path":"\\/home\\/${U}\\/.claude\\/projects\\/-home-${U}-proj\\/s-1.jsonl",\n "cwd":"/home/${U}/proj","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"cat C:\\\\Users\\\\${U}\\\\notes caf\\u00e9","description":""},"tool_use_id":"toolu_1","prompt_id":null}`;
    write(dir, "claude-code_pre_tool_use_2_1_261.1.json", raw);
    const before = folderDigest(dir);
    const { code, out, files, json } = run(dir);
    expect(code).toBe(0);
    expect(folderDigest(dir)).toBe(before);
    const cleared = readFileSync(path.join(out, "claude-code_pre_tool_use_2_1_261.1.json"), "utf8");
    expect(cleared).not.toMatch(new RegExp(U, "i"));
    expect(cleared).toContain(`"transcript_path":"\\/home\\/user\\/.claude\\/projects\\/-home-user-proj\\/s-1.jsonl"`);
    expect(cleared).toContain(`"cwd":"/home/user/proj"`);
    expect(stringsOutside(cleared)).toBe(stringsOutside(raw));
    const command = /"command":"(x*)"/.exec(cleared)?.[1] ?? "";
    // The length the capture holds: the owner's name replaced first does not shorten it.
    expect(command.length).toBe(`cat C:\\\\Users\\\\${U}\\\\notes caf\\u00e9`.length);
    expect(files).toHaveLength(1);
    expect(files[0]?.rules.map((r) => r.rule)).toEqual(["home-path-v1", "free-text-v1"]);
    expect(files[0]?.rules[0]?.pointers).toEqual(["/transcript_path", "/cwd", "/tool_input/command"]);
    expect(files[0]?.rules[1]?.pointers).toEqual(["/tool_input/command", "/tool_input/description"]);
    expect(files[0]?.rawBytes).toBe(Buffer.byteLength(raw));
    expect(files[0]?.clearedBytes).toBe(Buffer.byteLength(cleared));
    // Nothing the tool prints carries the user's name.
    expect(JSON.stringify(json)).not.toMatch(new RegExp(U, "i"));
  });

  it("is a fixed point: a second pass over its own output changes no byte", () => {
    const dir = tempDir();
    write(dir, "codex_user_prompt_submit_0_153_0.1.json", { session_id: "s", turn_id: "t", cwd: `/home/${U}/p`, prompt: `look in /Users/${U}/x please` });
    const first = run(dir);
    expect(first.code).toBe(0);
    const second = run(first.out);
    expect(second.code).toBe(0);
    const name = "codex_user_prompt_submit_0_153_0.1.json";
    expect(readFileSync(path.join(second.out, name))).toEqual(readFileSync(path.join(first.out, name)));
    expect(second.files[0]?.rules.flatMap((r) => r.changed)).toEqual([]);
    expect(second.files[0]?.rules.map((r) => r.rule)).toEqual(["home-path-v1", "free-text-v1"]);
  });

  it("replaces a home's owner whether or not the name was known, and checks a name given with --user everywhere", () => {
    const dir = tempDir();
    const other = ["qu", "ill"].join("");
    write(dir, "codex_session_start_0_153_0.1.json", { session_id: "s", cwd: `home/${other}/work`, source: "startup" });
    const unknownOwner = run(dir);
    expect(unknownOwner.code).toBe(0);
    expect(readFileSync(path.join(unknownOwner.out, "codex_session_start_0_153_0.1.json"), "utf8")).toContain('"cwd":"home/user/work"');
    const elsewhere = tempDir();
    write(elsewhere, "codex_session_start_0_153_0.1.json", { session_id: "s", cwd: `/srv/${other}/work`, source: "startup" });
    expect(run(elsewhere).code).toBe(0);
    const named = run(elsewhere, ["--user", other]);
    expect(named.code).toBe(1);
    expect(named.files[0]?.refused.map((f) => [f.code, f.pointer])).toEqual([["user-name-left", "/cwd"]]);
    expect(JSON.stringify(named.json)).not.toContain(other);
  });

  it("refuses what substitution cannot clear, names why, and writes none of its bytes", () => {
    const dir = tempDir();
    write(dir, "claude-code_post_tool_use_2_1_261.1.json", { session_id: "s", hook_event_name: "PostToolUse", tool_response: { stdout: "y".repeat(5000) } });
    write(dir, "codex_stop_0_153_0.1.json", { session_id: "s", cwd: `/home/${U}/p`, [`/home/${U}/key`]: 1 });
    write(dir, "codex_session_end_0_153_0.1.json", { session_id: "s", cwd: `/home/${U}/p`, model: `${U}-model` });
    write(dir, "codex_session_start_0_153_0.1.json", { session_id: "s", cwd: `/home/${U}/p` });
    write(dir, "codex_pre_tool_use_0_153_0.1.json", "{ broken");
    const { code, out, files, json } = run(dir);
    expect(code).toBe(1);
    const refusedCodes = (name: string): string[] => (files.find((f) => f.name === name)?.refused ?? []).map((r) => r.code);
    expect(refusedCodes("claude-code_post_tool_use_2_1_261.1.json")).toEqual(["refused-class"]);
    expect(refusedCodes("codex_stop_0_153_0.1.json")).toEqual(["home-in-key"]);
    expect(refusedCodes("codex_session_end_0_153_0.1.json")).toEqual(["user-name-left"]);
    const left = files.find((f) => f.name === "codex_session_end_0_153_0.1.json")?.refused[0];
    const rawEnd = readFileSync(path.join(dir, "codex_session_end_0_153_0.1.json"), "utf8");
    expect(left).toMatchObject({ pointer: "/model", line: 1, column: rawEnd.indexOf(`"${U}-model"`) + 1 });
    expect(json.skipped).toEqual([{ file: "codex_pre_tool_use_0_153_0.1.json", code: "invalid-json", reason: expect.stringContaining("invalid-json"), line: 1, column: 3 }]);
    expect(readdirSync(out)).toEqual(["codex_session_start_0_153_0.1.json"]);
    expect(JSON.stringify(json)).not.toMatch(new RegExp(U, "i"));
  });

  it("names a link, a pipe and a stray file of the sitting as skipped, as inventory blocks on them, and exits 1", () => {
    const dir = tempDir();
    write(dir, "codex_session_start_0_153_0.1.json", { session_id: "s", hook_event_name: "SessionStart" });
    symlinkSync("codex_session_start_0_153_0.1.json", path.join(dir, "codex_session_start_0_153_0.2.json"));
    execFileSync("mkfifo", [path.join(dir, "codex_stop_0_153_0.1.json")]);
    writeFileSync(path.join(dir, "notes.json"), "{}");
    const { code, json } = run(dir);
    expect((json.skipped as { file: string; code: string }[]).map((x) => [x.file, x.code])).toEqual([
      ["codex_session_start_0_153_0.2.json", "symlink"],
      ["codex_stop_0_153_0.1.json", "not-a-file"],
      ["notes.json", "not-a-capture"],
    ]);
    expect(code).toBe(1);
  });

  it("a mailbox or a phone number kept by any rule (enum, identifier, path, URL), in any spelling, or in a member name, refuses the file; a host's own @ is kept", () => {
    // OpenCode's hook inputs carry the provider configuration a person wrote: its id, its models' ids (as member names too).
    const mailbox = [U, "@", "example", ".org"].join("");
    const shaped = (provider: Record<string, unknown>, model: Record<string, unknown>): object => ({
      input: { sessionID: "ses_1", agent: "build", model: { id: "m-1", providerID: "p-1", ...model }, provider: { source: "config", info: { id: "p-1", models: { "m-1": {} }, ...provider } } },
      output: { enabled: true },
    });
    const refused: [string, object, string][] = [
      ["an enum value", shaped({}, { providerID: mailbox }), "/input/model/providerID"],
      ["an identifier value", shaped({ id: mailbox }, {}), "/input/provider/info/id"],
      ["a fullwidth at sign", shaped({}, { id: mailbox.replace("@", "\uFF20") }), "/input/model/id"],
      ["a phone number", shaped({}, { id: "+44 20 7946 0958" }), "/input/model/id"],
      ["a mailbox whose host starts with a digit", shaped({}, { modelID: mailbox.replace("@", "@1") }), "/input/model/modelID"],
      ["a member name", shaped({ models: { [mailbox]: {} } }, {}), ""],
      ["an escaped member name", shaped({ models: { [mailbox.replace("@", "\\u0040")]: {} } }, {}), ""],
      ["a phone number as a member name", shaped({ models: { "+1 415 555 0100": {} } }, {}), ""],
      ["a small at sign", shaped({}, { modelID: mailbox.replace("@", "\uFE6B") }), "/input/model/modelID"],
      ["invisible characters around the at sign", shaped({}, { modelID: mailbox.replace("@", "\u200b@\u200b") }), "/input/model/modelID"],
      ["a percent-encoded at sign", shaped({}, { modelID: mailbox.replace("@", "%40") }), "/input/model/modelID"],
      ["an HTML at sign", shaped({}, { modelID: mailbox.replace("@", "&#64;") }), "/input/model/modelID"],
      ["a phone number with non-breaking hyphens", shaped({}, { modelID: "+1\u2011415\u2011555\u20110100" }), "/input/model/modelID"],
      ["a phone number the North American way", shaped({}, { modelID: "(415) 555-0100" }), "/input/model/modelID"],
      ["a phone number with spaces", shaped({}, { modelID: "415 555 0100" }), "/input/model/modelID"],
      ["a phone number after 00", shaped({}, { id: "0044 20 7946 0958" }), "/input/model/id"],
      ["a phone number in Arabic-Indic digits", shaped({}, { modelID: "\u0664\u0661\u0665-\u0665\u0665\u0665-\u0660\u0661\u0660\u0660" }), "/input/model/modelID"],
      ["a mailbox with its at sign set apart", shaped({}, { modelID: mailbox.replace("@", " @ ") }), "/input/model/modelID"],
      ["a mailbox with a fullwidth at sign set apart", shaped({}, { modelID: mailbox.replace("@", " \uFF20 ") }), "/input/model/modelID"],
      ["a mailbox with its dot set apart", shaped({}, { modelID: mailbox.replace("@", " @ ").replace(".", " . ") }), "/input/model/modelID"],
      ["a phone number after 00 in brackets", shaped({}, { id: "(0044) 20 7946 0958" }), "/input/model/id"],
      ["a mailbox in a path", { ...shaped({}, {}), cwd: `/srv/mail/${mailbox}/project` }, "/cwd"],
      ["a mailbox with digits after its host", { ...shaped({}, {}), cwd: `/srv/mail/backup-${mailbox}2024/a.eml` }, "/cwd"],
      ["a mailbox whose local part is quoted", { ...shaped({}, {}), cwd: `/srv/mail/"${U} k"@example.org/a.eml` }, "/cwd"],
      ["a phone number with a 1 before it, in a file's name", { ...shaped({}, {}), cwd: "/srv/contacts/1-415-555-0100.vcf" }, "/cwd"],
      ["a phone number after a word and a dash", shaped({}, { modelID: "tel-415-555-0100" }), "/input/model/modelID"],
      ["a phone number with dots, before an extension", shaped({}, { modelID: "tel-415.555.0100.json" }), "/input/model/modelID"],
      ["a phone number with two separators", shaped({}, { modelID: "415-555 0100" }), "/input/model/modelID"],
      ["a tel: address", shaped({}, { modelID: "tel:4155550100" }), "/input/model/modelID"],
      ["a mailbox in base64", shaped({}, { id: Buffer.from(mailbox).toString("base64") }), "/input/model/id"],
      ["a phone number in hex, after a prefix", shaped({}, { modelID: `m-${Buffer.from("+1 415 555 0100").toString("hex")}` }), "/input/model/modelID"],
      ["digits alone after a phone's word, in a path", { ...shaped({}, {}), cwd: "/srv/tel-4155550199/x" }, "/cwd"],
      ["digits alone after a phone's word", shaped({}, { modelID: "Phone_14155550100" }), "/input/model/modelID"],
      ["digits alone after a phone's word, any case, after =", shaped({}, { modelID: "PHONE=4155550100" }), "/input/model/modelID"],
      ["digits alone right after a word ending in a phone's", shaped({}, { modelID: "mobilePhone4155550199" }), "/input/model/modelID"],
      ["a mailbox with its at sign spelt out, in base64", shaped({}, { id: Buffer.from(mailbox.replace("@", "(at)")).toString("base64") }), "/input/model/id"],
      ["a mailbox in base64 of base64", shaped({}, { id: Buffer.from(Buffer.from(mailbox).toString("base64")).toString("base64") }), "/input/model/id"],
      ["an area code in brackets, no space after", shaped({}, { modelID: "(415)5550100" }), "/input/model/modelID"],
      ["a national number in pairs with dots", shaped({}, { id: "06.12.34.56.78" }), "/input/model/id"],
      ["a national number as an area code and a number", shaped({}, { id: "030 12345678" }), "/input/model/id"],
      ["a national number with its area code in brackets", shaped({}, { id: "(0)20 7946 0958" }), "/input/model/id"],
      ["a national number begun with the trunk's 0", shaped({}, { id: "090-1234-5678" }), "/input/model/id"],
      ["a national number in pairs", shaped({}, { id: "06 12 34 56 78" }), "/input/model/id"],
      ["a national number in groups", shaped({}, { id: "020 7946 0958" }), "/input/model/id"],
    ];
    for (const [what, body, pointer] of refused) {
      const dir = tempDir();
      const text = JSON.stringify(body).replace(/\\\\u/g, "\\u");
      write(dir, "opencode_experimental_compaction_autocontinue_1.18.33.1.json", text);
      const { code, files, json, out } = run(dir);
      expect(code, what).toBe(1);
      const found = files[0]?.refused ?? [];
      // A phone number written with spaces also reads as prose in an enum: refused for both.
      const contact = found.find((f) => f.code === (pointer === "" ? "contact-in-key" : "contact-left"));
      expect(contact, what).toBeDefined();
      if (pointer !== "") expect(contact?.pointer, what).toBe(pointer);
      expect(JSON.stringify(json), what).not.toContain(U);
      expect(readdirSync(out), what).toEqual([]);
    }
    // A model id that names its release after an at sign, and a package scope, are the host's.
    const dir = tempDir();
    const hosts = { "claude-3-5-sonnet@20240620": {}, "@ai-sdk/anthropic": {}, "formatter@anthropic-tools": {}, "gemini-2.5-pro@us-central1": {}, "npm:@acme/mcp@next": {} };
    write(dir, "opencode_experimental_compaction_autocontinue_1.18.33.1.json", { ...shaped({ models: hosts }, { id: "claude-3-5-sonnet@20240620" }), cwd: "/srv/app/node_modules/@scope/pkg" });
    const kept = run(dir);
    expect(kept.code, JSON.stringify(kept.files[0]?.refused)).toBe(0);
    expect(readFileSync(path.join(kept.out, "opencode_experimental_compaction_autocontinue_1.18.33.1.json"), "utf8")).toContain('"claude-3-5-sonnet@20240620":{}');
    // An identifier or a path one of whose groups of digits begins with 00 holds no phone number.
    const ids = tempDir();
    // Nor do bytes in hex, a date before a time (in a path: an enum's word has no blank), a version's groups, or a package's scope in quotes.
    const kept2 = { modelID: "01-23-45-67-89-AB", providerID: "v415.555.0100.2" };
    // Nor numbers a path or a name writes between underscores or slashes (a tile's place, a frame's number).
    const cwdKept = "/srv/tiles/256/512/1024/frame_001_002_0003.png";
    write(ids, "opencode_experimental_compaction_autocontinue_1.18.33.1.json", { ...shaped({ models: { '"qwik", "@builder.io/qwik"': {} } }, { id: "5b0c7e9a-0012-3456-7890-1d2e3f4a5b6c", ...kept2 }), cwd: "/srv/runs/0012/345678", directory: cwdKept, subdirectory: "/srv/runs/01-12-2026 10:30", worktree: "/srv/notes/stopping at `Object.prototype`, from '@builder.io/qwik'" });
    // Nor a UUID one of whose groups begins with 0 and runs into letters, nor an image's scale after an at sign.
    write(ids, "opencode_experimental_compaction_autocontinue_1.18.33.2.json", { ...shaped({}, { id: "f14c0513-0591-47b1-bc52-b98d88d6b19b" }), cwd: "/app/static/logo@2x.png" });
    const idsKept = run(ids);
    expect(idsKept.code, JSON.stringify(idsKept.files[0]?.refused)).toBe(0);
  });

  it("a screenshot's name, \"at\" a clock time, is no mailbox: a path to one is kept, and the same words before a host are refused", () => {
    const dir = tempDir();
    const shot = "/srv/w/shots/Screenshot 2026-05-01 at 10.22.33.png";
    write(dir, "claude-code_pre_tool_use_2.1.261.1.json", { session_id: "s", transcript_path: "/srv/t.jsonl", cwd: "/srv/w", hook_event_name: "PreToolUse", tool_name: "Read", tool_input: { file_path: shot }, tool_use_id: "toolu_01" });
    const kept = run(dir);
    expect(kept.code).toBe(0);
    expect(readFileSync(path.join(kept.out, "claude-code_pre_tool_use_2.1.261.1.json"), "utf8")).toContain(shot);
    const other = tempDir();
    write(other, "claude-code_pre_tool_use_2.1.261.1.json", { session_id: "s", transcript_path: "/srv/t.jsonl", cwd: "/srv/w", hook_event_name: "PreToolUse", tool_name: "Read", tool_input: { file_path: "/srv/w/shots/jane at example.com.png" }, tool_use_id: "toolu_01" });
    const refused = run(other);
    expect(refused.code).toBe(1);
    expect(JSON.stringify(refused.json.findings)).toContain("contact-left");
  });

  it("a Windows sitting whose owner's name starts with a letter JSON reads after a backslash (\\t, \\n, \\r, \\b, \\f) clears: the host's folders below the home teach the owner alone, never Users, so no other value is refused", () => {
    for (const owner of [["thes", "saly"], ["na", "dia"], ["ra", "chel"], ["bo", "b"], ["fra", "nk"]].map((p) => p.join(""))) {
      const dir = tempDir();
      const home = `C:\\Users\\${owner}`;
      write(dir, "claude-code_session_start_2_1_261.1.json", { session_id: "s", transcript_path: `${home}\\.claude\\projects\\C--Users-${owner}-src-app\\0b1e.jsonl`, cwd: `${home}\\src\\app`, hook_event_name: "SessionStart", source: "startup" });
      write(dir, "codex_session_start_0_171_0.1.json", { session_id: "s", hook_event_name: "SessionStart", transcript_path: `${home}\\.codex\\sessions\\2026\\05\\01\\rollout.jsonl`, cwd: "/opt/Users-guide/x" });
      const { code, files, out } = run(dir);
      expect(code, `${owner}: ${JSON.stringify(files.map((f) => f.refused))}`).toBe(0);
      const written = readdirSync(out).map((name) => readFileSync(path.join(out, name), "utf8")).join("\n");
      expect(written, owner).not.toContain(owner);
      expect(written, owner).toContain("C:\\\\Users\\\\user\\\\.claude");
      expect(written, owner).toContain("/opt/Users-guide/x");
    }
  });

  it("a phone number written as digits alone under a member that names a phone refuses the file, as a number, as a string a rule kept, or in JSON a kept string holds; counts and ids are kept", () => {
    const digits = ["415", "555", "0100"].join("");
    // The same OpenCode hook input as above: a provider's configuration, which a person wrote.
    const shaped = (info: Record<string, unknown>, model: Record<string, unknown> = {}): object => ({
      input: { sessionID: "ses_1", agent: "build", model: { id: "m-1", providerID: "p-1", ...model }, provider: { source: "config", info: { id: "p-1", models: { "m-1": {} }, ...info } } },
      output: { enabled: true },
    });
    const refused: [string, object | string, string][] = [
      ["a number", shaped({ phone: Number(digits) }), "contact-in-number"],
      ["a number with its country's 1, in another case style", shaped({ homePhoneNumber: Number(`1${digits}`) }), "contact-in-number"],
      ["a number in an array", shaped({ mobile_nos: [Number(digits)] }), "contact-in-number"],
      ["a number, the member's name in capitals", shaped({ FAX: Number(digits) }), "contact-in-number"],
      ["a number under a numbered member", shaped({ phone2: Number(digits) }), "contact-in-number"],
      ["a number under another language's word", shaped({ telefono: Number(digits) }), "contact-in-number"],
      ["a number under a phone's part", shaped({ phone: { number: Number(digits) } }), "contact-in-number"],
      ["a number under a phone's E.164 part", shaped({ mobile: { e164: Number(`1${digits}`) } }), "contact-in-number"],
      ["a number under a Cyrillic word", shaped({ [["теле", "фон"].join("")]: Number(digits) }), "contact-in-number"],
      ["a number under WhatsApp's wa_id", shaped({ wa_id: Number(`1${digits}`) }), "contact-in-number"],
      ["a number under a caller's number", shaped({ caller: { number: Number(digits) } }), "contact-in-number"],
      ["a number in exponent form, under cell", `{"input":{"sessionID":"ses_1","agent":"build"},"output":{"enabled":true},"cell":4.1555501e9}`, "contact-in-number"],
      ["a Python dict in a kept string", shaped({}, { id: `{'phone': '${digits}'}` }), "contact-left"],
      ["a list in JSON in a kept string", shaped({}, { id: JSON.stringify({ phones: [digits] }) }), "contact-left"],
      ["JSON in base64 in a kept string", shaped({}, { id: Buffer.from(JSON.stringify({ phone: digits })).toString("base64") }), "contact-left"],
      ["a list of objects in JSON in a kept string", shaped({}, { id: JSON.stringify({ phones: [{ number: digits }] }) }), "contact-left"],
      ["a number's word between, in a kept string", shaped({}, { id: `phone_no_${digits}` }), "contact-left"],
      ["JSON in a kept string", shaped({}, { id: JSON.stringify({ tel: Number(digits) }) }), "contact-left"],
      ["JSON in a kept string, the digits quoted", shaped({}, { id: JSON.stringify({ msisdn: `+${digits}` }) }), "contact-left"],
    ];
    for (const [what, body, code] of refused) {
      const dir = tempDir();
      write(dir, "opencode_experimental_compaction_autocontinue_1.18.33.1.json", body);
      const { code: exit, files, json, out } = run(dir);
      expect(exit, what).toBe(1);
      expect((files[0]?.refused ?? []).map((f) => f.code), what).toContain(code);
      expect(JSON.stringify(json), what).not.toContain(digits);
      expect(readdirSync(out), what).toEqual([]);
    }
    // Digits under other names are counts, sizes and times; a member whose last word is no phone's is none.
    const dir = tempDir();
    write(dir, "opencode_experimental_compaction_autocontinue_1.18.33.1.json", shaped({ count: Number(digits), telemetry: Number(digits), cellCount: 12345678, phone: 42, smsSent: 1.5e9, phoneVerifiedAt: 1733567890, phone_count: 12345678, phone_number_id: 123456789012345, hotel: { id: Number(digits) }, phones: { verified_at: 1733567890 }, microphone: 12345678, cells: 12345678, customer_number: 12345678 }, { id: "iphone_1701234567", modelID: "smartphone-20240115" }));
    const kept = run(dir);
    expect(kept.code, JSON.stringify(kept.files[0]?.refused)).toBe(0);
  });

  it("a home written from a tilde in a member name (~name, quoted, escaped) refuses the file, and the scan finds it there; in a value it is replaced", () => {
    const who = ["kris", "toffer"].join("");
    const keys = [`~${who}/notes`, `~'${who}'/x`, `~\\u006b${who.slice(1)}/x`, `cd ~${who}`];
    for (const key of keys) {
      const dir = tempDir();
      write(dir, "codex_stop_0_153_0.1.json", { session_id: "s", cwd: "/tmp/p", [key]: 1 });
      const { code, files, json, out } = run(dir);
      expect(code, key).toBe(1);
      expect((files[0]?.refused ?? []).map((f) => f.code), key).toEqual(["home-in-key"]);
      expect(JSON.stringify(json), key).not.toContain(who);
      expect(readdirSync(out), key).toEqual([]);
    }
    const dir = tempDir();
    write(dir, "codex_stop_0_153_0.1.json", { session_id: "s", cwd: `~${who}/notes` });
    const { code, out } = run(dir);
    expect(code).toBe(0);
    expect(JSON.parse(readFileSync(path.join(out, "codex_stop_0_153_0.1.json"), "utf8")).cwd).toBe("~user/notes");
    const fixture = path.join(tempDir(), "fixture.json");
    const text = JSON.stringify({ r: "~user/notes", [`~${who}/x`]: 1 });
    writeFileSync(fixture, text);
    const scan = clearJson(["scan", fixture]);
    expect(scan.code).toBe(1);
    // The owner's place: its first letter, after the tilde.
    expect((scan.json.findings as { rule: string; column: number }[]).map((f) => [f.rule, f.column])).toEqual([["clear/home-owner", text.indexOf(`~${who}/x`) + 2]]);
    expect(JSON.stringify(scan.json)).not.toContain(who);
  });

  it("a word a host writes after a tilde (~effect/Schema, Effect's type id in OpenCode's tool definitions) is no one: kept in member names and values alike", () => {
    const dir = tempDir();
    const ast = { "~effect/Schema": "~effect/Schema", annotations: { description: "x" }, _tag: "String" };
    write(dir, "codex_stop_0_153_0.1.json", { session_id: "s", cwd: "/tmp/p", tool: { ast, "~Effect/SchemaTransformation/Transformation": "~effect/SchemaTransformation/Transformation" } });
    const { code, files, out } = run(dir);
    expect(code).toBe(0);
    expect(files[0]?.refused ?? []).toEqual([]);
    const cleared = readFileSync(path.join(out, "codex_stop_0_153_0.1.json"), "utf8");
    expect(cleared).toContain('{"~effect/Schema":');
    expect(cleared).toContain('"~Effect/SchemaTransformation/Transformation":');
    // In a value too it is no one (the fields here are unknown, so their values became placeholder).
    const grammar = homeGrammar(loadRules().homes);
    for (const text of ["~effect/Schema", "~EFFECT/Schema", "~\\u0065ffect/Schema", "~'effect'/x"]) expect(grammar.realOwners(text), text).toEqual([]);
    expect(grammar.realOwners("~effects/x").map((o) => o.owner)).toEqual(["effects"]);
  });

  it("clears a home whose root is spelled in escapes, keeping the escapes as written", () => {
    const dir = tempDir();
    write(dir, "codex_session_start_0_153_0.1.json", `{"session_id":"s","cwd":"/\\u0068ome/${U}/p"}`);
    const r = run(dir);
    expect(r.code).toBe(0);
    expect(readFileSync(path.join(r.out, "codex_session_start_0_153_0.1.json"), "utf8")).toBe('{"session_id":"s","cwd":"/\\u0068ome/user/p"}');
  });

  it("keeps an environment dump refused unless clear.config.json opts into env-dump-v1, then keeps only member names", () => {
    const dir = tempDir();
    const env = Object.fromEntries(Array.from({ length: 22 }, (_, i) => [`VAR_${i}`, `/home/${U}/bin:${i}`]));
    write(dir, "opencode_shell_env_1_18_29.1.json", { cwd: `/home/${U}/p`, env });
    const refused = run(dir);
    expect(refused.code).toBe(1);
    expect(refused.files[0]?.refused[0]?.code).toBe("refused-class");
    // A refused capture is not cleared: no rule changed it, nothing in it is for review, and inventory's fields agree.
    expect(refused.files[0]).toMatchObject({ clearedBytes: null, rules: [], review: [], undocumented: [], refused: [{ code: "refused-class" }] });
    const root = tempDir();
    write(root, "clear.config.json", { policies: { "env-dump-v1": { reason: "the hook reads the variable names" } } });
    const admitted = run(dir, ["--root", root]);
    expect(admitted.code).toBe(0);
    const cleared = JSON.parse(readFileSync(path.join(admitted.out, "opencode_shell_env_1_18_29.1.json"), "utf8"));
    expect(Object.keys(cleared.env)).toEqual(Object.keys(env));
    expect(new Set(Object.values(cleared.env))).toEqual(new Set(["[env-dump-v1]"]));
    expect(admitted.files[0]?.rules.map((r) => r.rule)).toEqual(["home-path-v1", "env-dump-v1"]);
    // Member names are counted; only common variable names from the rules are shown, never the rest.
    expect(admitted.files[0]?.exemptions).toEqual([{ rule: "env-dump-v1", pointer: "/env", reason: "the hook reads the variable names", remainingCount: 22, remaining: [] }]);
  });

  it("admits a Windows environment and a list of NAME=value strings by env-dump-v1 as it admits any dump: values become the placeholder, names remain", () => {
    const dir = tempDir();
    const windows = ["ALLUSERSPROFILE", "APPDATA", "CommonProgramFiles", "CommonProgramFiles(x86)", "CommonProgramW6432", "COMPUTERNAME", "ComSpec", "DriverData", "HOMEDRIVE", "HOMEPATH", "LOCALAPPDATA", "LOGONSERVER", "NUMBER_OF_PROCESSORS", "OS", "Path", "PATHEXT", "PROCESSOR_ARCHITECTURE", "PROCESSOR_IDENTIFIER", "PROCESSOR_LEVEL", "PROCESSOR_REVISION", "ProgramData", "ProgramFiles", "ProgramFiles(x86)", "ProgramW6432", "PSModulePath", "PUBLIC", "SystemDrive", "SystemRoot", "TEMP", "USERPROFILE", "windir"];
    const env = Object.fromEntries(windows.map((n) => [n, `C:\\Users\\${U}\\${n}`]));
    write(dir, "opencode_shell_env_1_18_29.1.json", { input: { cwd: "C:/p" }, output: { env } });
    const lines = ["PATH", "HOME", "SHELL", "LANG", "TERM", "PWD", "SHLVL", "EDITOR", "PAGER", "LOGNAME", "TMPDIR", "npm_config_cache", "npm_execpath", "npm_node_execpath", "npm_lifecycle_event", "npm_package_name", "http_proxy", "https_proxy", "no_proxy", "XDG_DATA_HOME"].map((n) => `${n}=/home/${U}/${n}`);
    write(dir, "opencode_shell_env_1_18_29.2.json", { input: { cwd: "/tmp" }, output: { env: lines } });
    const refused = run(dir);
    expect(refused.code).toBe(1);
    expect(refused.files.map((f) => f.refused.map((r) => [r.code, r.pointer]))).toEqual([[["refused-class", "/output/env"]], [["refused-class", "/output/env"]]]);
    const root = tempDir();
    write(root, "clear.config.json", { policies: { "env-dump-v1": { reason: "the hook reads the variable names" } } });
    const admitted = run(dir, ["--root", root]);
    expect(admitted.code).toBe(0);
    const object = JSON.parse(readFileSync(path.join(admitted.out, "opencode_shell_env_1_18_29.1.json"), "utf8"));
    expect(Object.keys(object.output.env)).toEqual(windows);
    expect(new Set(Object.values(object.output.env))).toEqual(new Set(["[env-dump-v1]"]));
    const list = JSON.parse(readFileSync(path.join(admitted.out, "opencode_shell_env_1_18_29.2.json"), "utf8"));
    expect(list.output.env).toEqual(lines.map((l) => `${l.slice(0, l.indexOf("="))}=[env-dump-v1]`));
    expect(admitted.files.map((f) => f.rules.map((r) => r.rule))).toEqual([["home-path-v1", "env-dump-v1"], ["home-path-v1", "env-dump-v1"]]);
    const [windowsExemption, listExemption] = admitted.files.flatMap((f) => f.exemptions);
    expect(windowsExemption).toMatchObject({ rule: "env-dump-v1", pointer: "/output/env", remainingCount: 31 });
    expect(windowsExemption?.remaining).toEqual(expect.arrayContaining(["ComSpec", "Path", "ProgramFiles(x86)", "SystemRoot", "USERPROFILE", "windir"]));
    expect(listExemption).toMatchObject({ rule: "env-dump-v1", pointer: "/output/env", remainingCount: 20 });
    expect(listExemption?.remaining).toEqual(expect.arrayContaining(["PATH", "http_proxy", "npm_execpath"]));
    expect(readFileSync(path.join(admitted.out, "opencode_shell_env_1_18_29.2.json"), "utf8")).not.toContain(U);
  });

  it("keeps an open enum's value only where it reads as a name: one holding a control character or a line break, or longer than a name, is free text with a note", () => {
    const dir = tempDir();
    const ESC = "\u001b";
    const values = { colour: `claude-${ESC}[1mopus${ESC}[0m`, lines: "claude-opus\nand a second line", long: `model-${"a".repeat(240)}`, plain: "claude-opus-4-5-20251101[1m]" };
    const fileOf = (name: string): string => `claude-code_session_start_2_1_${Object.keys(values).indexOf(name)}.1.json`;
    for (const [name, model] of Object.entries(values)) write(dir, fileOf(name), { session_id: "s", hook_event_name: "SessionStart", source: "startup", model });
    const r = run(dir);
    expect(r.code).toBe(0);
    for (const [name, model] of Object.entries(values)) {
      const file = fileOf(name);
      const cleared = JSON.parse(readFileSync(path.join(r.out, file), "utf8")) as { model: string };
      const report = r.files.find((f) => f.name === file);
      if (name === "plain") {
        expect(cleared.model, name).toBe(model);
        expect(report?.undocumented, name).toEqual([]);
      } else {
        expect(cleared.model, name).toMatch(/^x+$/);
        expect(report?.undocumented, name).toEqual(["/model"]);
      }
    }
  });

  it("keeps a member no rule knows only where its value is clearly a UUID, a time, a path or a URL: a run of hex or a prefixed word, shaped like an id and like a key, is free text to review", () => {
    const dir = tempDir();
    const hex = ["9f86d081884c7d65", "9a2feaa0c55ad015"].join("");
    const prefixed = ["pc", "sk_", "4Hq8ZtW2mN7xR3vKpL9sDj6fTb1YcE5u"].join("");
    const uuid = "1b4e28ba-2fa1-11d2-883f-0016d3cca427";
    write(dir, "codex_session_start_0_153_0.1.json", { session_id: "s", cwd: "/tmp/p", source: "startup", new_token: hex, new_key: prefixed, new_id: uuid, new_at: "2026-11-09T10:00:00Z" });
    const r = run(dir);
    expect(r.code).toBe(0);
    const cleared = JSON.parse(readFileSync(path.join(r.out, "codex_session_start_0_153_0.1.json"), "utf8")) as Record<string, string>;
    expect(cleared.new_token).toBe("x".repeat(hex.length));
    expect(cleared.new_key).toBe("x".repeat(prefixed.length));
    expect([cleared.new_id, cleared.new_at]).toEqual([uuid, "2026-11-09T10:00:00Z"]);
    // Names no rule knows are printed masked.
    expect(r.files[0]?.review).toEqual(["/[masked]", "/[masked]"]);
    expect(JSON.stringify(r.json)).not.toContain(prefixed.slice(4, 16));
  });

  it("a host's fixed endpoint is kept whole but for a query value or a fragment that looks like a secret, under any name", () => {
    const dir = tempDir();
    const secret = ["R9SPofbciOx9", "gy1CJdObOIRpFqaDZeV7"].join("");
    const urls = [
      [`https://api.openai.com/v1/models?api_key=${secret}&beta=true`, `https://api.openai.com/v1/models?api_key=${"x".repeat(secret.length)}&beta=true`],
      [`https://api.anthropic.com/v1/x?sig=${secret}`, `https://api.anthropic.com/v1/x?sig=${"x".repeat(secret.length)}`],
      [`https://chatgpt.com/backend-api/conversation#access_token=${secret}`, `https://chatgpt.com/backend-api/conversation#${"x".repeat(`access_token=${secret}`.length)}`],
      ["https://api.anthropic.com/v1/messages?beta=true&region=eu-west#top", "https://api.anthropic.com/v1/messages?beta=true&region=eu-west#top"],
      // Under a name that names a credential or a signature, whatever the value looks like.
      ["https://api.anthropic.com/v1/m?api_key=QwErTyUiOpAsDfGhJkLz&beta=true", `https://api.anthropic.com/v1/m?api_key=${"x".repeat(20)}&beta=true`],
      ["https://api.openai.com/v1/f?key=8472619305847261930584726193", `https://api.openai.com/v1/f?key=${"x".repeat(28)}`],
      ["https://api.openai.com/v1/f?X-Amz-Signature=abc&password=correct.horse.battery", `https://api.openai.com/v1/f?X-Amz-Signature=xxx&password=${"x".repeat(21)}`],
    ];
    urls.forEach(([url], i) => write(dir, `claude-code_elicitation_2_1_261.${i + 1}.json`, { session_id: "s", cwd: "/srv/w", hook_event_name: "Elicitation", mcp_server_name: "m", message: "Sign in", mode: "url", url }));
    const out = path.join(tempDir("clear-out-"), "cleared");
    const r = clearJson(["substitute", dir, "--out", out]);
    expect(r.code, JSON.stringify(r.json.findings)).toBe(0);
    urls.forEach(([, want], i) => expect(JSON.parse(readFileSync(path.join(out, `claude-code_elicitation_2_1_261.${i + 1}.json`), "utf8")).url).toBe(want));
  });

  it("a segment of a URL's path that is a capability (a webhook's key, a reset token, a UUID) is replaced at its length; the path's words are kept", () => {
    const dir = tempDir();
    const hex = ["9f86d081884c7d65", "9a2feaa0c55ad015"].join("");
    const mixed = ["Zq9XkP2mW7vR", "4tY8uN3bL6sQ"].join("");
    const guid = "1b4e28ba-2fa1-11d2-883f-0016d3cca427";
    const urls = [
      `https://hooks.slack.com/workflows/T0A1B2C3D/A0A1B2C3D4E/123456789012345678/${mixed}`,
      `https://outlook.office.com/webhook/${guid}@${guid}/IncomingWebhook/${hex}/${guid}`,
      `https://chat.example.org/hooks/${["xsdtqb3prpbp", "5qt8fjyxnhkc6w"].join("")}`,
      `https://events.pagerduty.com/integration/${hex}/enqueue`,
      `https://hc-ping.com/${guid}`,
      `https://example.com/account/reset/${mixed}${mixed.slice(0, 12)}?lang=en`,
    ];
    const kept = ["https://api.example.com/v1/models/claude-3-5-sonnet-20241022", "https://github.com/acme/widgets/blob/main/docs/README.md", "https://example.com/releases/v2.14.0/notes", "https://github.com/acme/widgets/blob/main/src/components/UserProfileCard2.tsx"];
    [...urls, ...kept].forEach((url, i) => write(dir, `claude-code_elicitation_2_1_261.${i + 1}.json`, { session_id: "s", cwd: "/srv/w", hook_event_name: "Elicitation", mcp_server_name: "m", message: "Sign in", mode: "url", url }));
    const out = path.join(tempDir("clear-out-"), "cleared");
    const r = clearJson(["substitute", dir, "--out", out]);
    expect(r.code, JSON.stringify(r.json.findings)).toBe(0);
    const cleared = (i: number): string => JSON.parse(readFileSync(path.join(out, `claude-code_elicitation_2_1_261.${i + 1}.json`), "utf8")).url;
    urls.forEach((url, i) => {
      expect(cleared(i).length, url).toBe(url.length);
      for (const secret of [hex, mixed, guid]) expect(cleared(i), url).not.toContain(secret.slice(0, 12));
    });
    expect(cleared(0)).toMatch(/^https:\/\/hooks\.slack\.com\/workflows\/T0A1B2C3D\/A0A1B2C3D4E\/123456789012345678\/x+$/);
    kept.forEach((url, i) => expect(cleared(urls.length + i)).toBe(url));
  });

  it("a part of a URL's query with no = is a value, and so is a path segment's parameter: each is replaced at its length, the names that read as names and the path kept", () => {
    const dir = tempDir();
    const secret = ["R9SPofbciOx9", "gy1CJdObOIRpFqaDZeV7"].join("");
    const urls = [
      ["https://idp.example/reset?JaneRoeResetToken078051120", `https://idp.example/reset?${"x".repeat("JaneRoeResetToken078051120".length)}`],
      ["https://example.com/x?a=1&JaneRoeD", "https://example.com/x?a=x&xxxxxxxx"],
      ["https://www.google.com/search?hide+assets+from+divorce", `https://www.google.com/search?${"x".repeat("hide+assets+from+divorce".length)}`],
      ["https://shop.example/cart;jsess=s5sec/items?", "https://shop.example/cart;jsess=xxxxx/items?"],
      ["https://shop.example/doc;JaneRoe;v=2", "https://shop.example/doc;xxxxxxx;v=x"],
      ["https://example.com/x?a=1&&b=#", "https://example.com/x?a=x&&b=#"],
      // A name that reads as no name (a number in it, blanks, a mailbox) is the caller's words as a value is.
      ["https://example.com/x?SSN_078051120=1&utm_source=a&page[size]=2", "https://example.com/x?xxxxxxxxxxxxx=x&utm_source=x&page[size]=x"],
      ["https://example.com/x?fire+jane+roe=1&jane%40example.org=2", "https://example.com/x?xxxxxxxxxxxxx=x&xxxxxxxxxxxxxxxxxx=x"],
      ["https://shop.example/doc;SSN_078051120=1;v=2", "https://shop.example/doc;xxxxxxxxxxxxx=x;v=x"],
      ["https://api.anthropic.com/v1/messages?beta=true&SSN_078051120=1", "https://api.anthropic.com/v1/messages?beta=true&xxxxxxxxxxxxx=1"],
      // A fixed endpoint keeps a bare word of its query as it keeps a plain value, but not a secret's shape.
      ["https://api.anthropic.com/v1/messages?beta", "https://api.anthropic.com/v1/messages?beta"],
      [`https://api.openai.com/v1/models?${secret}`, `https://api.openai.com/v1/models?${"x".repeat(secret.length)}`],
    ];
    urls.forEach(([url], i) => write(dir, `claude-code_elicitation_2_1_261.${i + 1}.json`, { session_id: "s", cwd: "/srv/w", hook_event_name: "Elicitation", mcp_server_name: "m", message: "Sign in", mode: "url", url }));
    const out = path.join(tempDir("clear-out-"), "cleared");
    const r = clearJson(["substitute", dir, "--out", out]);
    expect(r.code, JSON.stringify(r.json.findings)).toBe(0);
    urls.forEach(([url, want], i) => expect(JSON.parse(readFileSync(path.join(out, `claude-code_elicitation_2_1_261.${i + 1}.json`), "utf8")).url, url).toBe(want));
  });

  it("url-v1 keeps every byte of what it keeps: escapes in the scheme, the host and the path stay as the capture wrote them", () => {
    const dir = tempDir();
    const hex = ["9f86d081884c7d65", "9a2feaa0c55ad015"].join("");
    // Written by hand: a slash escaped, a letter as \u, and a caf\u00e9 in the path, as some JSON writers do.
    const raw = `https:\\/\\/ex\\u0061mple.com\\/caf\\u00e9\\/share\\/${hex}?q=secret#frag`;
    writeFileSync(path.join(dir, "claude-code_elicitation_2_1_261.1.json"), `{"session_id":"s","cwd":"/srv/w","hook_event_name":"Elicitation","mcp_server_name":"m","message":"Sign in","mode":"url","url":"${raw}"}`);
    const out = path.join(tempDir("clear-out-"), "cleared");
    const r = clearJson(["substitute", dir, "--out", out]);
    expect(r.code, JSON.stringify(r.json.findings)).toBe(0);
    const text = readFileSync(path.join(out, "claude-code_elicitation_2_1_261.1.json"), "utf8");
    expect(text).toContain(`"url":"https:\\/\\/ex\\u0061mple.com\\/caf\\u00e9\\/share\\/${"x".repeat(hex.length)}?q=xxxxxx#xxxx"`);
  });

  it("a value the rules class as a URL that does not read as one (no scheme://, a blank or a control character in it) is free text, replaced whole", () => {
    const dir = tempDir();
    const word = ["Tr0ub4", "dor3xQ"].join("");
    const notUrls = [
      `https:\\\\svc:${word}@localhost:8443/cb`,
      `https:/svc:${word}@10.0.0.5:8080/v1`,
      `svc:${word}@10.0.0.5:8080/v1`,
      `open this and type ${word} as the password`,
      `https://example.com/cb ${word}`,
      `https://example.com/cb\t${word}`,
      `data:text/plain,the list: ${word}`,
      `data:text/plain;base64,${Buffer.from(word).toString("base64")}`,
      `mailto:${word}@example.com`,
    ];
    // Slashes past two after the scheme, which a browser reads as two: the user's information is found behind them.
    const moreSlashes = [`https:///svc:${word}@10.0.0.5/admin`, `https:////svc:${word}@10.0.0.5/admin`];
    [...notUrls, ...moreSlashes].forEach((url, i) => write(dir, `claude-code_elicitation_2_1_261.${i + 1}.json`, { session_id: "s", cwd: "/srv/w", hook_event_name: "Elicitation", mcp_server_name: "m", message: "Sign in", mode: "url", url }));
    const out = path.join(tempDir("clear-out-"), "cleared");
    const r = clearJson(["substitute", dir, "--out", out]);
    expect(r.code, JSON.stringify(r.json.findings)).toBe(0);
    notUrls.forEach((url, i) => expect(JSON.parse(readFileSync(path.join(out, `claude-code_elicitation_2_1_261.${i + 1}.json`), "utf8")).url, url).toBe("x".repeat([...url].length)));
    moreSlashes.forEach((url, i) => expect(JSON.parse(readFileSync(path.join(out, `claude-code_elicitation_2_1_261.${notUrls.length + i + 1}.json`), "utf8")).url, url).toBe(url.replace(`svc:${word}`, "x".repeat(`svc:${word}`.length))));
    for (const f of readdirSync(out)) expect(readFileSync(path.join(out, f), "utf8")).not.toContain(word);
  });

  it("Homebrew's own account under /home is nobody's; a home under eCryptfs or in a snapshot of /home loses its owner", () => {
    const dir = tempDir();
    const owner = ["tam", "sin"].join("");
    const paths = [`/home/.ecryptfs/${owner}/.Private`, `/home/.snapshot/daily.0/${owner}/proj`, `/home/.zfs/snapshot/auto-1/${owner}/proj`, `/home/.snapshots/42/snapshot/${owner}/proj`];
    paths.forEach((p, i) => write(dir, `claude-code_pre_tool_use_2_1_261.${i + 1}.json`, { session_id: "s", cwd: "/srv/work", hook_event_name: "PreToolUse", tool_name: "Read", tool_input: { file_path: p }, tool_use_id: `toolu_${i}` }));
    const brew = "/home/linuxbrew/.linuxbrew/Cellar/node/22.1.0/README.md";
    write(dir, "claude-code_post_tool_use_2_1_261.1.json", { session_id: "s", cwd: `/home/${owner}/w`, hook_event_name: "PostToolUse", tool_name: "Read", tool_input: { file_path: brew }, tool_response: { file: { filePath: brew } }, tool_use_id: "toolu_9" });
    const out = path.join(tempDir("clear-out-"), "cleared");
    const r = clearJson(["substitute", dir, "--out", out]);
    expect(r.code, JSON.stringify(r.json.findings)).toBe(0);
    paths.forEach((p, i) => expect(JSON.parse(readFileSync(path.join(out, `claude-code_pre_tool_use_2_1_261.${i + 1}.json`), "utf8")).tool_input.file_path).toBe(p.replace(owner, "user")));
    expect(JSON.parse(readFileSync(path.join(out, "claude-code_post_tool_use_2_1_261.1.json"), "utf8")).tool_input.file_path).toBe(brew);
  });

  it("a container's or a runner's account (node, vscode, codespace, runner) is nobody's home: its paths are kept, its name is no person's, and so is the runner's own under one", () => {
    const dir = tempDir();
    for (const account of ["node", "vscode", "codespace"]) {
      const home = `/home/${account}`;
      write(dir, `claude-code_pre_tool_use_2_1_${account.length}.1.json`, {
        session_id: "s",
        transcript_path: `${home}/.claude/projects/-home-${account}-workspace-app/s.jsonl`,
        cwd: `${home}/workspace/runner-app`,
        hook_event_name: "PreToolUse",
        tool_name: "Bash",
        tool_input: { command: `ls node_modules .vscode && ${account} --version`, description: "List" },
        tool_use_id: "toolu_1",
      });
    }
    const out = path.join(tempDir("clear-out-"), "cleared");
    const r = clearJson(["substitute", dir, "--out", out], { env: { HOME: "/home/runner" } });
    expect(r.code).toBe(0);
    for (const account of ["node", "vscode", "codespace"]) {
      const cleared = JSON.parse(readFileSync(path.join(out, `claude-code_pre_tool_use_2_1_${account.length}.1.json`), "utf8")) as { cwd: string; transcript_path: string };
      expect([cleared.cwd, cleared.transcript_path], account).toEqual([`/home/${account}/workspace/runner-app`, `/home/${account}/.claude/projects/-home-${account}-workspace-app/s.jsonl`]);
    }
    // A person's home beside them is still cleared.
    write(dir, "claude-code_session_start_2_1_9.1.json", { session_id: "s", cwd: `/home/${U}/app`, hook_event_name: "SessionStart", source: "startup" });
    const again = run(dir);
    expect(again.code).toBe(0);
    expect(readFileSync(path.join(again.out, "claude-code_session_start_2_1_9.1.json"), "utf8")).toContain('"cwd":"/home/user/app"');
  });

  it("a name in a script written without spaces (Chinese, Japanese) is found joined to the words around it: the file is refused, never written with it", () => {
    for (const [name, folder] of [["张伟", "张伟的项目"], ["たなか", "たなかのアプリ"], ["タナカ", "タナカ作業"]]) {
      const dir = tempDir();
      write(dir, "codex_session_start_0_153_0.1.json", { session_id: "s", cwd: `C:\\Users\\${name}\\${folder}`, hook_event_name: "SessionStart", source: "startup" });
      const r = run(dir);
      expect(r.code, name).toBe(1);
      expect(r.files[0]?.refused.map((f) => f.code), name).toEqual(["user-name-left"]);
      expect(existsSync(path.join(r.out, "codex_session_start_0_153_0.1.json")), name).toBe(false);
      expect(JSON.stringify(r.json), name).not.toContain(name);
    }
  });

  it("a name is found transliterated, each letter a keyboard lacks written with two (ü as ue, ø as oe, þ as th, đ as dj), and with its words joined (li.wei as liwei): the file is refused, never written with it", () => {
    for (const [name, folder] of [["Jürgen", "juergen-tools"], ["Øyvind", "OEYVIND.dev"], ["Þórður", "thordur_app"], ["Đorđević", "djordjevic"], ["Groß", "grossprojekt"], ["li.wei", "liwei"], ["Ana Paz", "AnaPaz-notes"]]) {
      const dir = tempDir();
      write(dir, "codex_session_start_0_153_0.1.json", { session_id: "s", cwd: `/home/${name}/work`, hook_event_name: "SessionStart", source: "startup", model: "gpt-5" });
      write(dir, "codex_stop_0_153_0.1.json", { session_id: "s", turn_id: "t", cwd: `/srv/${folder}`, hook_event_name: "Stop" });
      const r = run(dir);
      expect(r.code, name).toBe(1);
      expect(r.files.find((f) => f.name.startsWith("codex_stop"))?.refused.map((f) => f.code), name).toEqual(["user-name-left"]);
      expect(existsSync(path.join(r.out, "codex_stop_0_153_0.1.json")), name).toBe(false);
    }
  });

  it("homes laid out by initials (/home/m/margot, /home/m/ma/margot) teach the folder the initials stand for: a file naming it is refused, never written with it", () => {
    for (const home of [`/home/${U[0]}/${U}`, `/home/${U[0]}/${U.slice(0, 2)}/${U}`]) {
      const dir = tempDir();
      write(dir, "codex_session_start_0_153_0.1.json", { session_id: "s", cwd: `${home}/proj`, hook_event_name: "SessionStart", source: "startup" });
      const r = run(dir);
      expect(r.code, home).toBe(1);
      expect(r.files[0]?.refused.map((f) => f.code), home).toEqual(["user-name-left"]);
      expect(existsSync(path.join(r.out, "codex_session_start_0_153_0.1.json")), home).toBe(false);
    }
    // A folder of an owner of two letters or more is that owner's own.
    const dir = tempDir();
    write(dir, "codex_session_start_0_153_0.1.json", { session_id: "s", cwd: "/home/jo/jobs", hook_event_name: "SessionStart", source: "startup" });
    const r = run(dir);
    expect(r.code).toBe(0);
    expect(readFileSync(path.join(r.out, "codex_session_start_0_153_0.1.json"), "utf8")).toContain('"cwd":"/home/user/jobs"');
  });

  it("a home behind a container's or a chroot's root (toolbox's /run/host, LXC's rootfs, Docker's merged layer, a chroot) is a home: its owner is replaced", () => {
    const prefixes = ["/run/host", "/run/host/var", "/var/lib/lxc/box/rootfs", "/var/lib/machines/box", "/var/lib/docker/overlay2/3f2a9c/merged", "/srv/chroot/jammy"];
    const dir = tempDir();
    prefixes.forEach((prefix, i) => write(dir, `opencode_session_created_1_18_${i}.1.json`, { event: { id: "evt_1", type: "session.created", properties: { sessionID: "ses_1", info: { id: "ses_1", directory: `${prefix}/home/${U}/proj`, title: "t" } } } }));
    const r = run(dir);
    expect(r.code).toBe(0);
    prefixes.forEach((prefix, i) => {
      expect(readFileSync(path.join(r.out, `opencode_session_created_1_18_${i}.1.json`), "utf8"), prefix).toContain(`"directory":"${prefix}/home/user/proj"`);
    });
  });

  it("an owner whose letters a Claude project slug cannot write (田中, Дмитрий, Οδυσσέας) leaves dashes in the slug: what follows them teaches no name, and the capture is cleared", () => {
    for (const owner of ["田中", "Дмитрий", "Οδυσσέας"]) {
      const dir = tempDir();
      const dashes = "-".repeat(owner.length);
      write(dir, "claude-code_session_start_2_1_261.1.json", { session_id: "s", transcript_path: `/home/${owner}/.claude/projects/-home-${dashes}-work-my-app/s.jsonl`, cwd: `/home/${owner}/work/my-app`, hook_event_name: "SessionStart", source: "startup" });
      write(dir, "claude-code_stop_2_1_261.1.json", { session_id: "s", transcript_path: `C:\\Users\\${owner}\\.claude\\projects\\C--Users-${dashes}-work-my-app\\s.jsonl`, cwd: `C:\\Users\\${owner}\\work\\my-app`, hook_event_name: "Stop", stop_hook_active: false });
      const r = run(dir);
      expect(r.code, owner).toBe(0);
      const start = readFileSync(path.join(r.out, "claude-code_session_start_2_1_261.1.json"), "utf8");
      expect(start, owner).toContain('"cwd":"/home/user/work/my-app"');
      expect(start, owner).toContain("/home/user/.claude/projects/-home-user-my-app/");
      expect(readFileSync(path.join(r.out, "claude-code_stop_2_1_261.1.json"), "utf8"), owner).not.toContain(owner);
    }
    // Such an owner is still found where it stands, letters after the dashes or not.
    const dir = tempDir();
    write(dir, "left.json", { a: `/home/user/.claude/projects/-home---${U}-proj/s.jsonl`, b: "/home/user/.claude/projects/-home----work-proj/s.jsonl" });
    const scanned = clearJson(["scan", dir, "--root", dir]);
    expect(scanned.code).toBe(1);
    // Member names no rule knows are printed masked.
    expect((scanned.json.findings as { line: number; rule: string }[]).map((f) => `${f.line} ${f.rule}`)).toEqual(["1 clear/home-owner", "1 clear/home-owner"]);
  });

  it("applies literal rules from clear.config.json and records them by name", () => {
    const dir = tempDir();
    const host = ["build", "box", "7"].join("-");
    write(dir, "codex_session_start_0_153_0.1.json", { session_id: "s", cwd: `/srv/${host}/p`, source: "startup" });
    const root = tempDir();
    write(root, "clear.config.json", { literals: [{ name: "hostname", value: host, placeholder: "host" }] });
    const r = run(dir, ["--root", root]);
    expect(r.code).toBe(0);
    expect(readFileSync(path.join(r.out, "codex_session_start_0_153_0.1.json"), "utf8")).toContain('"cwd":"/srv/host/p"');
    expect(r.files[0]?.rules).toEqual([{ rule: "literal-v1:hostname", pointers: ["/cwd"], changed: ["/cwd"] }]);
  });

  it("refuses prose kept verbatim on any event because a rule classes it as an enum or identifier", () => {
    const dir = tempDir();
    write(dir, "claude-code_user_prompt_expansion_2_1_261.1.json", { session_id: "s", hook_event_name: "UserPromptExpansion", command_source: "please read my private notes aloud", prompt: "/probe" });
    write(dir, "claude-code_pre_tool_use_2_1_261.1.json", { session_id: "s", hook_event_name: "PreToolUse", tool_name: "a tool with a long name", tool_use_id: "t" });
    const r = run(dir);
    expect(r.code).toBe(1);
    const refused = r.files.find((f) => f.name.includes("user_prompt_expansion"))?.refused ?? [];
    expect(refused.map((x) => [x.code, x.pointer])).toEqual([["unsubstituted-free-text", "/command_source"]]);
    // Not only on prompt events: a tool name that reads as prose is refused too.
    expect(r.files.find((f) => f.name.includes("pre_tool_use"))?.refused.map((x) => [x.code, x.pointer])).toEqual([["unsubstituted-free-text", "/tool_name"]]);
  });

  it("refuses a phrase in a script written without spaces kept verbatim as an enum or identifier", () => {
    const dir = tempDir();
    write(dir, "claude-code_pre_tool_use_2_1_261.1.json", { session_id: "s", hook_event_name: "PreToolUse", tool_name: "東京都港区の住所を読む", tool_use_id: "t" });
    const r = run(dir);
    expect(r.code).toBe(1);
    expect(r.files[0]?.refused.map((x) => [x.code, x.pointer])).toEqual([["unsubstituted-free-text", "/tool_name"]]);
  });

  it("a tool's arguments are what the model wrote: a rule for a member name anywhere in a payload (path, time, snapshot, url, version, name) keeps none of them, in any harness's shape", () => {
    const dir = tempDir();
    const args = { path: "salary of Jane Roe is 240k", timestamp: "Jane Roe fired for cause", snapshot: "JaneRoe_SSN_078051120", url: "https://www.google.com/search?hide+assets+from+divorce", time: { created: "Jane Roe resigned" }, version: "Jane Roe v2", slug: "jane-roe-dossier", modelID: "JaneRoe", properties: { name: "Jane Roe", type: "dossier" } };
    write(dir, "opencode_tool_execute_before_1.18.29.1.json", { input: { tool: "mcp_hr", sessionID: "ses_a1", callID: "call_1" }, output: { args } });
    write(dir, "opencode_tool_execute_after_1.18.29.1.json", { input: { tool: "mcp_hr", sessionID: "ses_a1", callID: "call_1", args }, output: { title: "t", output: "o", metadata: {} } });
    write(dir, "opencode_tool_execute_after_2.0.20.1.json", { tool: "mcp_hr", sessionID: "ses_a1", agent: "build", messageID: "msg_1", id: "call_1", input: args, status: "completed" });
    write(dir, "opencode_message_part_updated_1.18.29.1.json", { type: "message.part.updated", properties: { part: { id: "prt_1", sessionID: "ses_a1", messageID: "msg_1", type: "tool", callID: "call_1", tool: "mcp_hr", state: { status: "running", input: args } } } });
    write(dir, "claude-code_post_tool_batch_2.1.261.1.json", { session_id: "s", cwd: "/srv/w", hook_event_name: "PostToolBatch", tool_calls: [{ tool_name: "mcp__hr__note", tool_use_id: "t", tool_input: args }] });
    write(dir, "codex_pre_tool_use_0.153.0.1.json", { session_id: "s", turn_id: "t", cwd: "/srv/w", hook_event_name: "PreToolUse", tool_name: "mcp__hr__note", tool_use_id: "t", tool_input: args });
    const r = run(dir);
    expect(r.code, JSON.stringify(r.json.findings)).toBe(0);
    const leaves = (node: unknown): string[] => (typeof node === "string" ? [node] : node && typeof node === "object" ? Object.values(node).flatMap(leaves) : []);
    for (const name of readdirSync(r.out)) {
      const text = readFileSync(path.join(r.out, name), "utf8");
      for (const value of leaves(args)) expect(text, `${name} kept ${value}`).not.toContain(value);
      expect(text, name).not.toMatch(/Jane|Roe|078051120|divorce/);
    }
    // What the host wrote beside them stays: the tool hook's session, call and tool before OpenCode 2, a part's ids.
    const before = JSON.parse(readFileSync(path.join(r.out, "opencode_tool_execute_before_1.18.29.1.json"), "utf8")) as { input: unknown };
    expect(before.input).toEqual({ tool: "mcp_hr", sessionID: "ses_a1", callID: "call_1" });
    const part = JSON.parse(readFileSync(path.join(r.out, "opencode_message_part_updated_1.18.29.1.json"), "utf8")) as { properties: { part: Record<string, unknown> } };
    expect([part.properties.part.id, part.properties.part.callID, part.properties.part.tool]).toEqual(["prt_1", "call_1", "mcp_hr"]);
  });

  it("refuses, on any event, a value a rule classes as a time that does not read as one (words, or one word that is no zone's), naming file and pointer; real times are kept", () => {
    const dir = tempDir();
    const words = ["Jane Roe fired for cause", "PIN 4242", "CVV 737 Dec 25"];
    words.forEach((created, i) => write(dir, `opencode_session_updated_1.18.29.${i + 1}.json`, { event: { id: "e", type: "session.updated", properties: { sessionID: "ses_1", info: { id: "ses_1", directory: "/srv/w", title: "t", time: { created } } } } }));
    const times = ["2026-11-29T08:00:00.123Z", "2026-11-29 08:00:00+01:00", "1764403200", "Sat, 29 Nov 2026 08:00:00 GMT", "Sat, 29 Nov 2026 08:00:00 PST"];
    times.forEach((created, i) => write(dir, `opencode_session_updated_1.18.30.${i + 1}.json`, { event: { id: "e", type: "session.updated", properties: { sessionID: "ses_1", info: { id: "ses_1", directory: "/srv/w", title: "t", time: { created } } } } }));
    const r = run(dir);
    expect(r.code).toBe(1);
    const refused = r.files.flatMap((f) => f.refused.map((x) => [x.code, x.file, x.pointer]));
    expect(refused).toEqual(words.map((_, i) => ["unsubstituted-free-text", `opencode_session_updated_1.18.29.${i + 1}.json`, "/event/properties/info/time/created"]));
    expect(r.files.filter((f) => f.refused.length > 0).every((f) => f.clearedBytes === null)).toBe(true);
    times.forEach((created, i) => expect(readFileSync(path.join(r.out, `opencode_session_updated_1.18.30.${i + 1}.json`), "utf8")).toContain(JSON.stringify(created)));
  });

  it("substitutes free text in a field no rule knows, and asks for review", () => {
    const dir = tempDir();
    write(dir, "codex_stop_0_153_0.1.json", { session_id: "s", turn_id: "t", new_field: "a sentence the host added" });
    const r = run(dir);
    expect(r.code).toBe(0);
    expect(readFileSync(path.join(r.out, "codex_stop_0_153_0.1.json"), "utf8")).toContain(`"new_field":"${"x".repeat(25)}"`);
    expect(r.files[0]?.review).toEqual(["/[masked]"]);
    expect(r.json.findings).toContainEqual(expect.objectContaining({ code: "review-free-text", severity: "note", pointer: "/[masked]" }));
  });

  it("refuses --out inside the capture folder or a non-empty one, and needs --out", () => {
    const dir = tempDir();
    write(dir, "codex_session_start_0_153_0.1.json", { session_id: "s" });
    const before = folderDigest(dir);
    const inside = clear(["substitute", dir, "--out", path.join(dir, "out")]);
    expect(inside.code).toBe(2);
    expect(inside.stderr).toContain("inside the capture folder");
    const same = clear(["substitute", dir, "--out", dir]);
    expect(same.code).toBe(2);
    const full = tempDir();
    write(full, "x.txt", "x");
    const notEmpty = clear(["substitute", dir, "--out", full]);
    expect(notEmpty.code).toBe(2);
    expect(notEmpty.stderr).toContain("not empty");
    expect(clear(["substitute", dir]).code).toBe(2);
    expect(folderDigest(dir)).toBe(before);
    expect(existsSync(path.join(dir, "out"))).toBe(false);
  });
});

describe.skipIf(!PASTURE_PRESENT)(`clear substitute on pasture's real payloads${PASTURE_PRESENT ? "" : ` (skipped: ${PASTURE_SKIP_REASON})`}`, () => {
  for (const harness of ["claude", "codex", "opencode"] as const) {
    it(`${harness}: already cleared fixtures pass through byte for byte outside string values; legacy ones lose the user name`, () => {
      const dir = tempDir();
      const rebuilt = rebuildSitting(harness, dir);
      const root = tempDir();
      // Pasture's OpenCode record admitted one environment dump by explicit policy.
      write(root, "clear.config.json", { policies: { "env-dump-v1": { reason: "pasture's accepted exemption" } } });
      const { code, out, files } = run(dir, ["--root", root]);
      expect(code).toBe(0);
      const listed = clearanceRules(harness);
      const changedStrings: string[] = [];
      let legacyWithUser = 0;
      for (const r of rebuilt) {
        const raw = readFileSync(path.join(dir, r.capture), "utf8");
        const cleared = readFileSync(path.join(out, r.capture), "utf8");
        expect(stringsOutside(cleared), r.fixture).toBe(stringsOutside(raw));
        const legacy = r.provenance.redaction === "none";
        const report = files.find((f) => f.name === r.capture) as FileRow;
        if (legacy) {
          if (/\/home\/(?!user\/)[a-z]/.test(raw)) legacyWithUser++;
          expect(cleared, r.fixture).not.toMatch(/\/home\/(?!user\/)[a-z]/);
          expect(cleared).not.toMatch(/-home-(?!user-)[a-z]+-/);
          continue;
        }
        // Home paths are already the placeholder: untouched. A string changes only into x of its raw length.
        const rawDoc = scanJson(raw, { maxDepth: 256 });
        const outDoc = scanJson(cleared, { maxDepth: 256 });
        rawDoc.spans.forEach((s, i) => {
          if (s.kind !== "string") return;
          const o = outDoc.spans[i] as (typeof outDoc.spans)[number];
          const before = raw.slice(s.start, s.end);
          const after = cleared.slice(o.start, o.end);
          if (before === after) return;
          expect(after, `${r.fixture} ${s.pointer}`).toBe(`"${"x".repeat([...before].length - 2)}"`);
          changedStrings.push(`${r.fixture} ${s.pointer}`);
        });
        expect(report.rules.find((x) => x.rule === "home-path-v1")?.changed ?? []).toEqual([]);
        const expected = listed.get(r.fixture);
        if (!expected) continue;
        for (const rule of expected.rules) {
          const reported = report.rules.some((x) => x.rule === rule);
          // A home path pasture found inside free text is placeholder now; nothing is left to find.
          if (!reported && rule === "home-path-v1") expect(cleared, `${r.fixture} home-path-v1`).not.toMatch(/home\/user/);
          else expect(reported, `${r.fixture} ${rule}`).toBe(true);
        }
        for (const dotted of expected.freeText) {
          expect(report.rules.find((x) => x.rule === "free-text-v1")?.pointers, `${r.fixture} ${dotted}`).toContain(dottedToPointer(dotted));
        }
      }
      console.log(`${harness}: strings that became placeholder here (free text pasture's classifier let through):\n  ${changedStrings.join("\n  ") || "(none)"}`);
      // Each harness has legacy fixtures committed uncleared, with a real user's home in them.
      expect(legacyWithUser).toBeGreaterThan(0);
    });
  }
});

describe("a value a rule keeps as it stands is of its class", () => {
  const expectNoneOf = (out: string): void => {
    for (const name of readdirSync(out)) expect(readFileSync(path.join(out, name), "utf8"), name).not.toMatch(/Jane|Roe|fired|AliceSmith/i);
  };

  it("what a tool returned is free text under a rule for a member name found anywhere (reason, version, slug, path, an id), in OpenCode's output, result and part state", () => {
    const dir = tempDir();
    const said = { reason: "Jane Roe was fired for cause", version: "Jane Roe", slug: "jane-roe-fired", path: "Jane Roe was fired", sessionID: "JaneRoeFired", permission: "fired", time: { created: "Jane Roe 2026" } };
    write(dir, "opencode_tool_execute_after_1.18.29.1.json", { input: { tool: "bash", sessionID: "ses_a1", callID: "call_1" }, output: { title: "t", output: "o", metadata: said } });
    write(dir, "opencode_tool_execute_after_2.0.20.1.json", { tool: "write", sessionID: "ses_a1", agent: "build", messageID: "msg_1", id: "call_1", input: {}, status: "completed", result: { output: { operation: "write" }, ...said } });
    write(dir, "opencode_tool_execute_after_2.0.21.1.json", { tool: "edit", sessionID: "ses_a1", agent: "build", messageID: "msg_1", id: "call_1", input: {}, status: "error", error: { _tag: "Tool.Error", message: "m", error: said } });
    write(dir, "opencode_message_part_updated_1.18.29.1.json", { type: "message.part.updated", properties: { part: { id: "prt_1", sessionID: "ses_a1", messageID: "msg_1", type: "tool", callID: "call_1", tool: "bash", state: { status: "completed", input: {}, output: "o", metadata: said } } } });
    const r = run(dir);
    expect(r.code, JSON.stringify(r.json.findings)).toBe(0);
    expectNoneOf(r.out);
    // What the host wrote beside the output, and what a rule spells under it, stays.
    const result = readFileSync(path.join(r.out, "opencode_tool_execute_after_2.0.20.1.json"), "utf8");
    expect(result).toContain('"sessionID":"ses_a1"');
    expect(result).toContain('"operation":"write"');
    expect(readFileSync(path.join(r.out, "opencode_tool_execute_after_2.0.21.1.json"), "utf8")).toContain('"_tag":"Tool.Error"');
  });

  it("so is what a tool, a provider or a model wrote in OpenCode's other subtrees: a request's metadata, an error's data, a provider's metadata, questions and answers", () => {
    const dir = tempDir();
    const said = { reason: "fired", version: "1.2", sessionID: "JaneRoeFired", slug: "jane-roe", path: "Jane.Roe", status: "fired" };
    write(dir, "opencode_permission_asked_1.18.29.1.json", { type: "permission.asked", properties: { id: "per_1", sessionID: "ses_a1", permission: "edit", metadata: said } });
    write(dir, "opencode_session_error_1.18.29.1.json", { type: "session.error", properties: { sessionID: "ses_a1", error: { name: "UnknownError", data: { message: "m", ...said } } } });
    write(dir, "opencode_question_asked_1.18.29.1.json", { type: "question.asked", properties: { id: "que_1", sessionID: "ses_a1", questions: [{ question: "q", header: "h", options: [{ label: "l", description: "d", ...said }] }] } });
    write(dir, "opencode_message_updated_1.18.29.1.json", { type: "message.updated", properties: { info: { id: "msg_1", sessionID: "ses_a1", role: "assistant", providerMetadata: { p: said } } } });
    const r = run(dir);
    expect(r.code, JSON.stringify(r.json.findings)).toBe(0);
    expectNoneOf(r.out);
    // The host's own members beside them stay.
    expect(readFileSync(path.join(r.out, "opencode_permission_asked_1.18.29.1.json"), "utf8")).toContain('"permission":"edit"');
    expect(readFileSync(path.join(r.out, "opencode_session_error_1.18.29.1.json"), "utf8")).toContain('"name":"UnknownError"');
  });

  it("refuses, naming file and pointer, an enum's or an id's value with a blank in it and a path that is words with nothing of a path; a file's name with a blank is kept", () => {
    const dir = tempDir();
    write(dir, "claude-code_pre_tool_use_2.1.261.1.json", { session_id: "s", hook_event_name: "PreToolUse", tool_name: "Jane Roe", tool_input: { command: "ls" }, tool_use_id: "t" });
    write(dir, "claude-code_post_tool_use_2.1.261.1.json", { session_id: "s", hook_event_name: "PostToolUse", tool_name: "Write", tool_input: { command: "ls" }, tool_response: { filePath: "Jane Roe was fired for cause" }, tool_use_id: "t" });
    write(dir, "codex_pre_tool_use_0.153.0.1.json", { session_id: "s", turn_id: "Jane Roe", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "t" });
    const r = run(dir);
    expect(r.code).toBe(1);
    const refusedIn = (name: string): (string | undefined)[][] => (r.files.find((f) => f.name === name)?.refused ?? []).map((x) => [x.code, x.pointer]);
    expect(refusedIn("claude-code_pre_tool_use_2.1.261.1.json")).toEqual([["unsubstituted-free-text", "/tool_name"]]);
    expect(refusedIn("claude-code_post_tool_use_2.1.261.1.json")).toEqual([["unsubstituted-free-text", "/tool_response/filePath"]]);
    expect(refusedIn("codex_pre_tool_use_0.153.0.1.json")).toEqual([["unsubstituted-free-text", "/turn_id"]]);
    expect(JSON.stringify(r.json)).not.toMatch(/Jane|Roe/);
    const kept = tempDir();
    write(kept, "claude-code_post_tool_use_2.1.261.1.json", { session_id: "s", hook_event_name: "PostToolUse", tool_name: "Write", tool_input: { command: "ls" }, tool_response: { filePath: "/srv/w/My Notes/a b.md" }, tool_use_id: "t" });
    write(kept, "claude-code_post_tool_use_2.1.261.2.json", { session_id: "s", hook_event_name: "PostToolUse", tool_name: "Write", tool_input: { command: "ls" }, tool_response: { filePath: "meeting notes.md" }, tool_use_id: "t2" });
    expect(run(kept).code).toBe(0);
  });

  it("a name a person gives (a slash command's, an MCP server's) is free text", () => {
    const dir = tempDir();
    write(dir, "claude-code_user_prompt_expansion_2.1.261.1.json", { session_id: "s", hook_event_name: "UserPromptExpansion", expansion_type: "slash_command", command_name: "fire-jane-roe", mcp_server_name: "roe-hr", prompt: "/fire-jane-roe" });
    write(dir, "claude-code_pre_tool_use_2.1.261.1.json", { session_id: "s", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" }, mcp_server: { name: "jane-roe-files", source: "project" }, tool_use_id: "t" });
    write(dir, "opencode_mcp_tools_changed_1.18.29.1.json", { type: "mcp.tools.changed", properties: { server: "jane-roe-files" } });
    const r = run(dir);
    expect(r.code, JSON.stringify(r.json.findings)).toBe(0);
    expectNoneOf(r.out);
  });

  it("an id or a version not of the shape its rule gives is free text, with a note: OpenCode 2's tool arguments named like a host's ids, an Agent tool's id that is words", () => {
    const dir = tempDir();
    write(dir, "opencode_tool_execute_before_2.0.20.1.json", { tool: "task", sessionID: "ses_a1", agent: "build", messageID: "msg_1", id: "call_1", input: { sessionID: "AliceSmithDiary", messageID: "JaneRoe", tool: "Jane Roe" } });
    write(dir, "opencode_tool_execute_before_1.18.29.1.json", { input: { tool: "bash", sessionID: "ses_a1", callID: "call_1" }, output: { args: { command: "ls" } } });
    write(dir, "opencode_session_created_1.18.29.1.json", { type: "session.created", properties: { sessionID: "ses_a1", info: { id: "ses_a1", version: "JaneRoe" } } });
    write(dir, "claude-code_post_tool_use_2.1.261.1.json", { session_id: "s", hook_event_name: "PostToolUse", tool_name: "Agent", tool_input: { prompt: "p" }, tool_response: { agentId: "JaneRoeFired", status: "completed" }, tool_use_id: "t" });
    const r = run(dir);
    expect(r.code, JSON.stringify(r.json.findings)).toBe(0);
    expectNoneOf(r.out);
    const notes = (r.json.findings as Finding[]).filter((f) => f.code === "undocumented-value").map((f) => [f.file, f.pointer]);
    expect(notes).toEqual(
      expect.arrayContaining([
        ["opencode_tool_execute_before_2.0.20.1.json", "/input/sessionID"],
        ["opencode_session_created_1.18.29.1.json", "/properties/info/version"],
        ["claude-code_post_tool_use_2.1.261.1.json", "/tool_response/agentId"],
      ]),
    );
    // The host's own ids and versions keep their shape, and are kept.
    expect(readFileSync(path.join(r.out, "opencode_tool_execute_before_1.18.29.1.json"), "utf8")).toContain('"sessionID":"ses_a1"');
  });
});

describe("free-text-v1's length", () => {
  it("is the number of characters between the quotes as written: a raw é is one, an escaped one six", () => {
    const dir = tempDir();
    write(dir, "codex_user_prompt_submit_0_153_0.1.json", '{"session_id":"s","turn_id":"t","prompt":"café 😀","last_assistant_message":"caf\\u00e9"}');
    const { out } = run(dir);
    const cleared = readFileSync(path.join(out, "codex_user_prompt_submit_0_153_0.1.json"), "utf8");
    expect(cleared).toBe('{"session_id":"s","turn_id":"t","prompt":"xxxxxx","last_assistant_message":"xxxxxxxxx"}');
  });
  it("is the length the capture holds, whatever an earlier rule did: a home the free text names, replaced first, does not shorten it", () => {
    const dir = tempDir();
    const owner = `${U}ita`;
    const prompt = `look in /home/${owner}/notes and C:\\\\Users\\\\${owner}\\\\x`;
    write(dir, "codex_user_prompt_submit_0_153_0.1.json", `{"session_id":"s","turn_id":"t","cwd":"/home/${owner}/w","prompt":"${prompt}"}`);
    const { out, files } = run(dir);
    const cleared = readFileSync(path.join(out, "codex_user_prompt_submit_0_153_0.1.json"), "utf8");
    expect(cleared).toBe(`{"session_id":"s","turn_id":"t","cwd":"/home/user/w","prompt":"${"x".repeat(prompt.length)}"}`);
    expect(files[0]?.rules.map((r) => r.rule)).toEqual(["home-path-v1", "free-text-v1"]);
    expect(run(out).files[0]?.clearedBytes).toBe(Buffer.byteLength(cleared));
  });
});

describe("a learned name joined to other characters", () => {
  // Codex calls whose ids a substitution keeps byte for byte; the sitting's cwd teaches the owner.
  function sitting(owner: string, ids: string[]): string {
    const dir = tempDir();
    write(dir, "codex_session_start_0_171_0.1.json", { session_id: "s", hook_event_name: "SessionStart", source: "startup", cwd: `/home/${owner}/work` });
    ids.forEach((id, i) => {
      const call = { session_id: "s", turn_id: "t", tool_name: "shell", tool_input: { command: "ls" }, tool_use_id: id };
      write(dir, `codex_pre_tool_use_0_171_0.${i + 1}.json`, { ...call, hook_event_name: "PreToolUse" });
      write(dir, `codex_post_tool_use_0_171_0.${i + 1}.json`, { ...call, hook_event_name: "PostToolUse", tool_response: "ok" });
    });
    return dir;
  }
  const refusedIds = (json: Record<string, unknown>): string[] =>
    (json.findings as { code: string; file: string; pointer: string }[]).filter((f) => f.code === "user-name-left" && f.file.startsWith("codex_pre")).map((f) => `${f.file} ${f.pointer}`);

  it("refuses a name of five letters or more inside a longer word, in any case, naming file and pointer; nothing printed holds it", () => {
    const joined = [`call_${U}2`, `call_x${U}`, `call_${U.toUpperCase()}dev`, `call_${U}smith`];
    const dir = sitting(U, joined);
    const r = run(dir);
    expect(r.code).toBe(1);
    expect(refusedIds(r.json).sort()).toEqual(joined.map((_, i) => `codex_pre_tool_use_0_171_0.${i + 1}.json /tool_use_id`));
    const printed = [JSON.stringify(r.json), clear(["substitute", dir, "--out", path.join(tempDir(), "o")]).stdout];
    for (const args of [["pair", dir], ["pair", dir, "--json"], ["select", dir, "--json"]]) printed.push(clear(args).stdout);
    expect(printed.join("\n")).not.toMatch(new RegExp(U, "i"));
    // The ids pair, and are printed with the name starred.
    expect((clearJson(["pair", dir]).json.pairs as { id: string }[]).map((p) => p.id)).toContain(`call_x${"*".repeat(U.length)}`);
  });

  it("clear run refuses it too, and neither the record nor the findings hold it", () => {
    const dir = sitting(U, [`call_${U}2`]);
    const root = tempDir();
    execFileSync("git", ["init", "-q"], { cwd: root });
    const r = clearJson(["run", dir, "--root", root]);
    expect(r.code).toBe(1);
    expect(r.json.findings).toContainEqual(expect.objectContaining({ pointer: "/tool_use_id", message: expect.stringContaining("user-name-left") }));
    expect(JSON.stringify(r.json) + readFileSync(path.join(root, "CLEARANCE.md"), "utf8")).not.toMatch(new RegExp(U, "i"));
  });

  it("a name of three or four letters is refused joined to digits, never inside a word; a shorter one, or one spelt in hex letters, only alone", () => {
    const ana = ["a", "na"].join("");
    const short = run(sitting(ana, [`call_${ana}2`, `call_b${ana}na`, `call_${ana}s`]));
    expect(refusedIds(short.json)).toEqual(["codex_pre_tool_use_0_171_0.1.json /tool_use_id"]);
    const al = run(sitting("al", ["call_also", "call_al2", "call_al"]));
    expect(refusedIds(al.json)).toEqual(["codex_pre_tool_use_0_171_0.3.json /tool_use_id"]);
    // Ids of hex digits spell such names by chance.
    const ada = run(sitting("ada", ["0f4e2a71-4ada-4d5e-a6f7-0b1c2d3e4f50", "call_ada"]));
    expect(refusedIds(ada.json)).toEqual(["codex_pre_tool_use_0_171_0.2.json /tool_use_id"]);
  });
});

describe("home-path-v1 reads a value until it settles", () => {
  const leaf = { pointer: "/cwd", class: "path" as const, known: true, inDump: false };

  it("replaces an owner the placeholder and what follows it spell again, so a second pass changes nothing", () => {
    const rule = homePathRule(homeGrammar(loadRules().homes));
    // After the quoted owner, an escaped U+2028 and a word: the placeholder joined them on a second pass.
    const raw = String.raw`~Z- ~\"a\"-中\\` + "\u2028~中\u2028" + String.raw`\"0_`;
    const once = rule.apply(raw, leaf);
    expect(once.matched).toBe(true);
    expect(once.raw).not.toBe(raw);
    expect(rule.apply(once.raw, leaf).raw).toBe(once.raw);
  });

  it("writes over whole, at the same length, a value that never settles", () => {
    // A grammar that reads an owner in whatever it is given: no number of rounds settles the value.
    const restless: HomeGrammar = {
      placeholder: "user",
      owners: (text) => [{ start: 0, end: Math.min(1, text.length), owner: text.slice(0, 1), real: true, unlearned: true, sure: true }],
      realOwners: (text) => restless.owners(text),
      mayHold: () => true,
      isOwner: () => true,
    };
    const out = homePathRule(restless).apply("~ab/c", leaf);
    expect(out).toEqual({ raw: "xxxxx", matched: true });
  });
});
