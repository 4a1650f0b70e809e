import { readdirSync, readFileSync, realpathSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sha256Hash } from "../digest.js";

// Where rules live, known without reading any: the bundled folder, and what makes a folder one
// that lays rules over it. The gate asks this much on every commit; the loader reads the rest.

export const BUNDLED_RULES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "rules");

export const OVERLAY_FOLDERS = ["harnesses", "recipes", "fields", "pairing", "secrets"] as const;
export const OVERLAY_FILES = ["refusals.json", "homes.json", "urls.json", "transports.json", "payloads.json"] as const;

/** True when a folder holds anything an overlay lays over (a repository's rules/ may be something else). */
export function holdsRules(dir: string): boolean {
  try {
    const names = new Set(readdirSync(dir));
    return [...OVERLAY_FOLDERS, ...OVERLAY_FILES].some((n) => names.has(n));
  } catch {
    return false;
  }
}

/** True when a folder is the bundled rules folder itself, however it is spelled (this project's own rules/). */
export function isBundledRules(dir: string): boolean {
  if (path.resolve(dir) === BUNDLED_RULES_DIR) return true;
  try {
    return realpathSync(dir) === realpathSync(BUNDLED_RULES_DIR);
  } catch {
    return false;
  }
}

/** The files the raw-capture check reads: the bundled harness catalogues and payload rules, and a repository's own catalogues laid over them. */
function rawCaptureRuleFiles(rulesDir: string): string[] {
  const catalogues = (dir: string): string[] => readdirSync(path.join(dir, "harnesses")).filter((n) => n.endsWith(".json")).sort().map((n) => path.join(dir, "harnesses", n));
  const own = !isBundledRules(rulesDir) && holdsRules(rulesDir) && readdirSync(rulesDir).includes("harnesses") ? catalogues(rulesDir) : [];
  return [...catalogues(BUNDLED_RULES_DIR), path.join(BUNDLED_RULES_DIR, "payloads.json"), ...own];
}

/** What the raw-capture check's verdicts rest on, as one SHA-256: the tool's version and every rule file it reads, named and whole. Null where one cannot be read. */
export function rawCaptureRulesKey(rulesDir: string, version: string): string | null {
  const hash = sha256Hash().update(`${version}\0`);
  try {
    for (const file of rawCaptureRuleFiles(rulesDir)) {
      const bytes = readFileSync(file);
      hash.update(`${file}\0${bytes.byteLength}\0`).update(bytes);
    }
  } catch {
    return null;
  }
  return hash.digest("hex");
}
