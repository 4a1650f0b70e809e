import { readFileSync } from "node:fs";
import path from "node:path";
import { sha256Hex } from "../digest.js";
import { gitMaybe } from "./git.js";
import { lfsPointerOid } from "./lfs-pointer.js";

// A file Git LFS tracks is committed as a pointer; its bytes go to the LFS store (and, at push, to
// the LFS server). The gate reads what the pointer stands for: the object in the local store, its
// SHA-256 checked against the pointer. A pointer whose object is not here cannot be shown free of
// a payload.

/** What a blob stands for: itself, or the LFS object its pointer names (`missing` when it is not in the local store). */
export type LfsRead = { bytes: Uint8Array } | { missing: string };

const stores = new Map<string, string | null>();

/** The local LFS store: `lfs/objects` in git's common folder (asked of git once per root). */
function storeOf(root: string): string | null {
  if (!stores.has(root)) {
    const common = gitMaybe(["rev-parse", "--git-common-dir"], root)?.toString("utf8").trim();
    stores.set(root, common ? path.resolve(root, common, "lfs", "objects") : null);
  }
  return stores.get(root) ?? null;
}

export function throughLfs(root: string, bytes: Uint8Array): LfsRead {
  const oid = lfsPointerOid(bytes);
  if (oid === null) return { bytes };
  const store = storeOf(root);
  let object: Buffer;
  try {
    if (store === null) throw new Error("no store");
    object = readFileSync(path.join(store, oid.slice(0, 2), oid.slice(2, 4), oid));
  } catch {
    return { missing: `a Git LFS pointer whose object ${oid.slice(0, 12)}… is not in the local store; fetch it (git lfs fetch) and check again` };
  }
  if (sha256Hex(object) !== oid) return { missing: `a Git LFS pointer whose local object ${oid.slice(0, 12)}… does not hold the bytes it names` };
  // The pointer and what it stands for, both read.
  return { bytes: Buffer.concat([Buffer.from(bytes), Buffer.from("\n"), object]) };
}
