import { append, pushAll } from "../collections.js";
import { finding, type Finding } from "../findings.js";
import type { Capture, Pair, Pairing, Rules, SelectedFixture, Selection, Substitution } from "../types.js";

// Selection: one capture stands for each harness, version and event. The smallest clearable one
// by raw bytes (ties to the lowest .n), except where the rules declare pairs to keep: then the
// smallest combination that is one operation at its finest scope, whenever one exists.

interface Choice {
  file: Capture;
  why: string;
  override: boolean;
}

const groupKey = (harness: string, version: string, event: string): string => `${harness}\u0000${version}\u0000${event}`;
const bySize = (a: Capture, b: Capture): number => a.size - b.size || a.n - b.n;

/** The smallest combination of an earlier and a later event that is one operation, within what is fixed already. */
function keepPair(first: Capture[], second: Capture[], fixed: Map<string, Choice>, pairsOf: Map<string, Pair[]>): { a: Capture; b: Capture; pair: Pair } | null {
  const keyOf = (c: Capture): string => groupKey(c.harness, c.version, c.event);
  const allowed = (list: Capture[]): Capture[] => {
    const f = list[0] ? fixed.get(keyOf(list[0])) : undefined;
    return f ? [f.file] : list;
  };
  const later = new Map(allowed(second).map((c) => [c.name, c]));
  let best: { a: Capture; b: Capture; pair: Pair } | null = null;
  // Only the files each capture is paired with are tried, never every combination.
  for (const a of allowed(first)) {
    for (const pair of pairsOf.get(a.name) ?? []) {
      for (const name of pair.files) {
        const b = later.get(name);
        if (!b) continue;
        const size = a.size + b.size;
        const better = !best || size < best.a.size + best.b.size || (size === best.a.size + best.b.size && a.n + b.n < best.a.n + best.b.n);
        if (better) best = { a, b, pair };
      }
    }
  }
  return best;
}

function applyKeeps(groups: Map<string, Capture[]>, fixed: Map<string, Choice>, pairing: Pairing, rules: Rules, findings: Finding[]): void {
  const pairsOf = new Map<string, Pair[]>();
  for (const p of pairing.pairs) for (const f of p.files) append(pairsOf, f, p);
  for (const [key, list] of groups) {
    const [harness, version, event] = key.split("\u0000") as [string, string, string];
    for (const [firstEvent, secondEvent] of rules.pairing.find((p) => p.harness === harness)?.keep ?? []) {
      if (event !== firstEvent) continue;
      const second = groups.get(groupKey(harness, version, secondEvent));
      if (!second) continue;
      const kept = keepPair(list, second, fixed, pairsOf);
      if (!kept) {
        findings.push(finding("pair-not-kept", { file: list[0]?.name }, { first: firstEvent, second: secondEvent }));
        continue;
      }
      const why = (other: Capture): string => `keeps the ${kept.pair.scope} ${kept.pair.id} pair with ${other.name}`;
      if (!fixed.has(key)) fixed.set(key, { file: kept.a, why: why(kept.b), override: false });
      const secondKey = groupKey(harness, version, secondEvent);
      if (!fixed.has(secondKey)) fixed.set(secondKey, { file: kept.b, why: why(kept.a), override: false });
    }
  }
}

function notChosenWhy(c: Capture, chosen: Choice): string {
  const size = c.size < chosen.file.size ? "smaller" : c.size > chosen.file.size ? "larger" : "same size";
  if (chosen.override) return `${size}; another capture was chosen with --choose`;
  if (chosen.why.startsWith("keeps")) return `${size}; the chosen one keeps its pair`;
  if (size !== "same size") return size;
  // Two spellings of one event's name (a version's dots or underscores, a host's alias) may share a counter: the name decides then.
  return c.n === chosen.file.n ? "same size and .n, later name" : "same size, later .n";
}

