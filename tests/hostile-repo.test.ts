import { execFileSync, spawn, spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { inOtherSpelling, repoPaths } from "../src/io/repo-tree.js";
import { CLI, clear, clearJson, PROJECT_ROOT, tempDir } from "./helpers.js";

// The record and the gate in a hostile repository: crafted inputs, links where the tool's files
// stand, exact paths, raw captures wherever and however they are committed, pushes of commits the
// destination lacks, CRLF records, concurrent runs. Real git, hooks from `clear hooks install`.

const g = (cwd: string, ...args: string[]): { code: number; out: string } => {
  const r = spawnSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.invalid", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.invalid" } });
  return { code: r.status ?? -1, out: r.stdout + r.stderr };
};

const SITTING = path.join(PROJECT_ROOT, "examples", "sitting");
const RAW = "claude-code_session_end_2.1.261.1.json";

function repo(): string {
  const root = tempDir("clear-hostile-repo-");
  g(root, "init", "-q", "-b", "main");
  writeFileSync(path.join(root, ".gitignore"), "/captures-inbox/*\n!/captures-inbox/README.md\n");
  g(root, "add", ".gitignore");
  g(root, "commit", "-qm", "init");
  expect(clear(["hooks", "install"], { cwd: root }).code).toBe(0);
  cpSync(SITTING, path.join(root, "captures-inbox"), { recursive: true });
  return root;
}

function accept(root: string): void {
  const file = path.join(root, "CLEARANCE.md");
  const text = readFileSync(file, "utf8");
  const note = "The tool never does. -->\n\n";
  expect(text.lastIndexOf(note)).toBeGreaterThan(0);
  writeFileSync(file, `${text.slice(0, text.lastIndexOf(note))}The tool never does. -->\nACCEPT\n${text.slice(text.lastIndexOf(note) + note.length)}`);
}

/** A repository whose one commit holds one file. */
function oneCommit(prefix: string, file: string, text: string): string {
  const root = tempDir(prefix);
  g(root, "init", "-q", "-b", "main");
  writeFileSync(path.join(root, file), text);
  g(root, "add", file);
  g(root, "commit", "-qm", file);
  return root;
}

/** A repository with the example sitting cleared, accepted and committed through the hooks. */
function acceptedRepo(): string {
  const root = repo();
  expect(clear(["run"], { cwd: root }).code).toBe(0);
  accept(root);
  g(root, "add", "fixtures", "CLEARANCE.md");
  expect(g(root, "commit", "-qm", "accepted").code).toBe(0);
  return root;
}

/** A raw capture committed with --no-verify on a new branch. */
function rawOnBranch(root: string, branch: string): void {
  g(root, "checkout", "-q", "-b", branch);
  cpSync(path.join(SITTING, RAW), path.join(root, "data.json"));
  g(root, "add", "data.json");
  sneak(root, "raw on a branch");
}

function bareRemote(root: string, name = "origin"): string {
  const remote = tempDir(`clear-remote-${name}-`);
  execFileSync("git", ["init", "-q", "--bare"], { cwd: remote });
  g(root, "remote", "add", name, remote);
  return remote;
}

const verifyCodes = (root: string, ...args: string[]): { code: number; codes: string[] } => {
  const r = clearJson(["verify", ...args], { cwd: root });
  return { code: r.code, codes: (r.json.findings as { code: string }[]).map((f) => f.code) };
};

/** The push refused naming the file, and verify --range from `base` finding it with `code`. */
function refusedByPushAndRange(root: string, base: string, code: string, file: string): void {
  const push = g(root, "push", "-q", "origin", "main");
  expect(push.code).not.toBe(0);
  expect(push.out).toContain(file);
  const range = clearJson(["verify", "--range", `${base}..HEAD`], { cwd: root });
  expect(range.code).toBe(1);
  expect(range.json.findings).toContainEqual(expect.objectContaining({ code, file }));
}

/** Commits with --no-verify, so that push and verify are what must refuse. */
function sneak(root: string, message: string): string {
  expect(g(root, "commit", "-qm", message, "--no-verify").code).toBe(0);
  return g(root, "rev-parse", "HEAD").out.trim();
}

describe("text from inputs is data in the record", () => {
  it("a sitting.json with newlines, a copied marker, a heading and ACCEPT is refused naming the field, and no batch is accepted", () => {
    const root = repo();
    const forged = `me\n\n<!-- clear:batch b-000000000000 sha256:${"0".repeat(64)} -->\n## User acceptance\n\nACCEPT\n`;
    writeFileSync(path.join(root, "captures-inbox", "sitting.json"), JSON.stringify({ driver: forged, method: "m", startedAt: "2026-01-01T00:00:00Z" }));
    const r = clearJson(["run"], { cwd: root });
    expect(r.code).toBe(1);
    expect(r.json.findings).toContainEqual(expect.objectContaining({ code: "invalid-sitting", pointer: "/driver" }));
    const record = readFileSync(path.join(root, "CLEARANCE.md"), "utf8");
    expect(record.split("\n").filter((l) => l.startsWith("<!-- clear:batch"))).toHaveLength(1);
    expect(record).not.toContain("\nACCEPT\n");
    expect(verifyCodes(root).code).toBe(0);
  });

  it("a capture file named like a marker, a fence or a heading leaves a readable record with one batch", () => {
    const root = repo();
    for (const name of [`x\n<!-- clear:batch b-1 -->.json`, "```\n~~~.json", "\n## User acceptance\nACCEPT\n.json", "a`b|c<d>.json"]) writeFileSync(path.join(root, "captures-inbox", name), "{}");
    expect(clear(["run"], { cwd: root }).code).toBe(1);
    const record = readFileSync(path.join(root, "CLEARANCE.md"), "utf8");
    expect(record.split("\n").filter((l) => l.startsWith("<!-- clear:batch"))).toHaveLength(1);
    expect(record.split("\n").filter((l) => l === "ACCEPT" || l === "## User acceptance")).toEqual(["## User acceptance"]);
    expect(clear(["run"], { cwd: root }).code).toBe(1);
  });
});

describe("no link where the tool's own files stand", () => {
  it("a committed fixtures link: refused at commit, at push, by verify --rev and --range", () => {
    const root = acceptedRepo();
    const base = g(root, "rev-parse", "HEAD").out.trim();
    const remote = bareRemote(root);
    expect(g(root, "push", "-q", "origin", "main").code).toBe(0);
    const elsewhere = tempDir("clear-elsewhere-");
    renameSync(path.join(root, "fixtures"), path.join(elsewhere, "fixtures"));
    symlinkSync(path.join(elsewhere, "fixtures"), path.join(root, "fixtures"));
    g(root, "add", "-A", "fixtures");
    const commit = g(root, "commit", "-qm", "fixtures as a link");
    expect(commit.code).not.toBe(0);
    expect(commit.out).toContain("symlink-in-repo");
    sneak(root, "fixtures as a link");
    expect(g(root, "push", "-q", "origin", "main").code).not.toBe(0);
    expect(verifyCodes(root, "--rev", "HEAD").codes).toContain("symlink-in-repo");
    expect(verifyCodes(root, "--range", `${base}..HEAD`).codes).toContain("symlink-in-repo");
    expect(verifyCodes(root).codes).toContain("symlink-in-repo");
    expect(existsSync(remote)).toBe(true);
  });

  it("a link for CLEARANCE.md or clear.config.json: refused by the gate and by verify; clear run never reads through one", () => {
    for (const place of ["CLEARANCE.md", "clear.config.json"]) {
      const root = acceptedRepo();
      const outside = path.join(tempDir("clear-outside-"), "target");
      writeFileSync(outside, place === "CLEARANCE.md" ? readFileSync(path.join(root, place)) : "{}");
      rmSync(path.join(root, place), { force: true });
      symlinkSync(outside, path.join(root, place));
      g(root, "add", "-A", place);
      expect(g(root, "commit", "-qm", `${place} as a link`).code).not.toBe(0);
      sneak(root, "link");
      const r = clearJson(["run"], { cwd: root });
      expect(r.code).toBe(2);
      expect(String(r.json.error)).toMatch(/symbolic link/);
      const v = clearJson(["verify", "--rev", "HEAD"], { cwd: root });
      expect(v.code).not.toBe(0);
      // A config that is a link stops every command before it reads anything (exit 2); the record's link is a finding.
      if (place === "CLEARANCE.md") expect((v.json.findings as { code: string }[]).map((f) => f.code)).toContain("symlink-in-repo");
      else expect(String(v.json.error)).toMatch(/symbolic link/);
    }
  });
});

