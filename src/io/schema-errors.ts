import { readFileSync } from "node:fs";
import path from "node:path";
import type { ErrorObject, ValidateFunction } from "ajv";
import { RulesError } from "../errors.js";
import { JsonScanError, placeOf, pointerTokens, scanJson } from "../json/reader.js";
import { validator } from "../schemas.js";
import { BUNDLED_RULES_DIR } from "./rules-dir.js";

// What a schema's validator found wrong, said in words with the pointer it stands at: every
// rules file, the config, sitting.json and kit.json are checked through here.

// A member name from the file being checked is shown only when it is a plain word: the file may be
// a hostile sitting.json or kit.json, and its member names are not ours to print.
const plainToken = (t: string): string => (/^[A-Za-z0-9_$.-]{1,40}$/.test(t) ? t : "[masked]");

/** What a pattern in the bundled schemas asks for, said in words. */
const PATTERN_WORDS: [RegExp, string][] = [
  [/\\p\{Cc\}/, "must be one line without line breaks, control or invisible characters"],
  [/^\^\[0-9\]\{4\}-/, "must be an RFC 3339 date and time (2026-01-31T09:30:00Z)"],
];

/** The member names a bundled schema declares, at any depth: the only names of a capture folder's own file (sitting.json, kit.json) an error shows. */
const declared = new Map<string, ReadonlySet<string>>();
function declaredNames(kind: string): ReadonlySet<string> {
  let names = declared.get(kind);
  if (names !== undefined) return names;
  const found = new Set<string>();
  const walk = (node: unknown): void => {
    if (node === null || typeof node !== "object") return;
    const properties = (node as { properties?: unknown }).properties;
    if (properties !== null && typeof properties === "object" && !Array.isArray(properties)) for (const k of Object.keys(properties)) found.add(k);
    for (const v of Object.values(node)) walk(v);
  };
  walk(JSON.parse(readFileSync(path.join(BUNDLED_RULES_DIR, "schemas", `${kind}.schema.json`), "utf8")));
  declared.set(kind, (names = found));
  return names;
}

/** How an error shows a member name of the file checked: for the tool's rules and config, a plain word; for a capture folder's own file, a name its schema declares, or an item's index. */
type NameShown = (token: string) => string;

export function describeErrors(errors: ErrorObject[] | null | undefined, shown: NameShown = plainToken): string {
  return (errors ?? [])
    .map((e) => {
      const at = e.instancePath === "" ? "/" : `/${pointerTokens(e.instancePath).map(shown).join("/")}`;
      const extra = e.params && "additionalProperty" in e.params ? ` (${shown(String(e.params.additionalProperty))})` : "";
      const pattern = e.keyword === "pattern" ? String((e.params as { pattern?: string }).pattern ?? "") : "";
      const words = PATTERN_WORDS.find(([re]) => re.test(pattern))?.[1];
      return `at ${at}: ${words ?? e.message ?? "is invalid"}${extra}`;
    })
    .join("; ");
}

/**
 * A bundled schema's validator, loaded on first use. One this install lacks (dist/schemas/<kind>.cjs
 * deleted or unreadable) is an error saying so: no file of that kind is ever taken unchecked.
 */
export function validatorFor(kind: Parameters<typeof validator>[0]): ValidateFunction {
  try {
    return validator(kind);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException | null)?.code ?? "an error";
    throw new RulesError(`${kind}.schema.json: its validator (dist/schemas/${kind}.cjs) cannot be loaded (${code}); this install of the tool is incomplete, reinstall it`);
  }
}

/**
 * Checks a parsed document with one schema's validator; throws naming the file and the pointer. A
 * capture folder's own file (`captured`) may name anything the sitting holds: of its member names,
 * only those its schema declares are shown.
 */
export function checkWith(validate: ValidateFunction, kind: string, value: unknown, file: string, captured = false): void {
  if (validate(value)) return;
  const shown: NameShown = captured ? (t) => (declaredNames(kind).has(t) || /^(?:0|[1-9][0-9]*)$/.test(t) ? t : "[masked]") : plainToken;
  throw new RulesError(`${file}: does not match ${kind}.schema.json ${describeErrors(validate.errors, shown)}`);
}

/**
 * Why `text` is not JSON, as this tool's own reader says it, with the line and column: never the
 * parser's message, which quotes the text around the fault (a name, a key) into what is printed.
 */
export function whyNotJson(text: string): string {
  try {
    scanJson(text, { maxDepth: Number.MAX_SAFE_INTEGER, allowDuplicateKeys: true });
  } catch (err) {
    if (err instanceof JsonScanError) {
      const at = placeOf(text, err.offset);
      return `at line ${at.line}, column ${at.column} (${err.message})`;
    }
  }
  return "(not whole JSON)";
}

/** Where a member name first stands twice in one object (JSON.parse keeps the last silently), or null. */
export function duplicateKeyAt(text: string): string | null {
  try {
    scanJson(text, { maxDepth: Number.MAX_SAFE_INTEGER });
  } catch (err) {
    if (err instanceof JsonScanError && err.code === "duplicate-key") {
      const at = placeOf(text, err.offset);
      return `at line ${at.line}, column ${at.column} (${err.message})`;
    }
  }
  return null;
}

/** A file that is not JSON, said with the line and column where it stops being JSON. */
export function notJson(file: string, text: string): RulesError {
  return new RulesError(`${file}: not valid JSON ${whyNotJson(text)}`);
}
