// SHA-256 with Node's own hash (OpenSSL's): of bytes in memory here; src/io/digest-file.ts streams
// large files. node:crypto is loaded the first time a digest is asked for: the gate's fast path,
// which never needs one, does not load it.

/** A new SHA-256 hash. */
export function sha256Hash(): import("node:crypto").Hash {
  return process.getBuiltinModule("node:crypto").createHash("sha256");
}

/** The SHA-256 of bytes as lower-case hex. */
export function sha256Hex(bytes: Uint8Array): string {
  return sha256Hash().update(bytes).digest("hex");
}
