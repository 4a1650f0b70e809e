import type { ErrorObject, ValidateFunction } from "ajv";
import { RulesError } from "../errors.js";
import { JsonScanError, placeOf, pointerTokens, scanJson } from "../json/reader.js";
import { validator } from "../schemas.js";

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

export function describeErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .map((e) => {
      const at = e.instancePath === "" ? "/" : `/${pointerTokens(e.instancePath).map(plainToken).join("/")}`;
      const extra = e.params && "additionalProperty" in e.params ? ` (${plainToken(String(e.params.additionalProperty))})` : "";
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

/** Checks a parsed document with one schema's validator; throws naming the file and the pointer. */
export function checkWith(validate: ValidateFunction, kind: string, value: unknown, file: string): void {
  if (!validate(value)) throw new RulesError(`${file}: does not match ${kind}.schema.json ${describeErrors(validate.errors)}`);
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

/** A file that is not JSON, said with the line and column where it stops being JSON. */
export function notJson(file: string, text: string): RulesError {
  return new RulesError(`${file}: not valid JSON ${whyNotJson(text)}`);
}
