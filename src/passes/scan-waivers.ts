import type { ScanFinding, ScanWaiver, WaivedFinding } from "../types.js";

/** A finding as the scan found it: with the path it was found at, the raw pointer and the value's digest, before waivers. */
export interface Found {
  finding: ScanFinding;
  path: string;
  rawPointer: string | null;
  valueSha256: string;
}

// Waivers a person declared in clear.config.json: a finding is waived only where the fixture
// path, the JSON pointer, the rule and the SHA-256 of the decoded value all match one waiver.
// A waiver naming a scanned file that matched nothing there is reported as unused.

export interface WaiverSplit {
  kept: ScanFinding[];
  waived: WaivedFinding[];
  unused: ScanWaiver[];
}

const keyOf = (path: string, pointer: string, rule: string, sha256: string): string => JSON.stringify([path, pointer, rule, sha256.toLowerCase()]);

export function waive(found: Found[], scanned: Set<string>, waivers: ScanWaiver[]): WaiverSplit {
  const byKey = new Map(waivers.map((w) => [keyOf(w.fixture, w.pointer, w.rule, w.sha256), w]));
  const used = new Set<ScanWaiver>();
  const kept: ScanFinding[] = [];
  const waived: WaivedFinding[] = [];
  for (const f of found) {
    const w = f.rawPointer === null ? undefined : byKey.get(keyOf(f.path, f.rawPointer, f.finding.rule, f.valueSha256));
    if (w === undefined) {
      kept.push(f.finding);
      continue;
    }
    used.add(w);
    waived.push({ ...f.finding, sha256: f.valueSha256, reason: w.reason });
  }
  const unused = waivers.filter((w) => scanned.has(w.fixture) && !used.has(w));
  return { kept, waived, unused };
}
