import type { JsonDocument } from "../types.js";

/**
 * Gives an object the document its text was read into, not enumerable: a later pass reads it
 * rather than parsing the same text again, and a spread, JSON or an output check never sees the
 * raw text it holds.
 */
export function withDocument<T extends { readonly document?: JsonDocument }>(into: T, document: JsonDocument): T {
  Object.defineProperty(into, "document", { value: document, enumerable: false });
  return into;
}
