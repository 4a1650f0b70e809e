import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { sha256 } from "./helpers.js";

/**
 * The packages a tests/<spec>/package.json names, installed once into `cache` with no install
 * script run (npm install: some name optional packages no lock file can satisfy). Installed again
 * when the spec changes; several test workers may race, and one copy wins.
 */
export function installedOnce(spec: string, cache: string): void {
  const manifest = readFileSync(spec);
  const stamp = `${cache}/stamp`;
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === sha256(manifest)) return;
  const staging = `${cache}.${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  cpSync(spec, `${staging}/package.json`);
  execFileSync("npm", ["install", "--ignore-scripts", "--no-audit", "--no-fund", "--no-package-lock"], { cwd: staging, stdio: "pipe" });
  writeFileSync(`${staging}/stamp`, sha256(manifest));
  rmSync(cache, { recursive: true, force: true });
  try {
    renameSync(staging, cache);
  } catch {
    rmSync(staging, { recursive: true, force: true }); // another worker put its copy in place first
  }
}
