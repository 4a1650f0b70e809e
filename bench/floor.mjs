// The floors the commands are measured against, run as whole processes:
//   node bench/floor.mjs read <dir>         read, parse and hash (node:crypto SHA-256, as the tool) every file
//   node bench/floor.mjs write <dir> <out>  the same, then write each file atomically (temp file,
//                                           fsync 16 at a time, rename) and fsync the folder once
//   node bench/floor.mjs write2 <dir> <out> the same, writing two files for each (a fixture and its
//                                           sidecar), into one folder per file as clear run does
//   node bench/floor.mjs hash <dir>         read and hash every file under <dir>, at any depth
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync } from "node:fs";
import { promises as fs } from "node:fs";
import path from "node:path";
import { createHash } from "node:crypto";

const [mode, dir, out] = process.argv.slice(2);

function hashTree(root) {
  let n = 0;
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) {
        createHash("sha256").update(readFileSync(p)).digest("hex");
        n++;
      }
    }
  };
  walk(root);
  return n;
}

/** Each file written atomically: temporary file, fsync, rename; 16 in flight; every folder flushed once. */
async function writeAll(targets) {
  const folders = [...new Set(targets.map((t) => path.dirname(t.file)))];
  for (const f of folders) mkdirSync(f, { recursive: true });
  const inFlight = new Set();
  for (const t of targets) {
    const write = (async () => {
      const temp = path.join(path.dirname(t.file), `.${path.basename(t.file)}.tmp`);
      const handle = await fs.open(temp, "wx");
      await handle.writeFile(t.bytes);
      await handle.sync();
      await handle.close();
      await fs.rename(temp, t.file);
    })().finally(() => inFlight.delete(write));
    inFlight.add(write);
    if (inFlight.size >= 16) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  for (const f of folders) {
    const fd = openSync(f, "r");
    fsyncSync(fd);
    closeSync(fd);
  }
}

if (mode === "hash") {
  process.stdout.write(String(hashTree(dir)));
  process.exit(0);
}
const files = [];
for (const name of readdirSync(dir).sort()) {
  const bytes = readFileSync(path.join(dir, name));
  JSON.parse(bytes.toString("utf8"));
  files.push({ name, bytes, digest: createHash("sha256").update(bytes).digest("hex") });
}
if (mode === "write") await writeAll(files.map((f) => ({ file: path.join(out, f.name), bytes: f.bytes })));
if (mode === "write2") {
  await writeAll(files.flatMap((f, i) => [
    { file: path.join(out, String(i), f.name), bytes: f.bytes },
    { file: path.join(out, String(i), `${f.name}.provenance.json`), bytes: f.bytes.subarray(0, 700) },
  ]));
}
process.stdout.write(String(files.length));
