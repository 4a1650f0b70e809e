import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BUNDLED_RULES_DIR, loadRawCaptureRules } from "../src/io/load-rules.js";
import { clear, clearJson, sha256, tempDir } from "./helpers.js";
import { gitRepo, writeSitting, type Edit } from "./fixture-repo.js";

// A person steers a run: --choose and --recipe, recorded as overrides; and a repository's rules/
// laid over the bundled rules (a recipe, a field rule, a URL endpoint), never weakening them.

const VERSION = "2.1.261";
const FIXTURES = `fixtures/claude-code/${VERSION}`;

/** A git repository with the example sitting (through `edit`) in its captures-inbox/. */
function repoWithSitting(edit?: Edit): string {
  const root = gitRepo();
  writeSitting(path.join(root, "captures-inbox"), VERSION, edit);
  return root;
}

/** Writes a rules file into the repository's rules/ folder. */
function overlay(root: string, file: string, value: unknown): Buffer {
  const bytes = Buffer.from(`${JSON.stringify(value, null, 2)}\n`);
  mkdirSync(path.dirname(path.join(root, "rules", file)), { recursive: true });
  writeFileSync(path.join(root, "rules", file), bytes);
  return bytes;
}

const bundled = <T>(file: string): T => JSON.parse(readFileSync(path.join(BUNDLED_RULES_DIR, file), "utf8")) as T;
const read = (root: string, file: string): string => readFileSync(path.join(root, file), "utf8");
const sidecar = (root: string, event: string): Record<string, unknown> => JSON.parse(read(root, `${FIXTURES}/${event}.provenance.json`));

/** One field rule for Claude Code, with the example it must class. */
const fieldRule = (pointer: string, cls: string, event: string, value: string): unknown => ({
  harness: "claude-code",
  rules: [{ pointer, class: cls, examples: [{ event, pointer, value }] }],
});

