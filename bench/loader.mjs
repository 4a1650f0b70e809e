// npm run build && node bench/loader.mjs: loadFixture's cost on a repository of 2,000 accepted
// fixtures (40 versions of 50 events, each with its provenance sidecar, one accepted batch per
// version), from a test file inside that repository. Prints the first load (which reads the
// record), the cost of each load after it, and the floor: reading, hashing (node:crypto) and
// parsing the same fixture and sidecar with no check at all, measured in the same process.
// Medians of interleaved rounds; nothing asserted (the target is at most 5 ms a load).
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { batchDigest } from "../dist/record/parse.js";
import { SHAPES } from "../dist/record/grammar.js";
import { sha256Hex } from "../dist/digest.js";

const dist = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "dist");
const VERSIONS = 40;
const EVENTS = 50;
const versionOf = (v) => `2.${Math.floor(v / 10)}.${v % 10}`;
const example = JSON.parse(readFileSync(path.join(dist, "..", "examples", "sitting", "claude-code_post_tool_use_2.1.261.1.json"), "utf8"));

/** One version's fixtures and sidecars, and its accepted batch. */
function writeVersion(root, v) {
  const version = versionOf(v);
  const batch = `b-${v.toString(16).padStart(12, "0")}`;
  const rows = [];
  for (let e = 0; e < EVENTS; e++) {
    const event = `event_${String(e).padStart(2, "0")}`;
    const rel = `fixtures/claude-code/${version}/${event}.json`;
    // Sizes from a few hundred bytes to about 4 KB, as tool responses make them.
    const stdout = "x".repeat((e * 97 + v * 31) % 3800);
    const payload = Buffer.from(JSON.stringify({ ...example, tool_response: { ...example.tool_response, stdout } }));
    const cleared = { sha256: sha256Hex(payload), bytes: payload.length };
    const origin = { schemaVersion: 1, origin: "authentic-capture", harness: "claude-code", hostVersion: version, event };
    const provenance = { ...origin, captureName: `claude-code_${event}_${version}.1.json`, capturedAt: null, capturedAtSource: "not-stated" };
    const sidecar = Buffer.from(`${JSON.stringify({ ...provenance, raw: cleared, cleared, rules: [], pairs: [], kit: null, batch }, null, 2)}\n`);
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), payload);
    writeFileSync(path.join(root, rel.replace(/\.json$/, ".provenance.json")), sidecar);
    for (const [p, bytes] of [[rel, payload], [rel.replace(/\.json$/, ".provenance.json"), sidecar]]) {
      const raw = { rawSha: cleared.sha256, rawBytes: String(cleared.bytes) };
      rows.push(SHAPES.fixtureRow.render({ path: p, what: event, ...raw, sha: sha256Hex(bytes), bytes: String(bytes.length) }));
    }
  }
  const table = ["| fixture | what | raw sha256 | raw bytes | sha256 | bytes |", "| --- | --- | --- | --- | --- | --- |"];
  const body = ["", `## Batch ${batch}`, "", ...table, ...rows, ""];
  return [SHAPES.marker.render({ id: batch, digest: batchDigest(body) }), ...body, "## User acceptance", "", "ACCEPT", ""].join("\n");
}

// The timed side, run as a test file of the repository: the library finds the repository from it.
const TIMED = `import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";
const { loadFixture } = await import(process.argv[2]);
const fixtures = JSON.parse(process.argv[3]);
const now = () => Number(process.hrtime.bigint()) / 1e6;
let t = now();
loadFixture(fixtures[0]);
const first = now() - t;
const rounds = { load: [], floor: [], latest: [] };
for (let round = 0; round < 5; round++) {
  t = now();
  for (const f of fixtures) loadFixture(f);
  rounds.load.push((now() - t) / fixtures.length);
  t = now();
  for (const f of fixtures) {
    const rel = "fixtures/" + f.harness + "/" + f.version + "/" + f.event;
    for (const file of [rel + ".json", rel + ".provenance.json"]) {
      const bytes = readFileSync(file);
      createHash("sha256").update(bytes).digest("hex");
      JSON.parse(bytes.toString("utf8"));
    }
  }
  rounds.floor.push((now() - t) / fixtures.length);
  t = now();
  for (const f of fixtures.slice(0, 200)) loadFixture({ ...f, version: "latest" });
  rounds.latest.push((now() - t) / 200);
}
console.log(JSON.stringify({ first, ...rounds }));
`;

const root = mkdtempSync(path.join(os.tmpdir(), "clear-loader-bench-"));
execFileSync("git", ["init", "-q"], { cwd: root });
const record = ["# Clearance record", ""];
for (let v = 0; v < VERSIONS; v++) record.push(writeVersion(root, v));
writeFileSync(path.join(root, "CLEARANCE.md"), record.join("\n"));
mkdirSync(path.join(root, "tests"));
writeFileSync(path.join(root, "tests", "timed.mjs"), TIMED);

const fixtures = [];
for (let v = 0; v < VERSIONS; v++) {
  for (let e = 0; e < EVENTS; e++) fixtures.push({ harness: "claude-code", version: versionOf(v), event: `event_${String(e).padStart(2, "0")}` });
}
// A fixed shuffle, so each round reads the fixtures in an order unlike the disk's.
for (let i = fixtures.length - 1; i > 0; i--) {
  const j = (i * 7919) % (i + 1);
  [fixtures[i], fixtures[j]] = [fixtures[j], fixtures[i]];
}
// A record written less than three seconds before is compared byte for byte at each load (a
// coarse file-system clock could not show an edit of the same size); a test run meets a record
// older than that, so the timed run waits until this one is.
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 3100);
const library = pathToFileURL(path.join(dist, "lib", "index.js")).href;
const r = spawnSync(process.execPath, [path.join(root, "tests", "timed.mjs"), library, JSON.stringify(fixtures)], { cwd: root, encoding: "utf8" });
if (r.status !== 0) throw new Error(`the timed run failed: ${r.stderr}`);
const times = JSON.parse(r.stdout);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const [load, floor, latest] = [median(times.load), median(times.floor), median(times.latest)];
const kb = Math.round(Buffer.byteLength(record.join("\n")) / 1024);
console.log(`loadFixture on ${fixtures.length} accepted fixtures (${fixtures.length * 2} files listed in ${VERSIONS} accepted batches, a ${kb} KB record)`);
console.log(`  first load, reading the record: ${times.first.toFixed(1)} ms`);
console.log(`  each load after the first: ${load.toFixed(3)} ms (target at most 5 ms), ${(load / floor).toFixed(2)}x the floor`);
console.log(`  floor, reading, hashing and parsing the fixture and its sidecar unchecked: ${floor.toFixed(3)} ms`);
console.log(`  version "latest": ${latest.toFixed(3)} ms a load, ${(latest / floor).toFixed(2)}x the floor`);
rmSync(root, { recursive: true, force: true });
