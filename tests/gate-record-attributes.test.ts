import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { clear, clearJson, PROJECT_ROOT, tempDir } from "./helpers.js";

// The record (and clear.config.json) is what a person reviews and accepts: attributes that show a
// reviewer something else than the text git stores of it, or check it out in other bytes, are refused.

const g = (cwd: string, ...args: string[]): { code: number; out: string } => {
  const r = spawnSync("git", args, { cwd, encoding: "utf8" });
  return { code: r.status ?? -1, out: r.stdout + r.stderr };
};

/** A repository with the hooks, an accepted batch committed and pushed to origin; `record` where the layout puts it. */
function acceptedAndPushed(record = "CLEARANCE.md"): string {
  const root = tempDir("clear-record-attributes-");
  execFileSync("git", ["init", "-q", "-b", "main"], { cwd: root });
  g(root, "config", "user.email", "t@example.invalid");
  g(root, "config", "user.name", "t");
  writeFileSync(path.join(root, "README.md"), "x\n");
  if (record !== "CLEARANCE.md") writeFileSync(path.join(root, "clear.config.json"), JSON.stringify({ paths: { clearance: record } }));
  g(root, "add", ".");
  g(root, "commit", "-qm", "init");
  expect(clear(["hooks", "install"], { cwd: root }).code).toBe(0);
  cpSync(path.join(PROJECT_ROOT, "examples", "sitting"), path.join(root, "captures-inbox"), { recursive: true });
  const remote = tempDir("clear-remote-");
  execFileSync("git", ["init", "-q", "--bare"], { cwd: remote });
  g(root, "remote", "add", "origin", remote);
  const run = clear(["run"], { cwd: root });
  expect(run.code, run.stdout + run.stderr).toBe(0);
  const file = path.join(root, record);
  writeFileSync(file, readFileSync(file, "utf8").replace("The tool never does. -->\n\n", "The tool never does. -->\nACCEPT\n"));
  g(root, "add", "fixtures", record);
  const accepted = g(root, "commit", "-qm", "accepted");
  expect(accepted.code, accepted.out).toBe(0);
  expect(g(root, "push", "-q", "origin", "main").code).toBe(0);
  return root;
}

/** The findings of this code a verify gives, as [file, message]. */
function refusedBy(root: string, args: string[]): [string, string][] {
  const r = clearJson(["verify", ...args], { cwd: root });
  const found = (r.json.findings as { code: string; file: string; message: string }[]).filter((f) => f.code === "record-shown-otherwise");
  if (found.length > 0) expect(r.code, args.join(" ")).toBe(1);
  return found.map((f) => [f.file, f.message]);
}

/** A commit of `attributes` at `file` is refused by the gate, then (made with --no-verify) by verify of the working tree, --rev, --range and the push; the repository is put back as origin has it. */
function refusedEverywhere(root: string, file: string, attributes: string, named: string, shown: string): void {
  writeFileSync(path.join(root, file), attributes);
  g(root, "add", file);
  const commit = g(root, "commit", "-qm", "attributes");
  expect(commit.code, `${attributes} ${commit.out}`).not.toBe(0);
  expect(commit.out, attributes).toContain("record-shown-otherwise");
  expect(commit.out, attributes).toContain(named);
  expect(g(root, "commit", "-qm", "attributes", "--no-verify").code).toBe(0);
  for (const args of [[], ["--rev", "HEAD"], ["--range", "origin/main..HEAD"]]) {
    const found = refusedBy(root, args);
    expect(found.map(([f]) => f), `${attributes} ${args.join(" ")}`).toEqual([named]);
    expect(found[0]?.[1], `${attributes} ${args.join(" ")}`).toContain(shown);
  }
  const push = g(root, "push", "-q", "origin", "main");
  expect(push.code, attributes).not.toBe(0);
  expect(push.out, attributes).toContain("record-shown-otherwise");
  expect(g(root, "reset", "-q", "--hard", "origin/main").code).toBe(0);
  rmSync(path.join(root, file), { force: true });
}

