import { readdirSync, realpathSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

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
