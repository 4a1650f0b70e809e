import { listBelow, readBelow, type Refusal } from "./no-link.js";

// One version's fixtures as clear compare reads them: every <event>.json of a folder and its
// provenance sidecar, through the same reads as the library (no link followed, at any depth
// below the base), and what could not be read, by name.

export interface FolderFixture {
  event: string;
  /** The entry's name in the folder. */
  name: string;
  bytes: Buffer;
}

export interface FixtureFolder {
  fixtures: FolderFixture[];
  /** Sidecars' bytes, by event. */
  sidecars: Map<string, Buffer>;
  /** Entries named like a fixture or a sidecar that could not be read. */
  problems: { name: string; refused: Refusal; detail: string }[];
  /** Other entries (a README, a folder), not compared. */
  ignored: number;
}

const SIDECAR = ".provenance.json";

/** The fixtures of the folder `rel` below `base` ("" for `base` itself); a refusal when the folder cannot be listed. */
export function readFixtureFolder(base: string, rel: string, maxBytes: number): FixtureFolder | { refused: Refusal; at: string; detail: string } {
  const listed = listBelow(base, rel);
  if ("refused" in listed) return listed;
  const out: FixtureFolder = { fixtures: [], sidecars: new Map(), problems: [], ignored: 0 };
  for (const entry of listed.entries) {
    const name = entry.name;
    if (!name.endsWith(".json") || entry.isDirectory()) {
      out.ignored++;
      continue;
    }
    // A name that is not UTF-8 comes back with U+FFFD in it, the name of no file: say so, not "no such file".
    if (name.includes("\ufffd")) {
      out.problems.push({ name, refused: "unreadable", detail: "has a name that is not UTF-8 (shown with \ufffd)" });
      continue;
    }
    const read = readBelow(base, rel === "" ? name : `${rel}/${name}`, maxBytes);
    if ("refused" in read) {
      out.problems.push({ name, refused: read.refused, detail: read.detail });
      continue;
    }
    if (name.endsWith(SIDECAR)) out.sidecars.set(name.slice(0, -SIDECAR.length), read.bytes);
    else out.fixtures.push({ event: name.slice(0, -".json".length), name, bytes: read.bytes });
  }
  return out;
}