describe("attributes on the record", () => {
  // Each case is a commit, four verifies and a push: a few seconds each.
  const SLOW = 240_000;
  const groups: [string, [string, string][]][] = [
    [
      "that hides its diff (no diff, a driver's rendering, a collapsed one)",
      [
        ["CLEARANCE.md -diff", "-diff"],
        ["CLEARANCE.md binary", "binary"],
        ["*.md diff=shown", "diff=shown"],
        ["CLEARANCE.md diff=markdown", "diff=markdown"],
        ["CLEARANCE.md linguist-generated", "linguist-generated"],
        ["CLEARANCE.* linguist-generated=true", "linguist-generated"],
        ["CLEARANCE.md linguist-vendored", "linguist-vendored"],
        ["[attr]quiet -diff\nCLEARANCE.md quiet", "-diff"],
        ["clearance.md -diff", "-diff"],
      ],
    ],
    [
      "that checks it out in other bytes than git stores, or says it is not text",
      [
        ["CLEARANCE.md eol=crlf", "eol=crlf"],
        ["CLEARANCE.md text eol=crlf", "eol=crlf"],
        ["CLEARANCE.md working-tree-encoding=UTF-16LE", "working-tree-encoding=UTF-16LE"],
        ["CLEARANCE.md working-tree-encoding=UTF-8", "working-tree-encoding=UTF-8"],
        ["CLEARANCE.md filter=lfs", "filter=lfs"],
        ["CLEARANCE.md filter=other", "filter=other"],
        ["CLEARANCE.md ident", "ident"],
        ["CLEARANCE.md crlf", "crlf"],
      ],
    ],
  ];
  for (const [what, cases] of groups) {
    it(`refuses an attribute ${what}, at commit, in verify (tree, --rev, --range) and at push`, () => {
      const root = acceptedAndPushed();
      for (const [line, shown] of cases) refusedEverywhere(root, ".gitattributes", `${line}\n`, "CLEARANCE.md", shown);
    }, SLOW);
  }

  /** A commit of these attributes goes through, verify finds nothing in the tree or the range, and the push goes through. */
  function passesEverywhere(attributes: string): void {
    const root = acceptedAndPushed();
    writeFileSync(path.join(root, ".gitattributes"), attributes);
    g(root, "add", ".gitattributes");
    const plain = g(root, "commit", "-qm", "attributes that show the record as it is");
    expect(plain.code, plain.out).toBe(0);
    expect(refusedBy(root, [])).toEqual([]);
    expect(refusedBy(root, ["--range", "origin/main..HEAD"])).toEqual([]);
    expect(g(root, "push", "-q", "origin", "main").code).toBe(0);
  }

  it("passes attributes that show the text git stores and check it out in the same bytes", () => {
    passesEverywhere("* text=auto\nCLEARANCE.md text eol=lf linguist-generated=false\n*.md -diff\nCLEARANCE.md !diff\n");
  });

  it("passes -text (and -crlf, its older name), which checks the bytes out as git stores them and still shows their diff", () => {
    passesEverywhere("* -text\nfixtures/** -text\nCLEARANCE.md -crlf\n");
  });

  it("refuses them from info/attributes and the user's attributes file too, where no commit changes them", () => {
    const root = acceptedAndPushed();
    const info = path.join(root, ".git", "info", "attributes");
    mkdirSync(path.dirname(info), { recursive: true });
    writeFileSync(info, "CLEARANCE.md -diff\n");
    for (const args of [[], ["--rev", "HEAD"]]) expect(refusedBy(root, args).map(([f]) => f), args.join(" ")).toEqual(["CLEARANCE.md"]);
    rmSync(info);
    const own = path.join(tempDir("clear-attributes-file-"), "attributes");
    writeFileSync(own, "*.md linguist-generated\n");
    g(root, "config", "core.attributesFile", own);
    for (const args of [[], ["--rev", "HEAD"]]) expect(refusedBy(root, args).map(([f]) => f), args.join(" ")).toEqual(["CLEARANCE.md"]);
    g(root, "config", "--unset", "core.attributesFile");
    expect(refusedBy(root, [])).toEqual([]);
  });

  it("a .gitattributes on the way to the record in another spelling (.GitAttributes, read on macOS and Windows) is refused at commit, at push and by verify", () => {
    const root = acceptedAndPushed();
    for (const name of [".GitAttributes", ".GITATTRIBUTES"]) {
      writeFileSync(path.join(root, name), "CLEARANCE.md -diff\n");
      g(root, "add", "--", name);
      const commit = g(root, "commit", "-qm", "attributes in another spelling");
      expect(commit.code, name).not.toBe(0);
      expect(commit.out, name).toContain("place-in-other-spelling");
      expect(g(root, "commit", "-qm", "attributes in another spelling", "--no-verify").code).toBe(0);
      for (const args of [[], ["--rev", "HEAD"], ["--range", "origin/main..HEAD"]]) {
        const r = clearJson(["verify", ...args], { cwd: root });
        expect(r.code, `${name} ${args.join(" ")}`).toBe(1);
        expect(r.json.findings, `${name} ${args.join(" ")}`).toContainEqual(expect.objectContaining({ code: "place-in-other-spelling", file: name }));
      }
      expect(g(root, "push", "-q", "origin", "main").code, name).not.toBe(0);
      expect(g(root, "reset", "-q", "--hard", "origin/main").code).toBe(0);
    }
  }, SLOW);

  it("a record in a folder: a .gitattributes on its way counts as touching the tool's places, and so do attributes on clear.config.json", () => {
    const root = acceptedAndPushed("docs/CLEARANCE.md");
    refusedEverywhere(root, "docs/.gitattributes", "CLEARANCE.md -diff\n", "docs/CLEARANCE.md", "-diff");
    refusedEverywhere(root, ".gitattributes", "docs/** binary\n", "docs/CLEARANCE.md", "binary");
    refusedEverywhere(root, ".gitattributes", "*.json diff=shown\n", "clear.config.json", "diff=shown");
    // A .gitattributes in a folder the record is not under reaches it not: passed.
    mkdirSync(path.join(root, "other"));
    writeFileSync(path.join(root, "other", ".gitattributes"), "* -diff\n");
    g(root, "add", "other/.gitattributes");
    const elsewhere = g(root, "commit", "-qm", "attributes elsewhere");
    expect(elsewhere.code, elsewhere.out).toBe(0);
  }, SLOW);
});
