// npm run fuzz [seconds]: random JSON and near-JSON text against the positioned reader and the
// splice. Each input must be read exactly as JSON.parse reads it (or refused for the same reason
// JSON.parse refuses it, or as a duplicate or too deep), and an accepted payload must clear into
// text that parses, keeps its shape, and is a fixed point. A failing input is saved under
// tests/regressions/, where npm test replays it.
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { check } from "./fuzz-check.mjs";
import { prng } from "../tests/seeded.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const seconds = Number(process.argv[2] ?? process.env.FUZZ_SECONDS ?? 300);
const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const rnd = prng(seed);
const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
const PIECES = ["/home/ana/p", "C:\\\\Users\\\\Bo Li\\\\x", "~ana/x", "-home-ana-p", "\\u002f", "\\/", "\\\\", "\\n", "\\u00e9", "\\ud83d\\ude00", "é", "😀", "x", " ", "\\\"", "https://u:p@h/p?q=1#f", "sk", "0", "-1e5"];

function value(depth) {
  const r = rnd();
  if (depth > 0 && r < 0.25) {
    const keys = Array.from({ length: Math.floor(rnd() * 4) }, () => `"${pick(["prompt", "cwd", "tool_input", "session_id", "k", "a/b", "~", ...PIECES])}"`);
    return `{${keys.map((k) => `${k}:${value(depth - 1)}`).join(",")}}`;
  }
  if (depth > 0 && r < 0.4) return `[${Array.from({ length: Math.floor(rnd() * 4) }, () => value(depth - 1)).join(",")}]`;
  if (r < 0.5) return pick(["0", "-0.5", "1e300", "true", "false", "null"]);
  return `"${Array.from({ length: Math.floor(rnd() * 5) }, () => pick(PIECES)).join("")}"`;
}

function mutate(text) {
  if (rnd() < 0.7 || text.length === 0) return text;
  const at = Math.floor(rnd() * text.length);
  return pick([() => text.slice(0, at) + text.slice(at + 1), () => text.slice(0, at) + pick(['"', "\\", "{", "]", ",", ":", "\u0001", "\\u12"]) + text.slice(at), () => text + text.slice(at)])();
}

const end = Date.now() + seconds * 1000;
let runs = 0;
let failures = 0;
while (Date.now() < end) {
  const text = mutate(value(4));
  runs++;
  const reason = check(text);
  if (reason === null) continue;
  failures++;
  const id = createHash("sha256").update(text).digest("hex").slice(0, 12);
  mkdirSync(path.join(root, "tests", "regressions"), { recursive: true });
  writeFileSync(path.join(root, "tests", "regressions", `${id}.json`), `${JSON.stringify({ reason, seed, input: text }, null, 2)}\n`);
  console.log(`failure ${id}: ${reason}`);
}
console.log(`fuzz: ${runs} inputs in ${seconds} s (seed ${seed}), ${failures} failures${failures ? " saved under tests/regressions/" : ""}`);
process.exitCode = failures > 0 ? 1 : 0;
