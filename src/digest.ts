import { sha256 } from "@noble/hashes/sha2.js";

// SHA-256 with @noble/hashes: of bytes in memory here; src/io/digest-file.ts streams large files.

/**
 * A digest's bytes as lower-case hex, written by Node in one flat string: a string built a
 * character pair at a time is a chain of 63 joins, and a sitting keeps two digests for every
 * capture.
 */
export function hexOf(digest: Uint8Array): string {
  return Buffer.from(digest.buffer, digest.byteOffset, digest.byteLength).toString("hex");
}

export function sha256Hex(bytes: Uint8Array): string {
  return hexOf(sha256(bytes));
}
