import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { BLOCK_MARK, showChange } from "../src/io/hook-managers/blocks.js";
import { gateScript, shQuote } from "../src/io/hook-managers/shell.js";
import { lefthookAdd, lefthookEntry, preCommitAdd, preCommitHook, removeMarked } from "../src/io/hook-managers/yaml-edit.js";

// The gate's blocks of lines in lefthook.yml and .pre-commit-config.yaml: put in where the file's
// own shape allows, proved by parsing, and taken out again to the byte.

const OLD_STAGES = { "pre-commit": "commit", "pre-push": "push" } as const;

const LEFTHOOK_SHAPES: Record<string, string> = {
  "an empty file": "",
  "no section for the hooks": "# team hooks\noutput: [summary]\n",
  "sections without scripts":
    "pre-commit:\n  parallel: true\n  commands:\n    lint:\n      run: npm run lint\npre-push:\n  commands:\n    test:\n      run: npm test\n",
  "scripts indented by four": "pre-commit:\n    scripts:\n        other.sh:\n            runner: bash\n",
  "jobs and a trailing comment": "pre-commit:\n  jobs:\n    - name: fmt\n      run: npm run fmt\n# end\n",
  "a file without a final newline": "pre-push:\n  commands:\n    t:\n      run: npm test",
};

describe("lefthook.yml", () => {
  for (const [shape, text] of Object.entries(LEFTHOOK_SHAPES)) {
    it(`adds the gate's scripts to ${shape}, and takes them out to the byte`, () => {
      const first = lefthookAdd(text, "pre-commit");
      expect(first.ok).toBe(true);
      const both = first.ok ? lefthookAdd(first.text, "pre-push") : first;
      expect(both.ok).toBe(true);
      if (!both.ok) return;
      const js = parse(both.text) as Record<string, unknown>;
      expect(lefthookEntry(js, "pre-commit")).toEqual({ runner: "sh" });
      expect(lefthookEntry(js, "pre-push")).toEqual({ runner: "sh", use_stdin: true });
      expect(lefthookAdd(both.text, "pre-push")).toEqual({ ok: true, text: both.text });
      const removed = removeMarked(both.text, "lefthook");
      expect(removed).toEqual({ ok: true, text });
    });
  }

  it("prints the lines to add where the section is a flow mapping", () => {
    const r = lefthookAdd("pre-commit: { commands: { a: { run: x } } }\n", "pre-commit");
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.lines).toContain("    clear-gate.sh:");
  });

  it("refuses to take out a block that was changed since", () => {
    const added = lefthookAdd("pre-commit:\n  commands:\n    a:\n      run: x\n", "pre-commit");
    if (!added.ok) throw new Error("not added");
    const edited = added.text.replace("runner: sh", "runner: sh\n      skip: true\n    extra.sh:\n      runner: sh");
    expect(removeMarked(edited, "lefthook").ok).toBe(false);
  });
});

describe(".pre-commit-config.yaml", () => {
  const shapes: Record<string, string> = {
    "items at the key's indentation": "repos:\n- repo: local\n  hooks:\n  - id: a\n    name: a\n    entry: 'true'\n    language: system\n",
    "items indented, more keys after":
      "minimum_pre_commit_version: '3.0'\nrepos:\n  - repo: local\n    hooks:\n      - id: a\n        name: a\n" +
      "        entry: 'true'\n        language: system\nfail_fast: false\n",
  };
  for (const [shape, text] of Object.entries(shapes)) {
    it(`adds a local hook for both stages with ${shape}, and takes it out to the byte`, () => {
      const r = preCommitAdd(text, OLD_STAGES);
      expect(r.ok).toBe(true);
      if (!r.ok) return;
      const js = parse(r.text) as Record<string, unknown>;
      const gate = { entry: "sh .clear/hooks/pre-commit", stages: ["commit"], always_run: true, pass_filenames: false };
      expect(preCommitHook(js, "pre-commit")).toMatchObject(gate);
      expect(preCommitHook(js, "pre-push")).toMatchObject({ entry: "sh .clear/hooks/pre-push", stages: ["push"] });
      expect(js.default_install_hook_types).toEqual(["pre-commit", "pre-push"]);
      expect((js.repos as unknown[]).length).toBe(2);
      expect(removeMarked(r.text, "pre-commit")).toEqual({ ok: true, text });
    });
  }

  it("leaves default_install_hook_types the user wrote", () => {
    const text = "default_install_hook_types: [pre-commit, pre-push, commit-msg]\nrepos:\n- repo: local\n  hooks: []\n";
    const r = preCommitAdd(text, OLD_STAGES);
    expect(r.ok && (parse(r.text) as Record<string, unknown>).default_install_hook_types).toEqual(["pre-commit", "pre-push", "commit-msg"]);
    if (r.ok) expect(removeMarked(r.text, "pre-commit")).toEqual({ ok: true, text });
  });

  it("prints the lines to add where repos is a flow sequence", () => {
    const r = preCommitAdd("repos: []\n", OLD_STAGES);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.lines.join("\n")).toContain("id: clear-gate-pre-push");
  });
});

describe("the hook scripts", () => {
  it("quote any value so that sh reads it back unchanged", () => {
    for (const value of ["plain", "it's", "$(touch x)", "`x`", 'a "b" c', "line\nbreak", "'''", "\\"]) {
      expect(shQuote(value)).toMatch(/^'.*'$/s);
      expect(shQuote(value).slice(1, -1).split(`'\\''`).join("'")).toBe(value);
    }
  });

  it("hold no path of this machine when they are committed", () => {
    for (const hook of ["pre-commit", "pre-push"] as const) {
      const text = gateScript(hook);
      expect(text).not.toContain(process.execPath);
      expect(text).not.toMatch(/'\/[^']*'/);
      expect(text).toContain("node_modules/.bin/fixture-clear");
    }
  });

  it("show a change line by line, each place with its line number", () => {
    expect(showChange("a\nb\nc\n", `${BLOCK_MARK}\na\nb\nc\nd\n`)).toEqual(["@@ line 1", `+${BLOCK_MARK}`, "@@ line 5", "+d"]);
  });
});
