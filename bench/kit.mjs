// npm run build && node bench/kit.mjs: hashing a 64 MB kit binary with node:crypto (streamed),
// as clear verify-kit does, beside sha256sum on the same file in the same run.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { digestFile } from "../dist/io/digest-file.js";

const dir = mkdtempSync(path.join(os.tmpdir(), "clear-kit-bench-"));
const file = path.join(dir, "binary");
const block = Buffer.alloc(1 << 20);
for (let i = 0; i < block.length; i++) block[i] = (i * 31 + 7) & 0xff;
writeFileSync(file, Buffer.concat(Array.from({ length: 64 }, () => block)));
const time = async (fn) => {
  const t = process.hrtime.bigint();
  const out = await fn();
  return { out, s: Number(process.hrtime.bigint() - t) / 1e9 };
};
const ours = [];
const native = [];
let same = true;
for (let round = 0; round < 3; round++) {
  const a = await time(() => digestFile(file));
  const b = await time(() => execFileSync("sha256sum", [file], { encoding: "utf8" }).split(" ")[0]);
  same &&= a.out.sha256 === b.out;
  ours.push(a.s);
  native.push(b.s);
}
const median = (xs) => [...xs].sort((x, y) => x - y)[1];
console.log(`64 MB binary: node:crypto streamed ${median(ours).toFixed(3)} s, sha256sum ${median(native).toFixed(3)} s, ratio ${(median(ours) / median(native)).toFixed(1)}x; digests equal: ${same}`);
rmSync(dir, { recursive: true, force: true });
