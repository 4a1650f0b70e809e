// A Git LFS pointer as git-lfs reads one: a small file whose text, blanks around it trimmed, holds
// a version line naming a version of the pointer's spec (any of the three git-lfs accepts: the
// public one, and the alpha's and the pre-release's, which it still reads as the same version)
// and an oid line naming the object; lines end in a line feed or a carriage return and one, and
// extension lines (ext-0-name) may stand anywhere. A file git-lfs reads as a pointer has its
// object uploaded at push: the gate reads that object too.

/** The versions git-lfs reads as its pointer's spec, compared as plain strings. */
const VERSIONS = ["https://git-lfs.github.com/spec/v1", "https://hawser.github.com/spec/v1", "http://git-media.io/v/2"];
const escaped = VERSIONS.map((v) => v.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")).join("|");
const VERSION_LINE = new RegExp(`(?:^|\\n)version (?:${escaped})\\r?(?:\\n|$)`);
const OID_LINE = /(?:^|\n)oid sha256:([0-9A-Za-z]{64})\r?(?:\n|$)/;
/** git-lfs reads no larger file as a pointer. */
export const MAX_POINTER = 1024;

const textOf = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1").trim();

/** Whether bytes may be a pointer: small, and a version line git-lfs reads among their lines. */
export function mayBeLfsPointer(bytes: Uint8Array): boolean {
  return bytes.byteLength <= MAX_POINTER && VERSION_LINE.test(textOf(bytes));
}

/** The object id a pointer names, as written (git-lfs takes any 64 letters and digits), or null where the bytes are no pointer: no version line git-lfs reads, or no oid line. */
export function lfsPointerOid(bytes: Uint8Array): string | null {
  if (!mayBeLfsPointer(bytes)) return null;
  return OID_LINE.exec(textOf(bytes))?.[1] ?? null;
}
