import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { clear, clearJson, tempDir } from "./helpers.js";

// A name a sitting taught, written in a spelling the scan's readings leave alone: back to front,
// a few bytes in base64, bytes listed one by one. In a kept value it refuses the capture; in a
// stray file's name it is written nowhere, neither in CLEARANCE.md nor in what run prints.

const NAME = ["ro", "wan"].join("");
const bytes = [...Buffer.from(NAME)];
const spellings = [
  [...NAME].reverse().join(""),
  bytes.map((b) => b.toString(16)).join(":"),
  bytes.join(","),
  bytes.map((b) => b.toString(2).padStart(8, "0")).join(""),
  `v1-${Buffer.from(NAME).toString("base64").replace(/=+$/, "")}`,
];

function sitting(edit: (dir: string) => void): { dir: string; root: string } {
  const dir = path.join(tempDir(), "s");
  mkdirSync(dir);
  const payload = (event: string): string => JSON.stringify({ session_id: "s1", transcript_path: `/home/${NAME}/t.jsonl`, cwd: `/home/${NAME}/p`, hook_event_name: event });
  writeFileSync(path.join(dir, "claude-code_session_start_2.1.261.1.json"), payload("SessionStart"));
  writeFileSync(path.join(dir, "claude-code_session_end_2.1.261.1.json"), payload("SessionEnd"));
  edit(dir);
  const root = tempDir();
  execFileSync("git", ["init", "-q"], { cwd: root });
  return { dir, root };
}

describe("a learned name in spellings the scan does not read", () => {
  it("in a kept path value, refuses the capture naming file and pointer", () => {
    for (const spelt of spellings) {
      const { dir, root } = sitting((d) => {
        const file = path.join(d, "claude-code_session_start_2.1.261.1.json");
        writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, "utf8")), cwd: `/tmp/${spelt}/p` }));
      });
      const r = clearJson(["run", dir, "--root", root, "--verbose"]);
      expect(r.code, spelt).toBe(1);
      expect(JSON.stringify(r.json), spelt).toContain("user-name-left");
      expect(JSON.stringify(r.json), spelt).toContain("/cwd");
    }
  });

  it("in a stray file's name, is written nowhere: not in CLEARANCE.md, not in what run prints", () => {
    for (const spelt of spellings) {
      const { dir, root } = sitting((d) => writeFileSync(path.join(d, `notes-${spelt}.json`), "{}"));
      const human = clear(["run", dir, "--root", root, "--verbose"]);
      const json = clear(["run", dir, "--root", root, "--json"]);
      expect(human.code, spelt).toBe(1);
      for (const written of [human.stdout + human.stderr, json.stdout + json.stderr, readFileSync(path.join(root, "CLEARANCE.md"), "utf8")]) {
        expect(written, spelt).not.toContain(spelt);
      }
    }
  });

  it("back to front, only for a name of five letters or more: a short one reversed is a word or a path's part as often as not", () => {
    const short = ["do", "m"].join("");
    const dir = path.join(tempDir(), "s");
    mkdirSync(dir);
    for (const [file, event] of [["session_start", "SessionStart"], ["session_end", "SessionEnd"]]) {
      const payload = { session_id: "s1", transcript_path: `/home/${short}/t.jsonl`, cwd: "/work/x/go.mod", hook_event_name: event };
      writeFileSync(path.join(dir, `claude-code_${file}_2.1.261.1.json`), JSON.stringify(payload));
    }
    const root = tempDir();
    execFileSync("git", ["init", "-q"], { cwd: root });
    const r = clearJson(["run", dir, "--root", root]);
    expect(r.code, JSON.stringify(r.json)).toBe(0);
    const fixture = readFileSync(path.join(root, "fixtures", "claude-code", "2.1.261", "session_start.json"), "utf8");
    expect(fixture).toContain("/work/x/go.mod");
    expect(fixture).not.toContain(`/${short}/`);
  });
});
