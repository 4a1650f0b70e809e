import { append, pushAll } from "../collections.js";
import { stringAt } from "../json/reader.js";
import { matchesPattern } from "../pointers.js";
import type { Capture, Pair, Pairing, PairingRuleSet, PairingScope, Rules, ScopeCount, Skipped, Unpaired } from "../types.js";

// Pairing: which files belong to one host operation, by the host's own identifiers only, never by
// field values or arrival order. A file takes part only at its finest scope, so a coarser scope
// never joins files that a finer scope separates, and an id pairs only files whose enclosing scopes
// agree (one tool call id in two sessions is two calls). A placeholder id pairs nothing.

export interface FileIds {
  name: string;
  harness: string;
  /** scope -> the identifier values this file carries there (a batch event may carry several) */
  ids: Map<string, string[]>;
  /** scope -> how many placeholder values (empty, redacted, a run of x) it carries there */
  placeholders: Map<string, number>;
}

export function placeholderTest(rules: Rules): (id: string) => boolean {
  const patterns = rules.refusals.placeholderIds.map((p) => new RegExp(p, "iu"));
  return (id) => patterns.some((p) => p.test(id.trim()));
}

/** The identifiers one payload carries, per scope, read from its classified leaves. Pure. */
export function identifiersOf(capture: Pick<Capture, "name" | "harness" | "event" | "doc" | "leaves">, ruleSet: PairingRuleSet | undefined, isPlaceholder: (id: string) => boolean): FileIds {
  const ids = new Map<string, string[]>();
  const placeholders = new Map<string, number>();
  // Only a value classed an identifier is one: prose or a path a pairing rule points at is never copied into the record as an id.
  const identifiers = capture.leaves.filter((l) => l.kind === "string" && l.class === "identifier");
  for (const scope of ruleSet?.scopes ?? []) {
    const values: string[] = [];
    for (const p of scope.pointers) {
      if (p.events && !p.events.includes(capture.event)) continue;
      for (const leaf of identifiers) {
        if (!matchesPattern(p.pointer, leaf.tokens)) continue;
        const value = stringAt(capture.doc.text, leaf.start, leaf.end);
        if (isPlaceholder(value)) placeholders.set(scope.scope, (placeholders.get(scope.scope) ?? 0) + 1);
        else if (!values.includes(value)) values.push(value);
      }
    }
    if (values.length > 0) ids.set(scope.scope, values);
  }
  return { name: capture.name, harness: capture.harness, ids, placeholders };
}

const WORDS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];
function counted(n: number, one: string, many: string): string {
  return `${n < WORDS.length ? WORDS[n] : String(n)} ${n === 1 ? one : many}`;
}

/** Says a scope's counts the way a clearance record does: "one session_id; two files carry no turn_id". */
export function describeCount(c: ScopeCount): string {
  const held = c.placeholders > 0 ? `; ${counted(c.placeholders, "placeholder value", "placeholder values")} (never paired)` : "";
  if (c.distinctValues === 0) return `no file carries ${c.scope}${held}`;
  const ids = counted(c.distinctValues, c.scope, `distinct ${c.scope} values`);
  const without = c.filesWithout === 0 ? "every file carries one" : `${counted(c.filesWithout, "file carries", "files carry")} no ${c.scope}`;
  const shared = c.filesWithout === 0 ? "shared by every file" : "shared by every file that carries an identifier";
  return `${ids}; ${without}${c.sharedByAll ? `; ${shared}, so it pairs nothing` : ""}${held}`;
}

function byName<T extends { name: string }>(a: T, b: T): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** The scope each scope lies within: the one it names, else the next in the list (finest first). */
function parents(scopes: PairingScope[]): Map<string, string | undefined> {
  return new Map(scopes.map((s, i) => [s.scope, s.within ?? scopes[i + 1]?.scope]));
}

/** True when `inner` lies within `outer`, through any number of scopes between. */
function within(inner: string, outer: string, parentOf: Map<string, string | undefined>): boolean {
  const seen = new Set<string>();
  for (let at = parentOf.get(inner); at !== undefined && !seen.has(at); at = parentOf.get(at)) {
    if (at === outer) return true;
    seen.add(at);
  }
  return false;
}

/**
 * The finest scopes a file carries a real identifier at: those no other carried scope lies within.
 * Ids nest (a part inside a message inside a session), so one file has one finest scope on each
 * line of nesting: a permission request that names its tool call is finest at both.
 */
function finestScopes(f: FileIds, scopes: PairingScope[], parentOf: Map<string, string | undefined>): PairingScope[] {
  const carried = scopes.filter((s) => f.ids.has(s.scope));
  return carried.filter((outer) => !carried.some((inner) => inner !== outer && within(inner.scope, outer.scope, parentOf)));
}

function countsFor(harness: string, batch: FileIds[], scopes: PairingScope[], uninformative: (scope: string, id: string) => boolean): ScopeCount[] {
  return scopes.map((scope) => {
    const carriers = batch.filter((f) => f.ids.has(scope.scope));
    const values = new Set(carriers.flatMap((f) => f.ids.get(scope.scope) as string[]));
    return {
      harness,
      scope: scope.scope,
      label: scope.label,
      distinctValues: values.size,
      carriers: carriers.length,
      filesWithout: batch.length - carriers.length,
      sharedByAll: [...values].some((v) => uninformative(scope.scope, v)),
      placeholders: batch.reduce((n, f) => n + (f.placeholders.get(scope.scope) ?? 0), 0),
    };
  });
}