describe("no link where the tool's own files stand, in a working tree no commit holds yet", () => {
  it("an untracked link at captures-inbox, fixtures or CLEARANCE.md (or where clear.config.json moves the inbox) is symlink-in-repo for verify; one at clear.config.json stops it (exit 2), naming the link", () => {
    const elsewhere = tempDir("clear-linked-");
    const layouts: [string, string | null][] = [["captures-inbox", null], ["fixtures", null], ["CLEARANCE.md", null], ["inbox/raw", JSON.stringify({ paths: { capturesInbox: "inbox/raw" } })]];
    for (const [place, config] of layouts) {
      const root = tempDir("clear-fresh-link-");
      g(root, "init", "-q", "-b", "main");
      if (config !== null) writeFileSync(path.join(root, "clear.config.json"), config);
      mkdirSync(path.dirname(path.join(root, place)), { recursive: true });
      symlinkSync(elsewhere, path.join(root, place));
      const r = clearJson(["verify"], { cwd: root });
      expect(r.code, place).toBe(1);
      expect(r.json.findings, place).toEqual([expect.objectContaining({ code: "symlink-in-repo", file: place, severity: "block" })]);
      // Staged, it is said once.
      g(root, "add", "-A");
      expect(verifyCodes(root).codes, place).toEqual(["symlink-in-repo"]);
    }
    const root = tempDir("clear-fresh-link-");
    g(root, "init", "-q", "-b", "main");
    writeFileSync(path.join(elsewhere, "config.json"), "{}");
    symlinkSync(path.join(elsewhere, "config.json"), path.join(root, "clear.config.json"));
    const r = clearJson(["verify"], { cwd: root });
    expect(r.code).toBe(2);
    expect(String(r.json.error)).toMatch(/clear\.config\.json: is a symbolic link/);
  });
});

describe("exact paths", () => {
  for (const name of ["pre\ttool.json", "pre\ntool.json", "-rf.json", "\"quoted\".json", "ñandú é.json"]) {
    it(`a fixture path ${JSON.stringify(name)} that no batch lists: refused at commit, at push and by verify`, () => {
      const root = acceptedRepo();
      bareRemote(root);
      expect(g(root, "push", "-q", "origin", "main").code).toBe(0);
      const file = path.join(root, "fixtures", "claude-code", "2.1.261", name);
      writeFileSync(file, readFileSync(path.join(root, "fixtures", "claude-code", "2.1.261", "session_end.json")));
      g(root, "add", "--", file);
      expect(g(root, "commit", "-qm", "odd name").code).not.toBe(0);
      sneak(root, "odd name");
      expect(g(root, "push", "-q", "origin", "main").code).not.toBe(0);
      const v = clearJson(["verify", "--rev", "HEAD"], { cwd: root });
      expect(v.json.findings).toContainEqual(expect.objectContaining({ code: "fixture-not-accepted", file: `fixtures/claude-code/2.1.261/${name}` }));
    });
  }

  /** A path naming a place in another spelling, committed, pushed and verified: refused each time. */
  const refusedEverywhere = (name: string): void => {
    const root = acceptedRepo();
    bareRemote(root);
    expect(g(root, "push", "-q", "origin", "main").code).toBe(0);
    const base = g(root, "rev-parse", "HEAD").out.trim();
    mkdirSync(path.join(root, path.dirname(name)), { recursive: true });
    writeFileSync(path.join(root, name), "# notes\n");
    g(root, "add", "-f", "--", name);
    const commit = g(root, "commit", "-qm", "other case");
    expect(commit.code, name).not.toBe(0);
    expect(commit.out).toContain("place-in-other-spelling");
    sneak(root, "other case");
    expect(g(root, "push", "-q", "origin", "main").code, name).not.toBe(0);
    for (const args of [["--rev", "HEAD"], ["--range", `${base}..HEAD`], []]) {
      expect(clearJson(["verify", ...args], { cwd: root }).json.findings, `${name} ${args.join(" ")}`).toContainEqual(expect.objectContaining({ code: "place-in-other-spelling", file: name }));
    }
  };

  it("a path naming a place in another spelling, where a checkout on macOS or Windows puts it: refused at commit, at push, by verify --rev, --range and on disk", () => {
    for (const name of ["Fixtures/claude-code/notes.txt", "FIXTURES/a.md", "clearance.md", "Captures-Inbox/README.txt", "Clear.Config.json", "fixtures\u200c/a.md", "fixtures./a.md", "fixtures /a.md"]) refusedEverywhere(name);
  });

  it("a place's NTFS short name (CLEARA~1.MD, FIXTUR~1), which names the place on a volume that keeps short names: refused at commit, at push, by verify --rev, --range and on disk", () => {
    for (const name of ["CLEARA~1.MD", "FIXTUR~1/a.md"]) refusedEverywhere(name);
  });
});

describe("a place's NTFS short name (8.3)", () => {
  it("is another spelling of it; a name with a tilde that is no place's short name is not", () => {
    const layout = repoPaths({});
    const places = ["CLEARA~1.MD", "cleara~2.md", "CLEARA~1", "FIXTUR~1/x.txt", "FIXTUR~12/claude-code/a.json", "CAPTUR~1/README.txt", "CLEARC~1.JSO"];
    const others = ["notes~1.txt", "docs/FIXTUR~1/x", "FIXTUR~/x", "CLEARA~1.TXT", "backup~1.md", "fixtur~a/x"];
    expect(inOtherSpelling([...places, ...others], layout)).toEqual(places);
  });
});

describe("a place's other spelling, as the file systems fold letters, and after a layout moves", () => {
  it("a long s, a dotless i or a ligature where a place's letters stand (APFS and NTFS fold them to plain letters): refused at commit, at push, by verify --rev, --range and on disk", () => {
    const root = acceptedRepo();
    bareRemote(root);
    expect(g(root, "push", "-q", "origin", "main").code).toBe(0);
    const base = g(root, "rev-parse", "HEAD").out.trim();
    for (const name of ["fixture\u017f/claude-code/2.1.261/pre_tool_use.json", "f\u0131xtures/a.md", "\ufb01xtures/a.md", "clear.con\ufb01g.j\u017fon"]) {
      mkdirSync(path.join(root, path.dirname(name)), { recursive: true });
      writeFileSync(path.join(root, name), '{"note": "no payload"}\n');
      g(root, "add", "-f", "--", name);
      const commit = g(root, "commit", "-qm", "folded spelling");
      expect(commit.code, name).toBe(1);
      expect(commit.out, name).toContain("place-in-other-spelling");
      sneak(root, "folded spelling");
      const push = g(root, "push", "-q", "origin", "main");
      expect(push.code, name).not.toBe(0);
      expect(push.out, name).toContain("place-in-other-spelling");
      for (const args of [["--rev", "HEAD"], ["--range", `${base}..HEAD`], []]) {
        const v = clearJson(["verify", ...args], { cwd: root });
        expect(v.code, `${name} ${args.join(" ")}`).toBe(1);
        expect(v.json.findings, `${name} ${args.join(" ")}`).toContainEqual(expect.objectContaining({ code: "place-in-other-spelling", file: name }));
      }
      g(root, "reset", "-q", "--hard", base);
      rmSync(path.join(root, name.split("/")[0] as string), { recursive: true, force: true });
    }
  });

  it("Fixtures/ added while clear.config.json moved the fixtures elsewhere is refused in the commit that moves them back: at commit, at push and by verify --range", () => {
    const root = acceptedRepo();
    bareRemote(root);
    expect(g(root, "push", "-q", "origin", "main").code).toBe(0);
    const base = g(root, "rev-parse", "HEAD").out.trim();
    const name = "Fixtures/claude-code/2.1.261/pre_tool_use.json";
    writeFileSync(path.join(root, "clear.config.json"), JSON.stringify({ paths: { fixtures: "data", clearance: "docs/none.md" } }));
    mkdirSync(path.join(root, path.dirname(name)), { recursive: true });
    writeFileSync(path.join(root, name), '{"note": "no payload"}\n');
    g(root, "add", "--", "clear.config.json", name);
    // Under the moved layout it names no place: the commit that moves the fixtures away goes through.
    expect(g(root, "commit", "-qm", "fixtures moved away").code).toBe(0);
    g(root, "rm", "-q", "--", "clear.config.json");
    const back = g(root, "commit", "-qm", "fixtures moved back");
    expect(back.code).toBe(1);
    expect(back.out).toContain("place-in-other-spelling");
    expect(back.out).toContain(name);
    sneak(root, "fixtures moved back");
    refusedByPushAndRange(root, base, "place-in-other-spelling", name);
  });
});

