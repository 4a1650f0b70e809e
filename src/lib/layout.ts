import { FixtureError, fixFor } from "./errors.js";
import { readBelow } from "./no-link.js";

// Where a repository keeps its fixtures and its record: the contract's defaults, or the paths
// of clear.config.json. Only those two paths are read here, checked as the config's schema checks
// them (relative, inside the repository), so that the library loads no schema validator.

export const CONFIG_FILE = "clear.config.json";

export interface FixtureLayout {
  /** The fixtures folder, from the repository's root, with / between parts. */
  fixtures: string;
  /** The record, from the repository's root. */
  record: string;
}

const INSIDE = /^[^\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\\]{1,200}$/u;
// As the config's schema has it: an empty part ("docs//record.md") is refused too, so that the
// loader never honours a config that clear verify refuses.
const LEAVES = /^\/|^[A-Za-z]:|(^|\/)\.\.?(\/|$)|\/\//;

function configPath(value: unknown, key: string, fallback: string): string {
  if (value === undefined) return fallback;
  if (typeof value !== "string" || !INSIDE.test(value) || LEAVES.test(value)) {
    const why = `paths.${key} is not a path relative to the repository root, inside it`;
    throw new FixtureError("config", null, `${CONFIG_FILE}: ${why}; fix it (clear verify names every problem of the file)`);
  }
  return value.replace(/\/+$/, "");
}

/** The layout of the repository at `root`; clear.config.json is read without following a link. */
export function layoutOf(root: string): FixtureLayout {
  const read = readBelow(root, CONFIG_FILE, 1 << 20);
  if ("refused" in read) {
    if (read.refused === "missing" && read.at === CONFIG_FILE) return { fixtures: "fixtures", record: "CLEARANCE.md" };
    throw new FixtureError("config", null, `${CONFIG_FILE} ${read.detail}; ${fixFor(read.refused, "the tool reads its config only from a regular file")}`);
  }
  let config: unknown;
  try {
    config = JSON.parse(read.bytes.toString("utf8"));
  } catch {
    throw new FixtureError("config", null, `${CONFIG_FILE} is not valid JSON; fix it (clear verify names the place)`);
  }
  const paths = typeof config === "object" && config !== null ? (config as { paths?: unknown }).paths : undefined;
  const given = (typeof paths === "object" && paths !== null ? paths : {}) as { fixtures?: unknown; clearance?: unknown };
  return { fixtures: configPath(given.fixtures, "fixtures", "fixtures"), record: configPath(given.clearance, "clearance", "CLEARANCE.md") };
}
