// The package's library entry: tests of hook clients read fixtures through it, and get them only
// when an accepted batch of CLEARANCE.md lists their bytes. It reads the record and the fixtures,
// nothing else: no rules, no scanner, no schema validator.

export { loadFixture, listFixtures } from "./loader.js";
export type { AcceptedFixture, FixtureQuery, LoadedFixture, Where } from "./loader.js";
export { FixtureError } from "./errors.js";
export type { FixtureProblem } from "./errors.js";
export { compareHostVersions } from "./host-version.js";
export type { Provenance } from "../types.js";