describe("a blob git does not have cannot be shown free of a payload", () => {
  it("a file whose blob is missing from the repository is refused by verify --rev and --range, naming it, never read as empty", () => {
    const root = acceptedRepo();
    const base = g(root, "rev-parse", "HEAD").out.trim();
    mkdirSync(path.join(root, "tests", "data"), { recursive: true });
    cpSync(path.join(SITTING, RAW), path.join(root, "tests", "data", "sample.txt"));
    g(root, "add", "--", "tests/data/sample.txt");
    sneak(root, "a raw capture");
    const blob = g(root, "rev-parse", "HEAD:tests/data/sample.txt").out.trim();
    // The object, loose as a commit leaves it, taken away: a damaged or partial repository.
    rmSync(path.join(root, ".git", "objects", blob.slice(0, 2), blob.slice(2)));
    expect(g(root, "cat-file", "-e", blob).code).not.toBe(0);
    for (const args of [["--rev", "HEAD"], ["--range", `${base}..HEAD`]]) {
      const v = clearJson(["verify", ...args], { cwd: root });
      expect(v.code, args.join(" ")).toBe(1);
      expect(v.json.findings, args.join(" ")).toContainEqual(expect.objectContaining({ code: "raw-capture-committed", file: "tests/data/sample.txt" }));
    }
  });

  it("an inbox README the index names by a blob git does not have is refused by verify of the working tree, as by the gate, never read as empty", () => {
    const root = acceptedRepo();
    // The index names the file by an id no object has: a damaged or partial repository.
    expect(g(root, "update-index", "--add", "--cacheinfo", `100644,${"12".repeat(20)},captures-inbox/README.md`).code).toBe(0);
    const v = clearJson(["verify"], { cwd: root });
    expect(v.code, JSON.stringify(v.json)).toBe(1);
    expect(v.json.findings).toMatchObject([{ code: "raw-capture-committed", file: "captures-inbox/README.md" }]);
    expect(JSON.stringify(v.json.findings)).toContain("git has no blob for it");
    expect(clear(["gate", "pre-commit"], { cwd: root }).code).toBe(1);
  });
});

describe("a configured path is a path, never git's pathspec magic", () => {
  for (const [key, place] of [["capturesInbox", ":inbox"], ["capturesInbox", "in*"], ["fixtures", ":(top)fx"], ["fixtures", "f?x"]] as const) {
    it(`paths.${key} ${JSON.stringify(place)}: what lands there is refused at commit, by verify --rev, --range and on disk`, () => {
      const root = oneCommit("clear-pathspec-", "clear.config.json", JSON.stringify({ paths: { [key]: place } }));
      expect(clear(["hooks", "install"], { cwd: root }).code).toBe(0);
      const folder = path.join(root, ...(key === "fixtures" ? [place, "claude-code", "2.1.261"] : [place]));
      mkdirSync(folder, { recursive: true });
      const name = key === "fixtures" ? "session_end.json" : RAW;
      cpSync(path.join(SITTING, RAW), path.join(folder, name));
      expect(g(root, "--literal-pathspecs", "add", "-f", "--", path.relative(root, path.join(folder, name))).code).toBe(0);
      expect(g(root, "commit", "-qm", "in a magic-named folder").code).not.toBe(0);
      sneak(root, "in a magic-named folder");
      const code = key === "fixtures" ? "fixture-not-accepted" : "raw-capture-committed";
      for (const args of [["verify", "--rev", "HEAD"], ["verify", "--range", "HEAD~1..HEAD"], ["verify"]]) {
        const v = clearJson(args, { cwd: root });
        expect(v.code, args.join(" ")).toBe(1);
        expect(v.json.findings, args.join(" ")).toContainEqual(expect.objectContaining({ code }));
      }
    });
  }

  it("a path with an empty segment is refused as a config, by the schema", () => {
    const root = tempDir("clear-pathspec-");
    g(root, "init", "-q", "-b", "main");
    writeFileSync(path.join(root, "clear.config.json"), JSON.stringify({ paths: { fixtures: "fx//sub" } }));
    const v = clearJson(["verify"], { cwd: root });
    expect(v.code).toBe(2);
    expect(v.json.error).toContain("/paths/fixtures");
  });
});

