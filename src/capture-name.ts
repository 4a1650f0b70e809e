import type { CaptureName, HarnessCatalogue } from "./types.js";

// The capture file name grammar: <harness>_<snake_event>_<host_version>.<n>.json, where each
// harness says the shape of its versions, so a name missing its `.n` is never read as a shorter
// version with a large counter.

export const COMPANION_NAMES = ["sitting.json", "kit.json", ".gitignore"];

export function isCompanion(name: string): boolean {
  return COMPANION_NAMES.includes(name) || /^README/i.test(name);
}

/** `2_1_261` and `2.1.261` are the same version; pre-release suffixes keep their parts. */
export function dottedVersion(asWritten: string): string {
  return asWritten.replace(/_/g, ".");
}

export type NameParse =
  | { kind: "capture"; name: CaptureName }
  | { kind: "unknown-harness" }
  | { kind: "unknown-event"; harness: string; stem: string; version: string; n: number }
  | { kind: "not-a-capture"; reason: string };

interface WrittenHarness {
  written: string;
  catalogue: HarnessCatalogue;
  version: RegExp;
  stems: { stem: string; event: string }[];
}

export interface NameGrammar {
  harnesses: WrittenHarness[];
}

export function nameGrammar(harnesses: HarnessCatalogue[]): NameGrammar {
  const written = harnesses.flatMap((h) =>
    [h.harness, ...h.aliases].map((w) => ({
      written: w,
      catalogue: h,
      version: new RegExp(`^(?:unknown|${h.versionPattern})$`),
      // Longest first, so `post_tool_use_failure` wins over `post_tool_use`.
      stems: [...h.events].sort((a, b) => b.stem.length - a.stem.length),
    })),
  );
  // Longest first, so `codex-cli` wins over `codex`.
  written.sort((a, b) => b.written.length - a.written.length);
  return { harnesses: written };
}

function parseBase(base: string, n: number, h: WrittenHarness): NameParse | null {
  const rest = base.slice(h.written.length + 1);
  for (const s of h.stems) {
    if (!rest.startsWith(`${s.stem}_`)) continue;
    const asWritten = rest.slice(s.stem.length + 1);
    const version = dottedVersion(asWritten);
    if (!h.version.test(version)) continue;
    const name: CaptureName = { harness: h.catalogue.harness, harnessAsWritten: h.written, event: s.stem, hostEvent: s.event, version, versionAsWritten: asWritten, n };
    return { kind: "capture", name };
  }
  // Not a catalogued event: split where what follows reads as this harness's version.
  const parts = rest.split("_");
  for (let k = 1; k < parts.length; k++) {
    const version = dottedVersion(parts.slice(k).join("_"));
    if (h.version.test(version) && /^[a-z]/.test(parts[0] as string)) {
      return { kind: "unknown-event", harness: h.catalogue.harness, stem: parts.slice(0, k).join("_"), version, n };
    }
  }
  return null;
}

// The entries the capture sink leaves in place of a capture. The sink loads none of the tool's
// modules, so it holds these values too; a test keeps the two equal.
export const SINK_MAX_PAYLOAD_BYTES = 64 * 1024 * 1024;
export const SINK_OVERSIZE_SUFFIX = ".oversize";
export const SINK_PARTIAL_SUFFIX = ".partial";

/** What an entry the capture sink leaves in place of a capture says, or null for any other name. */
function sinkMarkReason(fileName: string): string | null {
  if (fileName.endsWith(`.json${SINK_OVERSIZE_SUFFIX}`)) {
    return `marks a payload the capture sink kept none of: it was above the sink's cap of ${SINK_MAX_PAYLOAD_BYTES} bytes (the event is lost; capture it again)`;
  }
  if (fileName.endsWith(SINK_PARTIAL_SUFFIX)) return "is a payload the capture sink began and never finished writing (the sink was stopped); it is not a capture";
  return null;
}

export function parseCaptureName(fileName: string, grammar: NameGrammar): NameParse {
  const shape = "is not named <harness>_<event>_<version>.<n>.json";
  const sinkMark = sinkMarkReason(fileName);
  if (sinkMark !== null) return { kind: "not-a-capture", reason: sinkMark };
  if (!fileName.endsWith(".json")) return { kind: "not-a-capture", reason: "does not end in .json" };
  const whole = fileName.slice(0, -".json".length);
  const h = grammar.harnesses.find((x) => whole.startsWith(`${x.written}_`));
  if (!h) return /^[a-z][a-z0-9-]*_[a-z0-9_]+_[0-9u]/.test(whole) ? { kind: "unknown-harness" } : { kind: "not-a-capture", reason: shape };
  const counter = /\.([1-9][0-9]*)$/.exec(whole);
  // A counter no sink reaches, and no number holds exactly, is not read as one (it would print as another).
  if (counter && !Number.isSafeInteger(Number(counter[1]))) return { kind: "not-a-capture", reason: "has a .<n> counter too large to be a sink's (above 2^53)" };
  const parsed = counter ? parseBase(whole.slice(0, counter.index), Number(counter[1]), h) : null;
  if (parsed) return parsed;
  // Read whole, the name may be a capture's with its counter left off.
  if (parseBase(whole, 1, h)) {
    return { kind: "not-a-capture", reason: "has no .<n> counter before .json (a capture sink names files <harness>_<event>_<version>.<n>.json)" };
  }
  return { kind: "not-a-capture", reason: counter ? `has no <event>_<version> part that fits ${h.catalogue.harness}'s versions` : shape };
}
