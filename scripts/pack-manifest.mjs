// The packed package.json carries no `prepare`: npm would list it to every consumer as an install
// script to approve, while this repository needs it so that `npm ci` builds dist/. `strip` (run by
// prepack) takes it out and keeps the whole manifest beside it; `restore` (run by postpack) puts it back.
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const manifest = path.join(root, "package.json");
const kept = path.join(root, ".package.json.packing");

if (process.argv[2] === "strip") {
  if (existsSync(kept)) renameSync(kept, manifest);
  const text = readFileSync(manifest, "utf8");
  writeFileSync(kept, text);
  const pkg = JSON.parse(text);
  delete pkg.scripts.prepare;
  writeFileSync(manifest, `${JSON.stringify(pkg, null, 2)}\n`);
} else if (process.argv[2] === "restore") {
  if (existsSync(kept)) renameSync(kept, manifest);
} else {
  console.error("usage: node scripts/pack-manifest.mjs strip | restore");
  process.exit(2);
}
