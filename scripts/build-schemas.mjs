// Compiles every bundled JSON Schema once, at build time, into standalone validators
// (dist/schemas.js), so a run loads no schema compiler. Ajv 2020 in strict mode.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import standaloneCode from "ajv/dist/standalone/index.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dir = path.join(root, "rules", "schemas");
const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true, code: { source: true, esm: true } });
const exports = {};
for (const file of readdirSync(dir).filter((f) => f.endsWith(".schema.json")).sort()) {
  const schema = JSON.parse(readFileSync(path.join(dir, file), "utf8"));
  ajv.addSchema(schema, file);
  exports[file.replace(/\.schema\.json$/, "")] = file;
}
// The generated module is ESM but still reaches Ajv's runtime helpers with require(): import them.
const runtime = new Map();
const code = standaloneCode.default(ajv, exports).replace(/require\("(ajv\/dist\/runtime\/[a-z0-9]+)"\)/gi, (_m, mod) => {
  if (!runtime.has(mod)) runtime.set(mod, `runtime${runtime.size}`);
  return runtime.get(mod);
});
// Node hands a CommonJS module over as its exports object, other loaders as its default export.
const imports = [...runtime].map(([mod, name]) => `import * as ${name}Module from "${mod}.js";\nconst ${name} = { default: ${name}Module.default?.default ?? ${name}Module.default };`).join("\n");
writeFileSync(path.join(root, "dist", "schemas.js"), `${imports}\n${code.replace(/^"use strict";/, "")}`);
