import { execFileSync } from "node:child_process";
import { cpSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeRealisticSitting } from "../bench/realistic.mjs";
import { clear, clearJson, PROJECT_ROOT, tempDir } from "./helpers.js";
import { acceptPending, gitRepo } from "./fixture-repo.js";

// Same inputs, same bytes: nothing a run writes comes from the file system's clock or from where
// the sitting lies, and a run over a sitting already accepted writes nothing at all.

/** Sittings without sitting.json, where a capture time could only have come from a file's time. */
const SITTINGS: Record<string, (dir: string) => void> = {
  "a generated sitting": (dir) => makeRealisticSitting(dir, 12, 7, { maxBytes: 3000 }),
  "the example sitting without its sitting.json": (dir) => {
    cpSync(path.join(PROJECT_ROOT, "examples", "sitting"), dir, { recursive: true });
    rmSync(path.join(dir, "sitting.json"));
  },
};

/** Every file under a folder, by its path from there. */
function files(dir: string, under = ""): string[] {
  return readdirSync(path.join(dir, under), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(dir, path.join(under, e.name)) : [path.join(under, e.name)]));
}

/** What a run wrote: every fixture and sidecar, and the record, byte for byte. */
function written(root: string): Map<string, Buffer> {
  const paths = [...files(root, "fixtures"), "CLEARANCE.md"].sort();
  return new Map(paths.map((p) => [p, readFileSync(path.join(root, p))]));
}

/** Each file's modification time, to prove a run touched nothing. */
const mtimes = (root: string): Map<string, number> => new Map([...written(root).keys()].map((p) => [p, statSync(path.join(root, p)).mtimeMs]));

/** `touch -d` on every capture of a sitting: the same bytes, another time. */
function touchAll(dir: string, when: string): void {
  execFileSync("touch", ["-d", when, ...readdirSync(dir).map((n) => path.join(dir, n))]);
}

/** A fresh repository whose captures-inbox/ is a copy of `sitting`, cleared by `clear run`. */
function clearedCopy(sitting: string, before: (inbox: string) => void = () => {}): string {
  const root = gitRepo();
  const inbox = path.join(root, "captures-inbox");
  cpSync(sitting, inbox, { recursive: true });
  before(inbox);
  const r = clear(["run"], { cwd: root });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  return root;
}

describe("same inputs, same bytes", () => {
  for (const [name, make] of Object.entries(SITTINGS)) {
    it(`${name}: fresh repositories get byte-identical fixtures, sidecars and CLEARANCE.md, after touch -d on every capture and from a copy`, () => {
      const sitting = path.join(tempDir("clear-same-"), "sitting");
      make(sitting);
      const first = written(clearedCopy(sitting));
      expect(first.size).toBeGreaterThan(3);
      const touched = written(clearedCopy(sitting, (inbox) => touchAll(inbox, "2001-02-03 04:05:06")));
      // A copy of a copy, made later: every file's time is new.
      const elsewhere = path.join(tempDir("clear-copied-"), "sitting");
      cpSync(sitting, elsewhere, { recursive: true });
      touchAll(elsewhere, "2031-12-30 23:59:58");
      const copied = written(clearedCopy(elsewhere));
      for (const other of [touched, copied]) {
        expect([...other.keys()]).toEqual([...first.keys()]);
        for (const [p, bytes] of first) expect(other.get(p)?.equals(bytes), p).toBe(true);
      }
      const sidecars = [...first].filter(([p]) => p.endsWith(".provenance.json")).map(([, b]) => JSON.parse(b.toString("utf8")));
      expect(sidecars.length).toBeGreaterThan(0);
      for (const s of sidecars) expect(s).toMatchObject({ capturedAt: null, capturedAtSource: "not-stated" });
      expect(first.get("CLEARANCE.md")?.toString("utf8")).toMatch(/not stated \(no sitting\.json\)/);
    });
  }

  it("a run over an accepted, unchanged sitting writes nothing and says it is already accepted: after touch, and from a copy in another folder", () => {
    const sitting = path.join(tempDir("clear-same-"), "sitting");
    SITTINGS["a generated sitting"]?.(sitting);
    const root = clearedCopy(sitting);
    acceptPending(root);
    const accepted = written(root);
    const times = mtimes(root);
    const inbox = path.join(root, "captures-inbox");
    const unchanged = (): void => {
      const now = written(root);
      expect([...now.keys()]).toEqual([...accepted.keys()]);
      for (const [p, bytes] of accepted) expect(now.get(p)?.equals(bytes), p).toBe(true);
      expect(mtimes(root)).toEqual(times);
    };

    touchAll(inbox, "2001-02-03 04:05:06");
    const again = clear(["run"], { cwd: root });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/already accepted/);
    expect(again.stdout).toMatch(/nothing written/);
    unchanged();

    const copy = path.join(tempDir("clear-copied-"), "sitting");
    cpSync(inbox, copy, { recursive: true });
    const fromCopy = clearJson(["run", copy], { cwd: root });
    expect(fromCopy.code).toBe(0);
    expect(fromCopy.json).toMatchObject({ ok: true, alreadyAccepted: true, restored: [], replaced: null });
    unchanged();

    // A fixture deleted and a sidecar edited since acceptance are written back with the accepted bytes; the record is not touched.
    const [gone, edited] = [...accepted.keys()].filter((p) => p.startsWith("fixtures/")).sort();
    rmSync(path.join(root, gone as string));
    writeFileSync(path.join(root, edited as string), "{}\n");
    const restoring = clearJson(["run"], { cwd: root });
    expect(restoring.json).toMatchObject({ ok: true, alreadyAccepted: true, restored: [gone, edited].sort() });
    const now = written(root);
    for (const [p, bytes] of accepted) expect(now.get(p)?.equals(bytes), p).toBe(true);
    expect(mtimes(root).get("CLEARANCE.md")).toEqual(times.get("CLEARANCE.md"));
  });
});
