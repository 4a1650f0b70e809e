import { append } from "../collections.js";
import { sha256Hex } from "../digest.js";
import type { Capture, FixtureOut, Pairing, Provenance, Selection, Sitting, Substitution } from "../types.js";
import { withDocument } from "../json/with-document.js";

// The fixtures a batch writes: fixtures/<harness>/<dotted version>/<snake_event>.json beside its
// provenance sidecar, tracing every committed byte back to the raw capture by digest. Nothing in a
// sidecar comes from the file system's clock: the same captures give the same bytes.

export function fixturePath(fixturesDir: string, harness: string, version: string, event: string): string {
  return `${fixturesDir}/${harness}/${version}/${event}.json`;
}

/** `mask` writes a text kit.json gives (a transport's path) as the record writes it: homes and the names the sitting taught masked. */
export function provenancePass(sitting: Sitting, captures: Capture[], substitution: Substitution, pairing: Pairing, selection: Selection, fixturesDir: string, batch: string, mask: (text: string) => string): FixtureOut[] {
  const captureOf = new Map(captures.map((c) => [c.name, c]));
  const clearedOf = new Map(substitution.files.map((f) => [f.report.name, f]));
  const pairsOf = new Map<string, Pairing["pairs"]>();
  for (const p of pairing.pairs) for (const f of p.files) append(pairsOf, f, p);
  // The capture time is what sitting.json states, or none: a file's time says when it was copied, not captured.
  const startedAt = sitting.info?.startedAt;
  return selection.selected.map((s) => {
    const capture = captureOf.get(s.file) as Capture;
    const cleared = clearedOf.get(s.file);
    const bytes = Buffer.from(cleared?.cleared as string, "utf8");
    const provenance: Provenance = {
      schemaVersion: 1,
      origin: "authentic-capture",
      harness: s.harness,
      hostVersion: s.version,
      event: s.event,
      captureName: s.file,
      capturedAt: startedAt ?? null,
      capturedAtSource: startedAt !== undefined ? "sitting.json" : "not-stated",
      raw: { sha256: capture.sha256, bytes: capture.size },
      cleared: { sha256: sha256Hex(bytes), bytes: bytes.length },
      rules: (cleared?.report.rules ?? []).map((r) => ({ rule: r.rule, pointers: r.pointers })),
      pairs: (pairsOf.get(s.file) ?? []).map((p) => ({ scope: p.scope, id: p.id, files: p.files })),
      kit: sitting.kit ? { head: sitting.kit.head, binarySha256: sitting.kit.binary?.sha256 ?? null, transports: sitting.kit.transports.map((t) => ({ ...t, path: mask(t.path) })) } : null,
      batch,
    };
    const path = fixturePath(fixturesDir, s.harness, s.version, s.event);
    const out: FixtureOut = { path, sidecarPath: path.replace(/\.json$/, ".provenance.json"), event: s.event, captureName: s.file, bytes, sidecar: Buffer.from(`${JSON.stringify(provenance, null, 2)}\n`), provenance };
    if (cleared?.document !== undefined) withDocument(out, cleared.document);
    return out;
  });
}
