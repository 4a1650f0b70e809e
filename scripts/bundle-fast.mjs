// The gate's fast path, which every commit of a repository pays for, as one file: loading the
// dozen small modules it reads one by one costs a commit more than the fast path's own work does.
// dist/clearance/gate-fast.bundle.js holds dist/clearance/gate-fast.js and everything it imports,
// but for Node's own modules and dist/io/git.js: the index git answered for the fast path is kept
// there, and the whole gate, run after it in the same process, reads that same answer.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { rolldown } from "rolldown";

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "dist");
const shared = path.join(dist, "io", "git.js");

const bundle = await rolldown({
  input: path.join(dist, "clearance", "gate-fast.js"),
  platform: "node",
  logLevel: "warn",
  external: (id, importer) => id.startsWith("node:") || (importer !== undefined && path.resolve(path.dirname(importer), id) === shared),
});
await bundle.write({ file: path.join(dist, "clearance", "gate-fast.bundle.js"), format: "esm", codeSplitting: false });
await bundle.close();