describe("raw captures are recognised by what they are", () => {
  const places: Record<string, (root: string) => void> = {
    "under tests/data/ with its capture name": (root) => {
      mkdirSync(path.join(root, "tests", "data"), { recursive: true });
      cpSync(path.join(SITTING, RAW), path.join(root, "tests", "data", RAW));
    },
    "under tests/data/ renamed": (root) => {
      mkdirSync(path.join(root, "tests", "data"), { recursive: true });
      cpSync(path.join(SITTING, RAW), path.join(root, "tests", "data", "sample.json"));
    },
    "saved as fixtures/README.md": (root) => cpSync(path.join(SITTING, RAW), path.join(root, "fixtures", "README.md")),
    "saved as captures-inbox/README.md": (root) => cpSync(path.join(SITTING, RAW), path.join(root, "captures-inbox", "README.md")),
    "as JSON Lines in a log": (root) => writeFileSync(path.join(root, "session.log"), `started\n${readFileSync(path.join(SITTING, RAW), "utf8").replace(/\n/g, " ")}\n`),
    "wrapped in another object": (root) => writeFileSync(path.join(root, "wrapped.json"), JSON.stringify({ capturedAt: "t", value: JSON.parse(readFileSync(path.join(SITTING, RAW), "utf8")) })),
    // Base64 glued to a word by a separator: read from the word's start it decodes out of step.
    "as base64 in a URL's path in a log": (root) =>
      writeFileSync(path.join(root, "access.log"), `GET https://paste.example.invalid/raw/${readFileSync(path.join(SITTING, RAW)).toString("base64")} 200\n`),
    "as base64 after an id and a dash": (root) => writeFileSync(path.join(root, "upload.txt"), `upload_id-${readFileSync(path.join(SITTING, RAW)).toString("base64")}\n`),
    // What Windows PowerShell 5 writes for `Get-Content capture.json > notes.txt`.
    "saved as UTF-16 with a byte order mark, under a name no check reads": (root) =>
      writeFileSync(path.join(root, "notes.txt"), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(readFileSync(path.join(SITTING, RAW), "utf8"), "utf16le")])),
  };
  for (const [where, plant] of Object.entries(places)) {
    it(`a raw capture ${where}: refused at commit, at push, by verify --rev and --range`, () => {
      const root = acceptedRepo();
      const base = g(root, "rev-parse", "HEAD").out.trim();
      bareRemote(root);
      expect(g(root, "push", "-q", "origin", "main").code).toBe(0);
      // The sitting cleared above leaves the inbox: only what is planted is committed.
      rmSync(path.join(root, "captures-inbox"), { recursive: true });
      mkdirSync(path.join(root, "captures-inbox"));
      plant(root);
      g(root, "add", "-f", "-A");
      expect(g(root, "diff", "--cached", "--name-only").out.trim().split("\n")).toHaveLength(1);
      const commit = g(root, "commit", "-qm", "raw");
      expect(commit.code).not.toBe(0);
      expect(commit.out).toContain("raw-capture-committed");
      sneak(root, "raw");
      expect(g(root, "push", "-q", "origin", "main").code).not.toBe(0);
      expect(verifyCodes(root, "--rev", "HEAD").codes).toContain("raw-capture-committed");
      expect(verifyCodes(root, "--range", `${base}..HEAD`).codes).toContain("raw-capture-committed");
    });
  }

  it("a raw capture written as a file's name, or spread over folder names, is refused at commit, at push, by verify --rev, --range and on disk, and no output prints the name", () => {
    const prompt = "move the launch to friday";
    const payload = JSON.stringify({ hook_event_name: "UserPromptSubmit", session_id: "5b0c7e9a-3f1d", prompt });
    // A name holds no slash: spread over folders, the payload's own slashes are the separators.
    const spread = `{"hook_event_name":"UserPromptSubmit","session_id":"5b0c7e9a-3f1d","prompt":"${prompt}","cwd":"/srv/app"}`.split("/");
    const plants: Record<string, (root: string) => string> = {
      "a file's name": (root) => (writeFileSync(path.join(root, "notes", payload), "notes\n"), `notes/${payload}`),
      "folder names": (root) => {
        mkdirSync(path.join(root, "notes", ...spread.slice(0, -1)), { recursive: true });
        writeFileSync(path.join(root, "notes", ...spread), "notes\n");
        return ["notes", ...spread].join("/");
      },
      // A slash in the base64 is a folder's end: the name is read from each folder on, too.
      "base64 of it as a file's name under a folder": (root) => {
        const name = path.join("notes", Buffer.from(payload).toString("base64"));
        mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
        writeFileSync(path.join(root, name), "notes\n");
        return name.split(path.sep).join("/");
      },
      "an unaccepted fixture's name": (root) => (writeFileSync(path.join(root, "fixtures", `${payload}.json`), "{}"), `fixtures/${payload}.json`),
    };
    for (const [how, plant] of Object.entries(plants)) {
      const root = acceptedRepo();
      const base = g(root, "rev-parse", "HEAD").out.trim();
      bareRemote(root);
      expect(g(root, "push", "-q", "origin", "main").code).toBe(0);
      mkdirSync(path.join(root, "notes"));
      const name = plant(root);
      g(root, "add", "--", name);
      const commit = g(root, "commit", "-qm", "notes");
      expect(commit.code, how).not.toBe(0);
      expect(commit.out, how).toContain("its name holds a payload of a known host");
      sneak(root, "notes");
      const push = g(root, "push", "-q", "origin", "main");
      expect(push.code, how).not.toBe(0);
      const outputs = [commit.out, push.out];
      for (const args of [["--rev", "HEAD"], ["--range", `${base}..HEAD`], []]) {
        const r = clearJson(["verify", ...args], { cwd: root });
        expect(r.code, `${how}: verify ${args.join(" ")}`).toBe(1);
        const findings = r.json.findings as { code: string; file?: string }[];
        expect(findings, `${how}: verify ${args.join(" ")}`).toContainEqual(expect.objectContaining({ code: "raw-capture-committed", file: expect.stringMatching(/^.{4}… \(a name of \d+ characters, not shown: it holds the payload\)$/u) }));
        outputs.push(JSON.stringify(r.json), clear(["verify", ...args], { cwd: root }).stdout);
      }
      for (const out of outputs) expect(out, how).not.toContain(prompt.split(" ").slice(-2).join(" "));
    }
  });

  it("a README and a .gitignore that hold no payload stay exempt; a documentation commit passes", () => {
    const root = acceptedRepo();
    writeFileSync(path.join(root, "fixtures", "README.md"), "# Fixtures\n\nCleared by clear run.\n");
    writeFileSync(path.join(root, "docs.md"), "hook_event_name names the event; see {the docs}.\n");
    g(root, "add", "-A");
    expect(g(root, "commit", "-qm", "docs").code).toBe(0);
    expect(verifyCodes(root, "--rev", "HEAD").code).toBe(0);
  });

  it("a raw capture added and removed again inside a pull request is refused by verify --range", () => {
    const root = acceptedRepo();
    const base = g(root, "rev-parse", "HEAD").out.trim();
    cpSync(path.join(SITTING, RAW), path.join(root, "payload.json"));
    g(root, "add", "payload.json");
    sneak(root, "add");
    g(root, "rm", "-q", "payload.json");
    sneak(root, "remove");
    expect(verifyCodes(root, "--rev", "HEAD").code).toBe(0);
    const range = verifyCodes(root, "--range", `${base}..HEAD`);
    expect(range.code).toBe(1);
    expect(range.codes).toEqual(["raw-capture-committed"]);
  });

  it("in a shallow clone whose history stops inside the range, verify --range refuses to answer (exit 2) rather than pass what it cannot see", () => {
    const root = acceptedRepo();
    g(root, "branch", "base");
    cpSync(path.join(SITTING, RAW), path.join(root, "payload.json"));
    g(root, "add", "payload.json");
    sneak(root, "add");
    g(root, "rm", "-q", "payload.json");
    sneak(root, "remove");
    for (const n of [1, 2]) {
      writeFileSync(path.join(root, `doc${n}.md`), `${n}\n`);
      g(root, "add", `doc${n}.md`);
      sneak(root, `doc ${n}`);
    }
    const ci = path.join(tempDir("clear-shallow-"), "ci");
    expect(g(path.dirname(ci), "clone", "-q", "--depth", "2", "--branch", "main", `file://${root}`, ci).code).toBe(0);
    expect(g(ci, "fetch", "-q", "--depth", "1", "origin", "base:base").code).toBe(0);
    const r = clearJson(["verify", "--range", "base..main"], { cwd: ci });
    expect(r.code).toBe(2);
    expect(r.json.error).toContain("shallow clone");
    expect(g(ci, "fetch", "-q", "--unshallow").code).toBe(0);
    expect(verifyCodes(ci, "--range", "base..main").codes).toEqual(["raw-capture-committed"]);
  });
});

