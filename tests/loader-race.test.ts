import { spawn, spawnSync } from "node:child_process";
import { cpSync, lstatSync, mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync, type Stats } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { FixtureError, loadFixture } from "../src/lib/index.js";
import { acceptedRepo } from "./fixture-repo.js";
import { PROJECT_ROOT, tempDir } from "./helpers.js";

// A file system whose times are coarser than the edits: while `frozen` is set, the record's
// lstat answers as it did when frozen, as one does where two writes fall in one tick.
const clock = vi.hoisted(() => ({ frozen: null as { file: string; stat: Stats } | null }));
vi.mock("node:fs", async (actual) => {
  const fs = await actual<typeof import("node:fs")>();
  const lstat = ((p: string, ...rest: unknown[]) => (clock.frozen?.file === p ? clock.frozen.stat : (fs.lstatSync as (...a: unknown[]) => Stats)(p, ...rest))) as typeof fs.lstatSync;
  return { ...fs, default: { ...fs, lstatSync: lstat }, lstatSync: lstat };
});

describe("loadFixture and a record edited within one tick of the file system's clock", () => {
  it("compares the bytes of a record read soon after it was written, so an edit of the same size that leaves its stamp as it was still counts", () => {
    const root = acceptedRepo(["2.1.9"]);
    const record = path.join(root, "CLEARANCE.md");
    const fixture = "fixtures/claude-code/2.1.9/pre_tool_use.json";
    expect(loadFixture(fixture, { root }).path).toBe(fixture);
    clock.frozen = { file: record, stat: lstatSync(record) };
    try {
      const text = readFileSync(record, "utf8");
      expect(text).toContain("\nACCEPT\n");
      // The same size: only the bytes can tell that ACCEPT is gone.
      writeFileSync(record, text.replace("\nACCEPT\n", "\nACCEPt\n"));
      let code: string | null = null;
      try {
        loadFixture(fixture, { root });
      } catch (err) {
        code = err instanceof FixtureError ? err.code : String(err);
      }
      expect(code).toBe("pending");
    } finally {
      clock.frozen = null;
    }
  });
});

// The loader never reads through a link, even one swapped in between its check of the folders on
// the way and its open of the file: a second process exchanges a real, empty version folder with
// a link to a copy of the accepted files, as fast as it can, while the loader loads. Every load
// ends in "missing" (the empty folder) or "link"; none returns bytes read through the link.

// renameat2(RENAME_EXCHANGE) swaps two names in one step, so the path is always one or the other.
const SWAPPER = `
import ctypes, os, sys, time
libc = ctypes.CDLL(None, use_errno=True)
a, b, seconds = sys.argv[1].encode(), sys.argv[2].encode(), float(sys.argv[3])
AT_FDCWD, RENAME_EXCHANGE = -100, 2
end = time.time() + seconds
while time.time() < end:
    if libc.renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) != 0:
        sys.exit("renameat2: " + os.strerror(ctypes.get_errno()))
`;

const canSwap = process.platform === "linux" && spawnSync("python3", ["-c", "import ctypes; ctypes.CDLL(None).renameat2"]).status === 0;

describe("loadFixture and a link swapped in while it reads", () => {
  it.skipIf(!canSwap)(`never returns bytes read through the link${canSwap ? "" : " (skipped: needs Linux and python3 with renameat2 to swap folders atomically)"}`, async () => {
    const root = acceptedRepo(["2.1.9"]);
    const folder = path.join(root, "fixtures", "claude-code", "2.1.9");
    const outside = path.join(tempDir("clear-race-outside-"), "copy");
    cpSync(folder, outside, { recursive: true });
    renameSync(folder, `${folder}.gone`);
    mkdirSync(folder);
    const link = path.join(root, "swap-link");
    symlinkSync(outside, link);
    const script = path.join(tempDir("clear-race-"), "swap.py");
    writeFileSync(script, SWAPPER);
    const library = path.join(PROJECT_ROOT, "dist", "lib", "index.js");
    const loads = `
      const m = await import(${JSON.stringify(library)});
      const seen = {};
      const end = Date.now() + 3000;
      while (Date.now() < end) {
        let what;
        try { m.loadFixture("fixtures/claude-code/2.1.9/pre_tool_use.json", { root: ${JSON.stringify(root)} }); what = "returned"; } catch (e) { what = e.code ?? String(e); }
        seen[what] = (seen[what] ?? 0) + 1;
      }
      console.log(JSON.stringify(seen));`;
    const swapper = spawn("python3", [script, folder, link, "4"], { stdio: "ignore" });
    const loader = spawnSync(process.execPath, ["--input-type=module", "-e", loads], { encoding: "utf8" });
    await new Promise((resolve) => swapper.on("exit", resolve));
    const seen = JSON.parse(loader.stdout) as Record<string, number>;
    expect(Object.keys(seen).length, loader.stderr).toBeGreaterThan(0);
    expect(seen.returned ?? 0, JSON.stringify(seen)).toBe(0);
    expect((seen.link ?? 0) + (seen.missing ?? 0), JSON.stringify(seen)).toBeGreaterThan(100);
  }, 30_000);
});
