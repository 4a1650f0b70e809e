import { holds, parseRecord, RecordError, recordText } from "../record/parse.js";
import { FixtureError } from "./errors.js";

// What CLEARANCE.md says of each path: every listing of it, batch by batch, and the one in force,
// the last listing in an accepted batch whose digest still holds (a later listing of a path
// supersedes an earlier one, as clear verify and the gate read it).

export type ListingStatus = "accepted" | "pending" | "edited";

export interface Listing {
  batch: string;
  sha256: string;
  bytes: number;
  /** accepted: ACCEPT stands and the digest holds; pending: no ACCEPT yet; edited: ACCEPT, but the text changed since. */
  status: ListingStatus;
}

export interface RecordIndex {
  inForce: Map<string, Listing>;
  listings: Map<string, Listing[]>;
}

/** The record's listings; a record in a shape the reader does not know is an error naming `fixture`, the one asked for. */
export function indexRecord(bytes: Uint8Array, file: string, fixture: string | null): RecordIndex {
  let batches;
  try {
    batches = parseRecord(recordText(bytes, file), file).batches;
  } catch (err) {
    if (err instanceof RecordError) throw new FixtureError("record", fixture, `${err.message}; until then no fixture counts as accepted`);
    throw err;
  }
  const index: RecordIndex = { inForce: new Map(), listings: new Map() };
  for (const b of batches) {
    const status: ListingStatus = holds(b) ? "accepted" : b.accepted ? "edited" : "pending";
    for (const f of b.fixtures) {
      const listing: Listing = { batch: b.id, sha256: f.sha256, bytes: f.bytes, status };
      const all = index.listings.get(f.path);
      if (all) all.push(listing);
      else index.listings.set(f.path, [listing]);
      if (status === "accepted") index.inForce.set(f.path, listing);
    }
  }
  return index;
}
