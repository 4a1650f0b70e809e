// npm run build && node bench/scan.mjs: the time to scan 1,000 files of 5 KB with every rule and the
// reach control, beside the bare secretlint engine (recommended preset, profiler off) on the same
// files in the same run; once with plain text in the strings, once with tool output holding
// escaped newlines and quotes, which the scan also reads decoded; then both again with a URL in each
// file, a word of the preset's basic-auth rule, so that the rule is run on every file (a rule is
// run only on a file that holds one of its words). Medians of interleaved rounds; nothing asserted.
import { lintSource } from "@secretlint/core";
import { creator as preset } from "@secretlint/secretlint-rule-preset-recommend";
import { makeDisplay } from "../dist/display.js";
import { homeGrammar } from "../dist/homes.js";
import { loadRules } from "../dist/io/load-rules.js";
import { scanEngine, scanPass } from "../dist/passes/scan.js";
import { prng } from "../tests/seeded.mjs";

const COUNT = Number(process.argv[2] ?? 1000);
const words = ["alpha", "beta", "gamma", "delta", "path", "file", "output", "line", "café"];

function sitting(seed, separators, lead = "") {
  const rnd = prng(seed);
  return Array.from({ length: COUNT }, (_, i) => {
    let text = lead;
    while (text.length < 4800) text += `${words[Math.floor(rnd() * words.length)]}${separators[Math.floor(rnd() * separators.length)]}`;
    return { file: `f${i}.json`, text: JSON.stringify({ session_id: `s-${i}`, cwd: "/home/user/p", tool_use_id: `toolu_${i}`, tool_response: { stdout: text } }) };
  });
}

const rules = loadRules();
const engine = scanEngine(rules.secrets, homeGrammar(rules.homes), null);
const display = makeDisplay(rules, [], null);
const bare = { rules: [{ id: "@secretlint/secretlint-rule-preset-recommend", rule: preset }] };

async function time(fn) {
  const t = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t) / 1e9;
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function measure(files) {
  const ours = [];
  const base = [];
  for (let round = 0; round < 5; round++) {
    ours.push(await time(() => scanPass(files, engine, display)));
    base.push(await time(async () => {
      for (const f of files) await lintSource({ source: { filePath: f.file, content: f.text, contentType: "text" }, options: { config: bare, maskSecrets: true } });
    }));
  }
  return { a: median(ours), b: median(base) };
}

const url = "see https://example.com/notes ";
const cases = [
  ["plain text", sitting(5, [" "])],
  ["escaped newlines and quotes", sitting(6, [" ", " ", "\n", '"'])],
  ["plain text, a URL in each", sitting(7, [" "], url)],
  ["escaped newlines and quotes, a URL in each", sitting(8, [" ", " ", "\n", '"'], url)],
];
for (const [label, files] of cases) {
  const { a, b } = await measure(files);
  console.log(`scan: ${COUNT} files of ~5 KB (${label}), every rule and the reach control: ${a.toFixed(3)} s; bare secretlint preset: ${b.toFixed(3)} s; ratio ${(a / b).toFixed(2)}x (target: under 0.5 s and at most 2x)`);
}
