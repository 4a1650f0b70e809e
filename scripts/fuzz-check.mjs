// The fuzz target's check, shared by scripts/fuzz.mjs and the replay of tests/regressions/.
import { classifier, classifyDocument } from "../dist/classify.js";
import { makeDisplay } from "../dist/display.js";
import { judgeRefusals } from "../dist/refusals.js";
import { loadRules } from "../dist/io/load-rules.js";
import { JsonScanError, scanJson } from "../dist/json/reader.js";
import { substitutePass } from "../dist/passes/substitute/index.js";

const rules = loadRules();
const display = makeDisplay(rules, [], null);

/** Clears one payload in memory; the cleared text, or null when it was refused. */
export function clearOnce(text, doc) {
  const fields = classifier(rules.fields.find((f) => f.harness === "codex"));
  const leaves = classifyDocument(doc, "stop", fields);
  const refusals = judgeRefusals(doc, { file: "f.json", harness: "codex", event: "stop" }, rules.refusals, fields, null, display);
  const capture = { name: "f.json", harness: "codex", event: "stop", hostEvent: undefined, version: "0.0.0", n: 1, size: Buffer.byteLength(text), sha256: "", doc, leaves, refusals };
  const [file] = substitutePass([capture], rules, { users: [], literals: [] }, display).files;
  return file.cleared ? Buffer.from(file.cleared).toString("utf8") : null;
}

/** Null when the reader and the splice behave; else what went wrong. */
export function check(text) {
  let doc;
  let native;
  try {
    native = { ok: true, value: JSON.parse(text) };
  } catch {
    native = { ok: false };
  }
  try {
    doc = scanJson(text, { maxDepth: 64 });
  } catch (err) {
    if (!(err instanceof JsonScanError)) return `the reader threw ${err}`;
    if (err.code === "invalid-json" && native.ok) return "the reader refused what JSON.parse accepts";
    return null;
  }
  if (!native.ok) return "the reader accepted what JSON.parse refuses";
  if (JSON.stringify(doc.value) !== JSON.stringify(native.value)) return "the reader's value differs from JSON.parse's";
  if (doc.spans[0]?.kind !== "object") return null;
  const out = clearOnce(text, doc);
  if (out === null) return null;
  let again;
  try {
    again = scanJson(out, { maxDepth: 64 });
  } catch {
    return "the cleared text does not parse";
  }
  if (again.spans.length !== doc.spans.length) return "the cleared text lost its shape";
  const second = clearOnce(out, again);
  if (second !== null && second !== out) return "a second pass changed bytes";
  return null;
}

