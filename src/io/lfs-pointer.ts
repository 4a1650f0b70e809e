// A Git LFS pointer as git-lfs reads one: its first line names a version of the pointer's spec,
// any of the three git-lfs accepts (the public one, and the alpha's and the pre-release's, which it
// still reads as the same version), each line ends in a line feed or a carriage return and one,
// and an oid line names the object. A file git-lfs reads as a pointer has its object uploaded at
// push: the gate reads that object too.

/** The versions git-lfs reads as its pointer's spec, compared as plain strings. */
const VERSIONS = ["https://git-lfs.github.com/spec/v1", "https://hawser.github.com/spec/v1", "http://git-media.io/v/2"];
const escaped = VERSIONS.map((v) => v.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")).join("|");
const POINTER = new RegExp(`^version (?:${escaped})\\r?\\n(?:[a-z0-9.-]+ [^\\r\\n]*\\r?\\n)*?oid sha256:([0-9A-Za-z]{64})(?:\\r?\\n|$)`);
const VERSION_LINE = new RegExp(`^version (?:${escaped})\\r?\\n`);
/** Pointers are small text files; git-lfs reads nothing larger as one. */
export const MAX_POINTER = 1024;

/** Whether bytes start as a pointer does: small, and a version line git-lfs reads. */
export function startsLikeLfsPointer(bytes: Uint8Array): boolean {
  if (bytes.byteLength > MAX_POINTER || bytes[0] !== 0x76) return false;
  return VERSION_LINE.test(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1"));
}

/** The object id a pointer names, as written (git-lfs takes any 64 letters and digits), or null where the bytes are no pointer. */
export function lfsPointerOid(bytes: Uint8Array): string | null {
  if (!startsLikeLfsPointer(bytes)) return null;
  return POINTER.exec(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1"))?.[1] ?? null;
}
