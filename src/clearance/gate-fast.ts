import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { readBlobs, stagedChanges } from "../io/git.js";
import { filteredPaths } from "../io/git-filters.js";
import { mayBeLfsPointer } from "../io/lfs-pointer.js";
import { foldedPath } from "../io/path-fold.js";
import { holdsRules, isBundledRules } from "../io/rules-dir.js";
import { gitTopLevel } from "../io/top-level.js";
import { readingsOfName } from "../passes/raw-capture/name-readings.js";
import { couldHoldPayload, payloadWords, type PayloadWords } from "../passes/raw-capture/prefilter.js";

// The pre-commit gate's fast path, which every commit of a repository pays for: a commit that
// touches none of the tool's places (in the default layout, with no clear.config.json) and brings
// no file that could hold a capture (none named .json, none that couldHoldPayload says could, from
// the signatures' member names alone) passes here, having loaded no other rules. Anything else
// goes to the whole gate.

// The rules folder too: the whole gate checks a repository's own rules before anything else.
const PLACES = ["fixtures", "captures-inbox", "clearance.md", "clear.config.json", "rules"];
const REGULAR = new Set(["100644", "100755"]);

// In any spelling a checkout takes for it: Fixtures/ lands in fixtures/ on macOS and Windows.
const under = (p: string, place: string): boolean => foldedPath(p) === place || foldedPath(p).startsWith(`${place}/`);

/** True when the staged change is certainly clear of the gate's concerns; false means: run the whole gate. */
export function stagedIsPlainlyClear(cwd: string): boolean {
  const root = gitTopLevel(cwd);
  if (root === null || existsSync(path.join(root, "clear.config.json"))) return false;
  // A repository's own rules may name captures the bundled payload rules do not (a harness's
  // catalogue): the whole gate reads them, as this path reads the bundled ones alone.
  if (ownRules(path.join(root, "rules"))) return false;
  const changes = stagedChanges(root);
  // A tilde and a digit may be an NTFS short name of a place (CLEARA~1.MD): the whole gate reads it.
  // The root's .gitattributes reaches the fixtures: what it says of them is the whole gate's to judge.
  if (changes.some((c) => PLACES.some((place) => under(c.path, place)) || foldedPath(c.path) === ".gitattributes" || c.path.endsWith(".json") || /~[0-9]/.test(c.path))) return false;
  // A name in bytes that are not UTF-8 reads as another: the whole gate asks git about it by its bytes.
  if (changes.some((c) => c.raw !== undefined)) return false;
  const brought = changes.filter((c) => c.status !== "D" && REGULAR.has(c.mode));
  if (changes.some((c) => c.status !== "D" && !REGULAR.has(c.mode))) return false;
  const blobs = readBlobs([...brought.map((c) => c.sha), ":clear.config.json"], root);
  if (blobs.has(":clear.config.json")) return false;
  const words = bundledPayloadWords();
  // A Git LFS pointer stands for bytes this path does not read: the whole gate reads its object.
  const plain = words !== null && brought.every((c) => blobs.has(c.sha) && !mayBeLfsPointer(blobs.get(c.sha) as Buffer) && !couldHoldPayload(blobs.get(c.sha) as Buffer, words));
  // The names travel with the bytes: a name that could hold a payload (a file named after a prompt) goes to the whole gate.
  if (plain && couldHoldPayload(Buffer.from(brought.flatMap((c) => readingsOfName(c.path)).join("\n"), "utf8"), words)) return false;
  // A path a filter stores (git-crypt, say) is bytes the filter wrote: the whole gate refuses it.
  return plain && filteredPaths(root, brought.map((c) => c.path), { index: true }).size === 0;
}

/** The signatures' member names from the bundled rules/payloads.json (never overlaid), read without a schema; null when it cannot be read. */
function bundledPayloadWords(): PayloadWords | null {
  try {
    const rules = JSON.parse(readFileSync(new URL("../../rules/payloads.json", import.meta.url), "utf8")) as { signatures: { members: { pointer: string }[] }[] };
    return payloadWords(rules.signatures);
  } catch {
    return null;
  }
}

/** Whether a folder lays rules over the bundled ones: this project's own rules folder is the bundled one. */
const ownRules = (dir: string): boolean => holdsRules(dir) && !isBundledRules(dir);
