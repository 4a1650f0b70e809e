// The config's validator alone, compiled at build time by scripts/build-schemas.mjs into
// dist/schemas/config.js: reading clear.config.json (every gate run) loads no other schema.
import type { ValidateFunction } from "ajv";

export const validate: ValidateFunction;