describe("pre-push checks what the destination lacks", () => {
  it("checks every commit, not only the tip: a fixture added and removed again is refused", () => {
    const root = acceptedRepo();
    bareRemote(root);
    expect(g(root, "push", "-q", "origin", "main").code).toBe(0);
    const extra = path.join(root, "fixtures", "claude-code", "2.1.261", "extra.json");
    writeFileSync(extra, "{}\n");
    g(root, "add", extra);
    sneak(root, "unaccepted");
    g(root, "rm", "-q", extra);
    sneak(root, "gone again");
    const push = g(root, "push", "origin", "main");
    expect(push.code).not.toBe(0);
    expect(push.out).toContain("fixture-not-accepted");
  });

  it("a fork's commit that a remote-tracking ref already holds is still checked when pushed to origin", () => {
    const root = acceptedRepo();
    bareRemote(root, "origin");
    bareRemote(root, "fork");
    expect(g(root, "push", "-q", "origin", "main").code).toBe(0);
    rawOnBranch(root, "feature");
    expect(g(root, "push", "-q", "--no-verify", "fork", "feature").code).toBe(0);
    g(root, "fetch", "-q", "fork");
    expect(g(root, "rev-parse", "refs/remotes/fork/feature").code).toBe(0);
    expect(g(root, "push", "-q", "origin", "feature").code).not.toBe(0);
  });

  it("nor when the fork's refs stand under origin's name: a remote named origin/fork, or one whose fetch writes under refs/remotes/origin/", () => {
    for (const [name, fetch] of [["origin/fork", null], ["fork", "+refs/heads/*:refs/remotes/origin/fork-*"]] as const) {
      const root = acceptedRepo();
      bareRemote(root, "origin");
      const fork = tempDir("clear-remote-fork-");
      execFileSync("git", ["init", "-q", "--bare"], { cwd: fork });
      g(root, "remote", "add", name, fork);
      if (fetch !== null) g(root, "config", `remote.${name}.fetch`, fetch);
      expect(g(root, "push", "-q", "origin", "main").code).toBe(0);
      rawOnBranch(root, "feature");
      expect(g(root, "push", "-q", "--no-verify", name, "feature").code).toBe(0);
      g(root, "fetch", "-q", name);
      expect(g(root, "for-each-ref", "refs/remotes/origin/").out).toContain(g(root, "rev-parse", "feature").out.trim());
      const push = g(root, "push", "origin", "feature");
      expect(push.code, name).not.toBe(0);
      expect(push.out).toContain("raw-capture-committed");
    }
  });

  it("nor when the remote pushes elsewhere than it fetches from: a pushurl, or a pushInsteadOf, sends commits its remote-tracking refs hold to a repository that lacks them", () => {
    for (const how of ["pushurl", "pushInsteadOf"]) {
      const root = acceptedRepo();
      const fetched = bareRemote(root, "origin");
      expect(g(root, "push", "-q", "origin", "main").code).toBe(0);
      rawOnBranch(root, "leak");
      expect(g(root, "push", "-q", "--no-verify", "origin", "leak").code).toBe(0);
      g(root, "rm", "-q", "data.json");
      sneak(root, "taken out again");
      const elsewhere = tempDir("clear-remote-elsewhere-");
      execFileSync("git", ["init", "-q", "--bare"], { cwd: elsewhere });
      if (how === "pushurl") g(root, "config", "remote.origin.pushurl", elsewhere);
      else g(root, "config", `url.${elsewhere}.pushInsteadOf`, fetched);
      g(root, "fetch", "-q", "origin");
      const push = g(root, "push", "origin", "leak");
      expect(push.code, how).not.toBe(0);
      expect(push.out, how).toContain("raw-capture-committed");
      expect(execFileSync("git", ["for-each-ref"], { cwd: elsewhere, encoding: "utf8" }), how).toBe("");
    }
  });

  it("with no ref lines on standard input, an unaccepted fixture on a local branch is not passed", () => {
    const root = acceptedRepo();
    const remote = bareRemote(root);
    expect(g(root, "push", "-q", "origin", "main").code).toBe(0);
    writeFileSync(path.join(root, "fixtures", "claude-code", "2.1.261", "extra.json"), "{}\n");
    g(root, "add", "-A");
    sneak(root, "unaccepted");
    const empty = spawnSync(process.execPath, [CLI, "gate", "pre-push", "origin", remote], { cwd: root, input: "", encoding: "utf8" });
    expect(empty.status).toBe(1);
    expect(empty.stderr).toContain("no ref lines came on standard input");
    const none = spawnSync(process.execPath, [CLI, "gate", "pre-push"], { cwd: root, input: "", encoding: "utf8" });
    expect(none.status).toBe(1);
  });

  it("with no ref lines on standard input, a raw capture in git notes or under any other local ref is not passed; a commit only a reflog holds (amended away) or another remote's ref does not refuse the push", () => {
    const root = acceptedRepo();
    const remote = bareRemote(root);
    expect(g(root, "push", "-q", "origin", "main").code).toBe(0);
    const push = (): ReturnType<typeof spawnSync> => spawnSync(process.execPath, [CLI, "gate", "pre-push", "origin", remote], { cwd: root, input: "", encoding: "utf8" });
    // A raw capture committed on a branch since deleted, and another remote's branch holding one.
    rawOnBranch(root, "scratch");
    g(root, "checkout", "-q", "main");
    expect(g(root, "branch", "-q", "-D", "scratch").code).toBe(0);
    const upstream = bareRemote(root, "upstream");
    rawOnBranch(root, "theirs");
    expect(g(root, "push", "-q", "--no-verify", "upstream", "theirs").code).toBe(0);
    g(root, "checkout", "-q", "main");
    expect(g(root, "branch", "-q", "-D", "theirs").code).toBe(0);
    expect(g(root, "fetch", "-q", "upstream").code).toBe(0);
    expect(upstream).not.toBe(remote);
    const clean = push();
    expect(clean.status, String(clean.stderr)).toBe(0);
    expect(g(root, "notes", "add", "-F", path.join(SITTING, RAW), "HEAD").code).toBe(0);
    const r = push();
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("raw-capture-committed");
    expect(r.stderr).toContain("every local ref");
    // Under a ref of no usual namespace, as under the notes.
    expect(g(root, "update-ref", "-d", "refs/notes/commits").code).toBe(0);
    expect(push().status).toBe(0);
    rawOnBranch(root, "wip");
    g(root, "checkout", "-q", "main");
    expect(g(root, "update-ref", "refs/wip/x", "wip").code).toBe(0);
    expect(g(root, "branch", "-q", "-D", "wip").code).toBe(0);
    expect(push().status).toBe(1);
  });

  it("a ref line of another shape on standard input refuses the push; a word of it is never handed to git as an option", () => {
    const root = acceptedRepo();
    const remote = bareRemote(root);
    const head = g(root, "rev-parse", "HEAD").out.trim();
    const zero = "0".repeat(40);
    const out = path.join(tempDir("clear-pushed-"), "written-by-git");
    for (const line of [
      `refs/heads/main --output=${out} refs/heads/main ${zero}`,
      `refs/heads/main ${head} refs/heads/main --output=${out}`,
      `refs/heads/main\t${head}\trefs/heads/main\t${zero}`,
      `refs/heads/main ${head} refs/heads/main`,
      `refs/heads/main HEAD refs/heads/main ${zero}`,
      `--all ${head} refs/heads/main ${zero}`,
    ]) {
      const r = spawnSync(process.execPath, [CLI, "gate", "pre-push", "origin", remote], { cwd: root, input: `${line}\n`, encoding: "utf8" });
      expect(r.status, line).toBe(2);
      expect(r.stderr, line).toContain("line 1 of standard input is not git's");
      expect(existsSync(out), line).toBe(false);
    }
    const env = { ...process.env, PRE_COMMIT_TO_REF: `--output=${out}`, PRE_COMMIT_FROM_REF: zero };
    const viaEnv = spawnSync(process.execPath, [CLI, "gate", "pre-push", "origin", remote], { cwd: root, input: "", encoding: "utf8", env });
    expect(viaEnv.status).toBe(2);
    expect(existsSync(out)).toBe(false);
    const fine = spawnSync(process.execPath, [CLI, "gate", "pre-push", "origin", remote], { cwd: root, input: `refs/heads/main ${head} refs/heads/main ${zero}\r\n\n`, encoding: "utf8" });
    expect(fine.status, fine.stderr).toBe(0);
  });

  it("a tag on a blob or a tree, lightweight or annotated, is refused: its files pass no commit's check", () => {
    const root = acceptedRepo();
    const remote = bareRemote(root);
    expect(g(root, "push", "-q", "origin", "main").code).toBe(0);
    const blob = g(root, "hash-object", "-w", path.join(SITTING, RAW)).out.trim();
    const tree = g(root, "write-tree").out.trim();
    g(root, "tag", "on-blob", blob);
    g(root, "tag", "-a", "-m", "a tree", "on-tree", tree);
    for (const tag of ["on-blob", "on-tree"]) {
      const push = g(root, "push", "origin", `refs/tags/${tag}`);
      expect(push.code, push.out).not.toBe(0);
      expect(push.out).toContain("pushed-not-a-commit");
      expect(push.out).toContain(`refs/tags/${tag}`);
    }
    expect(g(remote, "tag", "-l").out.trim()).toBe("");
    // Without ref lines, every local tag is looked at.
    const none = spawnSync(process.execPath, [CLI, "gate", "pre-push", "origin", remote], { cwd: root, input: "", encoding: "utf8" });
    expect(none.status).toBe(1);
    expect(none.stderr).toContain("refs/tags/on-blob");
    // A commit the remote lacks on a tag to a commit still passes when it is clear.
    g(root, "tag", "-d", "on-blob", "on-tree");
    g(root, "tag", "plain");
    expect(g(root, "push", "-q", "origin", "refs/tags/plain").code).toBe(0);
  });

  it("a raw capture in a commit's message or an annotated tag's message does not leave the machine", () => {
    const root = acceptedRepo();
    const remote = bareRemote(root);
    expect(g(root, "push", "-q", "origin", "main").code).toBe(0);
    const raw = path.join(SITTING, RAW);
    g(root, "tag", "-a", "--cleanup=verbatim", "-F", raw, "said", "HEAD");
    const tag = g(root, "push", "origin", "refs/tags/said");
    expect(tag.code, tag.out).not.toBe(0);
    expect(tag.out).toContain("tag refs/tags/said (its headers and message)");
    expect(tag.out).toContain("raw-capture-committed");
    g(root, "commit", "-q", "--allow-empty", "--no-verify", "--cleanup=verbatim", "-F", raw);
    const commit = g(root, "push", "origin", "main");
    expect(commit.code, commit.out).not.toBe(0);
    expect(commit.out).toMatch(/commit [0-9a-f]{12} \(its headers and message\)/);
    expect(g(remote, "log", "-1", "--format=%B", "main").out).not.toContain("hook_event_name");
  });

  it("nor one pretty-printed after a subject line, in a message of another encoding, or in a header of the commit", () => {
    const payload = JSON.parse(readFileSync(path.join(SITTING, RAW), "utf8"));
    const variants: ((root: string) => void)[] = [
      (root) => g(root, "commit", "-q", "--allow-empty", "--no-verify", "-m", "notes", "-m", JSON.stringify(payload, null, 2)),
      (root) => {
        const msg = path.join(tempDir(), "msg");
        writeFileSync(msg, Buffer.concat([Buffer.from("caf\xe9\n\n", "latin1"), Buffer.from(JSON.stringify(payload))]));
        g(root, "-c", "i18n.commitEncoding=ISO-8859-1", "commit", "-q", "--allow-empty", "--no-verify", "-F", msg);
      },
      (root) => {
        const head = g(root, "cat-file", "commit", "HEAD").out;
        const object = head.replace(/\ncommitter ([^\n]*)\n/, `\ncommitter $1\nx-note ${JSON.stringify(payload)}\n`).replace(/^tree ([0-9a-f]+)\n/, (m) => `${m}parent ${g(root, "rev-parse", "HEAD").out.trim()}\n`);
        const file = path.join(tempDir(), "commit");
        writeFileSync(file, object);
        const sha = g(root, "hash-object", "-t", "commit", "-w", file).out.trim();
        g(root, "update-ref", "refs/heads/main", sha);
      },
    ];
    for (const [i, make] of variants.entries()) {
      const root = acceptedRepo();
      bareRemote(root);
      expect(g(root, "push", "-q", "origin", "main").code).toBe(0);
      make(root);
      const push = g(root, "push", "origin", "main");
      expect(push.code, `variant ${i}: ${push.out}`).not.toBe(0);
      expect(push.out).toMatch(/commit [0-9a-f]{12} \(its headers and message\)/);
    }
  });

  it("reads objects as they are: a refs/replace entry cannot pass a changed fixture off as the accepted one", () => {
    const root = acceptedRepo();
    const fixture = "fixtures/claude-code/2.1.261/session_end.json";
    const accepted = g(root, "rev-parse", `HEAD:${fixture}`).out.trim();
    writeFileSync(path.join(root, fixture), readFileSync(path.join(root, fixture), "utf8").replace("}", ',"leak":"x"}'));
    const changed = g(root, "hash-object", "-w", fixture).out.trim();
    g(root, "replace", changed, accepted);
    g(root, "add", fixture);
    const r = clear(["gate", "pre-commit"], { cwd: root });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("fixture-changed");
    expect(g(root, "commit", "-qm", "replaced").code).not.toBe(0);
  });

  it("a kept foreign pre-push hook that fails fails the push", () => {
    const root = oneCommit("clear-foreign-push-", "a.txt", "a\n");
    const hook = path.join(root, ".git", "hooks", "pre-push");
    writeFileSync(hook, "#!/bin/sh\ncat >/dev/null\necho foreign push refuses >&2\nexit 4\n");
    chmodSync(hook, 0o755);
    expect(clear(["hooks", "install"], { cwd: root }).code).toBe(0);
    bareRemote(root);
    const push = g(root, "push", "origin", "main");
    expect(push.code).not.toBe(0);
    expect(push.out).toContain("foreign push refuses");
  });
});

