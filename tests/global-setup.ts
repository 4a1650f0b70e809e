import { execFileSync } from "node:child_process";
import path from "node:path";

// The tests run the real `clear` binary, so it is built once before them; the tests themselves
// are type-checked on the way.
export default function setup(): void {
  const root = path.resolve(import.meta.dirname, "..");
  const tsc = path.join(root, "node_modules", "typescript", "bin", "tsc");
  execFileSync(process.execPath, [tsc, "-p", path.join(root, "tsconfig.json")], { stdio: "inherit" });
  execFileSync(process.execPath, [path.join(root, "scripts", "build-schemas.mjs")], { stdio: "inherit" });
  execFileSync(process.execPath, [tsc, "-p", path.join(root, "tsconfig.test.json")], { stdio: "inherit" });
}
