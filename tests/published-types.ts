import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { classifier, type Classifier } from "../src/classify.js";
import { pointerTokens } from "../src/json/reader.js";
import type { FieldRule, Rules } from "../src/types.js";

// What the hosts publish about their hook inputs, read from the packages pinned in package.json
// (Claude Code's Agent SDK, OpenCode's SDK and plugin) with the TypeScript checker, and from the
// generated JSON schemas Codex ships. Each event becomes the JSON pointers its payload can carry.

export type LeafKind = "string" | "number" | "bool" | "null";

/** One pointer a payload can carry; `*` tokens stand for an array index or a record key. */
export interface DeclaredMember {
  tokens: string[];
  /** `#` where a token is an array index, `*` where it is a record key; otherwise the member name. */
  shape: string[];
  kinds: Set<LeafKind>;
  /** String literals the host declares here; `openString` is true where any string may stand. */
  literals: Set<string>;
  openString: boolean;
  /** Typed any or unknown: whatever stands here and below. */
  open: boolean;
}

export interface DeclaredEvent {
  /** The host's own event name (PreToolUse, session.created, tool.execute.before). */
  event: string;
  /** Where the declaration comes from, for messages: package and type. */
  source: string;
  members: Map<string, DeclaredMember>;
}

export interface TypeSource {
  package: string;
  file: string;
  /** A union of event types, told apart by the literal at `eventMember`. */
  union?: string;
  eventMember?: string;
  /** An interface of hooks, each a function of (input, output). */
  hooks?: string;
  /** Pointer prefixes the payload appears under in a capture ("" bare, "/event" wrapped). */
  prefixes: string[];
  /** Hook properties that are no hook with a payload, with the reason. */
  skip?: Record<string, string>;
  /** A union that is no event of its own but what an event carries under a pointer (tool input and output). */
  under?: Record<string, string>;
}

const MAX_DEPTH = 14;

function emptyMember(shape: string[]): DeclaredMember {
  return { tokens: shape.map((t) => (t === "#" || t === "*" ? "*" : t)), shape, kinds: new Set(), literals: new Set(), openString: false, open: false };
}

class Walker {
  readonly members = new Map<string, DeclaredMember>();
  constructor(private readonly checker: ts.TypeChecker) {}

  private member(shape: string[]): DeclaredMember {
    const key = shape.join("/");
    let m = this.members.get(key);
    if (!m) {
      m = emptyMember(shape);
      this.members.set(key, m);
    }
    return m;
  }

  walk(type: ts.Type, shape: string[], stack: ts.Type[]): void {
    const f = type.flags;
    if (f & (ts.TypeFlags.Any | ts.TypeFlags.Unknown) || stack.length > MAX_DEPTH || stack.includes(type)) {
      this.member(shape).open = true;
      return;
    }
    if (type.isUnion()) {
      for (const t of type.types) this.walk(t, shape, stack);
      return;
    }
    if (f & (ts.TypeFlags.Undefined | ts.TypeFlags.Void | ts.TypeFlags.Never)) return;
    if (type.isStringLiteral()) return void this.leaf(shape, "string").literals.add(type.value);
    if (f & (ts.TypeFlags.String | ts.TypeFlags.TemplateLiteral)) return void (this.leaf(shape, "string").openString = true);
    if (f & (ts.TypeFlags.NumberLike | ts.TypeFlags.BigIntLike)) return void this.leaf(shape, "number");
    if (f & ts.TypeFlags.BooleanLike) return void this.leaf(shape, "bool");
    if (f & ts.TypeFlags.Null) return void this.leaf(shape, "null");
    if (this.checker.isArrayType(type) || this.checker.isTupleType(type)) {
      for (const t of this.checker.getTypeArguments(type as ts.TypeReference)) this.walk(t, [...shape, "#"], [...stack, type]);
      return;
    }
    if (f & ts.TypeFlags.Object || type.isIntersection()) this.object(type, shape, stack);
  }

  private leaf(shape: string[], kind: LeafKind): DeclaredMember {
    const m = this.member(shape);
    m.kinds.add(kind);
    return m;
  }

