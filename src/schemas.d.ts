// The bundled schemas, compiled once at build time by scripts/build-schemas.mjs: dist/schemas.js
// loads each kind's validator (dist/schemas/<kind>.cjs) the first time it is asked for.
import type { ValidateFunction } from "ajv";

export function validator(kind: "config" | "fields" | "harness" | "homes" | "kit" | "pairing" | "payloads" | "provenance" | "recipe" | "refusals" | "secrets" | "sitting" | "transports" | "urls"): ValidateFunction;

/** The SHA-256 of each bundled rules file, by the kind whose schema it passed at build time. */
export const bundledDigests: Readonly<Partial<Record<string, readonly string[]>>>;
