import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, deflateRawSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { revList } from "../src/io/git.js";
import { repoWithRemote } from "./hooks-setup.js";
import { CLI, clear, clearJson, PROJECT_ROOT, tempDir } from "./helpers.js";

const g = (cwd: string, ...args: string[]): { code: number; out: string } => {
  const r = spawnSync("git", args, { cwd, encoding: "utf8" });
  return { code: r.status ?? -1, out: r.stdout + r.stderr };
};

function repo(): string {
  const root = tempDir("clear-gate-");
  execFileSync("git", ["init", "-q", "-b", "main"], { cwd: root });
  g(root, "config", "user.email", "t@example.invalid");
  g(root, "config", "user.name", "t");
  writeFileSync(path.join(root, "README.md"), "x\n");
  g(root, "add", "README.md");
  g(root, "commit", "-qm", "init");
  expect(clear(["hooks", "install"], { cwd: root }).code).toBe(0);
  cpSync(path.join(PROJECT_ROOT, "examples", "sitting"), path.join(root, "captures-inbox"), { recursive: true });
  return root;
}

/** A repository whose origin has its first commit, and a commit on top, made with --no-verify, holding a raw capture: in the inbox, or copied to `under` (outside the tool's places, only the commit that brings it carries it as a change). */
function sneakedPastOrigin(under?: string): { root: string; remote: string; clean: string } {
  const root = repo();
  const remote = tempDir("clear-remote-");
  execFileSync("git", ["init", "-q", "--bare"], { cwd: remote });
  g(root, "remote", "add", "origin", remote);
  expect(g(root, "push", "-q", "origin", "main").code).toBe(0);
  const clean = g(root, "rev-parse", "HEAD").out.trim();
  const capture = "captures-inbox/claude-code_session_end_2.1.261.1.json";
  if (under !== undefined) cpSync(path.join(root, capture), path.join(root, under));
  g(root, "add", "-f", under ?? capture);
  expect(g(root, "commit", "-qm", "sneaky", "--no-verify").code).toBe(0);
  return { root, remote, clean };
}


function cleared(root: string, acceptWith: string | null): void {
  expect(clear(["run"], { cwd: root }).code).toBe(0);
  const file = path.join(root, "CLEARANCE.md");
  if (acceptWith !== null) writeFileSync(file, readFileSync(file, "utf8").replace("The tool never does. -->\n\n", `The tool never does. -->\n${acceptWith}\n`));
  g(root, "add", "fixtures", "CLEARANCE.md");
}

/** A repository whose accepted batch is committed and pushed to a bare remote, origin. */
function acceptedAndPushed(): string {
  const root = repo();
  const remote = tempDir("clear-remote-");
  execFileSync("git", ["init", "-q", "--bare"], { cwd: remote });
  g(root, "remote", "add", "origin", remote);
  cleared(root, "ACCEPT");
  expect(g(root, "commit", "-qm", "accepted").code).toBe(0);
  expect(g(root, "push", "-q", "origin", "main").code).toBe(0);
  return root;
}

/** The record's batch and its fixtures taken out, staged. */
function takeOutBatch(root: string): void {
  const file = path.join(root, "CLEARANCE.md");
  const record = readFileSync(file, "utf8");
  writeFileSync(file, record.slice(0, record.indexOf("<!-- clear:batch ")));
  g(root, "rm", "-rq", "fixtures");
  g(root, "add", "CLEARANCE.md");
}