  private object(type: ts.Type, shape: string[], stack: ts.Type[]): void {
    const props = this.checker.getPropertiesOfType(type);
    const indexes = this.checker.getIndexInfosOfType(type);
    if (props.length === 0 && indexes.length === 0 && type.getCallSignatures().length > 0) return;
    for (const p of props) {
      const propType = this.checker.getTypeOfSymbol(p);
      if (propType.getCallSignatures().length > 0 && this.checker.getPropertiesOfType(propType).length === 0) continue;
      this.walk(propType, [...shape, p.getName()], [...stack, type]);
    }
    for (const info of indexes) this.walk(info.type, [...shape, "*"], [...stack, type]);
  }
}

/** The member as a JSON pointer, `*` for an index or a key. */
export function pointerOf(m: DeclaredMember): string {
  return m.tokens.map((t) => `/${t.replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
}

/** The folder a package is installed in, from the nearest node_modules that holds it. */
export function packageDir(name: string): string {
  for (let dir = import.meta.dirname; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "node_modules", name);
    if (existsSync(path.join(candidate, "package.json"))) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`${name} is not installed (npm ci installs it)`);
  }
}

export function packageVersion(name: string): string {
  return (JSON.parse(readFileSync(path.join(packageDir(name), "package.json"), "utf8")) as { version: string }).version;
}

function exportedType(checker: ts.TypeChecker, file: ts.SourceFile, name: string): ts.Type {
  const moduleSymbol = checker.getSymbolAtLocation(file);
  const symbol = moduleSymbol && checker.getExportsOfModule(moduleSymbol).find((s) => s.getName() === name);
  if (!symbol) throw new Error(`${file.fileName} exports no ${name}`);
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  return checker.getDeclaredTypeOfSymbol(target);
}

function withPrefixes(walked: Map<string, DeclaredMember>, prefixes: string[]): Map<string, DeclaredMember> {
  const out = new Map<string, DeclaredMember>();
  for (const prefix of prefixes) {
    // A `*` in a prefix stands for an array index (the calls of a batch).
    const lead = prefix.split("/").filter(Boolean).map((t) => (t === "*" ? "#" : t));
    for (const m of walked.values()) {
      const shape = [...lead, ...m.shape];
      out.set(shape.join("/"), { ...m, shape, tokens: [...lead.map((t) => (t === "#" ? "*" : t)), ...m.tokens] });
    }
  }
  return out;
}

/** Every event a TypeScript source declares, with the members of its payload. */
export function eventsFromTypes(source: TypeSource): DeclaredEvent[] {
  const file = path.join(packageDir(source.package), source.file);
  const resolution = { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022 };
  const program = ts.createProgram([file], { strict: true, noEmit: true, skipLibCheck: true, types: [], ...resolution });
  const checker = program.getTypeChecker();
  const sourceFile = program.getSourceFile(file);
  if (!sourceFile) throw new Error(`${file}: not read`);
  const from = `${source.package}@${packageVersion(source.package)} ${source.file}`;
  const events: DeclaredEvent[] = [];
  if (source.union && source.under) {
    // Each member of the union (one tool's input or output) is what one payload carries there.
    const union = exportedType(checker, sourceFile, source.union);
    for (const member of union.isUnion() ? union.types : [union]) {
      const walker = new Walker(checker);
      walker.walk(member, [], []);
      for (const [event, prefix] of Object.entries(source.under)) {
        events.push({ event, source: `${from} ${source.union}`, members: withPrefixes(walker.members, [prefix]) });
      }
    }
  }
  if (source.union && source.eventMember) {
    const union = exportedType(checker, sourceFile, source.union);
    for (const member of union.isUnion() ? union.types : [union]) {
      const nameSymbol = checker.getPropertyOfType(member, source.eventMember);
      const nameType = nameSymbol && checker.getTypeOfSymbol(nameSymbol);
      if (!nameType?.isStringLiteral()) throw new Error(`${from}: a member of ${source.union} has no literal ${source.eventMember}`);
      const walker = new Walker(checker);
      walker.walk(member, [], []);
      events.push({ event: nameType.value, source: `${from} ${source.union}`, members: withPrefixes(walker.members, source.prefixes) });
    }
  }
  if (source.hooks) {
    const hooks = exportedType(checker, sourceFile, source.hooks);
    for (const hook of checker.getPropertiesOfType(hooks)) {
      if (source.skip?.[hook.getName()] !== undefined) continue;
      const fn = checker.getNonNullableType(checker.getTypeOfSymbol(hook));
      const signature = fn.getCallSignatures()[0];
      if (!signature) throw new Error(`${from}: hook ${hook.getName()} is not a function; list it under skip with the reason`);
      const walker = new Walker(checker);
      signature.parameters.forEach((p, i) => walker.walk(checker.getTypeOfSymbol(p), [i === 0 ? "input" : "output"], []));
      events.push({ event: hook.getName(), source: `${from} ${source.hooks}`, members: withPrefixes(walker.members, source.prefixes) });
    }
  }
  return events;
}

interface JsonSchema {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  properties?: Record<string, JsonSchema | boolean>;
  items?: JsonSchema | boolean;
  additionalProperties?: JsonSchema | boolean;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
  definitions?: Record<string, JsonSchema>;
}

/** Every event Codex's generated input schemas declare, with the members of its payload. */
export function eventsFromSchemas(schemas: Record<string, JsonSchema>, from: string): DeclaredEvent[] {
  return Object.entries(schemas).map(([title, schema]) => {
    const members = new Map<string, DeclaredMember>();
    const member = (shape: string[]): DeclaredMember => {
      const key = shape.join("/");
      if (!members.has(key)) members.set(key, emptyMember(shape));
      return members.get(key) as DeclaredMember;
    };
    const walk = (node: JsonSchema | boolean | undefined, shape: string[], depth: number): void => {
      if (node === undefined || node === false) return;
      if (node === true || depth > MAX_DEPTH) return void (member(shape).open = true);
      if (node.$ref) return walk(schema.definitions?.[node.$ref.replace("#/definitions/", "")], shape, depth + 1);
      for (const alt of [...(node.oneOf ?? []), ...(node.anyOf ?? []), ...(node.allOf ?? [])]) walk(alt, shape, depth + 1);
      const types = node.type === undefined ? [] : Array.isArray(node.type) ? node.type : [node.type];
      for (const t of types) {
        if (t === "object") {
          for (const [k, v] of Object.entries(node.properties ?? {})) walk(v, [...shape, k], depth + 1);
          if (node.additionalProperties !== undefined && node.additionalProperties !== false) walk(node.additionalProperties, [...shape, "*"], depth + 1);
        } else if (t === "array") walk(node.items ?? true, [...shape, "#"], depth + 1);
        else {
          const m = member(shape);
          m.kinds.add(t === "boolean" ? "bool" : t === "integer" ? "number" : (t as LeafKind));
          if (t !== "string") continue;
          const fixed = node.const !== undefined ? [node.const] : node.enum;
          if (fixed) for (const v of fixed) m.literals.add(String(v));
          else m.openString = true;
        }
      }
      if (types.length === 0 && !node.oneOf && !node.anyOf && !node.allOf && !node.$ref) member(shape).open = true;
    };
    walk(schema, [], 0);
    const event = (schema as { properties?: { hook_event_name?: { const?: string } } }).properties?.hook_event_name?.const ?? title;
    return { event, source: `${from} ${title}.command.input`, members };
  });
}

// ---- The rules against what is declared ----

export interface Exceptions {
  events: { harness: string; event: string; reason: string }[];
  rules: { harness: string; pointer: string; events?: string[]; reason: string }[];
  /** Enum values a rule documents beyond what the published types declare. */
  values: { harness: string; pointer: string; values: string[]; reason: string }[];
}

export interface Drift {
  /** Declared events the harness catalogue lacks. */
  uncatalogued: string[];
  /** Catalogued events nothing declares and no exception explains. */
  undeclaredEvents: string[];
  /** Declared members no rule knows, or knows with a class that does not fit. */
  unknownMembers: string[];
  /** Field rules that match no declared member and no exception explains. */
  undeclaredRules: string[];
  /** Enum rules whose documented values differ from the literals the host declares. */
  enumValues: string[];
  /** Exceptions that no longer apply. */
  staleExceptions: string[];
}

const STRING_CLASSES = new Set(["identifier", "path", "free-text", "enum", "timestamp", "url"]);

/** Two pointer patterns (`*` one token, `**` any number) that some concrete pointer matches both. */
export function overlaps(a: string[], b: string[]): boolean {
  const memo = new Map<string, boolean>();
  const go = (i: number, j: number): boolean => {
    const key = `${i},${j}`;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let r: boolean;
    if (a[i] === "**") r = go(i + 1, j) || (j < b.length && go(i, j + 1));
    else if (b[j] === "**") r = go(i, j + 1) || (i < a.length && go(i + 1, j));
    else if (i === a.length || j === b.length) r = i === a.length && j === b.length;
    else r = (a[i] === "*" || b[j] === "*" || a[i] === b[j]) && go(i + 1, j + 1);
    memo.set(key, r);
    return r;
  };
  return go(0, 0);
}

const sampleOf = (m: DeclaredMember): string[] => m.shape.map((t) => (t === "#" ? "0" : t === "*" ? "key" : t));

/** What is wrong with how the rules class one declared member, if anything. */
function memberProblems(c: Classifier, stem: string, m: DeclaredMember): string[] {
  const sample = sampleOf(m);
  const problems: string[] = [];
  const stringClass = (tokens: string[], value: string): FieldRule | null => {
    const got = c.classify(stem, tokens, "string", value);
    if (!got.known) problems.push("no rule");
    else if (!STRING_CLASSES.has(got.class)) problems.push(`a string classed ${got.class}`);
    return got.rule;
  };
  if (m.open) {
    stringClass(sample, "x");
    stringClass([...sample, "key"], "x");
  }
  for (const kind of m.kinds) {
    if (kind !== "string") {
      if (!c.classify(stem, sample, kind, kind === "number" ? 1 : kind === "bool" ? true : null).known) problems.push(`no rule for its ${kind}`);
      continue;
    }
    const literal = [...m.literals][0];
    const rule = stringClass(sample, literal ?? "x");
    if (m.literals.size === 0 || m.openString || rule === null) continue;
    if (rule.class !== "enum" && rule.class !== "free-text") problems.push(`declared values ${[...m.literals].join(", ")} classed ${rule.class}`);
    const outside = rule.values ? [...m.literals].filter((v) => !rule.values?.includes(v)) : [];
    if (outside.length > 0) problems.push(`declared values ${outside.join(", ")} are not among the rule's values`);
  }
  return [...new Set(problems)];
}

