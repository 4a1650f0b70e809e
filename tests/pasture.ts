import { copyFileSync, existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { PASTURE_FIXTURES } from "./helpers.js";

// Turns pasture's committed fixtures back into a capture folder: each fixture gets the capture
// name its provenance implies (<harness>_<event>_<version>.<n>.json). Read in place, copied only
// into a temporary folder.

export interface RebuiltCapture {
  fixture: string;
  capture: string;
  harness: string;
  stem: string;
  version: string;
  provenance: Record<string, unknown>;
}

export function rebuildSitting(harness: "claude" | "codex" | "opencode", into: string, filter: (c: RebuiltCapture) => boolean = () => true): RebuiltCapture[] {
  const dir = PASTURE_FIXTURES(harness);
  const out: RebuiltCapture[] = [];
  const taken = new Map<string, number>();
  for (const name of readdirSync(dir).sort()) {
    if (!name.endsWith(".json") || name.endsWith(".provenance.json")) continue;
    const sidecar = path.join(dir, name.replace(/(\.capture)?\.json$/, ".provenance.json"));
    if (!existsSync(sidecar)) continue;
    const provenance = JSON.parse(readFileSync(sidecar, "utf8")) as Record<string, unknown>;
    const version = String(provenance.harnessVersion ?? provenance.observedRuntimeVersion ?? "");
    const underscored = version.replace(/\./g, "_");
    const base = name.replace(/(\.capture)?\.json$/, "").replace(/^opencode_/, "").replace(/\.\d+$/, "");
    if (!base.endsWith(`_${underscored}`)) continue; // variants such as *_version_out_of_range
    const stem = base.slice(0, -(underscored.length + 1));
    const captureHarness = String(provenance.harness ?? provenance.provider ?? harness);
    const key = `${captureHarness}_${stem}_${underscored}`;
    const n = (taken.get(key) ?? 0) + 1;
    taken.set(key, n);
    const rebuilt = { fixture: name, capture: `${key}.${n}.json`, harness: captureHarness, stem, version, provenance };
    if (!filter(rebuilt)) continue;
    copyFileSync(path.join(dir, name), path.join(into, rebuilt.capture));
    out.push(rebuilt);
  }
  return out;
}

/** "- pre_tool_use_2_1_261.json: home-path-v1, free-text-v1 (.tool_input.command, ...)" lines of a CLEARANCE.md. */
export function clearanceRules(harness: "claude" | "codex" | "opencode"): Map<string, { rules: string[]; freeText: string[] }> {
  const text = readFileSync(path.join(PASTURE_FIXTURES(harness), "CLEARANCE.md"), "utf8");
  const out = new Map<string, { rules: string[]; freeText: string[] }>();
  for (const m of text.matchAll(/^- `?([a-z0-9_.]+\.json)`?: ((?:home-path-v1|env-dump-v1|free-text-v1)[^\n]*)$/gm)) {
    const fixture = m[1] as string;
    const rest = m[2] as string;
    const freeText = /free-text-v1 \(([^)]*)\)/.exec(rest)?.[1]?.split(",").map((s) => s.trim()) ?? [];
    const rules = [...rest.matchAll(/(home-path-v1|env-dump-v1|free-text-v1)(?! not applied)/g)].map((x) => x[1] as string);
    out.set(fixture, { rules, freeText });
  }
  return out;
}

/** `.tool_calls[0].tool_input.command` -> `/tool_calls/0/tool_input/command` */
export function dottedToPointer(dotted: string): string {
  return dotted.replace(/\[(\d+)\]/g, ".$1").replace(/\./g, "/");
}

/** The inventory blocks a CLEARANCE.md pastes: capture name -> pointer -> class. */
export function clearanceInventory(harness: "claude" | "codex" | "opencode"): Map<string, Map<string, string>> {
  const text = readFileSync(path.join(PASTURE_FIXTURES(harness), "CLEARANCE.md"), "utf8");
  const out = new Map<string, Map<string, string>>();
  let current: Map<string, string> | null = null;
  for (const line of text.split("\n")) {
    const head = /^([a-z-]+_[a-z0-9_]+\.\d+\.json)$/.exec(line);
    if (head) {
      current = new Map();
      out.set(head[1] as string, current);
      continue;
    }
    const field = /^ {2}(\.[^\s]+)\s+([a-z-]+)/.exec(line);
    if (field && current) current.set(dottedToPointer(field[1] as string), field[2] as string);
    else if (!line.startsWith("  ")) current = null;
  }
  return out;
}

/** Raw capture name -> the digest of the fixture committed from it, from a CLEARANCE.md's fixture lines. */
export function committedDigests(harness: "claude" | "codex" | "opencode"): Map<string, string> {
  const text = readFileSync(path.join(PASTURE_FIXTURES(harness), "CLEARANCE.md"), "utf8");
  const out = new Map<string, string>();
  for (const m of text.matchAll(/`([a-z-]+_[a-z0-9_]+\.\d+\.json)`[^\n]*?committed sha256:([0-9a-f]{64})/g)) out.set(m[1] as string, m[2] as string);
  return out;
}
