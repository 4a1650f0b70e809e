import { scanJson, stringAt } from "../../json/reader.js";

// A member named twice in one object is a value a reader keeps one of: JSON.parse and most
// parsers the last, some the first. A payload whose members are each given a second value
// ("hook_event_name": "Stop", "hook_event_name": 0) would show the check only the value it does
// not look for. Every reader of the payload check keeps all of them instead, and a signature's
// member is there when any of its values fits.

/** Every value a member was given in one object, in the order written. */
export class Alternatives {
  constructor(readonly values: unknown[]) {}
}

type Members = Record<string, unknown>;

/** Sets a member of an object read from a text; a name given again keeps every value. */
export function putMember(target: Members, name: string, value: unknown): void {
  if (!Object.hasOwn(target, name)) {
    target[name] = value;
    return;
  }
  const known = target[name];
  // Added to in place: a name given a hundred thousand times costs that many steps, not their square.
  if (known instanceof Alternatives) known.values.push(value);
  else target[name] = new Alternatives([known, value]);
}

/** Gives the member `name` its value where a reader put a stand-in for it first (a block still open): the last value given, if it was given several. */
export function fillMember(target: Members, name: string, value: unknown): void {
  const known = target[name];
  if (known instanceof Alternatives) known.values[known.values.length - 1] = value;
  else target[name] = value;
}

/** The object a dotted name goes on in: the member's value where it is an object, the last such of several, else a new one put beside it. */
export function tableIn(target: Members, name: string, fresh: () => Members): Members {
  const known = target[name];
  const isTable = (v: unknown): v is Members => v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof Alternatives);
  if (isTable(known)) return known;
  const last = known instanceof Alternatives ? known.values[known.values.length - 1] : undefined;
  if (isTable(last)) return last;
  const table = fresh();
  if (known instanceof Alternatives) known.values.push(table);
  else target[name] = table;
  return table;
}

/** Each value of a member: itself, or each of its Alternatives. */
export const valuesOf = (v: unknown): unknown[] => (v instanceof Alternatives ? v.values : [v]);

// A mark no member name is given in JSON a host writes; a name that holds it is read as one of a
// repeated member's values, which can only make the check find more.
const MARK = "\u0000repeated\u0000";

/**
 * The JSON value of `text` with each member named more than once in one object (in any spelling
 * of its name: "a" and "\u0061" are one name) read as Alternatives; null where no object repeats
 * a name or the text is no JSON value.
 */
export function withRepeatedMembers(text: string, maxDepth: number): unknown {
  let keys;
  try {
    keys = scanJson(text, { maxDepth, allowDuplicateKeys: true }).keys;
  } catch {
    return null;
  }
  const count = new Map<string, number>();
  for (const k of keys) count.set(k.pointer, (count.get(k.pointer) ?? 0) + 1);
  const repeated = keys.filter((k) => (count.get(k.pointer) as number) > 1);
  if (repeated.length === 0) return null;
  // Each repeated name is made unique with a mark, so that JSON.parse keeps every value; the marks come out after.
  let marked = "";
  let copied = 0;
  repeated.forEach((k, i) => {
    marked += text.slice(copied, k.start) + JSON.stringify(`${stringAt(text, k.start, k.end)}${MARK}${i}`);
    copied = k.end;
  });
  return unmarked(JSON.parse(marked + text.slice(copied)));
}

/** The value with every marked member gathered under its name as Alternatives; walked without recursion. */
function unmarked(root: unknown): unknown {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== "object") continue;
    if (Array.isArray(v)) {
      for (const x of v) stack.push(x);
      continue;
    }
    const o = v as Members;
    for (const key of Object.keys(o)) {
      const value = o[key];
      stack.push(value);
      const at = key.indexOf(MARK);
      if (at === -1) continue;
      delete o[key];
      putMember(o, key.slice(0, at), value);
    }
  }
  return root;
}