function ruleProblems(rule: FieldRule, c: Classifier, matched: { stem: string; m: DeclaredMember }[], excused: string[]): string[] {
  if (rule.class !== "enum" || !rule.values) return [];
  // Only the members this rule decides (the first rule that matches wins) speak for its values.
  const decided = matched.filter(({ stem, m }) => c.classify(stem, sampleOf(m), "string", [...m.literals][0] ?? "x").rule === rule && m.kinds.has("string"));
  if (decided.length === 0 || decided.some(({ m }) => m.openString || m.open)) return [];
  const declaredValues = new Set(decided.flatMap(({ m }) => [...m.literals]));
  const stale = rule.values.filter((v) => !declaredValues.has(v) && !excused.includes(v));
  const needless = excused.filter((v) => declaredValues.has(v) || !rule.values?.includes(v));
  return [
    ...(stale.length > 0 ? [`${rule.pointer}: values ${stale.join(", ")} are no longer declared`] : []),
    ...(needless.length > 0 ? [`${rule.pointer}: the exception for values ${needless.join(", ")} no longer applies`] : []),
  ];
}

/** How the rules of one harness stand against what its host declares. Pure. */
export function drift(harness: string, declared: DeclaredEvent[], rules: Rules, exceptions: Exceptions): Drift {
  const catalogue = rules.harnesses.find((h) => h.harness === harness);
  const set = rules.fields.find((f) => f.harness === harness);
  if (!catalogue || !set) throw new Error(`no catalogue or field rules for ${harness}`);
  const stemOf = new Map(catalogue.events.map((e) => [e.event, e.stem]));
  const names = new Set(declared.map((e) => e.event));
  const eventExceptions = exceptions.events.filter((x) => x.harness === harness);
  const ruleExceptions = exceptions.rules.filter((x) => x.harness === harness);
  const uncatalogued = [...names].filter((n) => !stemOf.has(n)).sort();
  const out: Drift = { uncatalogued, undeclaredEvents: [], unknownMembers: [], undeclaredRules: [], enumValues: [], staleExceptions: [] };
  out.undeclaredEvents = catalogue.events.filter((e) => !names.has(e.event) && !eventExceptions.some((x) => x.event === e.event)).map((e) => e.event);
  out.staleExceptions.push(...eventExceptions.filter((x) => names.has(x.event) || !stemOf.has(x.event)).map((x) => `event ${x.event}`));
  const c = classifier(set);
  const members = declared.flatMap((e) => {
    const stem = stemOf.get(e.event);
    return stem === undefined ? [] : [...e.members.values()].map((m) => ({ stem, event: e.event, m }));
  });
  for (const { stem, event, m } of members) {
    for (const problem of memberProblems(c, stem, m)) out.unknownMembers.push(`${event} ${pointerOf(m)}: ${problem}`);
  }
  out.unknownMembers = [...new Set(out.unknownMembers)].sort();
  for (const rule of set.rules) {
    const tokens = pointerTokens(rule.pointer);
    const onEvent = (stem: string): boolean => rule.events === undefined || rule.events.includes(stem);
    const matched = members.filter(({ stem, m }) => onEvent(stem) && overlaps(tokens, m.open ? [...m.tokens, "**"] : m.tokens));
    const excused = ruleExceptions.find((x) => x.pointer === rule.pointer && JSON.stringify(x.events) === JSON.stringify(rule.events));
    if (matched.length === 0 && !excused) out.undeclaredRules.push(rule.pointer);
    if (matched.length > 0 && excused) out.staleExceptions.push(`rule ${rule.pointer}`);
    const values = exceptions.values.filter((x) => x.harness === harness && x.pointer === rule.pointer).flatMap((x) => x.values);
    out.enumValues.push(...ruleProblems(rule, c, matched, values));
  }
  out.staleExceptions.push(...ruleExceptions.filter((x) => !set.rules.some((r) => r.pointer === x.pointer)).map((x) => `rule ${x.pointer} (no such rule)`));
  return out;
}

/** One payload holding every member an event declares: the first declared value, or a plain one of its kind. */
export function examplePayload(e: DeclaredEvent, wrapped = false): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  const members = [...e.members.values()].filter((m) => (m.shape[0] === "event") === wrapped).sort((a, b) => b.shape.length - a.shape.length);
  const parents = new Set(members.flatMap((m) => m.shape.map((_, i) => m.shape.slice(0, i).join("/"))));
  for (const m of members) {
    if (parents.has(m.shape.join("/"))) continue; // an object here already, from a longer member
    const literal = [...m.literals][0];
    const value = m.open ? "x" : literal !== undefined ? literal : m.kinds.has("string") ? "x1" : m.kinds.has("number") ? 1 : m.kinds.has("bool") ? true : null;
    let node: Record<string, unknown> | unknown[] = root;
    m.shape.forEach((token, i) => {
      const key = token === "#" ? 0 : token === "*" ? "k" : token;
      const last = i === m.shape.length - 1;
      const container = node as Record<string | number, unknown>;
      if (last) container[key] ??= value;
      else container[key] ??= m.shape[i + 1] === "#" ? [] : {};
      node = container[key] as Record<string, unknown>;
    });
  }
  return root;
}