/** The accepted fixture session_end.json given other bytes, its row made to claim them and the batch's digest worked out again, as one who rewrites a batch does. */
function rewriteAccepted(root: string): void {
  const rel = "fixtures/claude-code/2.1.261/session_end.json";
  const before = readFileSync(path.join(root, rel));
  const after = Buffer.from(before.toString("utf8").replace(/"reason":"[^"]*"/, '"reason":"edited"'));
  const sha = (b: Buffer | string): string => createHash("sha256").update(b).digest("hex");
  const lines = readFileSync(path.join(root, "CLEARANCE.md"), "utf8").replace(sha(before), sha(after)).replace(`| ${before.length} |\n`, `| ${after.length} |\n`).split("\n");
  const marker = lines.findIndex((l) => l.startsWith("<!-- clear:batch "));
  const heading = lines.findIndex((l, i) => i > marker && l === "## User acceptance");
  lines[marker] = (lines[marker] as string).replace(/sha256:[0-9a-f]{64}/, `sha256:${sha(lines.slice(marker + 1, heading).join("\n"))}`);
  writeFileSync(path.join(root, "CLEARANCE.md"), lines.join("\n"));
  writeFileSync(path.join(root, rel), after);
  g(root, "add", "fixtures", "CLEARANCE.md");
}

/** A commit of what is staged is refused naming `named`; made with --no-verify, `clear verify <args>` and a push to origin refuse it too, naming it. */
function refusedAtEveryStep(root: string, message: string, named: string, verifyArgs: string[]): void {
  const refused = g(root, "commit", "-qm", message);
  expect(refused.code, refused.out).not.toBe(0);
  expect(refused.out).toContain(named);
  expect(g(root, "commit", "-qm", message, "--no-verify").code).toBe(0);
  const verified = clear(["verify", ...verifyArgs], { cwd: root });
  expect(verified.code, verified.stdout).toBe(1);
  expect(verified.stdout).toContain(named);
  const pushed = g(root, "push", "-q", "origin", "main");
  expect(pushed.code, pushed.out).not.toBe(0);
  expect(pushed.out).toContain(named);
}

/** Sets git's filter `name` (the same command both ways) and commits `.gitattributes` holding `attributes`. */
function withFilter(root: string, name: string, command: string, attributes: string): void {
  g(root, "config", `filter.${name}.clean`, command);
  g(root, "config", `filter.${name}.smudge`, command);
  writeFileSync(path.join(root, ".gitattributes"), attributes);
  g(root, "add", ".gitattributes");
  expect(g(root, "commit", "-qm", "attributes").code).toBe(0);
}

/** What LFS's clean filter leaves: the object in the local store (unless `store` is false), a pointer to commit; `version` and `eol` as git-lfs reads older pointers too. */
function lfsPointer(root: string, bytes: Buffer, store = true, version = "https://git-lfs.github.com/spec/v1", eol = "\n"): string {
  const oid = createHash("sha256").update(bytes).digest("hex");
  if (store) {
    mkdirSync(path.join(root, ".git", "lfs", "objects", oid.slice(0, 2), oid.slice(2, 4)), { recursive: true });
    writeFileSync(path.join(root, ".git", "lfs", "objects", oid.slice(0, 2), oid.slice(2, 4), oid), bytes);
  }
  return [`version ${version}`, `oid sha256:${oid}`, `size ${bytes.length}`, ""].join(eol);
}

describe("the gate, through installed hooks", () => {
  it("refuses a staged raw capture, fixtures with no record, a record without ACCEPT; allows ACCEPT alone on its line", () => {
    const root = repo();
    g(root, "add", "-f", "captures-inbox/claude-code_session_end_2.1.261.1.json");
    expect(g(root, "commit", "-qm", "raw").code).not.toBe(0);
    g(root, "reset", "-q");
    cleared(root, null);
    g(root, "rm", "-q", "--cached", "CLEARANCE.md");
    expect(g(root, "commit", "-qm", "no record").code).not.toBe(0);
    g(root, "add", "CLEARANCE.md");
    expect(g(root, "commit", "-qm", "no accept").code).not.toBe(0);
    cleared(root, "ACCEPT");
    expect(g(root, "commit", "-qm", "accepted").code).toBe(0);
  });

  for (const how of ["<!-- ACCEPT -->", "```\nACCEPT\n```", "ACCEPTED", " accept", "I read it\n:-\nACCEPT"]) {
    it(`refuses ACCEPT written as ${JSON.stringify(how)}`, () => {
      const root = repo();
      cleared(root, how);
      expect(g(root, "commit", "-qm", "x").code).not.toBe(0);
    });
  }

  it("refuses a record holding a NUL, which git shows as a binary file with none of its batches or ACCEPT in a diff, at commit and in verify, naming the line", () => {
    const root = repo();
    cleared(root, "ACCEPT");
    const file = path.join(root, "CLEARANCE.md");
    writeFileSync(file, readFileSync(file, "utf8").replace("# Clearance record\n", "# Clearance record\n\n\u0000\n"));
    g(root, "add", "CLEARANCE.md");
    expect(g(root, "diff", "--cached", "--numstat", "--", "CLEARANCE.md").out).toMatch(/^-\t-\t/);
    const committed = g(root, "commit", "-qm", "nul");
    expect(committed.code).not.toBe(0);
    expect(committed.out).toContain("CLEARANCE.md line 3: holds a NUL character");
    // A record verify cannot read is an error (exit 2), as any record in a shape the tool does not know.
    const verified = clear(["verify"], { cwd: root });
    expect(verified.code).toBe(2);
    expect(verified.stderr).toContain("CLEARANCE.md line 3: holds a NUL character");
  });

  it("refuses a fixture byte changed after ACCEPT, and a record line edited after ACCEPT", () => {
    const root = repo();
    cleared(root, "ACCEPT");
    writeFileSync(path.join(root, "fixtures/claude-code/2.1.261/session_end.json"), "{}");
    g(root, "add", "fixtures");
    const changed = g(root, "commit", "-qm", "changed");
    expect(changed.code).not.toBe(0);
    // The advice restores from what holds the accepted bytes: the index holds the edit, so never plain "git checkout -- <file>".
    expect(changed.out).toContain("fixture-changed");
    expect(changed.out).toContain("git restore --source=HEAD --staged --worktree");
    expect(changed.out).not.toContain("git checkout -- ");
    const again = repo();
    cleared(again, "ACCEPT");
    const file = path.join(again, "CLEARANCE.md");
    const record = readFileSync(file, "utf8");
    expect(record).toContain("\n### Pairs\n");
    writeFileSync(file, record.replace("\n### Pairs\n", "\n### Pairs (edited)\n"));
    g(again, "add", "CLEARANCE.md");
    const edited = g(again, "commit", "-qm", "edited");
    expect(edited.code).not.toBe(0);
    expect(edited.out).toMatch(/batch-edited/);
    expect(edited.out).toMatch(/CLEARANCE\.md line \d+/);
    expect(edited.out).not.toContain("undefined");
  });

  it("remembers blob digests in the git folder, yet a changed fixture, a lying or broken line there never lets one through", () => {
    const root = repo();
    cleared(root, "ACCEPT");
    expect(g(root, "commit", "-qm", "accepted").code).toBe(0);
    const cache = path.join(root, ".git", "clear-blob-sha256");
    const lines = readFileSync(cache, "utf8").split("\n").filter(Boolean);
    expect(lines.length).toBeGreaterThanOrEqual(8);
    for (const line of lines) expect(line).toMatch(/^[0-9a-f]{40} [0-9a-f]{64}$/);
    const fixture = "fixtures/claude-code/2.1.261/session_end.json";
    writeFileSync(path.join(root, fixture), readFileSync(path.join(root, fixture), "utf8").replace("}", ' }'));
    g(root, "add", fixture);
    const staged = g(root, "rev-parse", `:${fixture}`).out.trim();
    // A line for the new blob that is not a digest, and a torn one: neither is believed.
    writeFileSync(cache, `${lines.join("\n")}\n${staged} not-a-digest\n${staged} ${"0".repeat(63)}`);
    const r = clear(["gate", "pre-commit"], { cwd: root });
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain(fixture);
    expect(r.stdout + r.stderr).toContain("fixture-changed");
    // The digest read is added on a line of its own after the torn one, which stays as it was and is never believed.
    const digest = createHash("sha256").update(readFileSync(path.join(root, fixture))).digest("hex");
    const after = readFileSync(cache, "utf8");
    expect(after.endsWith(`\n${staged} ${"0".repeat(63)}\n${staged} ${digest}\n`)).toBe(true);
    expect(g(root, "commit", "-qm", "changed").code).not.toBe(0);
  });

  it("remembers what an accepted record lists by its blob id, yet an edited record, a listing from another record or a lying entry never lets a fixture through", () => {
    const root = repo();
    cleared(root, "ACCEPT");
    expect(g(root, "commit", "-qm", "accepted").code).toBe(0);
    const cache = path.join(root, ".git", "clear-record-reading");
    const held = JSON.parse(readFileSync(cache, "utf8")) as { key: string; listed: [string, string][] };
    const recordId = g(root, "rev-parse", "HEAD:CLEARANCE.md").out.trim();
    expect(held.key).toContain(recordId);
    const fixture = "fixtures/claude-code/2.1.261/session_end.json";
    expect(held.listed.map(([p]) => p)).toContain(fixture);
    // The record edited after ACCEPT: a new blob, read again, and its batch no longer holds.
    const file = path.join(root, "CLEARANCE.md");
    writeFileSync(file, readFileSync(file, "utf8").replace("\n### Pairs\n", "\n### Pairs (edited)\n"));
    g(root, "add", "CLEARANCE.md");
    const edited = clear(["gate", "pre-commit"], { cwd: root });
    expect(edited.code).toBe(1);
    expect(edited.stdout + edited.stderr).toContain("batch-edited");
    // clear verify keys the working tree's record the same way: the edited one is read, not remembered.
    const verified = clear(["verify", "--json"], { cwd: root });
    expect(verified.code).toBe(1);
    expect(verified.stdout).toContain("batch-edited");
    g(root, "reset", "-q", "--hard");
    expect(clear(["verify"], { cwd: root }).code).toBe(0);
    // A fixture changed, with the remembered listing made to claim the new bytes: a lying entry (a
    // control character in its path) makes the whole listing unbelieved.
    const bytes = readFileSync(path.join(root, fixture), "utf8").replace("}", " }");
    writeFileSync(path.join(root, fixture), bytes);
    g(root, "add", fixture);
    const lying = held.listed.map(([p, d]): [string, string] => [p, p === fixture ? createHash("sha256").update(bytes).digest("hex") : d]);
    writeFileSync(cache, JSON.stringify({ key: held.key, listed: [...lying, ["fixtures/\u001b[2Jx.json", "0".repeat(64)]] }));
    const changed = clear(["gate", "pre-commit"], { cwd: root });
    expect(changed.code).toBe(1);
    expect(changed.stdout + changed.stderr).toContain("fixture-changed");
    // The same listing remembered for another record blob is not this record's.
    writeFileSync(cache, JSON.stringify({ key: held.key.replace(recordId, "0".repeat(40)), listed: lying }));
    expect(clear(["gate", "pre-commit"], { cwd: root }).code).toBe(1);
    // Unbelieved or not, the file is rewritten from the record's own reading.
    expect(JSON.parse(readFileSync(cache, "utf8"))).toEqual(held);
  });

  it("a record before the change whose blob git does not have is an error (exit 2) at commit and in verify, never read as empty: a batch it accepted rewritten would pass", () => {
    const root = repo();
    cleared(root, "ACCEPT");
    expect(g(root, "commit", "-qm", "accepted").code).toBe(0);
    // A fixture's other bytes, its row made to claim them and the batch's digest worked out again: only the record before says the batch was accepted with other text.
    const rel = "fixtures/claude-code/2.1.261/session_end.json";
    const before = readFileSync(path.join(root, rel));
    const after = Buffer.from(before.toString("utf8").replace(/"reason":"[^"]*"/, '"reason":"edited"'));
    const sha = (b: Buffer | string): string => createHash("sha256").update(b).digest("hex");
    const file = path.join(root, "CLEARANCE.md");
    const lines = readFileSync(file, "utf8").replace(sha(before), sha(after)).replace(`| ${before.length} |\n`, `| ${after.length} |\n`).split("\n");
    const marker = lines.findIndex((l) => l.startsWith("<!-- clear:batch "));
    const heading = lines.findIndex((l, i) => i > marker && l === "## User acceptance");
    lines[marker] = (lines[marker] as string).replace(/sha256:[0-9a-f]{64}/, `sha256:${sha(lines.slice(marker + 1, heading).join("\n"))}`);
    writeFileSync(file, lines.join("\n"));
    writeFileSync(path.join(root, rel), after);
    g(root, "add", "fixtures", "CLEARANCE.md");
    // The committed record's object taken out of the repository, as a damaged one lacks it.
    const blob = g(root, "rev-parse", "HEAD:CLEARANCE.md").out.trim();
    rmSync(path.join(root, ".git", "objects", blob.slice(0, 2), blob.slice(2)));
    for (const args of [["gate", "pre-commit"], ["verify"]]) {
      const r = clear(args, { cwd: root });
      expect(r.code, `${args.join(" ")}: ${r.stdout}${r.stderr}`).toBe(2);
      expect(r.stderr).toContain("CLEARANCE.md at commit");
      expect(r.stderr).toContain("is a blob git does not have");
    }
  });

  it("refuses an accepted batch rewritten with its digest worked out again, at commit, push, verify and verify --rev and --range, naming the record's line", () => {
    const root = acceptedAndPushed();
    // Other bytes for a fixture, its row made to claim them, the batch's digest worked out again: every check of the record alone passes.
    const rel = "fixtures/claude-code/2.1.261/session_end.json";
    const before = readFileSync(path.join(root, rel));
    const after = Buffer.from(before.toString("utf8").replace(/"reason":"[^"]*"/, '"reason":"edited"'));
    expect(after.equals(before)).toBe(false);
    const sha = (b: Buffer | string): string => createHash("sha256").update(b).digest("hex");
    const file = path.join(root, "CLEARANCE.md");
    /** The record with the batch's marker digest worked out again over its body, as the record's reader does. */
    const withDigest = (text: string): string => {
      const lines = text.split("\n");
      const marker = lines.findIndex((l) => l.startsWith("<!-- clear:batch "));
      const heading = lines.findIndex((l, i) => i > marker && l === "## User acceptance");
      lines[marker] = (lines[marker] as string).replace(/sha256:[0-9a-f]{64}/, `sha256:${sha(lines.slice(marker + 1, heading).join("\n"))}`);
      return lines.join("\n");
    };
    writeFileSync(file, withDigest(readFileSync(file, "utf8").replace(sha(before), sha(after)).replace(`| ${before.length} |\n`, `| ${after.length} |\n`)));
    writeFileSync(path.join(root, rel), after);
    g(root, "add", "fixtures", "CLEARANCE.md");
    const commit = g(root, "commit", "-qm", "rewritten");
    expect(commit.code).not.toBe(0);
    expect(commit.out).toContain("accepted-batch-rewritten");
    expect(commit.out).toMatch(/CLEARANCE\.md line \d+/);
    expect(commit.out).not.toContain("batch-edited");
    const codes = (r: { json: Record<string, unknown> }): string[] => (r.json.findings as { code: string }[]).map((f) => f.code);
    const worktree = clearJson(["verify"], { cwd: root });
    expect(worktree.code).toBe(1);
    expect(codes(worktree)).toEqual(["accepted-batch-rewritten"]);
    expect(g(root, "commit", "-qm", "rewritten", "--no-verify").code).toBe(0);
    expect(g(root, "push", "-q", "origin", "main").code).not.toBe(0);
    for (const args of [["--rev", "HEAD"], ["--range", "HEAD~1..HEAD"]]) {
      const r = clearJson(["verify", ...args], { cwd: root });
      expect(r.code).toBe(1);
      expect(codes(r)).toEqual(["accepted-batch-rewritten"]);
    }
    // Under another id, in the place of the accepted batch taken out, it is refused the same way.
    g(root, "reset", "-q", "--hard", "HEAD~1");
    writeFileSync(file, withDigest(readFileSync(file, "utf8").replace(sha(before), sha(after)).replace(/<!-- clear:batch b-([0-9a-f]{8})[0-9a-f]{4}/, "<!-- clear:batch b-$1beef")));
    writeFileSync(path.join(root, rel), after);
    g(root, "add", "fixtures", "CLEARANCE.md");
    const moved = g(root, "commit", "-qm", "renamed");
    expect(moved.code, moved.out).not.toBe(0);
    expect(moved.out).toContain("accepted-batch-rewritten");
    expect(moved.out).toMatch(/lists fixtures of batch b-[0-9a-f]{12}, taken out here/);
    expect(g(root, "commit", "-qm", "renamed", "--no-verify").code).toBe(0);
    expect(codes(clearJson(["verify", "--range", "HEAD~1..HEAD"], { cwd: root }))).toEqual(["accepted-batch-rewritten"]);
    g(root, "reset", "-q", "--hard", "HEAD~1");
    // Fixtures taken out with their batch, in a commit of their own, go through.
    takeOutBatch(root);
    expect(g(root, "commit", "-qm", "taken out").code).toBe(0);
    g(root, "reset", "-q", "--hard", "HEAD~1");
    // The commit as accepted verifies, and so does the working tree once the rewrite is undone.
    expect(clear(["verify", "--rev", "HEAD~1"], { cwd: root }).code).toBe(0);
    g(root, "reset", "-q", "--hard", "HEAD~1");
    expect(clear(["verify"], { cwd: root }).code).toBe(0);
  });

  /** The record's first batch moved below the second, and the fixtures of commit `first` checked out again: a commit of it, tried. */
  function firstBatchMovedLast(root: string, first: string): { code: number; out: string } {
    const file = path.join(root, "CLEARANCE.md");
    const record = readFileSync(file, "utf8");
    const [a, b] = [...record.matchAll(/<!-- clear:batch /g)].map((m) => m.index as number) as [number, number];
    writeFileSync(file, `${record.slice(0, a)}${record.slice(b).replace(/\n*$/, "\n\n")}${record.slice(a, b).replace(/\n*$/, "\n")}`);
    g(root, "checkout", first, "--", "fixtures");
    g(root, "add", "fixtures", "CLEARANCE.md");
    return g(root, "commit", "-qm", "moved");
  }

  it("refuses an accepted batch of one sitting moved below that of a later sitting, whose fixtures it would put back in force", () => {
    const root = acceptedAndPushed();
    const first = g(root, "rev-parse", "HEAD").out.trim();
    for (const name of ["claude-code_pre_tool_use_2.1.261.1.json", "claude-code_pre_tool_use_2.1.261.2.json"]) {
      const capture = path.join(root, "captures-inbox", name);
      writeFileSync(capture, readFileSync(capture, "utf8").replace('"permission_mode":"default"', '"permission_mode":"plan"'));
    }
    cleared(root, null);
    const file = path.join(root, "CLEARANCE.md");
    const record = readFileSync(file, "utf8");
    const second = record.lastIndexOf("<!-- clear:batch ");
    expect(record.slice(second, second + 32)).not.toBe(record.slice(record.indexOf("<!-- clear:batch "), record.indexOf("<!-- clear:batch ") + 32));
    writeFileSync(file, record.slice(0, second) + record.slice(second).replace("The tool never does. -->\n\n", "The tool never does. -->\nACCEPT\n"));
    g(root, "add", "fixtures", "CLEARANCE.md");
    expect(g(root, "commit", "-qm", "a later sitting").code).toBe(0);
    const moved = firstBatchMovedLast(root, first);
    expect(moved.code, moved.out).not.toBe(0);
    expect(moved.out).toContain("was moved below batch");
    expect(g(root, "commit", "-qm", "moved", "--no-verify").code).toBe(0);
    const range = clear(["verify", "--range", "HEAD~1..HEAD"], { cwd: root });
    expect(range.code, range.stdout).toBe(1);
    expect(range.stdout).toContain("was moved below batch");
  });

  it("takes a run of the same sitting under new configuration, appended under the same id and accepted, as a new acceptance; refuses an accepted batch moved below the one accepted after it, which puts the bytes that one replaced back in force", () => {
    const root = acceptedAndPushed();
    const first = g(root, "rev-parse", "HEAD").out.trim();
    const file = path.join(root, "CLEARANCE.md");
    writeFileSync(path.join(root, "clear.config.json"), JSON.stringify({ literals: [{ name: "project", value: "demo-project", placeholder: "some-project" }] }));
    expect(clear(["run"], { cwd: root }).code).toBe(0);
    const twice = readFileSync(file, "utf8");
    const starts = [...twice.matchAll(/<!-- clear:batch (b-[0-9a-f]{12})/g)];
    expect(starts.map((m) => m[1])).toEqual([starts[0]?.[1], starts[0]?.[1]]);
    const second = starts[1]?.index as number;
    writeFileSync(file, twice.slice(0, second) + twice.slice(second).replace("The tool never does. -->\n\n", "The tool never does. -->\nACCEPT\n"));
    g(root, "add", "fixtures", "CLEARANCE.md", "clear.config.json");
    const again = g(root, "commit", "-qm", "accepted again");
    expect(again.code, again.out).toBe(0);
    expect(g(root, "push", "-q", "origin", "main").code).toBe(0);
    const moved = firstBatchMovedLast(root, first);
    expect(moved.code, moved.out).not.toBe(0);
    expect(moved.out).toContain("accepted-batch-rewritten");
    expect(moved.out).toContain("was moved below batch");
    expect(g(root, "commit", "-qm", "moved", "--no-verify").code).toBe(0);
    const range = clearJson(["verify", "--range", "HEAD~1..HEAD"], { cwd: root });
    expect(range.code).toBe(1);
    expect((range.json.findings as { code: string }[]).map((f) => f.code)).toContain("accepted-batch-rewritten");
    const pushed = g(root, "push", "-q", "origin", "main");
    expect(pushed.code, pushed.out).not.toBe(0);
    expect(pushed.out).toContain("was moved below batch");
  });

  it("refuses a push whose destination holds an accepted batch that the pushed tip rewrote, though no commit rewrote it against its parent: history rewritten and forced, or the batch taken out and put back", () => {
    const root = acceptedAndPushed();
    const accepted = g(root, "rev-parse", "HEAD").out.trim();
    const rewritten = (r: { code: number; out: string }): void => {
      expect(r.code, r.out).toBe(1);
      expect(r.out).toContain("accepted-batch-rewritten");
      expect(r.out).toContain(`in commit ${accepted.slice(0, 12)}`);
    };
    // The accepting commit made again with the batch rewritten: the hook compares with a parent that held no batch.
    g(root, "reset", "-q", "--soft", "HEAD~1");
    rewriteAccepted(root);
    expect(g(root, "commit", "-qm", "accepted").code).toBe(0);
    const forced = g(root, "push", "-q", "--force", "origin", "main");
    rewritten(forced);
    // No commit of the push is refused against its parent: the push as a whole is.
    expect(forced.out).toContain("clear gate: this push is refused: 1 blocking finding");
    expect(forced.out).not.toContain("()");
    const range = clear(["verify", "--range", `${accepted}..HEAD`], { cwd: root });
    rewritten({ code: range.code, out: range.stdout });
    // The pre-commit framework names the destination's value in PRE_COMMIT_FROM_REF.
    const framework = { PRE_COMMIT_FROM_REF: accepted, PRE_COMMIT_TO_REF: g(root, "rev-parse", "HEAD").out.trim(), PRE_COMMIT_REMOTE_BRANCH: "refs/heads/main" };
    const hooked = clear(["gate", "pre-push", "origin"], { cwd: root, env: framework });
    rewritten({ code: hooked.code, out: hooked.stderr });
    // The batch taken out with its fixtures in one commit and put back rewritten in the next, each clean against its parent.
    g(root, "reset", "-q", "--hard", accepted);
    takeOutBatch(root);
    expect(g(root, "commit", "-qm", "taken out").code).toBe(0);
    g(root, "checkout", "-q", accepted, "--", "fixtures", "CLEARANCE.md");
    rewriteAccepted(root);
    expect(g(root, "commit", "-qm", "put back").code).toBe(0);
    rewritten(g(root, "push", "-q", "origin", "main"));
    const split = clear(["verify", "--range", "origin/main..HEAD"], { cwd: root });
    rewritten({ code: split.code, out: split.stdout });
    // Taken out in a push of its own, the batch is no longer the destination's, and the new text is accepted in the next.
    expect(g(root, "push", "-q", "origin", "HEAD~1:main").code).toBe(0);
    expect(g(root, "push", "-q", "origin", "main").code).toBe(0);
  });

  /** A repository of one clean commit, to be added as a submodule. */
  function cleanRepository(): string {
    const sub = tempDir("clear-submodule-");
    execFileSync("git", ["init", "-q", "-b", "main"], { cwd: sub });
    writeFileSync(path.join(sub, "notes.md"), "notes\n");
    g(sub, "add", "notes.md");
    g(sub, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qm", "clean");
    return sub;
  }

  it("judges the files of the commit a submodule names: a raw capture in it is refused at commit, push, verify --rev and --range; a submodule not checked out is refused as unchecked; a clean one passes", () => {
    const sub = cleanRepository();
    const { root } = sneakedPastOrigin();
    g(root, "reset", "-q", "--hard", "HEAD~1");
    expect(g(root, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "vendor/clean").code).toBe(0);
    expect(g(root, "commit", "-qm", "a clean submodule").code).toBe(0);
    // A hook in a linked worktree is given GIT_DIR and GIT_INDEX_FILE: the submodule is read in its own repository all the same.
    const asHook = clear(["verify", "--rev", "HEAD"], { cwd: root, env: { GIT_DIR: path.join(root, ".git"), GIT_INDEX_FILE: path.join(root, ".git", "index") } });
    expect(asHook.code, asHook.stdout).toBe(0);
    cpSync(path.join(PROJECT_ROOT, "examples", "sitting", "claude-code_session_end_2.1.261.1.json"), path.join(sub, "event.json"));
    g(sub, "add", "event.json");
    g(sub, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qm", "a capture");
    expect(g(root, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "vendor/sub").code).toBe(0);
    const refused = g(root, "commit", "-qm", "the submodule");
    expect(refused.code, refused.out).not.toBe(0);
    expect(refused.out).toContain("vendor/sub/event.json");
    expect(g(root, "commit", "-qm", "the submodule", "--no-verify").code).toBe(0);
    for (const args of [["verify", "--rev", "HEAD"], ["verify", "--range", "HEAD~1..HEAD"]]) {
      const r = clear(args, { cwd: root });
      expect(r.code, args.join(" ")).toBe(1);
      expect(r.stdout, args.join(" ")).toContain("vendor/sub/event.json");
    }
    const pushed = g(root, "push", "-q", "origin", "main");
    expect(pushed.code, pushed.out).not.toBe(0);
    expect(pushed.out).toContain("vendor/sub/event.json");
    // Not checked out here, its files cannot be read: refused, never passed.
    g(root, "submodule", "deinit", "-q", "-f", "vendor/sub");
    rmSync(path.join(root, ".git", "modules", "vendor", "sub"), { recursive: true, force: true });
    const unread = clear(["verify", "--rev", "HEAD"], { cwd: root });
    expect(unread.code, unread.stdout).toBe(1);
    expect(unread.stdout).toContain("vendor/sub");
    expect(unread.stdout).not.toContain("vendor/clean");
    expect(clear(["verify", "--rev", "HEAD~1"], { cwd: root }).code).toBe(0);
  });

  it("sees a submodule the repository's or the person's configuration says to ignore: its raw capture is refused at commit, push and verify --range all the same", () => {
    const sub = cleanRepository();
    cpSync(path.join(PROJECT_ROOT, "examples", "sitting", "claude-code_session_end_2.1.261.1.json"), path.join(sub, "event.json"));
    g(sub, "add", "event.json");
    g(sub, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qm", "a capture");
    const { root } = sneakedPastOrigin();
    g(root, "reset", "-q", "--hard", "HEAD~1");
    g(root, "config", "diff.ignoreSubmodules", "all");
    expect(g(root, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "vendor/sub").code).toBe(0);
    g(root, "config", "-f", ".gitmodules", "submodule.vendor/sub.ignore", "all");
    g(root, "config", "submodule.vendor/sub.ignore", "all");
    g(root, "add", ".gitmodules");
    refusedAtEveryStep(root, "an ignored submodule", "vendor/sub/event.json", ["--range", "HEAD~1..HEAD"]);
  });

  it("verify of the working tree reads the files of a repository checked out inside it: a submodule's, tracked or not, and one git add -A would add as a submodule; a submodule never checked out holds nothing here and passes", () => {
    const sub = cleanRepository();
    const root = repo();
    expect(g(root, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "vendor/sub").code).toBe(0);
    expect(g(root, "commit", "-qm", "a clean submodule").code).toBe(0);
    expect(clear(["verify"], { cwd: root }).code).toBe(0);
    const capture = path.join(PROJECT_ROOT, "examples", "sitting", "claude-code_session_end_2.1.261.1.json");
    // In the submodule's working tree, not committed there: what its next commit, and this repository's after it, may name.
    cpSync(capture, path.join(root, "vendor", "sub", "event.json"));
    const untracked = clear(["verify"], { cwd: root });
    expect(untracked.code, untracked.stdout).toBe(1);
    expect(untracked.stdout).toContain("vendor/sub/event.json");
    g(path.join(root, "vendor", "sub"), "add", "event.json");
    g(path.join(root, "vendor", "sub"), "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qm", "a capture");
    const tracked = clear(["verify"], { cwd: root });
    expect(tracked.code, tracked.stdout).toBe(1);
    expect(tracked.stdout).toContain("vendor/sub/event.json");
    // A clone that never ran git submodule update has an empty folder there: nothing of it is on this machine.
    const clone = tempDir("clear-clone-");
    g(clone, "clone", "-q", root, ".");
    expect(clear(["verify"], { cwd: clone }).code).toBe(0);
    // A repository inside the working tree, untracked: git add -A adds it as a submodule.
    const nested = path.join(clone, "nested");
    mkdirSync(nested);
    execFileSync("git", ["init", "-q"], { cwd: nested });
    cpSync(capture, path.join(nested, "event.json"));
    const embedded = clear(["verify"], { cwd: clone });
    expect(embedded.code, embedded.stdout).toBe(1);
    expect(embedded.stdout).toContain("nested/event.json");
  });

  it("verify --rev and --range read what travels with the commit named, as push does: a raw capture as the commit's message, or as an annotated tag's that the name stands for, is refused", () => {
    const root = repo();
    const capture = path.join(root, "captures-inbox", "claude-code_session_end_2.1.261.1.json");
    const commit = g(root, "commit-tree", "HEAD^{tree}", "-p", "HEAD", "-F", capture).out.trim();
    const byMessage = clear(["verify", "--rev", commit], { cwd: root });
    expect(byMessage.code, byMessage.stdout).toBe(1);
    expect(byMessage.stdout).toContain("(its headers and message)");
    g(root, "tag", "-a", "-F", capture, "v1", "HEAD");
    g(root, "tag", "-a", "-m", "a release", "v2", "HEAD");
    for (const args of [["verify", "--rev", "v1"], ["verify", "--range", "HEAD..v1"]]) {
      const r = clear(args, { cwd: root });
      expect(r.code, args.join(" ")).toBe(1);
      expect(r.stdout, args.join(" ")).toContain("tag v1 (its headers and message)");
    }
    expect(clear(["verify", "--rev", "v2"], { cwd: root }).code).toBe(0);
    expect(clear(["verify", "--range", "HEAD..v2"], { cwd: root }).code).toBe(0);
  });

  it("judges a link's target as a file's bytes: a raw capture stored as a link's blob is refused at commit, by verify --rev and at push; an ordinary link passes", () => {
    const { root } = sneakedPastOrigin();
    g(root, "reset", "-q", "--hard", "HEAD~1");
    symlinkSync("../README.md", path.join(root, "docs-link"));
    g(root, "add", "docs-link");
    expect(g(root, "commit", "-qm", "an ordinary link").code).toBe(0);
    const blob = g(root, "hash-object", "-w", path.join(PROJECT_ROOT, "examples", "sitting", "claude-code_session_end_2.1.261.1.json")).out.trim();
    g(root, "update-index", "--add", "--cacheinfo", `120000,${blob},notes/link`);
    refusedAtEveryStep(root, "a link", "notes/link", ["--rev", "HEAD"]);
    expect(clear(["verify", "--rev", "HEAD~1"], { cwd: root }).code).toBe(0);
  });

  it("verify --range names the range, not its last commit, for a rewrite that only the range as a whole makes", () => {
    const root = acceptedAndPushed();
    const accepted = g(root, "rev-parse", "HEAD").out.trim();
    g(root, "reset", "-q", "--soft", "HEAD~1");
    rewriteAccepted(root);
    expect(g(root, "commit", "-qm", "accepted").code).toBe(0);
    expect(g(root, "commit", "-q", "--allow-empty", "-m", "later").code).toBe(0);
    const tip = g(root, "rev-parse", "HEAD").out.trim().slice(0, 12);
    const range = `${accepted}..HEAD`;
    const verbose = clear(["verify", "--range", range, "--verbose"], { cwd: root });
    expect(verbose.code, verbose.stdout).toBe(1);
    expect(verbose.stdout).toContain(`range ${range} as a whole:\n  `);
    expect(verbose.stdout).not.toContain(tip);
    const grouped = clear(["verify", "--range", range], { cwd: root });
    expect(grouped.stdout).toContain(`range ${range} as a whole CLEARANCE.md`);
    expect(grouped.stdout).not.toContain(tip);
    const json = clearJson(["verify", "--range", range], { cwd: root }).json as unknown as { commits: unknown[]; range: { range: string; findings: { code: string }[] }; findings: { code: string }[] };
    expect(json.commits).toEqual([]);
    expect(json.range.range).toBe(range);
    expect(json.range.findings.map((f) => f.code)).toEqual(["accepted-batch-rewritten"]);
    expect(json.findings.map((f) => f.code)).toEqual(["accepted-batch-rewritten"]);
  });

  it("in a shallow clone whose history stops at a commit holding an accepted batch, verify --rev and pre-push refuse to answer (exit 2) rather than pass a rewrite they cannot see", () => {
    const root = repo();
    cleared(root, "ACCEPT");
    expect(g(root, "commit", "-qm", "accepted").code).toBe(0);
    // The batch rewritten to claim other bytes, its digest worked out again, committed past the hook.
    rewriteAccepted(root);
    expect(g(root, "commit", "-qm", "rewritten", "--no-verify").code).toBe(0);
    const ci = path.join(tempDir("clear-shallow-"), "ci");
    expect(g(path.dirname(ci), "clone", "-q", "--depth", "1", "--branch", "main", `file://${root}`, ci).code).toBe(0);
    const r = clearJson(["verify", "--rev", "HEAD"], { cwd: ci });
    expect(r.code).toBe(2);
    expect(r.json.error).toContain("shallow clone");
    // Pushed from there to a destination that has none of it, the commit is refused the same way.
    const remote = tempDir("clear-remote-");
    execFileSync("git", ["init", "-q", "--bare"], { cwd: remote });
    expect(clear(["hooks", "install"], { cwd: ci }).code).toBe(0);
    const push = g(ci, "push", "-q", remote, "main");
    expect(push.code).not.toBe(0);
    expect(push.out).toContain("shallow clone");
    // With the parent fetched, the rewrite is named.
    expect(g(ci, "fetch", "-q", "--deepen=1").code).toBe(0);
    const deeper = clearJson(["verify", "--rev", "HEAD"], { cwd: ci });
    expect(deeper.code).toBe(1);
    expect((deeper.json.findings as { code: string }[]).map((f) => f.code)).toEqual(["accepted-batch-rewritten"]);
  });

  it("a commit that mends a broken clear.config.json is judged against its parent in the default layout, never stopped by the parent's config", () => {
    const root = repo();
    writeFileSync(path.join(root, "clear.config.json"), "{");
    g(root, "add", "clear.config.json");
    expect(g(root, "commit", "-qm", "broken", "--no-verify").code).toBe(0);
    const broken = g(root, "rev-parse", "HEAD").out.trim();
    writeFileSync(path.join(root, "clear.config.json"), "{}\n");
    g(root, "add", "clear.config.json");
    expect(g(root, "commit", "-qm", "mended").code).toBe(0);
    const range = clear(["verify", "--range", `${broken}..HEAD`], { cwd: root });
    expect(range.code, range.stdout + range.stderr).toBe(0);
    expect(clear(["verify", "--rev", "HEAD"], { cwd: root }).code).toBe(0);
  });

  it("refuses to push a commit made with --no-verify, also on a new branch and a tag; allows a commit touching no fixture", () => {
    const root = repo();
    const remote = tempDir("clear-remote-");
    execFileSync("git", ["init", "-q", "--bare"], { cwd: remote });
    g(root, "remote", "add", "origin", remote);
    writeFileSync(path.join(root, "notes.txt"), "n\n");
    g(root, "add", "notes.txt");
    expect(g(root, "commit", "-qm", "notes").code).toBe(0);
    expect(g(root, "push", "-q", "origin", "main").code).toBe(0);
    g(root, "add", "-f", "captures-inbox/claude-code_session_end_2.1.261.1.json");
    expect(g(root, "commit", "-qm", "sneaky", "--no-verify").code).toBe(0);
    expect(g(root, "push", "-q", "origin", "main").code).not.toBe(0);
    expect(g(root, "push", "-q", "origin", "main:side").code).not.toBe(0);
    g(root, "tag", "v1");
    expect(g(root, "push", "-q", "origin", "v1").code).not.toBe(0);
  });

  it("refuses to push again a commit a forced push took out of the destination, while the remote-tracking refs still say it has it", () => {
    const { root, remote, clean } = sneakedPastOrigin();
    expect(g(root, "push", "-q", "--no-verify", "origin", "main").code).toBe(0);
    // Someone takes the capture out of the destination by a forced push; this clone's origin/main still names it.
    g(remote, "update-ref", "refs/heads/main", clean);
    expect(g(root, "rev-parse", "origin/main").out.trim()).not.toBe(clean);
    const again = g(root, "push", "-q", "origin", "main");
    expect(again.code, again.out).not.toBe(0);
    expect(again.out).toContain("captures-inbox/claude-code_session_end_2.1.261.1.json");
    expect(g(remote, "rev-parse", "refs/heads/main").out.trim()).toBe(clean);
    // As a branch the destination does not have, with its tracking ref gone stale the same way.
    g(root, "update-ref", "refs/remotes/origin/side", "HEAD");
    expect(g(root, "push", "-q", "origin", "main:side").code).not.toBe(0);
    // Also where the branch's name holds what a replacement pattern would read ("$&"): its own tracking ref is the one looked at.
    g(root, "update-ref", "refs/remotes/origin/side$&", "HEAD");
    const dollar = g(root, "push", "-q", "origin", "main:side$&");
    expect(dollar.code, dollar.out).not.toBe(0);
    expect(dollar.out).toContain("captures-inbox/claude-code_session_end_2.1.261.1.json");
    // Once fetched, the refs are the destination's again: a clean commit on top of the clean tip goes.
    expect(g(root, "fetch", "-q", "--prune", "origin").code).toBe(0);
    g(root, "reset", "-q", "--hard", clean);
    writeFileSync(path.join(root, "notes.txt"), "n\n");
    g(root, "add", "notes.txt");
    expect(g(root, "commit", "-qm", "notes").code).toBe(0);
    const ok = g(root, "push", "-q", "origin", "main");
    expect(ok.code, ok.out).toBe(0);
  });

  it("refuses to push onto a branch the destination has a commit of a branch taken off the destination since the last fetch, whose remote-tracking ref still names it", () => {
    const { root, remote, clean } = sneakedPastOrigin();
    expect(g(root, "push", "-q", "--no-verify", "origin", "main:feature").code).toBe(0);
    g(root, "reset", "-q", "--hard", clean);
    // The branch holding the capture is deleted at the destination; this clone's origin/feature still names it.
    g(remote, "update-ref", "-d", "refs/heads/feature");
    expect(g(root, "rev-parse", "--verify", "-q", "origin/feature").code).toBe(0);
    g(root, "merge", "-q", "--ff-only", "origin/feature");
    const pushed = g(root, "push", "-q", "origin", "main");
    expect(pushed.code, pushed.out).not.toBe(0);
    expect(pushed.out).toContain("captures-inbox/claude-code_session_end_2.1.261.1.json");
    expect(g(remote, "rev-parse", "refs/heads/main").out.trim()).toBe(clean);
  });

  it("refuses a new branch made on a remote-tracking ref the destination no longer has: what the destination has is asked of it, never taken from the tracking refs", () => {
    for (const how of ["deleted", "forced"]) {
      const { root, remote, clean } = sneakedPastOrigin("notes.txt");
      expect(g(root, "push", "-q", "--no-verify", "origin", "main:feature").code).toBe(0);
      g(root, "reset", "-q", "--hard", clean);
      // The destination takes the capture out (the branch deleted, or forced back); this clone's origin/feature still names it.
      if (how === "deleted") g(remote, "update-ref", "-d", "refs/heads/feature");
      else g(remote, "update-ref", "refs/heads/feature", clean);
      g(root, "checkout", "-q", "-b", "mywork", "origin/feature");
      writeFileSync(path.join(root, "hello.md"), "hi\n");
      g(root, "add", "hello.md");
      expect(g(root, "commit", "-qm", "work").code).toBe(0);
      const pushed = g(root, "push", "-q", "origin", "mywork");
      expect(pushed.code, `${how}: ${pushed.out}`).not.toBe(0);
      expect(pushed.out, how).toContain("notes.txt");
      expect(g(remote, "rev-parse", "--verify", "-q", "refs/heads/mywork").code, how).not.toBe(0);
    }
  });

  it("asks the destination itself: where url.<base>.insteadOf would send git ls-remote to another repository, none of its refs counts and every pushed commit is checked", () => {
    const { root, remote } = sneakedPastOrigin("notes.txt");
    // An internal mirror that has the capture's commit; fetches of origin are sent there, pushes go to origin as given.
    const mirror = tempDir("clear-mirror-");
    execFileSync("git", ["init", "-q", "--bare"], { cwd: mirror });
    expect(g(root, "push", "-q", "--no-verify", mirror, "main:raw").code).toBe(0);
    g(root, "config", `url.${mirror}.insteadOf`, remote);
    g(root, "config", `url.${remote}.pushInsteadOf`, remote);
    const pushed = g(root, "push", "-q", "origin", "main:feature");
    expect(pushed.code, pushed.out).not.toBe(0);
    expect(pushed.out).toContain("notes.txt");
    expect(g(remote, "rev-parse", "--verify", "-q", "refs/heads/feature").code).not.toBe(0);
  });

  it("lists what a push brings however many refs the destination has: tens of thousands of them, past what a command line holds", () => {
    const { root, clean } = sneakedPastOrigin("notes.txt");
    const tip = g(root, "rev-parse", "HEAD").out.trim();
    // 80,000 revisions of 41 characters: 3.3 MB, where a command line holds 2 MB.
    expect(revList([tip, "--not", ...Array.from({ length: 80_000 }, () => clean)], root)).toEqual([tip]);
  });

  it("a refused push of one commit says it checked 1 commit", () => {
    const { root, remote, clean } = sneakedPastOrigin();
    const tip = g(root, "rev-parse", "HEAD").out.trim();
    const r = spawnSync(process.execPath, [CLI, "gate", "pre-push", "origin", remote], { cwd: root, input: `refs/heads/main ${tip} refs/heads/main ${clean}\n`, encoding: "utf8" });
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toContain("(checked 1 commit: the pushed refs)");
  });

  it("under the pre-commit framework, which keeps git's ref lines, a forced push that took a commit out is seen from PRE_COMMIT_FROM_REF, and that commit is refused again", () => {
    const { root, remote, clean } = sneakedPastOrigin();
    expect(g(root, "push", "-q", "--no-verify", "origin", "main").code).toBe(0);
    const tip = g(root, "rev-parse", "HEAD").out.trim();
    const hook = (from: string): ReturnType<typeof spawnSync> => spawnSync(process.execPath, [CLI, "gate", "pre-push"], {
      cwd: root, input: "", encoding: "utf8",
      env: { ...process.env, PRE_COMMIT: "1", PRE_COMMIT_REMOTE_NAME: "origin", PRE_COMMIT_LOCAL_BRANCH: "refs/heads/main", PRE_COMMIT_REMOTE_BRANCH: "refs/heads/main", PRE_COMMIT_FROM_REF: from, PRE_COMMIT_TO_REF: tip },
    });
    // The destination has the tip, as its tracking ref says: nothing it has is checked again.
    const same = hook(tip);
    expect(same.status, String(same.stderr)).toBe(0);
    // Someone takes the capture out of the destination by a forced push; pre-commit names its new value, origin/main the old.
    g(remote, "update-ref", "refs/heads/main", clean);
    const again = hook(clean);
    expect(again.status, String(again.stderr)).toBe(1);
    expect(again.stderr).toContain("captures-inbox/claude-code_session_end_2.1.261.1.json");
    // One commit is one: "checked 1 commit", never "1 commits".
  });

  it("refuses a payload committed compressed, which no fast path lets through, naming the file and how it was written", () => {
    const root = repo();
    mkdirSync(path.join(root, "data"), { recursive: true });
    const payload = JSON.stringify({ session_id: "9f1c2a7e", cwd: "/home/user/proj", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" } });
    writeFileSync(path.join(root, "data", "session.bin"), gzipSync(Buffer.from(payload)));
    g(root, "add", "data/session.bin");
    const commit = g(root, "commit", "-qm", "compressed");
    expect(commit.code).not.toBe(0);
    expect(commit.out).toContain("data/session.bin");
    expect(commit.out).toContain("written as compressed");
    writeFileSync(path.join(root, "data", "session.bin"), gzipSync(Buffer.from("build log\n".repeat(100))));
    g(root, "add", "data/session.bin");
    expect(g(root, "commit", "-qm", "a compressed log").code).toBe(0);
    // Streams no header names: brotli (HTTP's br) and raw deflate, alone or as base64.
    for (const [name, bytes] of [
      ["session.br", brotliCompressSync(Buffer.from(payload))],
      ["session.deflate", deflateRawSync(Buffer.from(payload))],
      ["session.txt", Buffer.from(`body: ${brotliCompressSync(Buffer.from(payload)).toString("base64")}\n`)],
    ] as const) {
      writeFileSync(path.join(root, "data", name), bytes);
      g(root, "add", `data/${name}`);
      const refused = g(root, "commit", "-qm", name);
      expect(refused.code, name).not.toBe(0);
      expect(refused.out).toContain(`data/${name}`);
      g(root, "rm", "-q", "--cached", `data/${name}`);
    }
    // Bytes no stream gives text from (an image's, a brotli log's) go through.
    writeFileSync(path.join(root, "data", "log.br"), brotliCompressSync(Buffer.from("build log\n".repeat(100))));
    writeFileSync(path.join(root, "data", "noise.bin"), Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 2654435761) >>> 24)));
    g(root, "add", "data/log.br", "data/noise.bin");
    const clean = g(root, "commit", "-qm", "a log and noise");
    expect(clean.code, clean.out).toBe(0);
  });

  it("refuses a raw capture dumped as hex (xxd) at commit, naming the file and how it is written", () => {
    const root = repo();
    mkdirSync(path.join(root, "notes"), { recursive: true });
    const payload = Buffer.from(`${JSON.stringify({ session_id: "9f1c2a7e", cwd: "/home/user/proj", hook_event_name: "Stop", stop_hook_active: false }, null, 2)}\n`);
    const xxd = (payload.toString("hex").match(/.{1,32}/g) as string[]).map((line, i) => `${(i * 16).toString(16).padStart(8, "0")}: ${(line.match(/.{1,4}/g) as string[]).join(" ").padEnd(40)} ${payload.subarray(i * 16, i * 16 + 16).toString("latin1").replace(/[^\x20-\x7e]/g, ".")}`);
    writeFileSync(path.join(root, "notes", "stdin.txt"), `stdin of the hook:\n${xxd.join("\n")}\n`);
    g(root, "add", "notes/stdin.txt");
    const commit = g(root, "commit", "-qm", "a dump");
    expect(commit.code).not.toBe(0);
    expect(commit.out).toContain("notes/stdin.txt");
    expect(commit.out).toContain("written as hex");
    writeFileSync(path.join(root, "notes", "stdin.txt"), `digests:\n${Buffer.alloc(32, 0x5a).toString("hex")}\n${xxd.slice(0, 1).join("\n")}\n`);
    g(root, "add", "notes/stdin.txt");
    expect(g(root, "commit", "-qm", "digests and one line of a dump").code).toBe(0);
  });

  it("refuses a raw capture written as a Buffer's bytes, or as a logfmt line, at commit, naming the file and how it is written", () => {
    const root = repo();
    mkdirSync(path.join(root, "logs"), { recursive: true });
    const payload = { session_id: "9f1c2a7e", cwd: "/home/user/proj", hook_event_name: "Stop", stop_hook_active: false };
    const written: Record<string, [string, string]> = {
      "logs/stdin.json": [`${JSON.stringify({ at: "10:02", stdin: Buffer.from(JSON.stringify(payload)) })}\n`, "written as decimal bytes"],
      "logs/hooks.log": [`time=10:02 level=info ${Object.entries(payload).map(([k, v]) => `${k}=${String(v)}`).join(" ")}\n`, "written as name=value pairs"],
    };
    for (const [file, [text, form]] of Object.entries(written)) {
      writeFileSync(path.join(root, file), text);
      g(root, "add", file);
      const commit = g(root, "commit", "-qm", file);
      expect(commit.code, file).not.toBe(0);
      expect(commit.out).toContain(file);
      expect(commit.out).toContain(form);
      g(root, "reset", "-q");
      rmSync(path.join(root, file));
    }
    writeFileSync(path.join(root, "logs", "hooks.log"), `time=10:02 level=info msg="hook ran" took=12ms\n${JSON.stringify({ data: [...Buffer.from("plain build notes, nothing else here")] })}\n`);
    g(root, "add", "logs/hooks.log");
    expect(g(root, "commit", "-qm", "a log of no payload").code).toBe(0);
  });

  it("refuses a file still compressed past the last stream the check opens, and base64 of a stream inside a stream, at commit and at push", () => {
    const root = repo();
    mkdirSync(path.join(root, "data"), { recursive: true });
    const payload = Buffer.from(JSON.stringify({ session_id: "9f1c2a7e", cwd: "/home/user/proj", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" } }));
    const layers = (bytes: Buffer, n: number): Buffer => (n === 0 ? bytes : layers(gzipSync(bytes), n - 1));
    writeFileSync(path.join(root, "data", "session.bin"), layers(payload, 5));
    g(root, "add", "data/session.bin");
    const deep = g(root, "commit", "-qm", "five streams deep");
    expect(deep.code).not.toBe(0);
    expect(deep.out).toContain("data/session.bin");
    expect(deep.out).toContain("compressed more than 4 streams deep");
    g(root, "reset", "-q");
    writeFileSync(path.join(root, "data", "notes.txt"), `build notes\nblob: ${layers(payload, 2).toString("base64")}\n`);
    g(root, "add", "data/notes.txt");
    const encoded = g(root, "commit", "-qm", "base64 of two streams");
    expect(encoded.code).not.toBe(0);
    expect(encoded.out).toContain("data/notes.txt");
    expect(encoded.out).toContain("written as base64");
    expect(g(root, "commit", "-qm", "skipped", "--no-verify").code).toBe(0);
    const push = spawnSync(process.execPath, [path.join(PROJECT_ROOT, "dist", "cli.js"), "gate", "pre-push"], {
      cwd: root,
      input: `refs/heads/main ${g(root, "rev-parse", "HEAD").out.trim()} refs/heads/main ${"0".repeat(40)}\n`,
      encoding: "utf8",
    });
    expect(push.status, push.stderr).toBe(1);
    expect(push.stderr).toContain("data/notes.txt");
  });

  it("reads a Git LFS pointer with the object it stands for: a payload there is refused, a pointer whose object is not here cannot be shown clear", () => {
    const root = repo();
    const lfs = (bytes: Buffer, store = true): string => lfsPointer(root, bytes, store);
    const payload = Buffer.from(JSON.stringify({ session_id: "9f1c2a7e", cwd: "/home/user/proj", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" } }));
    writeFileSync(path.join(root, "session.log"), lfs(payload));
    g(root, "add", "session.log");
    const held = g(root, "commit", "-qm", "through lfs");
    expect(held.code).not.toBe(0);
    expect(held.out).toContain("session.log");
    expect(held.out).toContain("it holds a payload of a known host");
    writeFileSync(path.join(root, "session.log"), lfs(Buffer.from("elsewhere"), false));
    g(root, "add", "session.log");
    const missing = g(root, "commit", "-qm", "object not here");
    expect(missing.code).not.toBe(0);
    expect(missing.out).toContain("is not in the local store");
    writeFileSync(path.join(root, "session.log"), lfs(Buffer.from("a build log, nothing else\n")));
    g(root, "add", "session.log");
    expect(g(root, "commit", "-qm", "a log through lfs").code).toBe(0);
    // Every version git-lfs reads as its pointer's (the alpha's and the pre-release's too), and lines ended as Windows ends them.
    for (const [version, eol] of [["https://hawser.github.com/spec/v1", "\n"], ["http://git-media.io/v/2", "\n"], ["https://git-lfs.github.com/spec/v1", "\r\n"]]) {
      writeFileSync(path.join(root, "session.log"), lfsPointer(root, payload, true, version, eol));
      g(root, "add", "session.log");
      const older = g(root, "commit", "-qm", `through lfs, ${version}`);
      expect(older.code, version).not.toBe(0);
      expect(older.out, version).toContain("it holds a payload of a known host");
    }
    // As git-lfs reads one: blanks around it trimmed, an extension's line before its version line.
    const oid = createHash("sha256").update(payload).digest("hex");
    for (const odd of [`\n  version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize ${payload.length}\n\n`, `ext-0-foo sha256:${"0".repeat(64)}\nversion https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize ${payload.length}\n`]) {
      writeFileSync(path.join(root, "session.log"), odd);
      g(root, "add", "session.log");
      const read = g(root, "commit", "-qm", "an odd pointer");
      expect(read.code, odd).not.toBe(0);
      expect(read.out, odd).toContain("it holds a payload of a known host");
    }
  });

  it("refuses a payload committed as YAML or as JSON with comments, naming the file and the line; documentation that names the members goes through", () => {
    const root = repo();
    mkdirSync(path.join(root, "config"), { recursive: true });
    // No brace in the YAML: the gate's fast path must not let it through either.
    writeFileSync(path.join(root, "config", "hook-input.yaml"), "# saved from a session\nsession_id: 9f1c2a7e\ncwd: /home/user/proj\nhook_event_name: PreToolUse\ntool_name: Bash\n");
    writeFileSync(path.join(root, "case.jsonc"), '{\n  // what the host sent\n  "hook_event_name": "Stop",\n  "stop_hook_active": false, /* kept */\n}\n');
    g(root, "add", "config/hook-input.yaml");
    const yaml = clear(["gate", "pre-commit"], { cwd: root });
    expect(yaml.code).toBe(1);
    expect(yaml.stderr).toContain("config/hook-input.yaml line 2");
    expect(yaml.stderr).toContain("it holds a payload of a known host (hook-event-name, written as YAML)");
    g(root, "add", "case.jsonc");
    const both = clear(["gate", "pre-commit"], { cwd: root });
    expect(both.code).toBe(1);
    expect(both.stderr).toContain("case.jsonc line 1");
    const commit = g(root, "commit", "-qm", "payloads");
    expect(commit.code).not.toBe(0);
    expect(commit.out).toContain("raw-capture-committed");
    const verify = clearJson(["verify"], { cwd: root });
    expect(verify.code).toBe(1);
    const refused = (verify.json.findings as { code: string; file: string; line?: number }[]).filter((f) => f.code === "raw-capture-committed");
    expect(refused.map((f) => [f.file, f.line])).toEqual([["case.jsonc", 1], ["config/hook-input.yaml", 2]]);
    g(root, "rm", "-q", "--cached", "config/hook-input.yaml", "case.jsonc");
    writeFileSync(path.join(root, "HOOKS.md"), "# Hooks\n\nThe hook_event_name member names the event.\n\n| member | type |\n| --- | --- |\n| hook_event_name | string |\n\n```yaml\nproperties:\n  hook_event_name: {type: string}\n```\n");
    g(root, "add", "HOOKS.md");
    expect(g(root, "commit", "-qm", "docs").code).toBe(0);
  });

  it("keeps a foreign pre-commit hook, runs it first, and gives it back on uninstall", () => {
    const root = tempDir("clear-gate-");
    execFileSync("git", ["init", "-q"], { cwd: root });
    g(root, "config", "user.email", "t@example.invalid");
    g(root, "config", "user.name", "t");
    const foreign = path.join(root, ".git", "hooks", "pre-commit");
    writeFileSync(foreign, "#!/bin/sh\necho foreign refuses >&2\nexit 3\n");
    chmodSync(foreign, 0o755);
    expect(clear(["hooks", "install"], { cwd: root }).code).toBe(0);
    writeFileSync(path.join(root, "a.txt"), "a\n");
    g(root, "add", "a.txt");
    const r = g(root, "commit", "-qm", "a");
    expect(r.code).not.toBe(0);
    expect(r.out).toContain("foreign refuses");
    expect(existsSync(`${foreign}.pre-clear`)).toBe(true);
    clear(["hooks", "uninstall"], { cwd: root });
    expect(readFileSync(foreign, "utf8")).toContain("foreign refuses");
  });
});

describe("a broken rules folder of the repository", () => {
  /** A repository with one commit, pushed to a bare remote, whose own rules/ holds `file` with `text` (on disk, not committed). */
  function withRules(file: string, text: string): string {
    // The rules folder stays untracked: no file a change brings asks the raw-capture check for them.
    const root = repoWithRemote("clear-rules-broken-", { tool: false });
    mkdirSync(path.join(root, "rules", path.dirname(file)), { recursive: true });
    writeFileSync(path.join(root, "rules", file), text);
    return root;
  }

  /** The bundled homes.json with another placeholder: valid against its schema, refused when laid over the bundled rules. */
  const bundledHomesWith = (placeholder: string): string => {
    const homes = JSON.parse(readFileSync(path.join(PROJECT_ROOT, "rules", "homes.json"), "utf8")) as { placeholder: string };
    return JSON.stringify({ ...homes, placeholder });
  };

  const broken: [string, string, string, RegExp][] = [
    ["not JSON", "harnesses/extra.json", '{\n  "harness": "extra",\n}\n', /rules\/harnesses\/extra\.json: not valid JSON at line 3, column 1/],
    ["against its schema", "recipes/mine.json", '{ "name": 7 }\n', /rules\/recipes\/mine\.json: does not match recipe\.schema\.json at \//],
    ["a change to the bundled rules", "homes.json", bundledHomesWith("someone"), /rules\/homes\.json: at \/placeholder: differs from the bundled homes\.json/],
  ];

  for (const [what, file, text, said] of broken) {
    it(`is an error naming the file and place (${what}) in verify and the gate, with no candidate for the raw-capture check`, () => {
      const root = withRules(file, text);
      for (const args of [["verify"], ["verify", "--rev", "HEAD"], ["verify", "--range", "HEAD~0..HEAD"]]) {
        const r = clear(args, { cwd: root });
        expect(r.code, `${args.join(" ")}\n${r.stdout}${r.stderr}`).toBe(2);
        expect(r.stderr, args.join(" ")).toMatch(said);
      }
      const json = clearJson(["verify"], { cwd: root });
      expect(json.code).toBe(2);
      expect(json.json.ok).toBe(false);
      expect(String(json.json.error)).toMatch(said);
      // A staged change the fast path would let through goes to the whole gate, which checks the rules first.
      writeFileSync(path.join(root, "NOTES.md"), "notes\n");
      g(root, "add", "NOTES.md");
      const docs = clear(["gate", "pre-commit", "--verbose"], { cwd: root });
      expect(docs.code, docs.stdout + docs.stderr).toBe(2);
      expect(docs.stderr).toMatch(said);
      g(root, "commit", "-qm", "notes", "--no-verify");
      const head = g(root, "rev-parse", "HEAD").out.trim();
      const push = spawnSync(process.execPath, [path.join(PROJECT_ROOT, "dist", "cli.js"), "gate", "pre-push", "origin"], {
        cwd: root,
        input: `refs/heads/main ${head} refs/heads/main ${"0".repeat(40)}\n`,
        encoding: "utf8",
      });
      expect(push.status, push.stderr).toBe(2);
      expect(push.stderr).toMatch(said);
    });
  }

  it("the fast path sends a staged change, under rules/ or not, on to the whole gate where the repository has rules of its own: a broken folder of them is named", () => {
    const root = withRules("recipes/mine.json", '{ "name": 7 }\n');
    writeFileSync(path.join(root, "NOTES.md"), "notes\n");
    g(root, "add", "NOTES.md");
    // A plain commit too: the repository's rules may name captures the bundled ones do not.
    const plain = clear(["gate", "pre-commit"], { cwd: root });
    expect(plain.code, plain.stdout + plain.stderr).toBe(2);
    expect(plain.stderr).toMatch(/rules\/recipes\/mine\.json: does not match recipe\.schema\.json/);
    writeFileSync(path.join(root, "rules", "README.md"), "our rules\n");
    g(root, "add", "-f", "rules/README.md");
    const r = clear(["gate", "pre-commit"], { cwd: root });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toMatch(/rules\/recipes\/mine\.json: does not match recipe\.schema\.json/);
  });

  it("the fast path is one bundled module that shares git's staged listing with the whole gate after it", () => {
    const bundle = readFileSync(path.join(PROJECT_ROOT, "dist", "clearance", "gate-fast.bundle.js"), "utf8");
    const imports = [...bundle.matchAll(/^import\b[^;]*? from "([^"]+)";$/gm)].map((m) => m[1]);
    // Node's own modules and io/git.js, whose one listing of the index the whole gate reads again; nothing else of dist/.
    expect(imports.filter((i) => !i?.startsWith("node:"))).toEqual(["../io/git.js"]);
    expect(imports).not.toContain("node:zlib");
    expect(bundle).toMatch(/\bfunction couldHoldPayload\b/);
    expect(bundle).not.toMatch(/\bfunction stagedChanges\b/);
    expect(bundle).not.toMatch(/\bimport\(/);
  });

  it("a repository whose rules folder lays rules over the bundled ones has each commit read by the whole gate, which reads them", () => {
    const root = repo();
    // Node names each module it loads: the whole gate's own module shows whether it ran.
    const wholeGate = (): boolean => {
      const r = spawnSync(process.execPath, [CLI, "gate", "pre-commit"], { cwd: root, encoding: "utf8", env: { ...process.env, NODE_DEBUG: "esm" } });
      expect(r.status, r.stdout + r.stderr).toBe(0);
      return /Storing \S*\/dist\/clearance\/gate\.js/.test(r.stderr);
    };
    writeFileSync(path.join(root, "notes.md"), "notes\n");
    g(root, "add", "notes.md");
    expect(wholeGate()).toBe(false);
    const catalogue = { ...JSON.parse(readFileSync(path.join(PROJECT_ROOT, "rules", "harnesses", "codex.json"), "utf8")), harness: "acme", aliases: [], displayName: "Acme" };
    mkdirSync(path.join(root, "rules", "harnesses"), { recursive: true });
    writeFileSync(path.join(root, "rules", "harnesses", "acme.json"), JSON.stringify(catalogue, null, 2));
    g(root, "add", "rules");
    expect(g(root, "commit", "-qm", "rules: acme").code).toBe(0);
    // The same plain change, in a repository with rules of its own: the whole gate reads it.
    writeFileSync(path.join(root, "notes.md"), "more notes\n");
    g(root, "add", "notes.md");
    expect(wholeGate()).toBe(true);
  });

  it("a commit of accepted fixtures imports neither the output's check, substitution, the scan's rules, the renderers of findings nor node:crypto; verify of them neither", () => {
    const root = repo();
    cleared(root, "ACCEPT");
    // Node names each module it loads: what a clean commit costs in modules shows there.
    const loaded = (args: string[]): string[] => {
      const r = spawnSync(process.execPath, [CLI, ...args], { cwd: root, encoding: "utf8", env: { ...process.env, NODE_DEBUG: "esm" } });
      expect(r.status, r.stdout + r.stderr).toBe(0);
      return [...r.stderr.matchAll(/Storing (\S+)/g)].map((m) => m[1] as string);
    };
    for (const args of [["gate", "pre-commit"], ["verify"]]) {
      const modules = loaded(args);
      expect(modules.some((m) => m.endsWith("/dist/passes/verify.js")), args.join(" ")).toBe(true);
      expect(modules.filter((m) => /checked-output|\/passes\/substitute\/|\/scan-rules\/|\/render\/(?:human|grouped)\.js$|\/homes\.js$|^node:crypto$|^node:zlib$/.test(m)), args.join(" ")).toEqual([]);
    }
    // The output's check is still there for a refusal: a changed fixture is named.
    writeFileSync(path.join(root, "fixtures", "README.md"), '{"session_id":"9f1c2a7e","cwd":"/home/user/proj","hook_event_name":"Stop"}\n');
    g(root, "add", "fixtures/README.md");
    const refused = clear(["gate", "pre-commit"], { cwd: root });
    expect(refused.code, refused.stdout + refused.stderr).toBe(1);
    expect(refused.stderr).toContain("fixtures/README.md");
    // And verify's renderers for one: the finding, by code and file, before the verdict.
    const unverified = clear(["verify"], { cwd: root });
    expect(unverified.code, unverified.stdout + unverified.stderr).toBe(1);
    expect(unverified.stdout).toMatch(/BLOCK raw-capture-committed: 1 finding in 1 file\n[^]*fixtures\/README\.md[^]*\nNOT verified\n$/);
  });

  it("a bundle older than the module it was made from (compiled again since, by tsc alone) is passed over for that module", () => {
    const project = tempDir("clear-stale-bundle-");
    cpSync(path.join(PROJECT_ROOT, "dist"), path.join(project, "dist"), { recursive: true });
    for (const name of ["rules", "node_modules", "package.json"]) symlinkSync(path.join(PROJECT_ROOT, name), path.join(project, name));
    // A bundle that lets every commit through: the one that runs shows in a staged payload let through or not.
    const bundle = path.join(project, "dist", "clearance", "gate-fast.bundle.js");
    writeFileSync(bundle, "export function stagedIsPlainlyClear() { return true; }\n");
    const root = tempDir("clear-stale-bundle-repo-");
    execFileSync("git", ["init", "-q", "-b", "main"], { cwd: root });
    writeFileSync(path.join(root, "session.txt"), JSON.stringify({ session_id: "9f1c2a7e", cwd: "/home/user/proj", hook_event_name: "Stop", stop_hook_active: false }));
    g(root, "add", "session.txt");
    const gate = () => spawnSync(process.execPath, [path.join(project, "dist", "cli.js"), "gate", "pre-commit"], { cwd: root, encoding: "utf8" });
    const past = new Date(Date.now() - 3_600_000);
    utimesSync(bundle, past, past);
    const stale = gate();
    expect(stale.status, stale.stdout + stale.stderr).toBe(1);
    expect(stale.stderr).toContain("session.txt");
    const now = new Date();
    utimesSync(bundle, now, now);
    expect(gate().status).toBe(0);
  });

  it("a sound rules folder changes nothing: verify passes and a plain commit goes through the whole gate", () => {
    const root = withRules("urls.json", readFileSync(path.join(PROJECT_ROOT, "rules", "urls.json"), "utf8"));
    expect(clear(["verify"], { cwd: root }).code).toBe(0);
    writeFileSync(path.join(root, "NOTES.md"), "notes\n");
    g(root, "add", "NOTES.md");
    expect(clear(["gate", "pre-commit", "--verbose"], { cwd: root }).code).toBe(0);
  });
});

describe("a path that .gitattributes gives a filter other than Git LFS", () => {
  const payload = JSON.stringify({ session_id: "9f1c2a7e", cwd: "/home/user/proj", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" } });

  /** A clean filter that turns each letter thirteen places, as git-crypt stores ciphertext. */
  const ROT13 = "tr a-zA-Z n-za-mN-ZA-M";

  /** A repository whose files under secret/ git stores through a clean filter that turns each letter thirteen places (as git-crypt stores ciphertext). */
  function filteredRepo(): string {
    const root = repo();
    withFilter(root, "turn", ROT13, "secret/** filter=turn\nlocked/** filter=git-crypt diff=git-crypt\nbig/** filter=lfs\n");
    mkdirSync(path.join(root, "secret"));
    return root;
  }

  it("is refused at commit as unchecked, naming the file and the filter, where the stored bytes hide a payload from the check", () => {
    const root = filteredRepo();
    writeFileSync(path.join(root, "secret", "notes.txt"), `${payload}\n`);
    g(root, "add", "secret/notes.txt");
    // What git stores holds no member name the check knows.
    expect(g(root, "cat-file", "-p", ":secret/notes.txt").out).not.toContain("hook_event_name");
    const commit = g(root, "commit", "-qm", "filtered");
    expect(commit.code, commit.out).not.toBe(0);
    expect(commit.out).toContain("secret/notes.txt");
    expect(commit.out).toContain("filter=turn");
    const fast = clear(["gate", "pre-commit"], { cwd: root });
    expect(fast.code).toBe(1);
  });

  it("is refused whatever the file holds and whether or not the filter is set up here; LFS and unfiltered paths are not", () => {
    const root = filteredRepo();
    mkdirSync(path.join(root, "locked"));
    writeFileSync(path.join(root, "locked", "plan.md"), "a plan\n");
    writeFileSync(path.join(root, "secret", "empty.txt"), "");
    g(root, "add", "locked/plan.md", "secret/empty.txt");
    const commit = g(root, "commit", "-qm", "locked");
    expect(commit.code, commit.out).not.toBe(0);
    expect(commit.out).toContain("locked/plan.md");
    expect(commit.out).toContain("filter=git-crypt");
    expect(commit.out).not.toContain("secret/empty.txt");
    g(root, "reset", "-q");
    mkdirSync(path.join(root, "big"));
    writeFileSync(path.join(root, "big", "notes.md"), "not a pointer\n");
    writeFileSync(path.join(root, "notes.md"), "plain notes\n");
    g(root, "add", "big/notes.md", "notes.md", "secret/empty.txt");
    const plain = g(root, "commit", "-qm", "plain");
    expect(plain.code, plain.out).toBe(0);
  });

  it("is refused at push, by verify --rev, --range and on the working tree, for a commit made with --no-verify", () => {
    const root = filteredRepo();
    writeFileSync(path.join(root, "secret", "notes.txt"), `${payload}\n`);
    g(root, "add", "secret/notes.txt");
    expect(g(root, "commit", "-qm", "skipped", "--no-verify").code).toBe(0);
    const head = g(root, "rev-parse", "HEAD").out.trim();
    const push = spawnSync(process.execPath, [path.join(PROJECT_ROOT, "dist", "cli.js"), "gate", "pre-push"], { cwd: root, input: `refs/heads/main ${head} refs/heads/main ${"0".repeat(40)}\n`, encoding: "utf8" });
    expect(push.status, push.stderr).toBe(1);
    expect(push.stderr).toContain("secret/notes.txt");
    for (const args of [["verify", "--rev", "HEAD"], ["verify", "--range", "HEAD~1..HEAD"], ["verify"]]) {
      const r = clearJson(args, { cwd: root });
      expect(r.code, args.join(" ")).toBe(1);
      expect(JSON.stringify(r.json.findings), args.join(" ")).toContain("filter=turn");
    }
  });

  it("a name in bytes that are not UTF-8 is asked about by those bytes: the filter its pattern gives refuses it at commit, at push and by verify --rev; a clean file under such a name goes through", () => {
    const root = repo();
    // The filter writes each letter as its mirror (a to z) and the braces, quotes and colons as other
    // marks: what git stores reads as no JSON and no turn the check knows, so only the filter keeps it from the fast path.
    const flatten = `tr 'a-zA-Z{}":' 'zyxwvutsrqponmlkjihgfedcbaZYXWVUTSRQPONMLKJIHGFEDCBA()!='`;
    g(root, "config", "filter.turn.clean", flatten);
    g(root, "config", "filter.turn.smudge", flatten);
    // The pattern and the name hold the byte 0xFF, which is no UTF-8: read as text, both show U+FFFD, and git would match neither.
    const latin1 = (text: string): Buffer => Buffer.from(text, "latin1");
    writeFileSync(path.join(root, ".gitattributes"), latin1("*.\xffx filter=turn\n"));
    g(root, "add", ".gitattributes");
    expect(g(root, "commit", "-qm", "attributes").code).toBe(0);
    // The file alone is staged, so the fast path reads the commit first.
    rmSync(path.join(root, "captures-inbox"), { recursive: true });
    writeFileSync(Buffer.concat([Buffer.from(`${root}/`), latin1("notes.\xffx")]), `${payload}\n`);
    g(root, "add", "-A");
    const commit = g(root, "commit", "-qm", "filtered");
    expect(commit.code, commit.out).not.toBe(0);
    expect(commit.out).toContain("filter=turn");
    expect(g(root, "commit", "-qm", "skipped", "--no-verify").code).toBe(0);
    const head = g(root, "rev-parse", "HEAD").out.trim();
    const push = spawnSync(process.execPath, [path.join(PROJECT_ROOT, "dist", "cli.js"), "gate", "pre-push"], { cwd: root, input: `refs/heads/main ${head} refs/heads/main ${"0".repeat(40)}\n`, encoding: "utf8" });
    expect(push.status, push.stderr).toBe(1);
    expect(push.stderr).toContain("filter=turn");
    const rev = clearJson(["verify", "--rev", "HEAD"], { cwd: root });
    expect(rev.code).toBe(1);
    expect(JSON.stringify(rev.json.findings)).toContain("filter=turn");
    // No filter, no refusal: a file of notes under a name in Latin-1 is committed.
    const plain = repo();
    rmSync(path.join(plain, "captures-inbox"), { recursive: true });
    writeFileSync(Buffer.concat([Buffer.from(`${plain}/`), latin1("caf\xe9.txt")]), "plain notes\n");
    g(plain, "add", "-A");
    const clean = g(plain, "commit", "-qm", "a Latin-1 name");
    expect(clean.code, clean.out).toBe(0);
  });

  it("a README.md or .gitignore the fixtures folder and the inbox may hold is read as stored too: through a filter it is refused as unchecked, through LFS with its object", () => {
    const root = repo();
    withFilter(root, "turn", ROT13, "fixtures/README.md filter=turn\ncaptures-inbox/.gitignore filter=turn\n");
    for (const file of ["fixtures/README.md", "captures-inbox/.gitignore"]) {
      mkdirSync(path.join(root, path.dirname(file)), { recursive: true });
      writeFileSync(path.join(root, file), `${payload}\n`);
      g(root, "add", "-f", file);
      expect(g(root, "cat-file", "-p", `:${file}`).out).not.toContain("hook_event_name");
      const commit = g(root, "commit", "-qm", "a readme");
      expect(commit.code, commit.out).not.toBe(0);
      expect(commit.out).toContain(file);
      expect(commit.out).toContain("filter=turn");
      expect(g(root, "commit", "-qm", "skipped", "--no-verify").code).toBe(0);
      for (const args of [["verify", "--rev", "HEAD"], ["verify"]]) {
        const r = clearJson(args, { cwd: root });
        expect(r.code, args.join(" ")).toBe(1);
        expect(JSON.stringify(r.json.findings), `${file} ${args.join(" ")}`).toContain("filter=turn");
      }
      g(root, "rm", "-q", "--cached", file);
      expect(g(root, "commit", "-qm", "taken out", "--no-verify").code).toBe(0);
    }
    // A README under the fixtures folder that is an LFS pointer is read with its object.
    writeFileSync(path.join(root, ".gitattributes"), "");
    writeFileSync(path.join(root, "fixtures", "README.md"), lfsPointer(root, Buffer.from(payload)));
    g(root, "add", ".gitattributes", "fixtures/README.md");
    const pointer = g(root, "commit", "-qm", "a pointer");
    expect(pointer.code, pointer.out).not.toBe(0);
    expect(pointer.out).toContain("fixtures/README.md");
    expect(pointer.out).toContain("it holds a payload of a known host");
  });

  it("a fixture whose attributes make git check it out in other bytes (eol=crlf, working-tree-encoding, ident) is refused at commit, at push and by verify; -text and the attributes unset after them let it through", () => {
    for (const attribute of ["eol=crlf", "text eol=crlf", "text -crlf eol=crlf", "working-tree-encoding=UTF-16LE", "ident"]) {
      const root = acceptedAndPushed();
      // A commit that changes the root's .gitattributes alone reaches every fixture.
      writeFileSync(path.join(root, ".gitattributes"), `*.md text\nfixtures/** ${attribute}\n`);
      g(root, "add", ".gitattributes");
      const commit = g(root, "commit", "-qm", "attributes");
      expect(commit.code, attribute).not.toBe(0);
      expect(commit.out, attribute).toContain("fixture-checkout-changed");
      expect(commit.out, attribute).toContain("fixtures/claude-code/2.1.261/post_compact.json");
      expect(g(root, "commit", "-qm", "attributes", "--no-verify").code).toBe(0);
      const verify = clearJson(["verify"], { cwd: root });
      expect(verify.code, attribute).toBe(1);
      const refused = (verify.json.findings as { code: string; file: string; message: string }[]).filter((f) => f.code === "fixture-checkout-changed");
      expect(refused.length, attribute).toBeGreaterThan(0);
      expect(refused[0]?.message, attribute).toContain(attribute.replace(/^text (-crlf )?/, ""));
      expect(clearJson(["verify", "--rev", "HEAD"], { cwd: root }).code, attribute).toBe(1);
      const push = g(root, "push", "-q", "origin", "main");
      expect(push.code, attribute).not.toBe(0);
      expect(push.out, attribute).toContain("fixture-checkout-changed");
      writeFileSync(path.join(root, ".gitattributes"), `*.md text\nfixtures/** ${attribute}\nfixtures/** -text -working-tree-encoding -ident\n`);
      g(root, "add", ".gitattributes");
      // The commit that set them is amended: a push checks every commit it brings.
      const kept = g(root, "commit", "-q", "--amend", "-m", "fixtures byte for byte");
      expect(kept.code, kept.out).toBe(0);
      expect(clear(["verify"], { cwd: root }).code, attribute).toBe(0);
      expect(g(root, "push", "-q", "origin", "main").code, attribute).toBe(0);
    }
    // What leaves a checkout as git stores it: -crlf where text is not given, UTF-8 (git's own encoding), -text after eol=crlf.
    const root = acceptedAndPushed();
    // The record is kept apart from *.md's eol=crlf: the record-attributes tests say why.
    writeFileSync(path.join(root, ".gitattributes"), "fixtures/** -crlf eol=crlf working-tree-encoding=UTF-8\n*.md text eol=crlf\nCLEARANCE.md !eol\n");
    g(root, "add", ".gitattributes");
    const plain = g(root, "commit", "-qm", "attributes that change nothing");
    expect(plain.code, plain.out).toBe(0);
  });

  it("an accepted fixture whose stored bytes match its digest goes through a filter that keeps them", () => {
    const root = repo();
    withFilter(root, "keep", "cat", "fixtures/** filter=keep\n");
    cleared(root, "ACCEPT");
    const commit = g(root, "commit", "-qm", "accepted");
    expect(commit.code, commit.out).toBe(0);
  });
});
