import type { Io } from "../types.js";

// The --json envelope: exactly one object on stdout, with schemaVersion 1.

export function writeJson(io: Io, value: object): void {
  io.stdout(`${JSON.stringify({ schemaVersion: 1, ...value }, null, 2)}\n`);
}
