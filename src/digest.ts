// SHA-256 with Node's own hash (OpenSSL's): of bytes in memory here; src/io/digest-file.ts streams
// large files. node:crypto is loaded the first time a digest is asked for: the gate's fast path,
// which never needs one, does not load it.

let crypto: typeof import("node:crypto") | undefined;

/** node:crypto, asked of the process once and kept: asking it again costs about a microsecond, once a digest (4,000 in verify of 2,000 fixtures). */
export function nodeCrypto(): typeof import("node:crypto") {
  return (crypto ??= process.getBuiltinModule("node:crypto"));
}

/** A new SHA-256 hash. */
export function sha256Hash(): import("node:crypto").Hash {
  return nodeCrypto().createHash("sha256");
}

/** The SHA-256 of bytes as lower-case hex. */
export function sha256Hex(bytes: Uint8Array): string {
  return sha256Hash().update(bytes).digest("hex");
}
