import { findMatches } from "../pointers.js";
import type { Pair, Pairing, PairingRuleSet, PairingScope, Rules, ScopeCount, Unpaired } from "../types.js";

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

const WORDS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];
function counted(n: number, one: string, many: string): string {
  return `${n < WORDS.length ? WORDS[n] : String(n)} ${n === 1 ? one : many}`;
}

/** Says a scope's counts the way a clearance record does: "one session_id; two files carry no turn_id". */
export function describeCount(c: ScopeCount): string {
  if (c.distinctValues === 0) return `no file carries ${c.scope}`;
  const ids = counted(c.distinctValues, c.scope, `distinct ${c.scope} values`);
  const without = c.filesWithout === 0 ? "every file carries one" : `${counted(c.filesWithout, "file carries", "files carry")} no ${c.scope}`;
  return `${ids}; ${without}${c.sharedByAll ? "; shared by every file, so it pairs nothing" : ""}`;
}

function byName<T extends { name: string }>(a: T, b: T): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** Files that may pair at a scope: all carriers, or for a coarse scope only those with no finer identifier. */
function eligible(batch: FileIds[], scopes: PairingScope[], index: number): FileIds[] {
  const scope = scopes[index] as PairingScope;
  const finer = scopes.slice(0, index).map((s) => s.scope);
  return batch.filter((f) => f.ids.has(scope.scope) && (!scope.coarse || finer.every((s) => !f.ids.has(s))));
}

export function pairSitting(files: FileIds[], rules: Rules, skipped: { file: string; reason: string }[] = []): Pairing {
  const pairs: Pair[] = [];
  const counts: ScopeCount[] = [];
  const finest = new Map<string, { scope: string; id: string }>();
  const unpaired: Unpaired[] = [];

  for (const harness of [...new Set(files.map((f) => f.harness))].sort()) {
    const batch = files.filter((f) => f.harness === harness).sort(byName);
    const scopes = rules.pairing.find((p) => p.harness === harness)?.scopes ?? [];
    const sharedByAll = (scope: string, value: string): boolean => batch.length > 1 && batch.every((f) => f.ids.get(scope)?.includes(value));
    // A coarse identifier (a session) that every file carries says nothing about which file goes
    // with which. A fine one (a tool call) shared by every file means the batch is that one call.
    const isCoarse = (scope: string): boolean => scopes.find((s) => s.scope === scope)?.coarse === true;
    const uninformative = (scope: string, value: string): boolean => isCoarse(scope) && sharedByAll(scope, value);

    scopes.forEach((scope, index) => {
      const carriers = batch.filter((f) => f.ids.has(scope.scope));
      const values = new Set(carriers.flatMap((f) => f.ids.get(scope.scope) as string[]));
      counts.push({
        harness,
        scope: scope.scope,
        label: scope.label,
        distinctValues: values.size,
        carriers: carriers.length,
        filesWithout: batch.length - carriers.length,
        sharedByAll: [...values].some((v) => uninformative(scope.scope, v)),
      });
      const groups = new Map<string, string[]>();
      for (const f of eligible(batch, scopes, index)) {
        for (const v of f.ids.get(scope.scope) as string[]) groups.set(v, [...(groups.get(v) ?? []), f.name]);
      }
      for (const [id, members] of [...groups.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
        if (members.length < 2 || uninformative(scope.scope, id)) continue;
        pairs.push({ harness, scope: scope.scope, id, files: members });
        for (const m of members) if (!finest.has(m)) finest.set(m, { scope: scope.scope, id });
      }
    });

    for (const f of batch) {
      if (finest.has(f.name)) continue;
      let reason: string;
      const own = [...f.ids.entries()];
      if (own.length === 0) reason = "carries no identifier at any scope";
      else if (own.every(([scope, values]) => values.every((v) => uninformative(scope, v)))) {
        reason = `carries only an identifier every file shares (${own.map(([scope]) => scope).join(", ")})`;
      } else {
        const described = own
          .filter(([scope, values]) => !values.every((v) => uninformative(scope, v)))
          .map(([scope, values]) => {
            const coarse = isCoarse(scope) && own.length > 1 ? " (a coarse scope, which pairs only files with no finer identifier)" : "";
            return `${scope} ${values.join(", ")}${coarse}`;
          });
        reason = `no other file carries its ${described.join("; nor its ")}`;
      }
      unpaired.push({ file: f.name, reason });
    }
  }

  return {
    pairs,
    finest: [...finest.entries()].map(([file, p]) => ({ file, ...p })).sort((a, b) => (a.file < b.file ? -1 : 1)),
    unpaired: unpaired.sort((a, b) => (a.file < b.file ? -1 : 1)),
    counts,
    skipped,
  };
}
