import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";

// SHA-256 with @noble/hashes: of bytes in memory here; src/io/digest-file.ts streams large files.

export function sha256Hex(bytes: Uint8Array): string {
  return bytesToHex(sha256(bytes));
}