/** How many of a file's ids an unpaired reason names. */
const IDS_NAMED = 3;

function unpairedReason(f: FileIds, scope: PairingScope | undefined, uninformative: (scope: string, id: string) => boolean, shown: (id: string) => string): Unpaired {
  if (scope === undefined) {
    const held = [...f.placeholders.keys()];
    const reason = held.length > 0 ? `carries only placeholder identifiers (${held.join(", ")}), which pair nothing` : "carries no identifier at any scope";
    return { file: f.name, scope: null, reason };
  }
  const values = f.ids.get(scope.scope) as string[];
  if (values.every((v) => uninformative(scope.scope, v))) return { file: f.name, scope: scope.scope, reason: `carries only a ${scope.scope} every file shares, which pairs nothing` };
  // A batch event may carry thousands of calls: the reason names the first few and counts the rest.
  const named = values.slice(0, IDS_NAMED).map(shown).join(", ");
  const more = values.length > IDS_NAMED ? ` and ${values.length - IDS_NAMED} more` : "";
  return { file: f.name, scope: scope.scope, reason: `no other file's finest identifier is its ${scope.scope} ${named}${more}` };
}

/**
 * Whether two files that carry one id stand in different operations all the same: a scope the id
 * lies within (its session, its message) that both carry, with no value in common. A scripted
 * model's call ids start again with every session, and a host's stub ids repeat.
 */
function apart(a: FileIds, b: FileIds, scope: string, parentOf: Map<string, string | undefined>): boolean {
  const seen = new Set<string>();
  for (let at = parentOf.get(scope); at !== undefined && !seen.has(at); at = parentOf.get(at)) {
    seen.add(at);
    const [x, y] = [a.ids.get(at), b.ids.get(at)];
    if (x !== undefined && y !== undefined && !x.some((v) => y.includes(v))) return true;
  }
  return false;
}

/** The files that carry one id, parted into the operations they stand in: a file joins the first whose every file it is not apart from (one that carries no enclosing scope joins any). */
function operations(carriers: FileIds[], scope: string, parentOf: Map<string, string | undefined>): FileIds[][] {
  const out: FileIds[][] = [];
  for (const f of carriers) {
    const joined = out.find((op) => op.every((g) => !apart(f, g, scope, parentOf)));
    if (joined) joined.push(f);
    else out.push([f]);
  }
  return out;
}

function pairHarness(harness: string, batch: FileIds[], scopes: PairingScope[], shown: (id: string) => string): { pairs: Pair[]; unpaired: Unpaired[]; counts: ScopeCount[]; finest: Map<string, { scope: string; id: string }> } {
  // A file that carries no identifier says nothing about which file goes with which, so it never
  // decides whether an identifier is shared by every file (an event stream's server.connected).
  const carriers = batch.filter((f) => f.ids.size > 0);
  const sharedByAll = (scope: string, value: string): boolean => carriers.length > 1 && carriers.every((f) => f.ids.get(scope)?.includes(value));
  // A coarse identifier (a session) that every file carries says nothing about which file goes with which.
  const uninformative = (scope: string, value: string): boolean => scopes.find((s) => s.scope === scope)?.coarse === true && sharedByAll(scope, value);
  const parentOf = parents(scopes);
  const finestOf = new Map(batch.map((f) => [f.name, finestScopes(f, scopes, parentOf)]));
  const pairs: Pair[] = [];
  const finest = new Map<string, { scope: string; id: string }>();
  for (const scope of scopes) {
    const groups = new Map<string, FileIds[]>();
    for (const f of batch.filter((x) => finestOf.get(x.name)?.includes(scope))) {
      for (const v of f.ids.get(scope.scope) as string[]) append(groups, v, f);
    }
    for (const [id, carriers] of [...groups.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
      if (carriers.length < 2 || uninformative(scope.scope, id)) continue;
      for (const members of operations(carriers, scope.scope, parentOf).filter((c) => c.length > 1).map((c) => c.map((f) => f.name))) {
        pairs.push({ harness, scope: scope.scope, id: shown(id), files: members });
        for (const m of members) if (!finest.has(m)) finest.set(m, { scope: scope.scope, id: shown(id) });
      }
    }
  }
  const unpaired = batch.filter((f) => !finest.has(f.name)).map((f) => unpairedReason(f, finestOf.get(f.name)?.[0], uninformative, shown));
  return { pairs, unpaired, counts: countsFor(harness, batch, scopes, uninformative), finest };
}

/** The pairing pass. Pure. Identifier values are reported through `shown`, which may mask one that could carry a home or a name. */
export function pairPass(files: FileIds[], rules: Rules, skipped: Skipped[] = [], shown: (id: string) => string = (id) => id): Pairing {
  const pairing: Pairing = { pairs: [], finest: [], unpaired: [], counts: [], skipped };
  for (const harness of [...new Set(files.map((f) => f.harness))].sort()) {
    const batch = files.filter((f) => f.harness === harness).sort(byName);
    const scopes = rules.pairing.find((p) => p.harness === harness)?.scopes ?? [];
    const r = pairHarness(harness, batch, scopes, shown);
    pushAll(pairing.pairs, r.pairs);
    pushAll(pairing.unpaired, r.unpaired);
    pushAll(pairing.counts, r.counts);
    for (const [file, p] of r.finest) pairing.finest.push({ file, ...p });
  }
  pairing.finest.sort((a, b) => (a.file < b.file ? -1 : 1));
  pairing.unpaired.sort((a, b) => (a.file < b.file ? -1 : 1));
  return pairing;
}
