import type { CaptureName, HarnessCatalogue } from "./types.js";

// The capture file name grammar: <harness>_<snake_event>_<host_version>.<n>.json

export const COMPANION_NAMES = ["sitting.json", "kit.json", ".gitignore"];

export function isCompanion(name: string): boolean {
  return COMPANION_NAMES.includes(name) || /^README/i.test(name);
}

const VERSION = /^(?:unknown|[0-9]+(?:[._][0-9]+)*(?:-[0-9A-Za-z]+(?:[._][0-9A-Za-z]+)*)?)$/;

/** `2_1_261` and `2.1.261` are the same version; pre-release suffixes keep their parts. */
export function dottedVersion(asWritten: string): string {
  return asWritten.replace(/_/g, ".");
}

export type NameParse =
  | { kind: "capture"; name: CaptureName }
  | { kind: "unknown-harness"; harness: string }
  | { kind: "unknown-event"; harness: string; stem: string; version: string; n: number }
  | { kind: "not-a-capture"; reason: string };

export interface NameGrammar {
  harnesses: { written: string; catalogue: HarnessCatalogue }[];
  stems: Map<string, { stem: string; event: string }[]>;
}

export function nameGrammar(harnesses: HarnessCatalogue[]): NameGrammar {
  const written = harnesses.flatMap((h) => [h.harness, ...h.aliases].map((w) => ({ written: w, catalogue: h })));
  // Longest first, so `codex-cli` wins over `codex` and `post_tool_use_failure` over `post_tool_use`.
  written.sort((a, b) => b.written.length - a.written.length);
  const stems = new Map<string, { stem: string; event: string }[]>();
  for (const h of harnesses) {
    stems.set(h.harness, [...h.events].sort((a, b) => b.stem.length - a.stem.length));
  }
  return { harnesses: written, stems };
}

export function parseCaptureName(fileName: string, grammar: NameGrammar): NameParse {
  if (!fileName.endsWith(".json")) return { kind: "not-a-capture", reason: "does not end in .json" };
  const base = fileName.slice(0, -".json".length);
  const counter = /\.([1-9][0-9]*)$/.exec(base);
  const looksLikeCapture = /^[a-z][a-z0-9-]*_[a-z0-9_]+_.+$/.test(base);
  if (!counter) {
    return {
      kind: "not-a-capture",
      reason: looksLikeCapture
        ? "has no .<n> counter before .json (a capture sink names files <harness>_<event>_<version>.<n>.json)"
        : "is not named <harness>_<event>_<version>.<n>.json",
    };
  }
  const n = Number(counter[1]);
  const stemAndVersion = base.slice(0, counter.index);
  const harness = grammar.harnesses.find((h) => stemAndVersion.startsWith(`${h.written}_`));
  if (!harness) {
    const m = /^([a-z][a-z0-9-]*)_[a-z0-9_]+_[0-9u]/.exec(stemAndVersion);
    if (m) return { kind: "unknown-harness", harness: m[1] as string };
    return { kind: "not-a-capture", reason: "is not named <harness>_<event>_<version>.<n>.json" };
  }
  const rest = stemAndVersion.slice(harness.written.length + 1);
  const stems = grammar.stems.get(harness.catalogue.harness) ?? [];
  for (const s of stems) {
    if (!rest.startsWith(`${s.stem}_`)) continue;
    const version = rest.slice(s.stem.length + 1);
    if (!VERSION.test(version)) continue;
    return {
      kind: "capture",
      name: {
        harness: harness.catalogue.harness,
        harnessAsWritten: harness.written,
        event: s.stem,
        hostEvent: s.event,
        version: dottedVersion(version),
        versionAsWritten: version,
        n,
      },
    };
  }
  // Not a catalogued event: split at the first place where what follows reads as a version.
  const parts = rest.split("_");
  for (let k = 1; k < parts.length; k++) {
    const version = parts.slice(k).join("_");
    if (VERSION.test(version) && /^[a-z]/.test(parts[0] as string)) {
      return { kind: "unknown-event", harness: harness.catalogue.harness, stem: parts.slice(0, k).join("_"), version: dottedVersion(version), n };
    }
  }
  return { kind: "not-a-capture", reason: `has no <event>_<version> part after "${harness.written}_"` };
}
