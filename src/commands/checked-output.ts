import type { Finding } from "../findings.js";
import { objectsNamed, readBlobs } from "../io/git.js";
import { DEFAULT_LIMITS } from "../io/read-capture-dir.js";
import { readBelow } from "../lib/no-link.js";
import { offsetOf } from "../json/reader.js";
import { loadSetting, type Setting } from "../io/setting.js";
import { contactRanges, nameSpelt } from "../passes/substitute/final-check.js";
import { userNamePattern } from "../homes.js";
import { sittingNames, type CompanionText, type SittingNames } from "../passes/substitute/index.js";
import type { Capture } from "../types.js";

// What a command prints of a sitting's values (pairing ids and reasons, the examples of a
// substitution) is checked as a fixture is, before it is printed: every string of the result is
// scanned, and each secret shape, home owner, known name (given, or taught by the sitting's home
// paths), mailbox or phone number found in one is starred out, so the JSON and the human output, both made from the result,
// print none of it.

/** The names a command that stops before substitution checks its output for: learned from its captures as substitution would. */
export function namesOf(captures: Capture[], setting: Setting): SittingNames {
  return sittingNames(captures, setting.rules, setting.users, setting.display);
}

/** A digest this tool computed (a file's SHA-256, a waiver's): the bytes of a hash, never the sitting's words. */
const isOwnDigest = (key: string | number, text: string): boolean => key === "sha256" && /^[0-9a-f]{64}$/.test(text);

/** Each string of a value, walked in place: `visit` gives its replacement, or the string itself to keep it. */
function eachString(value: unknown, visit: (text: string) => string): void {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== "object") continue;
    const o = v as Record<string | number, unknown>;
    for (const k of Array.isArray(v) ? v.keys() : Object.keys(v)) {
      const x = o[k];
      if (typeof x !== "string") stack.push(x);
      // A name of two letters is learned and checked: so is every string that could be one.
      else if (x.length > 0 && !isOwnDigest(k, x)) {
        const next = visit(x);
        if (next !== x) o[k] = next;
      }
    }
  }
}

/** A copy of `value` whose strings hold nothing the scan finds: each finding's characters are stars. */
export async function checkedValue<T>(value: T, setting: Setting, names: SittingNames): Promise<T> {
  // Reports repeat their words (rule ids, pointers, reasons): each distinct text is scanned once.
  const distinct = new Set<string>();
  eachString(value, (text) => (distinct.add(text), text));
  if (distinct.size === 0) return value;
  const strings = [...distinct];
  // One text, each string on lines of its own, a blank line between two: one scan, a finding's
  // offset tells its string, and no reading joins the end of one to the start of the next.
  const at: number[] = [];
  let length = 0;
  for (const text of strings) {
    at.push(length);
    length += text.length + 2;
  }
  const joined = strings.join("\n\n");
  const { scanFindings, sittingEngine } = await import("../passes/scan.js");
  const engine = sittingEngine(setting.rules, names);
  // The rules' reach is the scan's and run's to prove (their control); here they only star.
  const findings = await scanFindings([{ file: "output", text: joined }], engine, setting.display);
  const spans = findings.map((f) => ({ start: offsetOf(joined, f.line, f.column), end: offsetOf(joined, f.endLine, f.endColumn) }));
  // A mailbox or a phone number is a person's, as the final check refuses it in a fixture.
  strings.forEach((text, i) => {
    for (const r of contactRanges(text)) spans.push({ start: (at[i] as number) + r.start, end: (at[i] as number) + r.end });
  });
  const chars = joined.split("");
  for (const { start, end } of spans) for (let i = start; i < end; i++) if (chars[i] !== "\n") chars[i] = "*";
  const starred = chars.join("");
  // A name still spelt once those finds are starred, where the scan does not read it (a few bytes in base64, a list of bytes), stars the whole string.
  const pattern = userNamePattern(names.checked);
  const shownOf = (text: string, i: number): string => {
    const shown = starred.slice(at[i] as number, (at[i] as number) + text.length);
    return pattern !== null && nameSpelt([shown], pattern) !== undefined ? "*".repeat(text.length) : shown;
  };
  const shown = new Map(strings.map((text, i) => [text, shownOf(text, i)]));
  if ([...shown].every(([text, s]) => text === s)) return value;
  const copy = structuredClone(value);
  eachString(copy, (text) => shown.get(text) ?? text);
  return copy;
}

/**
 * The findings of a repository's check (verify, the gate), checked as a sitting's output is: a
 * file of the repository may be named after a key or a home path, and its name is printed. The
 * texts of raw captures the check found teach their homes' owners, as their sitting's would: a file
 * committed beside them may be named after one.
 */
export async function checkedFindings<T extends object>(report: T, root: string, cwd: string, teachers: CompanionText[] = []): Promise<T> {
  const setting = loadSetting(root, cwd);
  return checkedValue(report, setting, sittingNames([], setting.rules, setting.users, setting.display, teachers));
}

/** A raw capture's text read to learn its homes' owners: its first bytes, up to the size a sitting reads. */
const TEACHING_BYTES = DEFAULT_LIMITS.maxFileBytes;

/** The findings whose file may hold a raw capture: one found as such, and a fixture no accepted batch lists with its bytes (a payload copied under fixtures/ is judged as a fixture). */
const TEACHING_CODES = new Set(["raw-capture-committed", "fixture-not-accepted", "fixture-changed"]);

/** Where a check found raw captures: a commit's id, "" for the index, null for the working tree. */
export interface FoundAt {
  source: string | null;
  findings: Finding[];
}

/**
 * The texts of the raw captures a refused check found, and of the fixtures it found unaccepted,
 * where it found them: they teach the names the files committed beside them (and they themselves)
 * may be named after, as their sitting would.
 */
export function rawCaptureTexts(root: string, found: FoundAt[]): CompanionText[] {
  const wanted = found.flatMap(({ source, findings }) =>
    [...new Set(findings.filter((f) => TEACHING_CODES.has(f.code) && f.file !== undefined && !/[\n\r]/.test(f.file)).map((f) => f.file as string))].map((file) => ({ source, file })),
  );
  const fromGit = wanted.filter((w) => w.source !== null);
  const ids = objectsNamed(fromGit.map((w) => `${w.source}:${w.file}`), root);
  const blobs = readBlobs(ids.flatMap((o) => (o === null ? [] : [o.id])), root);
  const texts = fromGit.flatMap((w, i) => {
    const bytes = blobs.get(ids[i]?.id ?? "");
    return bytes === undefined ? [] : [{ file: w.file, pointer: "", value: bytes.subarray(0, TEACHING_BYTES).toString("utf8") }];
  });
  for (const w of wanted.filter((x) => x.source === null)) {
    // Read as the fixtures are: never through a link, and only a regular file.
    const read = readBelow(root, w.file, TEACHING_BYTES);
    if ("bytes" in read) texts.push({ file: w.file, pointer: "", value: read.bytes.toString("utf8") });
  }
  return texts;
}