/** The selection pass. Pure. `overrides` are capture names given with --choose. */
export function selectPass(captures: Capture[], substitution: Substitution, pairing: Pairing, rules: Rules, overrides: string[] = []): Selection {
  const findings: Finding[] = [];
  const firstRefusal = new Map(substitution.files.filter((f) => f.cleared === null).map((f) => [f.report.name, f.report.refused[0]]));
  const refused = new Map([...firstRefusal].map(([name, f]) => [name, f?.code ?? "refused"]));
  const all = new Map<string, Capture[]>();
  for (const c of captures) append(all, groupKey(c.harness, c.version, c.event), c);
  const groups = new Map<string, Capture[]>();
  for (const [key, list] of all) {
    const clearable = list.filter((c) => !refused.has(c.name)).sort(bySize);
    if (clearable.length > 0) groups.set(key, clearable);
    else {
      const [harness, version, event] = key.split("\u0000") as [string, string, string];
      // The first capture's own refusal names the place, so the finding says where and why.
      const first = list[0] as Capture;
      const why = firstRefusal.get(first.name);
      findings.push(finding("no-clearable-capture", { file: first.name, pointer: why?.pointer, line: why?.line, column: why?.column }, { harness, version, event, why: why?.code ?? "unreadable" }));
    }
  }
  const fixed = new Map<string, Choice>();
  for (const name of overrides) {
    const c = captures.find((x) => x.name === name);
    if (c && !refused.has(c.name)) fixed.set(groupKey(c.harness, c.version, c.event), { file: c, why: "chosen with --choose", override: true });
  }
  applyKeeps(groups, fixed, pairing, rules, findings);
  const selected: SelectedFixture[] = [];
  for (const [key, list] of [...groups].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    const chosen = fixed.get(key) ?? { file: list[0] as Capture, why: list.length > 1 ? "the smallest" : "the only clearable capture", override: false };
    const others = (all.get(key) ?? []).filter((c) => c !== chosen.file).sort(bySize);
    const notChosen = others.map((c) => ({ file: c.name, bytes: c.size, why: refused.has(c.name) ? `refused (${refused.get(c.name)})` : notChosenWhy(c, chosen) }));
    const f = chosen.file;
    selected.push({ harness: f.harness, event: f.event, version: f.version, file: f.name, bytes: f.size, why: chosen.why, override: chosen.override, notChosen });
  }
  pushAll(findings, splitPairs(selected, pairing, captures, rules));
  return { selected, findings };
}

/**
 * Each chosen capture that stands apart from the operation the others chosen keep: one in no
 * operation with another chosen capture, though an operation of its own has a member whose event
 * had another capture chosen (a PostToolBatch of another call than the pre and post chosen).
 * Never silent: a note names it.
 */
function splitPairs(selected: SelectedFixture[], pairing: Pairing, captures: Capture[], rules: Rules): Finding[] {
  const chosen = new Set(selected.map((s) => s.file));
  // Two events the rules keep as a pair are kept or said not kept (pair-not-kept) already.
  const kept = (harness: string, a: string, b: string): boolean => (rules.pairing.find((p) => p.harness === harness)?.keep ?? []).some(([x, y]) => (x === a && y === b) || (x === b && y === a));
  const byName = new Map(captures.map((c) => [c.name, c]));
  const chosenFor = new Map(selected.map((s) => [groupKey(s.harness, s.version, s.event), s.file]));
  const out: Finding[] = [];
  for (const file of [...chosen].sort()) {
    const own = pairing.pairs.filter((p) => p.files.includes(file));
    if (own.some((p) => p.files.some((f) => f !== file && chosen.has(f)))) continue;
    const apart = own.flatMap((p) => p.files.map((f) => ({ pair: p, member: byName.get(f) }))).find(({ member }) => member !== undefined && member.name !== file && chosenFor.has(groupKey(member.harness, member.version, member.event)) && !kept(member.harness, member.event, byName.get(file)?.event ?? ""));
    if (apart?.member) out.push(finding("pair-split", { file }, { scope: apart.pair.scope, event: apart.member.event }));
  }
  return out;
}
