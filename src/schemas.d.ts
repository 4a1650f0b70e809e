// The bundled schemas, compiled once at build time by scripts/build-schemas.mjs into dist/schemas.js.
import type { ValidateFunction } from "ajv";

export const config: ValidateFunction;
export const fields: ValidateFunction;
export const harness: ValidateFunction;
export const homes: ValidateFunction;
export const kit: ValidateFunction;
export const pairing: ValidateFunction;
export const payloads: ValidateFunction;
export const provenance: ValidateFunction;
export const recipe: ValidateFunction;
export const refusals: ValidateFunction;
export const secrets: ValidateFunction;
export const sitting: ValidateFunction;
export const transports: ValidateFunction;
export const urls: ValidateFunction;
