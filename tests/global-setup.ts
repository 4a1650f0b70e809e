import { execFileSync } from "node:child_process";
import path from "node:path";

// The tests run the real `clear` binary, so it is built once before them.
export default function setup(): void {
  const root = path.resolve(import.meta.dirname, "..");
  execFileSync(process.execPath, [path.join(root, "node_modules", "typescript", "bin", "tsc"), "-p", path.join(root, "tsconfig.json")], { stdio: "inherit" });
}
