import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { gitRepo } from "./fixture-repo.js";
import { clearJson, PROJECT_ROOT, tempDir } from "./helpers.js";

// The batch a person reads before ACCEPT: one screen says what will be committed, what was changed
// and how to accept; the whole stays a page whatever the sitting's size, repeated findings counted
// by code; a value's example never shows what changed in it.

const EXAMPLE = path.join(PROJECT_ROOT, "examples", "sitting");
const MAX_LINES = 150;
const MAX_BYTES = 30 * 1024;

/** The bundled sitting, its owner renamed and, where asked, grown with repeats of every event to `total` captures. */
function sitting(dir: string, options: { total?: number; owner?: string; broken?: number; noSittingJson?: boolean } = {}): string[] {
  mkdirSync(dir, { recursive: true });
  const names = readdirSync(EXAMPLE).filter((n) => n.endsWith(".json"));
  const captures = names.filter((n) => n !== "sitting.json");
  for (const n of names) {
    if (n === "sitting.json" && options.noSittingJson) continue;
    const text = readFileSync(path.join(EXAMPLE, n), "utf8");
    writeFileSync(path.join(dir, n), options.owner ? text.split("capturer").join(options.owner) : text);
  }
  let count = captures.length;
  for (let k = 3; count < (options.total ?? 0); k++) {
    for (const n of captures.filter((c) => c.endsWith(".1.json"))) {
      if (count >= (options.total ?? 0)) break;
      const payload = JSON.parse(readFileSync(path.join(dir, n), "utf8")) as Record<string, unknown>;
      // A repeat is its own operation, a little larger than the first, so selection keeps the first.
      for (const id of ["tool_use_id", "prompt_id"]) if (typeof payload[id] === "string") payload[id] = `${payload[id] as string}-${k}`;
      payload.permission_mode = "default";
      writeFileSync(path.join(dir, n.replace(/\.1\.json$/, `.${k}.json`)), `${JSON.stringify(payload)}\n`);
      count++;
    }
  }
  for (let i = 0; i < (options.broken ?? 0); i++) writeFileSync(path.join(dir, `claude-code_session_end_2.1.261.${90_000 + i}.json`), "{ broken");
  return readdirSync(dir);
}

function runIn(dir: string): { code: number; record: string; root: string } {
  const root = gitRepo();
  const r = clearJson(["run", dir], { cwd: root });
  return { code: r.code, record: readFileSync(path.join(root, "CLEARANCE.md"), "utf8"), root };
}

/** The batch alone: from its marker to the end. */
const batchOf = (record: string): string => record.slice(record.indexOf("<!-- clear:batch"));