describe("clear run --choose", () => {
  it("takes a larger capture over the smallest, and the run and the batch record it as an override", () => {
    const root = repoWithSitting();
    const larger = `claude-code_pre_tool_use_${VERSION}.2.json`;
    const file = path.join(root, "captures-inbox", larger);
    const payload = JSON.parse(readFileSync(file, "utf8"));
    payload.tool_input.description = "Read a file that is not there, to see how a failing read looks";
    writeFileSync(file, JSON.stringify(payload));
    expect(clearJson(["run"], { cwd: root }).code).toBe(0);
    expect(sidecar(root, "pre_tool_use").captureName).toBe(`claude-code_pre_tool_use_${VERSION}.1.json`);
    const r = clearJson(["run", "--choose", path.join("captures-inbox", larger)], { cwd: root });
    expect(r.code, JSON.stringify(r.json)).toBe(0);
    expect(r.json.overrides).toEqual({ choose: [larger], recipes: [] });
    expect(sidecar(root, "pre_tool_use")).toMatchObject({ captureName: larger, raw: { bytes: readFileSync(file).length } });
    const batch = read(root, "CLEARANCE.md");
    expect(batch).toContain(larger);
    expect(batch).toContain(`- Chosen by hand (--choose): \`${larger}\``);
    expect(batch).toContain("`fixtures/claude-code/2.1.261/pre_tool_use.json` (`pre_tool_use`");
    expect(batch).toMatch(/\(`pre_tool_use`, \d+ bytes, chosen by hand\) and its provenance sidecar/);
    const human = clear(["run", "--choose", larger], { cwd: root });
    expect(human.stdout).toContain(`--choose ${larger}`);
    // One capture named twice, by its name and by its path, is one override.
    const twice = clearJson(["run", "--choose", larger, "--choose", path.join("captures-inbox", larger)], { cwd: root });
    expect(twice.json.overrides).toEqual({ choose: [larger], recipes: [] });
    expect(read(root, "CLEARANCE.md").split("- Chosen by hand (--choose)").length).toBe(2);
  });

  it("a --choose of a capture the tool refused is exit 2 naming it and why, and nothing is written", () => {
    const root = repoWithSitting();
    const refused = `claude-code_pre_tool_use_${VERSION}.2.json`;
    const file = path.join(root, "captures-inbox", refused);
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, "utf8")), tool_name: "a tool with a long name that reads as prose" }));
    const r = clear(["run", "--choose", refused], { cwd: root });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--choose: refused");
    expect(r.stderr).toContain(refused);
    expect(() => read(root, "CLEARANCE.md")).toThrow();
    expect(() => read(root, `${FIXTURES}/pre_tool_use.json`)).toThrow();
  });

  it("two --choose for one event are exit 2 naming both, and nothing is written", () => {
    const root = repoWithSitting();
    const [one, two] = [1, 2].map((n) => `claude-code_pre_tool_use_${VERSION}.${n}.json`) as [string, string];
    const r = clear(["run", "--choose", one, "--choose", two], { cwd: root });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--choose: one capture per event, but claude-code ${VERSION} pre_tool_use: ${one} and ${two}`);
    expect(() => read(root, "CLEARANCE.md")).toThrow();
    // The same capture named twice is one choice.
    expect(clear(["run", "--choose", one, "--choose", one], { cwd: root }).code).toBe(0);
  });

  it("a --choose that names no valid capture of the sitting, or an unknown --recipe, is exit 2 naming it, and nothing is written", () => {
    const root = repoWithSitting();
    const outside = path.join(tempDir(), `claude-code_pre_tool_use_${VERSION}.1.json`);
    for (const choice of [`claude-code_pre_tool_use_${VERSION}.9.json`, outside]) {
      const r = clear(["run", "--choose", choice], { cwd: root });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("--choose");
      expect(r.stderr).toContain(path.basename(choice));
    }
    const r = clearJson(["run", "--recipe", "no-such-recipe"], { cwd: root });
    expect(r.code).toBe(2);
    expect(String(r.json.error)).toContain('no recipe named "no-such-recipe"');
    expect(() => read(root, "CLEARANCE.md")).toThrow();
  });
});

describe("a repository's rules/ laid over the bundled rules", () => {
  it("a recipe of its own serves a sitting that lacks an event of the bundled default: --recipe leaves nothing missing", () => {
    const root = repoWithSitting((event, p) => (event === "post_compact" ? null : p));
    const recipe = { ...bundled<{ events: string[] }>("recipes/claude-code-measured.json"), name: "claude-code-no-compact", default: false };
    recipe.events = recipe.events.filter((e) => e !== "post_compact");
    const bytes = overlay(root, "recipes/claude-code-no-compact.json", recipe);
    const inbox = path.join(root, "captures-inbox");
    const missingOf = (args: string[]): unknown => clearJson(["inventory", inbox, ...args], { cwd: root }).json.missing;
    expect(missingOf([])).toEqual([expect.objectContaining({ event: "post_compact" })]);
    expect(missingOf(["--recipe", "claude-code-no-compact"])).toEqual([]);

    const human = clear(["run"], { cwd: root });
    expect(human.code).toBe(0);
    expect(human.stdout).toContain("; 1 event the recipe expects is not in it (the batch names them);");
    expect(read(root, "CLEARANCE.md")).toContain("post_compact");
    const r = clearJson(["run", "--recipe", "claude-code-no-compact"], { cwd: root });
    expect(r.code).toBe(0);
    expect(r.json.overrides).toEqual({ choose: [], recipes: ["claude-code-no-compact"] });
    expect(r.json.overlay).toEqual([{ file: "recipes/claude-code-no-compact.json", sha256: sha256(bytes) }]);
    const record = read(root, "CLEARANCE.md");
    expect(record).not.toContain("post_compact");
    expect(record).toContain("- Recipe named (--recipe): `claude-code-no-compact`");
    expect(record).toContain(`- Rules overlay: \`recipes/claude-code-no-compact.json\` sha256 \`${sha256(bytes)}\``);
  });

  it("a field rule of its own classes a new member as free text: its value is substituted in the fixture", () => {
    const note = "0f4e2a71-8c3b-4d5e-a6f7-0b1c2d3e4f50";
    const root = repoWithSitting((event, p) => (event === "session_start" ? { ...p, client_note: note } : p));
    // With the bundled rules alone the member is unknown and its value is clearly a UUID: kept.
    expect(clearJson(["run"], { cwd: root }).code).toBe(0);
    expect(read(root, `${FIXTURES}/session_start.json`)).toContain(`"client_note":"${note}"`);
    overlay(root, "fields/claude-code.json", fieldRule("/client_note", "free-text", "session_start", "a note"));
    const r = clearJson(["run"], { cwd: root });
    expect(r.code).toBe(0);
    const fixture = JSON.parse(read(root, `${FIXTURES}/session_start.json`));
    expect(fixture.client_note).not.toBe(note);
    expect(fixture.client_note).toHaveLength(note.length);
    expect(sidecar(root, "session_start").rules).toContainEqual(expect.objectContaining({ pointers: expect.arrayContaining(["/client_note"]) }));
    const files = clearJson(["inventory", path.join(root, "captures-inbox"), "--fields"], { cwd: root }).json.files as { name: string; fields: { pointer: string; class: string }[] }[];
    expect(files.find((f) => f.name.includes("session_start"))?.fields).toContainEqual(expect.objectContaining({ pointer: "/client_note", class: "free-text" }));
  });

  it("a URL endpoint of its own keeps a URL of that host whole, where any other URL's query is substituted", () => {
    const url = "https://hooks.example.test/v1/in?region=eu-west";
    const edit: Edit = (event, p) => (event === "session_start" ? { ...p, callback_url: url } : p);
    const runWith = (endpoints: string[]): string => {
      const root = repoWithSitting(edit);
      overlay(root, "fields/claude-code.json", fieldRule("/callback_url", "url", "session_start", "https://example.test/x"));
      if (endpoints.length > 0) overlay(root, "urls.json", { fixedEndpoints: endpoints });
      expect(clearJson(["run"], { cwd: root }).code).toBe(0);
      return JSON.parse(read(root, `${FIXTURES}/session_start.json`)).callback_url;
    };
    const without = runWith([]);
    expect(without).not.toBe(url);
    expect(without).toMatch(/^https:\/\/hooks\.example\.test\/v1\/in\?region=/);
    expect(runWith(["https://hooks.example.test/"])).toBe(url);
  });

  it("a field rule ending in a wildcard may only class free text: classed otherwise it is exit 2 naming the file and the pointer", () => {
    const root = repoWithSitting();
    for (const pointer of ["/**", "/tool_input/*", "/**/0", "/tool_input/*/1"]) {
      overlay(root, "fields/claude-code.json", fieldRule(pointer, "identifier", "session_start", "ab12"));
      const r = clear(["run"], { cwd: root });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("fields/claude-code.json");
      expect(r.stderr).toContain("/rules/0/pointer");
      expect(r.stderr).toContain("wildcard");
    }
    expect(() => read(root, "CLEARANCE.md")).toThrow();
  });

  it("prose kept under a field rule of its own, in any class but free text, refuses the capture at its pointer", () => {
    const cases = [
      ["please call me back at five tomorrow about the move", "identifier", "ab12"],
      ["please call me back at five tomorrow about the move", "timestamp", "2026-01-01T00:00:00Z"],
      // A phrase in a script written without spaces, and a name of two words.
      ["山田太郎様の新しい住所は東京都港区です", "identifier", "ab12"],
      ["Alice Walker", "enum", "ab"],
      ["Alice Walker", "path", "src/a.ts"],
      ["Alice Walker", "timestamp", "2026-01-01T00:00:00Z"],
      ["alice.walker@privatecorp.example", "identifier", "ab12"],
      ["alice@localhost", "identifier", "ab12"],
      ["alice\uFF20example.com", "identifier", "ab12"],
      ["Alice\u200bWalker", "path", "src/a.ts"],
      ["+1-555-0100", "identifier", "ab12"],
    ] as const;
    for (const [prose, cls, example] of cases) {
      const root = repoWithSitting((event, p) => (event === "session_start" ? { ...p, client_note: prose } : p));
      overlay(root, "fields/claude-code.json", fieldRule("/client_note", cls, "session_start", example));
      const r = clearJson(["run"], { cwd: root });
      expect(r.code).toBe(1);
      const findings = r.json.findings as { code: string; file?: string; pointer?: string }[];
      expect(findings).toContainEqual(expect.objectContaining({ code: "no-clearable-capture", file: `claude-code_session_start_${VERSION}.1.json`, pointer: "/client_note" }));
      expect(findings.find((f) => f.code === "no-clearable-capture")).toMatchObject({ message: expect.stringContaining("unsubstituted-free-text") });
      expect(() => read(root, `${FIXTURES}/session_start.json`)).toThrow();
      expect(read(root, "CLEARANCE.md")).not.toContain(prose);
      expect(clear(["run"], { cwd: root }).stdout).toContain("BLOCKED, no fixture written (1 finding: no-clearable-capture ×1; see CLEARANCE.md)");
    }
  });

  it("the batch lists the overlay's field rules and fixed endpoints, and counts the values they kept", () => {
    const url = "https://hooks.example.test/v1/in?region=eu-west";
    const root = repoWithSitting((event, p) => (event === "session_start" ? { ...p, callback_url: url, client_ref: "ab12cd34" } : p));
    overlay(root, "fields/claude-code.json", {
      harness: "claude-code",
      rules: [
        { pointer: "/callback_url", class: "url", examples: [{ event: "session_start", pointer: "/callback_url", value: "https://example.test/x" }] },
        { pointer: "/client_ref", class: "identifier", events: ["session_start"], examples: [{ event: "session_start", pointer: "/client_ref", value: "ab12" }] },
      ],
    });
    overlay(root, "urls.json", { fixedEndpoints: ["https://hooks.example.test/"] });
    expect(clearJson(["run"], { cwd: root }).code).toBe(0);
    const record = read(root, "CLEARANCE.md");
    expect(record).toContain("- Field rule of the overlay (`fields/claude-code.json`): `/callback_url` classed `url`");
    expect(record).toContain("- Field rule of the overlay (`fields/claude-code.json`): `/client_ref` on `session_start` classed `identifier`");
    expect(record).toContain("- Fixed endpoint of the overlay (`urls.json`): a URL starting `https://hooks.example.test/` is kept whole");
    expect(record).toMatch(/- [1-9]\d* values? in the fixtures kept as the host sent them under the overlay's field rules/);
    expect(JSON.parse(read(root, `${FIXTURES}/session_start.json`)).client_ref).toBe("ab12cd34");
  });

  it("a pairing scope of its own that points at free text pairs nothing by it: the text never reaches the record or a sidecar", () => {
    const secretish = "capturer.personal@privatecorp.example";
    const edit: Edit = (event, p) => (event === "pre_tool_use" || event === "post_tool_use" ? { ...p, tool_input: { ...(p.tool_input as object), description: secretish } } : p);
    const root = repoWithSitting(edit);
    const pairing = bundled<{ scopes: unknown[] }>("pairing/claude-code.json");
    pairing.scopes.unshift({ scope: "stdout", label: "output", pointers: [{ pointer: "/tool_response/stdout" }, { pointer: "/tool_input/description" }] });
    overlay(root, "pairing/claude-code.json", pairing);
    const r = clearJson(["run"], { cwd: root });
    expect(r.code, JSON.stringify(r.json)).toBe(0);
    const written = [read(root, "CLEARANCE.md"), ...["pre_tool_use", "post_tool_use"].flatMap((e) => [read(root, `${FIXTURES}/${e}.json`), read(root, `${FIXTURES}/${e}.provenance.json`)])];
    for (const text of written) expect(text).not.toContain("privatecorp");
    expect(read(root, "CLEARANCE.md")).toContain("`stdout`): no file carries stdout");
  });

  it("an id that substitution changed in the fixture (here by a literal rule) is never written in the record or a sidecar", () => {
    const edit: Edit = (event, p) => (event === "pre_tool_use" || event === "post_tool_use" ? { ...p, client_ref: "privatecorp-4711" } : p);
    const root = repoWithSitting(edit);
    writeFileSync(path.join(root, "clear.config.json"), JSON.stringify({ literals: [{ name: "org", value: "privatecorp", placeholder: "example-org" }] }));
    overlay(root, "fields/claude-code.json", fieldRule("/client_ref", "identifier", "pre_tool_use", "ab12"));
    const pairing = bundled<{ scopes: unknown[] }>("pairing/claude-code.json");
    pairing.scopes.unshift({ scope: "client_ref", label: "client reference", pointers: [{ pointer: "/client_ref" }] });
    overlay(root, "pairing/claude-code.json", pairing);
    const r = clearJson(["run"], { cwd: root });
    expect(r.code, JSON.stringify(r.json)).toBe(0);
    expect(JSON.parse(read(root, `${FIXTURES}/pre_tool_use.json`)).client_ref).toBe("example-org-4711");
    const record = read(root, "CLEARANCE.md");
    const sidecars = ["pre_tool_use", "post_tool_use"].map((e) => read(root, `${FIXTURES}/${e}.provenance.json`));
    for (const text of [record, ...sidecars]) expect(text).not.toContain("privatecorp");
    expect(record).toContain("- pair, `client_ref` `(an id no fixture keeps)`");
    expect(JSON.parse(sidecars[0] as string).pairs).toContainEqual(expect.objectContaining({ scope: "client_ref", id: "(an id no fixture keeps)" }));
    // Without the literal the fixture keeps the id, and it is written as it is.
    writeFileSync(path.join(root, "clear.config.json"), "{}");
    expect(clearJson(["run"], { cwd: root }).code).toBe(0);
    expect(read(root, "CLEARANCE.md")).toContain("- pair, `client_ref` `privatecorp-4711`");
  });

  it("nor is one named in a reason: an unpaired file's ids, and an id inside a longer one, never reach the record or a sidecar", () => {
    const values: Record<string, Record<string, string>> = {
      pre_tool_use: { client_ref: "privatecorp-1", client_ref2: "privatecorp-1:privatecorp-2" },
      post_tool_use: { client_ref: "privatecorp-1:privatecorp-2" },
      session_start: { client_ref: "privatecorp-9999" },
    };
    const root = repoWithSitting((event, p) => ({ ...p, ...(values[event] ?? {}) }));
    writeFileSync(path.join(root, "clear.config.json"), JSON.stringify({ literals: [{ name: "org", value: "privatecorp", placeholder: "example-org" }] }));
    overlay(root, "fields/claude-code.json", {
      harness: "claude-code",
      rules: ["/client_ref", "/client_ref2"].map((pointer) => ({ pointer, class: "identifier", examples: [{ event: "pre_tool_use", pointer, value: "ab12" }] })),
    });
    const pairing = bundled<{ scopes: unknown[] }>("pairing/claude-code.json");
    pairing.scopes.unshift({ scope: "ref", label: "reference", pointers: [{ pointer: "/client_ref" }, { pointer: "/client_ref2" }] });
    overlay(root, "pairing/claude-code.json", pairing);
    const r = clearJson(["run"], { cwd: root });
    expect(r.code, JSON.stringify(r.json)).toBe(0);
    const record = read(root, "CLEARANCE.md");
    expect(record).not.toContain("privatecorp");
    for (const event of Object.keys(values)) expect(read(root, `${FIXTURES}/${event}.provenance.json`)).not.toContain("privatecorp");
    expect(record).toMatch(/not paired: `claude-code_session_start_[^`]+`: no other file's finest identifier is its ref \(an id no fixture keeps\)$/m);
  });

  it("a rules file that breaks its schema, or where no rules file goes, is exit 2 naming the file and the pointer", () => {
    const root = repoWithSitting();
    overlay(root, "fields/claude-code.json", fieldRule("/client_note", "secretive", "session_start", "x"));
    const r = clearJson(["run"], { cwd: root });
    expect(r.code).toBe(2);
    expect(String(r.json.error)).toMatch(/rules\/fields\/claude-code\.json: does not match fields\.schema\.json at \/rules\/0\/class/);
    // A rule for a member the bundled rules already class would change what is kept: refused.
    overlay(root, "fields/claude-code.json", fieldRule("/session_id", "free-text", "session_start", "abc"));
    const shadowed = clearJson(["run"], { cwd: root });
    expect(shadowed.code).toBe(2);
    expect(String(shadowed.json.error)).toMatch(/rules\/fields\/claude-code\.json: at \/rules\/0: the rule for \/session_id never applies/);
    overlay(root, "fields/claude-code.json", fieldRule("/client_note", "free-text", "session_start", "a note"));
    overlay(root, "field-rules.json", {});
    const stray = clearJson(["run"], { cwd: root });
    expect(stray.code).toBe(2);
    expect(String(stray.json.error)).toMatch(/rules\/field-rules\.json: is not a rules file/);
    expect(() => read(root, "CLEARANCE.md")).toThrow();
  });

  it("cannot take a secret rule away: one left out still blocks, one changed is exit 2 naming the file and the pointer", () => {
    const patterns = bundled<{ rules: { id: string; match: string[][]; keywords: string[] }[]; preset: object }>("secrets/patterns.json");
    const key = (patterns.rules.find((r) => r.id === "clear/stripe")?.match[0] ?? []).join("");
    // The key where the host puts an identifier (not a pairing one), kept verbatim: only the scan stands in its way.
    const root = repoWithSitting((event, p) => (event === "session_end" ? { ...p, task_id: key } : p));
    overlay(root, "secrets/patterns.json", { rules: patterns.rules.filter((r) => r.id !== "clear/stripe"), preset: patterns.preset });
    const r = clearJson(["run"], { cwd: root });
    expect(r.code).toBe(1);
    expect(r.json.findings).toContainEqual(expect.objectContaining({ code: "secret-found", message: expect.stringContaining("clear/stripe") }));
    expect(read(root, "CLEARANCE.md")).not.toContain(key);

    const at = patterns.rules.findIndex((x) => x.id === "clear/stripe");
    const weakened = patterns.rules.map((x, i) => (i === at ? { ...x, keywords: ["zzqqxxnevermatches"] } : x));
    overlay(root, "secrets/patterns.json", { rules: weakened, preset: patterns.preset });
    const changed = clearJson(["run"], { cwd: root });
    expect(changed.code).toBe(2);
    expect(String(changed.json.error)).toContain(`rules/secrets/patterns.json: at /rules/${at}: changes the secret rule clear/stripe`);
  });

  it("cannot change a home root or raise a refusal's limit: exit 2 naming the file and the pointer", () => {
    const homes = bundled<{ roots: { id: string; root: string }[] }>("homes.json");
    const refusals = bundled<{ toolResponse: { maxBytes: number } }>("refusals.json");
    const cases: [string, unknown, string][] = [
      ["homes.json", { ...homes, roots: homes.roots.map((h, i) => (i === 0 ? { ...h, root: "/nowhere" } : h)) }, "homes.json: at /roots/0: changes the home root"],
      ["refusals.json", { ...refusals, toolResponse: { ...refusals.toolResponse, maxBytes: refusals.toolResponse.maxBytes * 100 } }, "refusals.json: at /toolResponse/maxBytes: is above the bundled"],
    ];
    for (const [file, value, said] of cases) {
      const root = repoWithSitting();
      overlay(root, file, value);
      const r = clearJson(["run"], { cwd: root });
      expect(r.code, file).toBe(2);
      expect(String(r.json.error)).toContain(`rules/${said}`);
    }
  });

  it("clear.config.json's paths.rules names the folder laid over; the gate's raw-capture rules read its harnesses too", () => {
    const root = repoWithSitting();
    const folder = path.join(root, "config", "clear-rules");
    const catalogue = { ...bundled<object>("harnesses/claude-code.json"), events: [{ event: "HostWokeUp", stem: "host_woke_up" }] };
    mkdirSync(path.join(folder, "harnesses"), { recursive: true });
    const bytes = Buffer.from(JSON.stringify(catalogue));
    writeFileSync(path.join(folder, "harnesses", "claude-code.json"), bytes);
    writeFileSync(path.join(root, "clear.config.json"), JSON.stringify({ paths: { rules: "config/clear-rules" } }));
    writeFileSync(path.join(root, "captures-inbox", `claude-code_host_woke_up_${VERSION}.1.json`), JSON.stringify({ session_id: "s-1", hook_event_name: "HostWokeUp" }));
    const r = clearJson(["run"], { cwd: root });
    expect(r.code, JSON.stringify(r.json.findings)).toBe(0);
    expect(r.json.overlay).toEqual([{ file: "harnesses/claude-code.json", sha256: sha256(bytes) }]);
    expect(r.json.fixtures).toContain(`${FIXTURES}/host_woke_up.json`);
    // The gate's quick raw-capture rules are the bundled catalogues with the same events laid over.
    const events = (dir: string): string[] => loadRawCaptureRules(dir).harnesses.find((h) => h.harness === "claude-code")?.events.map((e) => e.event) ?? [];
    expect(events(folder)).toEqual([...events(BUNDLED_RULES_DIR), "HostWokeUp"]);
    writeFileSync(path.join(folder, "harnesses", "claude-code.json"), JSON.stringify({ ...catalogue, events: [{ event: "HostWokeUp" }] }));
    expect(() => loadRawCaptureRules(folder)).toThrow(/clear-rules\/harnesses\/claude-code\.json: does not match harness\.schema\.json at \/events\/0/);
  });
});
