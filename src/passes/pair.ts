import { findMatches } from "../pointers.js";
import type { Pair, Pairing, PairingRuleSet, Rules, ScopeCount, Unpaired } from "../types.js";

// Pairing: which files belong to one host operation, by the host's own identifiers only.
// Never by field values, never by arrival order.

export interface FileIds {
  name: string;
  harness: string;
  event: string;
  /** scope -> the identifier values this file carries at that scope (a batch event may carry several) */
  ids: Map<string, string[]>;
}

/** The identifiers one payload carries, per scope. Pure. */
export function identifiersOf(name: string, harness: string, event: string, payload: unknown, rules: PairingRuleSet | undefined): FileIds {
  const ids = new Map<string, string[]>();
  for (const scope of rules?.scopes ?? []) {
    const values: string[] = [];
    for (const p of scope.pointers) {
      if (p.events && !p.events.includes(event)) continue;
      for (const m of findMatches(payload, p.pointer)) {
        if (typeof m.value === "string" && m.value !== "" && !values.includes(m.value)) values.push(m.value);
      }
    }
    if (values.length > 0) ids.set(scope.scope, values);
  }
  return { name, harness, event, ids };
}

function countWord(n: number, one: string, many: string): string {
  const words = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];
  return `${n <= 10 ? words[n] : String(n)} ${n === 1 ? one : many}`;
}

/** Says a scope's counts the way a clearance record does. */
export function describeCount(c: ScopeCount): string {
  if (c.distinctValues === 0) return `no file carries a ${c.scope}`;
  const ids = countWord(c.distinctValues, `${c.scope}`, `distinct ${c.scope} values`);
  const without = c.filesWithout === 0 ? "every file carries one" : `${countWord(c.filesWithout, "file carries", "files carry")} no ${c.scope}`;
  return `${ids}; ${without}${c.sharedByAll ? "; shared by every file, so it pairs nothing" : ""}`;
}

export function pairSitting(files: FileIds[], rules: Rules, skipped: { file: string; reason: string }[] = []): Pairing {
  const pairs: Pair[] = [];
  const counts: ScopeCount[] = [];
  const finest = new Map<string, { scope: string; id: string }>();
  const carriesAny = new Set<string>();

  const harnesses = [...new Set(files.map((f) => f.harness))].sort();
  for (const harness of harnesses) {
    const batch = files.filter((f) => f.harness === harness);
    const scopes = rules.pairing.find((p) => p.harness === harness)?.scopes ?? [];
    for (const scope of scopes) {
      const groups = new Map<string, string[]>();
      let carriers = 0;
      for (const f of batch) {
        const values = f.ids.get(scope.scope);
        if (!values) continue;
        carriers++;
        carriesAny.add(f.name);
        for (const v of values) groups.set(v, [...(groups.get(v) ?? []), f.name]);
      }
      // An identifier every file of the batch carries says nothing about which file goes with which.
      const sharedValues = [...groups.entries()].filter(([, members]) => batch.length > 1 && members.length === batch.length).map(([v]) => v);
      counts.push({
        harness,
        scope: scope.scope,
        label: scope.label,
        distinctValues: groups.size,
        carriers,
        filesWithout: batch.length - carriers,
        sharedByAll: sharedValues.length > 0,
      });
      for (const [id, members] of [...groups.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
        if (sharedValues.includes(id) || members.length < 2) continue;
        pairs.push({ harness, scope: scope.scope, id, files: [...members].sort() });
        for (const m of members) if (!finest.has(m)) finest.set(m, { scope: scope.scope, id });
      }
    }
  }

  const unpaired: Unpaired[] = [];
  for (const f of [...files].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (finest.has(f.name)) continue;
    let reason: string;
    if (!carriesAny.has(f.name)) reason = "carries no identifier at any scope";
    else if ([...f.ids.entries()].every(([scope, values]) => values.every((v) => sharedByBatch(files, f.harness, scope, v)))) {
      reason = `carries only an identifier every file shares (${[...f.ids.keys()].join(", ")})`;
    } else {
      const own = [...f.ids.entries()].map(([scope, values]) => `${scope} ${values.join(", ")}`).join("; ");
      reason = `no other file carries its identifiers (${own})`;
    }
    unpaired.push({ file: f.name, reason });
  }
  return {
    pairs,
    finest: [...finest.entries()].map(([file, p]) => ({ file, ...p })).sort((a, b) => (a.file < b.file ? -1 : 1)),
    unpaired,
    counts,
    skipped,
  };
}

function sharedByBatch(files: FileIds[], harness: string, scope: string, value: string): boolean {
  const batch = files.filter((f) => f.harness === harness);
  if (batch.length < 2) return false;
  return batch.every((f) => f.ids.get(scope)?.includes(value));
}