function expectEveryHeadingHasContent(batch: string): void {
  const lines = batch.split("\n");
  lines.forEach((line, i) => {
    if (!/^#{2,4} /.test(line)) return;
    const next = lines.slice(i + 1).find((l) => l.trim() !== "");
    expect(next, `the heading "${line}" has content`).toBeDefined();
    expect(next, `the heading "${line}" has content`).not.toMatch(/^#{2,4} /);
  });
}

function expectWithinBounds(batch: string): void {
  expect(batch.split("\n").length).toBeLessThanOrEqual(MAX_LINES);
  expect(Buffer.byteLength(batch)).toBeLessThanOrEqual(MAX_BYTES);
  expectEveryHeadingHasContent(batch);
}

describe("the batch a person reads", () => {
  it("of 8 fixtures: its first 40 lines hold every fixture's path, each rule's changes with an example, and how to accept", () => {
    const dir = path.join(tempDir(), "s");
    sitting(dir);
    const run = runIn(dir);
    expect(run.code).toBe(0);
    const batch = batchOf(run.record);
    expectWithinBounds(batch);
    const screen = batch.split("\n").slice(0, 40).join("\n");
    const fixtures = readdirSync(path.join(run.root, "fixtures", "claude-code", "2.1.261")).filter((n) => !n.endsWith(".provenance.json"));
    expect(fixtures).toHaveLength(8);
    for (const f of fixtures) expect(screen).toContain(`\`fixtures/claude-code/2.1.261/${f}\``);
    expect(screen).toMatch(/- `home-path-v1`: [^\n]*\d+ values \([^)]*paths[^)]*\) in 8 fixtures, at `\/cwd` ×8[^\n]*; for example `\/home\/\.\.\.\/work\/demo-project` \([^)]*\) became `\/home\/user\/work\/demo-project`/);
    expect(screen).toMatch(/- `free-text-v1`: [^\n]*; for example `\.\.\.` \(what changed masked\) became `x+`/);
    expect(screen).toMatch(/### What is kept as the host sent it\n\n- \d+ enum values, \d+ identifiers/);
    expect(screen).toContain("write ACCEPT alone on the line under its User acceptance heading");
  });

  it("from 5,000 captures, ready or blocked: at most 150 lines and 30 KB, repeats counted once by code", () => {
    const dir = path.join(tempDir(), "s");
    expect(sitting(dir, { total: 5000 }).filter((n) => n !== "sitting.json")).toHaveLength(5000);
    const ready = runIn(dir);
    expect(ready.code).toBe(0);
    const batch = batchOf(ready.record);
    expectWithinBounds(batch);
    expect(batch).toContain("**Ready for acceptance.** This batch commits 8 fixtures with 8 provenance sidecars (16 files), chosen from 5000 captures");
    // Each repeat's note names its own counter and event: the first three are shown, each with its own words.
    expect(batch).toMatch(/- note `extra-capture`, 4992 findings:\n(?: {2}- at `[^`]+`: repeat \.\d+ of [a-z_]+; [^\n]*\n){3} {2}- and 4989 more\n/);
    expect(batch.match(/extra-capture/g)).toHaveLength(1);

    sitting(dir, { broken: 40 });
    const blocked = runIn(dir);
    expect(blocked.code).toBe(1);
    const text = batchOf(blocked.record);
    expectWithinBounds(text);
    expect(text).toContain("**Blocked: 40 findings block this batch.**");
    expect(text).toMatch(/### What blocks\n\n- block `invalid-json`, 40 findings: [^\n]*\n {2}- at [^\n]*, and 37 more\n {2}- what to do: /);
    expect(text).toContain("### What would be committed");
    expect(text).not.toContain("### Files and digests");
  });

  it("an example masks whole words: a name that shares letters with the placeholder shows none of them", () => {
    const dir = path.join(tempDir(), "s");
    sitting(dir, { owner: "userkin" });
    const { code, record } = runIn(dir);
    expect(code).toBe(0);
    expect(record).not.toMatch(/userkin|serkin|erkin|rkin|kin\//);
    expect(record).toContain("for example `/home/.../work/demo-project` (what changed masked)");
  });

  it("a fixture the scan flags gives no example: a shortened value never shows part of a secret", () => {
    const dir = path.join(tempDir(), "s");
    sitting(dir);
    // Every capture but one session_start, whose cwd ends in a key shape built here: the only home example there is.
    for (const n of readdirSync(dir)) if (n !== "sitting.json" && !n.startsWith("claude-code_session_start_")) rmSync(path.join(dir, n));
    const file = path.join(dir, "claude-code_session_start_2.1.261.1.json");
    const key = ["ghp", "_", "aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5"].join("");
    const payload = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    delete payload.transcript_path;
    payload.cwd = `/home/someone/${key}`;
    writeFileSync(file, JSON.stringify(payload));
    const { code, record } = runIn(dir);
    expect(code).toBe(1);
    expect(record).toContain("block `secret-found`");
    expect(record).toMatch(/- `home-path-v1`: [^\n]*1 value \(1 path\) in 1 fixture, at `\/cwd` ×1\n/);
    expect(record).not.toContain("for example");
    expect(record).not.toContain(key.slice(0, 10));
  });

  it("a reason that quotes an identifier from a capture is data: no link or image can form from it", () => {
    const dir = path.join(tempDir(), "s");
    sitting(dir);
    for (const n of readdirSync(dir).filter((x) => /_(pre|post)_tool_use_2/.test(x))) {
      const text = readFileSync(path.join(dir, n), "utf8");
      writeFileSync(path.join(dir, n), text.replace("toolu_01AbCdEfGhIjKlMnOpQrStUv", "![look](https://example.invalid/x)"));
    }
    const { code, record } = runIn(dir);
    expect(code).toBe(0);
    expect(record).toContain("example.invalid");
    // Outside code spans, no text opens link syntax.
    for (const line of record.split("\n")) expect(line.replace(/`[^`]*`/g, ""), line).not.toMatch(/\]\(|!\[/);
  });

  it("an identifier a reason quotes in prose makes no bare link: no www., :// or mail address a renderer would link", () => {
    const dir = path.join(tempDir(), "s");
    sitting(dir);
    // Each of these captures is left without a partner, so the batch says why, quoting its session_id.
    // A mailbox is refused before it reaches the record; what is left is an address a renderer would still link.
    const ids: Record<string, string> = { session_start: "bob@1.2", session_end: "www.example.invalid", pre_compact: "https://example.invalid/x" };
    for (const [event, id] of Object.entries(ids)) {
      const file = path.join(dir, `claude-code_${event}_2.1.261.1.json`);
      const payload = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
      writeFileSync(file, JSON.stringify({ ...payload, session_id: id }));
    }
    const { code, record } = runIn(dir);
    expect(code).toBe(0);
    const reasons = record.split("\n").filter((l) => l.startsWith("- not paired: ") && /\.invalid|1\.2/.test(l));
    expect(reasons.length).toBeGreaterThanOrEqual(2);
    expect(record).toContain("its session_id bob\\u00401.2");
    for (const line of record.split("\n")) expect(line.replace(/`[^`]*`/g, ""), line).not.toMatch(/www\.|:\/\/|[A-Za-z0-9]@[A-Za-z0-9]/i);
  });

  it("a character reference a reason quotes stays text: the rendered record shows no override, invisible character or angle bracket from it", () => {
    const dir = path.join(tempDir(), "s");
    sitting(dir);
    const file = path.join(dir, "claude-code_session_start_2.1.261.1.json");
    const payload = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify({ ...payload, session_id: "a&#x202E;gpj.exe&#8203;&#60;!--&lt;b&gt;" }));
    const { code, record } = runIn(dir);
    expect(code).toBe(0);
    expect(record).toMatch(/^- not paired: `claude-code_session_start_[^`]+`: [^\n]*gpj\.exe/m);
    // Rendered as CommonMark does: each text node, after character references are decoded.
    type Node = { type: string; literal: string | null };
    const cm = createRequire(import.meta.url)("commonmark") as { Parser: new () => { parse(t: string): { walker(): { next(): { entering: boolean; node: Node } | null } } } };
    const walker = new cm.Parser().parse(record).walker();
    for (let e = walker.next(); e; e = walker.next()) {
      if (e.entering && e.node.type === "text") expect(e.node.literal, e.node.literal ?? "").not.toMatch(/[\u200b-\u200f\u202a-\u202e\u2066-\u2069<>]/);
    }
  });

  it("without sitting.json no time is taken from the file system, and the batch says so", () => {
    const dir = path.join(tempDir(), "s");
    sitting(dir, { noSittingJson: true });
    const { code, record, root } = runIn(dir);
    expect(code).toBe(0);
    expect(record).toContain("- Captured at: not stated (no start time in sitting.json; no time is taken from the file system)");
    expect(record).toContain("- Driven by: not stated (no sitting.json)");
    const sidecar = readFileSync(path.join(root, "fixtures", "claude-code", "2.1.261", "session_end.provenance.json"), "utf8");
    expect(sidecar).not.toMatch(/"capturedAt": "\d{4}-/);
    rmSync(root, { recursive: true, force: true });
  });
});
