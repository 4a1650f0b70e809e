import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

// The tests run the real `clear` binary, so it is built once before them; the tests themselves
// are type-checked on the way.
export default function setup(): () => void {
  const root = path.resolve(import.meta.dirname, "..");
  const tsc = path.join(root, "node_modules", "typescript", "bin", "tsc");
  execFileSync(process.execPath, [tsc, "-p", path.join(root, "tsconfig.json")], { stdio: "inherit" });
  execFileSync(process.execPath, [path.join(root, "scripts", "build-schemas.mjs")], { stdio: "inherit" });
  execFileSync(process.execPath, [path.join(root, "scripts", "bundle-fast.mjs")], { stdio: "inherit" });
  execFileSync(process.execPath, [tsc, "-p", path.join(root, "tsconfig.test.json")], { stdio: "inherit" });
  // Every temporary folder a test makes (and every process it starts makes) lands in one folder of
  // this run, taken away when the run ends: a run leaves nothing behind in the machine's /tmp.
  // Its name teaches no word a test prints: a test that takes its parent for the home ("t-<random>") masks nothing of its own.
  // A hook manager's switch in the environment the tests run in (HUSKY=0, as CI machines often set)
  // would turn off the hooks the tests install: a test that wants one sets it itself.
  for (const name of ["HUSKY", "HUSKY_SKIP_HOOKS", "LEFTHOOK", "LEFTHOOK_EXCLUDE", "LEFTHOOK_SKIP", "LEFTHOOK_BIN", "LEFTHOOK_CONFIG", "SKIP", "PRE_COMMIT"]) delete process.env[name];
  const own = mkdtempSync(path.join(os.tmpdir(), "t-"));
  chmodSync(own, 0o1777);
  process.env["TMPDIR"] = own;
  return () => rmSync(own, { recursive: true, force: true, maxRetries: 3 });
}
