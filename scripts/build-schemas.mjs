// Compiles every bundled JSON Schema once, at build time, into standalone validators, so a run
// loads no schema compiler. Ajv 2020 in strict mode. Each schema gets a module of its own
// (dist/schemas/<kind>.js, exporting `validate`), so that reading clear.config.json loads the
// config's validator alone; dist/schemas.js gathers them all under their kinds' names.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import standaloneCode from "ajv/dist/standalone/index.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dir = path.join(root, "rules", "schemas");
const out = path.join(root, "dist", "schemas");
mkdirSync(out, { recursive: true });
const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true, code: { source: true, esm: true } });
const kinds = [];
for (const file of readdirSync(dir).filter((f) => f.endsWith(".schema.json")).sort()) {
  ajv.addSchema(JSON.parse(readFileSync(path.join(dir, file), "utf8")), file);
  kinds.push([file.replace(/\.schema\.json$/, ""), file]);
}

// The length limits count code points (a surrogate pair is one): said here, so that a validator
// loads no CommonJS helper (loading one costs a gate run several milliseconds).
const INLINE = {
  "ajv/dist/runtime/ucs2length": "{ default: (text) => { let n = 0; for (const _ of text) n++; return n; } }",
};

/** One schema's standalone module. It is ESM but still reaches Ajv's runtime helpers with require(): import them. */
function moduleOf(file) {
  const runtime = new Map();
  const code = standaloneCode.default(ajv, { validate: file }).replace(/require\("(ajv\/dist\/runtime\/[a-z0-9]+)"\)/gi, (_m, mod) => {
    if (!runtime.has(mod)) runtime.set(mod, `runtime${runtime.size}`);
    return runtime.get(mod);
  });
  // Node hands a CommonJS module over as its exports object, other loaders as its default export.
  const imported = (mod, name) => `import * as ${name}Module from "${mod}.js";\nconst ${name} = { default: ${name}Module.default?.default ?? ${name}Module.default };`;
  const imports = [...runtime].map(([mod, name]) => (INLINE[mod] ? `const ${name} = ${INLINE[mod]};` : imported(mod, name))).join("\n");
  return `${imports}\n${code.replace(/^"use strict";/, "")}`;
}

for (const [kind, file] of kinds) writeFileSync(path.join(out, `${kind}.js`), moduleOf(file));
writeFileSync(path.join(root, "dist", "schemas.js"), kinds.map(([kind]) => `export { validate as ${kind} } from "./schemas/${kind}.js";\n`).join(""));