describe("a change of any size", () => {
  it("a commit of 300,000 files and one of 150,000 files in the inbox are checked whole, without a stack overflow", () => {
    const root = oneCommit("clear-big-", "a.md", "a\n");
    const lines = ["blob", "mark :1", "data 6", "notes", "commit refs/heads/big", "mark :2", "committer t <t@example.invalid> 1700000000 +0000", "data 4", "many", "from refs/heads/main"];
    for (let i = 0; i < 300_000; i++) lines.push(`M 100644 :1 many/${Math.floor(i / 1000)}/f${i}.md`);
    lines.push("", "commit refs/heads/big", "mark :3", "committer t <t@example.invalid> 1700000001 +0000", "data 5", "inbox", "from :2");
    for (let i = 0; i < 150_000; i++) lines.push(`M 100644 :1 captures-inbox/s${Math.floor(i / 1000)}/n${i}.md`);
    execFileSync("git", ["fast-import", "--quiet"], { cwd: root, input: `${lines.join("\n")}\n\n`, maxBuffer: 1 << 28 });
    for (const args of [["verify", "--range", "main..big"], ["verify", "--rev", "big"]]) {
      const r = clear([...args, "--json"], { cwd: root });
      expect(r.stderr, args.join(" ")).not.toContain("internal error");
      expect(r.code, args.join(" ")).toBe(1);
      const findings = (JSON.parse(r.stdout) as { findings: { code: string; file: string }[] }).findings;
      expect(findings.filter((f) => f.code === "raw-capture-committed" && f.file.startsWith("captures-inbox/")).length, args.join(" ")).toBe(150_000);
    }
  }, 120_000);
});

