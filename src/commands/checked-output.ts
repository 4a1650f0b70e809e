import { userNamePattern } from "../homes.js";
import { offsetOf } from "../json/reader.js";
import type { Setting } from "../io/setting.js";
import { sittingNames, type SittingNames } from "../passes/substitute/index.js";
import type { Capture } from "../types.js";

// What a command prints of a sitting's values (pairing ids and reasons, the examples of a
// substitution) is checked as a fixture is, before it is printed: every string of the result is
// scanned, and each secret shape, home owner or known name (given, or taught by the sitting's home
// paths) found in one is starred out, so the JSON and the human output, both made from the result,
// print none of it.

/** The names a command that stops before substitution checks its output for: learned from its captures as substitution would. */
export function namesOf(captures: Capture[], setting: Setting): SittingNames {
  return sittingNames(captures, setting.rules, setting.users);
}

/** A digest this tool computed (a file's SHA-256, a waiver's): the bytes of a hash, never the sitting's words. */
const isOwnDigest = (key: string | number, text: string): boolean => key === "sha256" && /^[0-9a-f]{64}$/.test(text);

/** Every string in a value, in the order a walk meets them, with a way to put a new one in its place. */
function stringsOf(value: unknown): { text: string; set: (next: string) => void }[] {
  const out: { text: string; set: (next: string) => void }[] = [];
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== "object") continue;
    const entries: [string | number, unknown][] = Array.isArray(v) ? v.map((x, i) => [i, x]) : Object.entries(v);
    for (const [k, x] of entries) {
      if (typeof x === "string") {
        if (!isOwnDigest(k, x)) out.push({ text: x, set: (next) => ((v as Record<string | number, unknown>)[k] = next) });
      } else stack.push(x);
    }
  }
  return out;
}

/** A copy of `value` whose strings hold nothing the scan finds: each finding's characters are stars. */
export async function checkedValue<T>(value: T, setting: Setting, names: SittingNames): Promise<T> {
  const copy = structuredClone(value);
  const all = stringsOf(copy).filter((s) => s.text.length >= 3);
  if (all.length === 0) return copy;
  // Reports repeat their words (rule ids, pointers, reasons): each distinct text is scanned once.
  const strings = [...new Map(all.map((s) => [s.text, s])).values()];
  // One text, each string on lines of its own: one scan, and a finding's offset tells its string.
  const at: number[] = [];
  let length = 0;
  for (const s of strings) {
    at.push(length);
    length += s.text.length + 1;
  }
  const joined = strings.map((s) => s.text).join("\n");
  const { scanEngine, scanPass } = await import("../passes/scan.js");
  const engine = scanEngine(setting.rules.secrets, names.grammar, userNamePattern(names.checked), setting.rules.knownMembers);
  const { findings } = await scanPass([{ file: "output", text: joined }], engine, setting.display);
  if (findings.length === 0) return copy;
  const chars = joined.split("");
  for (const f of findings) {
    for (let i = offsetOf(joined, f.line, f.column); i < offsetOf(joined, f.endLine, f.endColumn); i++) if (chars[i] !== "\n") chars[i] = "*";
  }
  const starred = chars.join("");
  const shown = new Map(strings.map((s, i) => [s.text, starred.slice(at[i] as number, (at[i] as number) + s.text.length)]));
  for (const s of all) {
    const next = shown.get(s.text) as string;
    if (next !== s.text) s.set(next);
  }
  return copy;
}
