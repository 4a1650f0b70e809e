import { constants, gunzipSync, inflateSync } from "node:zlib";

// Compressed bytes (gzip, a zlib stream) as what they inflate to, up to a bound: the payload check
// reads a compressed raw capture through here, and the scan the secrets compressed bytes hide.

/** How far the payload check inflates; past it a file cannot be shown free of a payload. */
export const MAX_INFLATED = 64 * 1024 * 1024;

/** What compressed bytes hold: their inflated bytes, "too large" past the bound, null where they are not a stream Node inflates. */
export type Inflated = Buffer | "too large" | null;

/** Gzip (1f 8b 08) or a zlib stream (deflate, a window of 32 KB or less, its header check holding). */
export function kindOf(b: Uint8Array): "gzip" | "zlib" | null {
  if (b.length >= 18 && b[0] === 0x1f && b[1] === 0x8b && b[2] === 0x08) return "gzip";
  const cmf = b[0] as number;
  if (b.length >= 8 && (cmf & 0x0f) === 8 && cmf >> 4 <= 7 && ((cmf << 8) | (b[1] as number)) % 31 === 0) return "zlib";
  return null;
}

export function inflated(bytes: Uint8Array, max = MAX_INFLATED): Inflated {
  const kind = kindOf(bytes);
  if (kind === null) return null;
  try {
    // A stream cut short gives what it holds so far, as zcat prints it.
    return (kind === "gzip" ? gunzipSync : inflateSync)(bytes, { maxOutputLength: max, finishFlush: constants.Z_SYNC_FLUSH });
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE" ? "too large" : null;
  }
}

/** How many streams deep compressed bytes are opened; bytes still compressed past it cannot be shown free of a payload. */
export const MAX_INFLATIONS = 4;

/** Whether bytes are a stream Node inflates (its first KiB is enough to tell), not only ones whose header looks like one. */
export function stillCompressed(bytes: Uint8Array): boolean {
  return kindOf(bytes) !== null && inflated(bytes, 1 << 10) !== null;
}

/**
 * Compressed bytes opened stream by stream, up to MAX_INFLATIONS deep: the innermost bytes, or why
 * they cannot be read whole (inflating past the bound, or still compressed at the last level).
 */
export function inflatedThrough(bytes: Uint8Array): Buffer | { unchecked: string } {
  let at = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let depth = 0; depth < MAX_INFLATIONS; depth++) {
    const inner = inflated(at);
    if (inner === "too large") return { unchecked: `it is compressed and inflates past ${MAX_INFLATED} bytes` };
    if (inner === null) return at;
    at = inner;
  }
  return stillCompressed(at) ? { unchecked: `it is compressed more than ${MAX_INFLATIONS} streams deep` } : at;
}