describe("the record holds", () => {
  it("a record checked out with CRLF line endings, or with a byte order mark, verifies and lets the commit through", () => {
    for (const convert of [(t: string) => t.replace(/\n/g, "\r\n"), (t: string) => `\ufeff${t}`]) {
      const root = repo();
      expect(clear(["run"], { cwd: root }).code).toBe(0);
      accept(root);
      const file = path.join(root, "CLEARANCE.md");
      writeFileSync(file, convert(readFileSync(file, "utf8")));
      expect(verifyCodes(root).code).toBe(0);
      g(root, "add", "fixtures", "CLEARANCE.md");
      expect(g(root, "commit", "-qm", "accepted").code).toBe(0);
      expect(clear(["run"], { cwd: root }).code).toBe(0);
      expect(verifyCodes(root).code).toBe(0);
    }
  });

  it("ACCEPT counts with a person's notes around it; where a line reads like ACCEPT and does not count, verify says which and why", () => {
    const root = repo();
    expect(clear(["run"], { cwd: root }).code).toBe(0);
    const file = path.join(root, "CLEARANCE.md");
    const pending = readFileSync(file, "utf8");
    const under = (acceptance: string): void => writeFileSync(file, pending.replace("The tool never does. -->\n", `The tool never does. -->\n${acceptance}\n`));
    const lineOf = (text: string): number => readFileSync(file, "utf8").split("\n").indexOf(text) + 1;
    under("I read every fixture `session_end.json` too.\nACCEPT");
    const quoted = clearJson(["verify"], { cwd: root });
    expect(quoted.code).toBe(1);
    const unread = (quoted.json.findings as { code: string; severity: string; line?: number; message: string }[]).filter((f) => f.code === "accept-not-counted");
    expect(unread).toEqual([expect.objectContaining({ severity: "note", line: lineOf("ACCEPT") })]);
    expect(unread[0]?.message).toMatch(/a line above it in the section holds <, a backtick/);
    under("accept");
    expect(clearJson(["verify"], { cwd: root }).json.findings).toContainEqual(expect.objectContaining({ code: "accept-not-counted", line: lineOf("accept"), message: expect.stringMatching(/only in capitals, alone on its line/) }));
    under("I read every fixture.\nACCEPT\n\nLooks right to me.");
    expect(verifyCodes(root)).toEqual({ code: 0, codes: [] });
    g(root, "add", "fixtures", "CLEARANCE.md");
    expect(g(root, "commit", "-qm", "accepted").code).toBe(0);
  });

  it("clear run on an accepted, unchanged sitting says so and writes nothing", () => {
    const root = acceptedRepo();
    const before = readFileSync(path.join(root, "CLEARANCE.md"));
    const r = clearJson(["run"], { cwd: root });
    expect(r.code).toBe(0);
    expect(r.json.alreadyAccepted).toBe(true);
    expect(readFileSync(path.join(root, "CLEARANCE.md")).equals(before)).toBe(true);
    expect(clear(["run"], { cwd: root }).stdout).toContain("already accepted");
  });

  it("an accepted batch is never replaced: a changed sitting appends a batch after it, byte for byte", () => {
    const root = acceptedRepo();
    const before = readFileSync(path.join(root, "CLEARANCE.md"), "utf8");
    writeFileSync(path.join(root, "captures-inbox", "claude-code_session_end_2.1.261.2.json"), readFileSync(path.join(SITTING, RAW), "utf8").replace('"reason"', '"reason"  '));
    expect(clear(["run"], { cwd: root }).code).toBe(0);
    const after = readFileSync(path.join(root, "CLEARANCE.md"), "utf8");
    expect(after.startsWith(before)).toBe(true);
    expect(after.split("\n").filter((l) => l.startsWith("<!-- clear:batch"))).toHaveLength(2);
  });

  it("a later accepted listing of a fixture supersedes an earlier one", () => {
    const root = acceptedRepo();
    const fixture = path.join(root, "fixtures", "claude-code", "2.1.261", "session_end.json");
    const first = readFileSync(fixture);
    rmSync(path.join(root, "captures-inbox", RAW));
    writeFileSync(path.join(root, "captures-inbox", RAW), readFileSync(path.join(SITTING, RAW), "utf8").replace('"reason"', '"reason" '));
    expect(clear(["run"], { cwd: root }).code).toBe(0);
    accept(root);
    expect(readFileSync(fixture).equals(first)).toBe(false);
    expect(verifyCodes(root).code).toBe(0);
    writeFileSync(fixture, first);
    expect(verifyCodes(root).codes).toEqual(["fixture-changed"]);
  });

  it("two clear runs at once: one runs, the other exits 2 having changed nothing, and the batch matches its fixtures", async () => {
    const root = repo();
    for (let n = 2; n <= 60; n++) writeFileSync(path.join(root, "captures-inbox", `claude-code_session_end_2.1.261.${n}.json`), readFileSync(path.join(SITTING, RAW)));
    const once = (): Promise<number> => new Promise((resolve) => spawn(process.execPath, [CLI, "run"], { cwd: root, stdio: "ignore" }).on("close", (code) => resolve(code ?? -1)));
    const codes = (await Promise.all([once(), once(), once()])).sort();
    expect(codes[0]).toBe(0);
    expect(codes.filter((c) => c === 2).length + codes.filter((c) => c === 0).length).toBe(3);
    accept(root);
    const record = readFileSync(path.join(root, "CLEARANCE.md"), "utf8");
    expect(record.split("\n").filter((l) => l.startsWith("<!-- clear:batch"))).toHaveLength(1);
    expect(verifyCodes(root).code).toBe(0);
  });

  it("a lock held by a live run refuses a second one; a lock left by a dead process is taken over", () => {
    const root = repo();
    const lock = path.join(root, ".git", "clear-run.lock");
    writeFileSync(lock, `${process.pid} ${os.hostname()}\n`);
    const held = clearJson(["run"], { cwd: root });
    expect(held.code).toBe(2);
    expect(String(held.json.error)).toContain("another clear run is working in this repository");
    expect(existsSync(path.join(root, "CLEARANCE.md"))).toBe(false);
    // A dead run's lock while another run is taking it over: that run has it, and this one changes nothing.
    const dead = `999999999 ${os.hostname()}\n`;
    writeFileSync(lock, dead);
    writeFileSync(`${lock}.takeover`, `${process.pid} ${os.hostname()}\n`);
    const racing = clearJson(["run"], { cwd: root });
    expect(racing.code).toBe(2);
    expect(String(racing.json.error)).toContain(`${lock}.takeover`);
    expect(readFileSync(lock, "utf8")).toBe(dead);
    expect(existsSync(path.join(root, "CLEARANCE.md"))).toBe(false);
    rmSync(`${lock}.takeover`);
    expect(clear(["run"], { cwd: root }).code).toBe(0);
    expect(existsSync(lock)).toBe(false);
    expect(existsSync(`${lock}.takeover`)).toBe(false);
  });
});

