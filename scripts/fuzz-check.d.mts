import type { JsonDocument } from "../src/types.js";
export function check(text: string): string | null;
export function clearOnce(text: string, doc: JsonDocument): string | null;
