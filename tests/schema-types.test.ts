import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generate } from "../scripts/schema-types.mjs";

// A rules file's shape is written once, in its JSON Schema: the types the code reads are generated
// from the schemas, and the committed file is what the schemas give.

describe("types from the JSON Schemas", () => {
  it("src/schema-types.ts is what rules/schemas/ give", () => {
    expect(readFileSync(path.join(import.meta.dirname, "..", "src", "schema-types.ts"), "utf8")).toBe(generate());
  });

  it("a schema's member turns up in the generated type", () => {
    const text = generate();
    expect(text).toMatch(/export type Kit = \{[\s\S]*?head: string;[\s\S]*?binary: KitFile \| null;/);
    expect(text).toMatch(/keep\?: \[string, string\]\[\];/);
  });
});
