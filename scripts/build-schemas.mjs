// Compiles every bundled JSON Schema once, at build time, into standalone validators, so a run
// loads no schema compiler. Ajv 2020 in strict mode. Each schema gets a CommonJS module of its own
// (dist/schemas/<kind>.cjs), which dist/schemas.js requires the first time a file of that kind is
// checked: a run loads only the validators it uses (the gate, where a repository has a
// clear.config.json, only the config's).
//
// The bundled rules files are checked here too, each against its kind's schema, and the build
// fails on one that does not pass. dist/schemas.js lists the SHA-256 of each file that passed,
// by kind: a run that reads the same bytes as that kind has nothing left to check in them.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createHash } from "node:crypto";
import { Ajv2020 } from "ajv/dist/2020.js";
import standaloneCode from "ajv/dist/standalone/index.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dir = path.join(root, "rules", "schemas");
const out = path.join(root, "dist", "schemas");
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true, code: { source: true, esm: false } });
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

/** One schema's standalone CommonJS module. The Ajv runtime helpers it would require() are said in place: it loads nothing else. */
function moduleOf(file) {
  const helpers = new Map();
  const code = standaloneCode.default(ajv, { validate: file }).replace(/require\("(ajv\/dist\/runtime\/[a-z0-9]+)"\)/gi, (_m, mod) => {
    if (!INLINE[mod]) throw new Error(`${file}: its validator needs ${mod}, which is not said in place here`);
    if (!helpers.has(mod)) helpers.set(mod, `runtime${helpers.size}`);
    return helpers.get(mod);
  });
  const said = [...helpers].map(([mod, name]) => `const ${name} = ${INLINE[mod]};`).join("\n");
  return `"use strict";\n${said}\n${code.replace(/^"use strict";/, "")}`;
}

for (const [kind, file] of kinds) writeFileSync(path.join(out, `${kind}.cjs`), moduleOf(file));

// Where each kind of bundled rules lives (src/io/load-rules.ts reads them so). A file listed under
// a kind it is not read as is only checked again at run time.
const BUNDLED = {
  harness: "harnesses/", recipe: "recipes/", fields: "fields/", pairing: "pairing/", refusals: "refusals.json", homes: "homes.json",
  urls: "urls.json", secrets: "secrets/patterns.json", transports: "transports.json", payloads: "payloads.json",
};
const rulesDir = path.join(root, "rules");
const checked = {};
for (const [kind, where] of Object.entries(BUNDLED)) {
  const files = where.endsWith("/") ? readdirSync(path.join(rulesDir, where)).filter((n) => n.endsWith(".json")).sort().map((n) => where + n) : [where];
  const validate = ajv.getSchema(`${kind}.schema.json`);
  checked[kind] = files.map((f) => {
    const bytes = readFileSync(path.join(rulesDir, f));
    if (!validate(JSON.parse(bytes.toString("utf8")))) throw new Error(`rules/${f}: does not pass ${kind}.schema.json: ${JSON.stringify(validate.errors)}`);
    return createHash("sha256").update(bytes).digest("hex");
  });
}
const index = `import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
/** Each kind's validator, loaded the first time a file of that kind is checked. */
export function validator(kind) {
  return require(\`./schemas/\${kind}.cjs\`).validate;
}
/** The SHA-256 of each bundled rules file, by the kind whose schema it passed at build time. */
export const bundledDigests = ${JSON.stringify(checked)};
`;
writeFileSync(path.join(root, "dist", "schemas.js"), index);