describe("each pushed commit is judged by the rules it holds too", () => {
  /** A repository whose rules folder names one more harness (acme), committed and pushed. */
  function withAcmeRules(): { root: string; base: string } {
    const root = repo();
    bareRemote(root);
    const catalogue = { ...JSON.parse(readFileSync(path.join(PROJECT_ROOT, "rules", "harnesses", "codex.json"), "utf8")), harness: "acme", aliases: [], displayName: "Acme" };
    mkdirSync(path.join(root, "rules", "harnesses"), { recursive: true });
    writeFileSync(path.join(root, "rules", "harnesses", "acme.json"), JSON.stringify(catalogue, null, 2));
    g(root, "add", "rules");
    expect(g(root, "commit", "-qm", "rules: acme").code).toBe(0);
    expect(g(root, "push", "-q", "origin", "main").code).toBe(0);
    return { root, base: g(root, "rev-parse", "HEAD").out.trim() };
  }

  it("a capture of a harness the pushed rules add, then the rules taken away, is refused by the push, verify --range and --rev", () => {
    const { root, base } = withAcmeRules();
    const name = "tests/data/acme_session_start_1.0.0.1.json";
    mkdirSync(path.join(root, "tests", "data"), { recursive: true });
    writeFileSync(path.join(root, name), '{"note":"a capture known by its name only"}\n');
    g(root, "add", "--", name);
    // The rules of the checkout know acme: the commit itself is refused.
    expect(g(root, "commit", "-qm", "a raw capture").code).not.toBe(0);
    const capture = sneak(root, "a raw capture");
    g(root, "rm", "-rq", "rules", "tests");
    sneak(root, "rules and tests taken away");
    refusedByPushAndRange(root, base, "raw-capture-committed", name);
    const rev = clearJson(["verify", "--rev", capture], { cwd: root });
    expect(rev.code).toBe(1);
    expect(rev.json.findings).toContainEqual(expect.objectContaining({ code: "raw-capture-committed", file: name }));
  });

  it("verify remembers the files it found clear, yet new bytes, another path, a changed rules folder or lines that lie never let a capture through", () => {
    const root = repo();
    const data = path.join(root, "tests", "data");
    mkdirSync(data, { recursive: true });
    const note = '{"note":"a capture known by its name only"}\n';
    writeFileSync(path.join(data, "acme_session_start_1.0.0.1.json"), note);
    writeFileSync(path.join(data, "plain.json"), note);
    writeFileSync(path.join(root, "notes.md"), "notes\n");
    // Node names each module it loads: the check's own module shows whether a file was read again.
    const verify = (): { code: number; checked: boolean; out: string } => {
      const r = spawnSync(process.execPath, [CLI, "verify", "--json"], { cwd: root, encoding: "utf8", env: { ...process.env, NODE_DEBUG: "esm" } });
      return { code: r.status ?? -1, checked: /Storing \S*\/dist\/passes\/raw-capture\.js/.test(r.stderr), out: r.stdout };
    };
    expect(verify()).toMatchObject({ code: 0, checked: true });
    expect(verify()).toMatchObject({ code: 0, checked: false });
    // New bytes in a file found clear before.
    writeFileSync(path.join(root, "notes.md"), readFileSync(path.join(SITTING, RAW)));
    const changed = verify();
    expect(changed).toMatchObject({ code: 1, checked: true });
    expect(changed.out).toContain('"file": "notes.md"');
    writeFileSync(path.join(root, "notes.md"), "notes\n");
    expect(verify()).toMatchObject({ code: 0, checked: false });
    // The same bytes at a capture's name.
    renameSync(path.join(data, "plain.json"), path.join(data, RAW));
    const renamed = verify();
    expect(renamed.code, renamed.out).toBe(1);
    expect(renamed.out).toContain(`tests/data/${RAW}`);
    rmSync(path.join(data, RAW));
    expect(verify()).toMatchObject({ code: 0, checked: false });
    // A catalogue laid over the bundled rules makes a file found clear before a capture of its harness.
    const catalogue = { ...JSON.parse(readFileSync(path.join(PROJECT_ROOT, "rules", "harnesses", "codex.json"), "utf8")), harness: "acme", aliases: [], displayName: "Acme" };
    mkdirSync(path.join(root, "rules", "harnesses"), { recursive: true });
    writeFileSync(path.join(root, "rules", "harnesses", "acme.json"), JSON.stringify(catalogue, null, 2));
    const ruled = verify();
    expect(ruled.code, ruled.out).toBe(1);
    expect(ruled.out).toContain("tests/data/acme_session_start_1.0.0.1.json");
    // Lines that are not a digest, and a digest of nothing checked, are not believed.
    rmSync(path.join(root, "rules"), { recursive: true });
    const memory = path.join(root, ".git", "clear-payload-free");
    expect(readFileSync(memory, "utf8")).toMatch(/^(?:[0-9a-f]{64}\n)+$/);
    writeFileSync(memory, `notes.md\n${"0".repeat(64)}\n${"f".repeat(63)}\n`);
    writeFileSync(path.join(root, "notes.md"), readFileSync(path.join(SITTING, RAW)));
    expect(verify()).toMatchObject({ code: 1, checked: true });
  });

  it("verify asks git for its listings while it reads the fixtures, yet a git that fails is one error, exit 2, never a crash", () => {
    const root = acceptedRepo();
    expect(clear(["verify"], { cwd: root })).toMatchObject({ code: 0, stdout: "verified: every fixture accepted, no raw capture, no link\n" });
    // An index git cannot read: every listing verify asked for fails, each while the disk is read.
    writeFileSync(path.join(root, ".git", "index"), "not an index");
    const broken = clear(["verify"], { cwd: root });
    expect(broken.code, broken.stderr).toBe(2);
    expect(broken.stdout).toBe("");
    expect(broken.stderr).toMatch(/^clear: git ls-files: fatal: [^\n]*index[^\n]*\n$/);
  });

  it("verify of the working tree refuses a file named in bytes that are not UTF-8, which it cannot read by the name git gives", () => {
    const root = acceptedRepo();
    // git lists the name with U+FFFD for each byte that is not UTF-8: a name no file has.
    const name = Buffer.concat([Buffer.from(`${root}/data-`), Buffer.from([0xff, 0xfe]), Buffer.from(".json")]);
    writeFileSync(name, readFileSync(path.join(SITTING, RAW)));
    const untracked = clearJson(["verify"], { cwd: root });
    expect(untracked.code, JSON.stringify(untracked.json)).toBe(1);
    expect(untracked.json.findings).toMatchObject([{ code: "raw-capture-committed", file: "data-\ufffd\ufffd.json" }]);
    g(root, "add", "-A");
    expect(g(root, "commit", "-q", "--no-verify", "-m", "raw under a name that is not UTF-8").code).toBe(0);
    expect(verifyCodes(root)).toEqual({ code: 1, codes: ["raw-capture-committed"] });
  });

  it("verify of the working tree refuses a file named in bytes that are not UTF-8 where another file has the name git gives it, never reading that one in its place", () => {
    const root = acceptedRepo();
    // Read as UTF-8, the raw capture's name is the clean file's: reading it would vouch for the wrong bytes.
    writeFileSync(Buffer.concat([Buffer.from(`${root}/data-`), Buffer.from([0xff]), Buffer.from(".json")]), readFileSync(path.join(SITTING, RAW)));
    writeFileSync(path.join(root, "data-\ufffd.json"), "{}\n");
    for (const stage of ["untracked", "committed"]) {
      if (stage === "committed") {
        g(root, "add", "-A");
        expect(g(root, "commit", "-q", "--no-verify", "-m", "raw beside a file of the name git shows it by").code).toBe(0);
      }
      const v = clearJson(["verify"], { cwd: root });
      expect(v.code, `${stage}: ${JSON.stringify(v.json)}`).toBe(1);
      expect(v.json.findings, stage).toMatchObject([{ code: "raw-capture-committed", file: "data-\ufffd.json" }]);
      expect(JSON.stringify(v.json.findings), stage).toContain("its name is not UTF-8");
    }
  });

  it("verify's walk of the fixtures reads a name in bytes that are not UTF-8 by none: not the file its name reads as", () => {
    const root = acceptedRepo();
    const folder = path.join(root, "fixtures", "claude-code", "2.1.261");
    // Read as UTF-8, the first name is the second's: each stands on its own, refused for what it is.
    writeFileSync(Buffer.concat([Buffer.from(`${folder}/extra-`), Buffer.from([0xff]), Buffer.from(".json")]), readFileSync(path.join(SITTING, RAW)));
    writeFileSync(path.join(folder, "extra-\ufffd.json"), "{}\n");
    const v = clearJson(["verify"], { cwd: root });
    expect(v.code).toBe(1);
    const name = "fixtures/claude-code/2.1.261/extra-\ufffd.json";
    expect((v.json.findings as { code: string; file: string }[]).map((f) => [f.code, f.file]).sort()).toEqual([["fixture-not-accepted", name], ["not-a-file", name]]);
    expect(JSON.stringify(v.json.findings)).toContain("named in bytes that are not UTF-8");
  });

  it("verify of the working tree refuses a file there it cannot read (past the size it reads), rather than pass it unread", () => {
    const root = acceptedRepo();
    // A sparse file one byte past the 1 GiB the check reads: it takes no room on disk.
    const image = path.join(root, "disk.img");
    writeFileSync(image, "");
    truncateSync(image, 2 ** 30 + 1);
    const refused = clearJson(["verify"], { cwd: root });
    expect(refused.code, JSON.stringify(refused.json)).toBe(1);
    expect(refused.json.findings).toMatchObject([{ code: "raw-capture-committed", file: "disk.img" }]);
    expect(JSON.stringify(refused.json.findings)).toContain("1073741825 bytes, above the cap");
    // Taken away, the tree verifies again.
    rmSync(image);
    expect(clear(["verify"], { cwd: root }).code).toBe(0);
  });

  it("a commit staging a harness catalogue beside a capture of it is refused, though the working tree's rules folder lacks the catalogue", () => {
    const root = repo();
    const catalogue = { ...JSON.parse(readFileSync(path.join(PROJECT_ROOT, "rules", "harnesses", "codex.json"), "utf8")), harness: "acme", aliases: [], displayName: "Acme" };
    const name = "tests/data/acme_session_start_1.0.0.1.json";
    mkdirSync(path.join(root, "rules", "harnesses"), { recursive: true });
    mkdirSync(path.join(root, "tests", "data"), { recursive: true });
    writeFileSync(path.join(root, "rules", "harnesses", "acme.json"), JSON.stringify(catalogue, null, 2));
    writeFileSync(path.join(root, name), '{"note":"a capture known by its name only"}\n');
    g(root, "add", "rules", name);
    // Staged, then taken off the disk only: the commit still holds it.
    rmSync(path.join(root, "rules"), { recursive: true });
    const commit = g(root, "commit", "-qm", "rules and a capture");
    expect(commit.code).not.toBe(0);
    expect(commit.out).toContain(name);
    expect(g(root, "rev-parse", "--verify", "-q", "HEAD~1").code).not.toBe(0);
  });

  it("a commit whose rules folder cannot be read stops the push and verify --range (exit 2), naming the commit and the file", () => {
    const { root, base } = withAcmeRules();
    writeFileSync(path.join(root, "rules", "harnesses", "acme.json"), '{ "harness": "acme", }\n');
    g(root, "add", "rules");
    const broken = sneak(root, "rules: broken");
    g(root, "rm", "-rq", "rules");
    sneak(root, "rules taken away");
    const push = g(root, "push", "-q", "origin", "main");
    expect(push.code).not.toBe(0);
    expect(push.out).toContain(`commit ${broken.slice(0, 12)}`);
    const range = clear(["verify", "--range", `${base}..HEAD`], { cwd: root });
    expect(range.code).toBe(2);
    expect(range.stderr).toContain(`commit ${broken.slice(0, 12)}`);
    expect(range.stderr).toContain("rules/harnesses/acme.json");
    expect(range.stderr).not.toContain("clear-commit-rules-");
  });
});
