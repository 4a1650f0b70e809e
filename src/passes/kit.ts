import { finding, type Finding } from "../findings.js";
import type { Kit, KitFile } from "../types.js";

// Whether the committed transports are the kit's bytes: each equal, differs (and whether only in
// version strings, with the lines that differ), missing, or extra.

export interface TransportState {
  path: string;
  state: "equal" | "differs" | "missing" | "extra";
  kitSha256: string | null;
  committedSha256: string | null;
  versionStringsOnly?: boolean;
  diff?: string[];
}

export interface Side {
  sha256: string;
  bytes: number;
  text: string | null;
}

/** True when two texts are the same once every version string is set aside. */
export function versionStringsOnly(a: string, b: string, versionPattern: string): boolean {
  const v = new RegExp(versionPattern, "g");
  return a.replace(v, "<version>") === b.replace(v, "<version>");
}

/** The lines that differ, line by line, at most `max` of them. */
export function lineDiff(a: string, b: string, max = 20): string[] {
  const x = a.split("\n");
  const y = b.split("\n");
  const out: string[] = [];
  for (let i = 0; i < Math.max(x.length, y.length) && out.length < max; i++) {
    if (x[i] === y[i]) continue;
    if (x[i] !== undefined) out.push(`${i + 1}- ${x[i]}`);
    if (y[i] !== undefined) out.push(`${i + 1}+ ${y[i]}`);
  }
  return out;
}

function compareOne(kitFile: KitFile, kitCopy: string | null, committed: Side | undefined, versionPattern: string): TransportState {
  const { path, sha256: kitSha } = kitFile;
  if (!committed) return { path, state: "missing", kitSha256: kitSha, committedSha256: null };
  // The digest and the size kit.json records are one claim: a size no file of that digest has is a kit.json edited.
  if (committed.sha256 === kitSha && committed.bytes === kitFile.bytes) return { path, state: "equal", kitSha256: kitSha, committedSha256: committed.sha256 };
  const state: TransportState = { path, state: "differs", kitSha256: kitSha, committedSha256: committed.sha256 };
  if (committed.sha256 === kitSha) return { ...state, versionStringsOnly: false, diff: [`kit.json records ${kitFile.bytes} bytes; the committed bytes of that digest are ${committed.bytes}`] };
  if (kitCopy !== null && committed.text !== null) {
    state.versionStringsOnly = versionStringsOnly(kitCopy, committed.text, versionPattern);
    state.diff = lineDiff(kitCopy, committed.text);
  }
  return state;
}

export function kitPass(kit: Kit, committed: Map<string, Side>, kitCopies: Map<string, string | null>, versionPattern: string): { transports: TransportState[]; findings: Finding[] } {
  const transports = kit.transports.map((t) => compareOne(t, kitCopies.get(t.path) ?? null, committed.get(t.path), versionPattern));
  const known = new Set(kit.transports.map((t) => t.path));
  for (const [path, side] of committed) if (!known.has(path)) transports.push({ path, state: "extra", kitSha256: null, committedSha256: side.sha256 });
  transports.sort((a, b) => (a.path < b.path ? -1 : 1));
  const findings = transports.flatMap((t): Finding[] => {
    if (t.state === "missing") return [finding("transport-missing", { file: t.path })];
    if (t.state === "extra") return [finding("transport-extra", { file: t.path })];
    if (t.state !== "differs") return [];
    const sizeOnly = t.kitSha256 === t.committedSha256;
    const how = sizeOnly ? "kit.json records another size for the digest of these bytes" : t.versionStringsOnly === undefined ? "the kit's own copy is not at hand to compare" : t.versionStringsOnly ? "in version strings only" : "beyond version strings";
    return [finding("transport-differs", { file: t.path }, { how })];
  });
  return { transports, findings };
}
