// The floors the commands are measured against, run as whole processes:
//   node bench/floor.mjs read <dir>         read, parse and hash (@noble/hashes SHA-256) every file
//   node bench/floor.mjs write <dir> <out>  the same, then write each file atomically (temp file,
//                                           fsync 16 at a time, rename) and fsync the folder once
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync } from "node:fs";
import { promises as fs } from "node:fs";
import path from "node:path";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";

const [mode, dir, out] = process.argv.slice(2);
const files = [];
for (const name of readdirSync(dir).sort()) {
  const bytes = readFileSync(path.join(dir, name));
  JSON.parse(bytes.toString("utf8"));
  files.push({ name, bytes, digest: bytesToHex(sha256(bytes)) });
}
if (mode === "write") {
  mkdirSync(out, { recursive: true });
  const inFlight = new Set();
  for (const f of files) {
    const write = (async () => {
      const temp = path.join(out, `.${f.name}.tmp`);
      const handle = await fs.open(temp, "wx");
      await handle.writeFile(f.bytes);
      await handle.sync();
      await handle.close();
      await fs.rename(temp, path.join(out, f.name));
    })().finally(() => inFlight.delete(write));
    inFlight.add(write);
    if (inFlight.size >= 16) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  const fd = openSync(out, "r");
  fsyncSync(fd);
  closeSync(fd);
}
process.stdout.write(String(files.length));
