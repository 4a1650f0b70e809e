import { existsSync } from "node:fs";
import path from "node:path";
import { readBlobs, stagedChanges } from "../io/git.js";
import { gitTopLevel } from "../io/top-level.js";

// The pre-commit gate's fast path, which every commit of a repository pays for: a commit that
// touches none of the tool's places (in the default layout, with no clear.config.json) and brings
// no file that could hold a capture (none named .json, none holding an opening brace) passes
// here, having loaded no rules. Anything else goes to the whole gate.

const PLACES = ["fixtures", "captures-inbox", "CLEARANCE.md", "clear.config.json"];
const REGULAR = new Set(["100644", "100755"]);

const under = (p: string, place: string): boolean => p === place || p.startsWith(`${place}/`);

/** True when the staged change is certainly clear of the gate's concerns; false means: run the whole gate. */
export function stagedIsPlainlyClear(cwd: string): boolean {
  const root = gitTopLevel(cwd);
  if (root === null || existsSync(path.join(root, "clear.config.json"))) return false;
  const changes = stagedChanges(root);
  if (changes.some((c) => PLACES.some((place) => under(c.path, place)) || c.path.endsWith(".json"))) return false;
  const brought = changes.filter((c) => c.status !== "D" && REGULAR.has(c.mode));
  if (changes.some((c) => c.status !== "D" && !REGULAR.has(c.mode))) return false;
  const blobs = readBlobs([...brought.map((c) => c.sha), ":clear.config.json"], root);
  if (blobs.has(":clear.config.json")) return false;
  return brought.every((c) => blobs.has(c.sha) && !(blobs.get(c.sha) as Buffer).includes(0x7b));
}
