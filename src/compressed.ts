import { isUtf8 } from "node:buffer";

// Compressed bytes (gzip, a zlib stream, a zip archive, brotli and raw deflate) as what they inflate to, up to a bound: the payload check
// reads a compressed raw capture through here, and the scan the secrets compressed bytes hide.

/** Node's zlib, loaded the first time something is inflated: the gate's fast path, which only looks for magic bytes, never loads it. */
const zlib = (): typeof import("node:zlib") => process.getBuiltinModule("node:zlib");
/** Inflating up to `max` bytes, where a stream cut short gives what it holds so far. */
const upTo = (max: number): import("node:zlib").ZlibOptions => ({ maxOutputLength: max, finishFlush: zlib().constants.Z_SYNC_FLUSH });

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

/** A stream with no header inflates to no fewer bytes than this where it is one: fewer are read as chance. */
const MIN_HEADLESS_BYTES = 16;
/**
 * Bytes fewer than this are read as no stream with no header: a SHA-512 digest's 64, or fewer.
 * Digests and ids are most of the bytes a text's hex and base64 runs decode to (a record lists
 * thousands), and each try costs a decoder's set-up.
 */
const MIN_HEADLESS_INPUT = 65;
/** Each try's output grows by this much at a time: most give nothing, and a larger first buffer only costs its allocation. */
const HEADLESS_CHUNK = 4096;

/** Bytes that read as text: UTF-8 with no control character but tabs and line breaks (the payload check's test too). */
export function readsAsText(b: Buffer): boolean {
  for (let i = 0; i < b.length; i++) {
    const c = b[i] as number;
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0x7f) return false;
  }
  return isUtf8(b);
}

/**
 * A stream no header names: brotli (HTTP's `br`, `.br` files) or raw deflate (a zip entry's, a
 * `.deflate` file's). Bytes that are not text are undone each way, up to `max`, a stream cut short
 * giving what it holds so far; what they give is taken only where it is text, or a stream with a
 * header, as a payload inside would be: undone by chance, other bytes give neither.
 */
export function headlessInflated(bytes: Uint8Array, max = MAX_INFLATED): Inflated {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length < MIN_HEADLESS_INPUT || isUtf8(b)) return null;
  // The same bytes come again in each reading of a text (each escape undone): undone once.
  if (b.length > MAX_REMEMBERED_INPUT) return undoneHeadless(b, max);
  const key = `${max} ${b.toString("latin1")}`;
  let out = headlessSeen.get(key);
  if (out === undefined) {
    if (headlessSeen.size >= MAX_REMEMBERED) headlessSeen.clear();
    headlessSeen.set(key, (out = undoneHeadless(b, max)));
  }
  return out;
}

/** Bytes up to this size are remembered with what they gave, up to this many. */
const MAX_REMEMBERED_INPUT = 4096;
const MAX_REMEMBERED = 4096;
const headlessSeen = new Map<string, Inflated>();

function undoneHeadless(b: Buffer, max: number): Inflated {
  const z = zlib();
  const ways = [() => z.brotliDecompressSync(b, { maxOutputLength: max, finishFlush: z.constants.BROTLI_OPERATION_FLUSH, chunkSize: HEADLESS_CHUNK })];
  if (deflateBlockAt(b)) ways.push(() => z.inflateRawSync(b, { ...upTo(max), chunkSize: HEADLESS_CHUNK }));
  // Most bytes are no stream, and each way fails on them: its error is made without a stack, which costs more than the try.
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    for (const undo of ways) {
      let out: Buffer;
      try {
        out = undo();
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE") return "too large";
        continue;
      }
      if (out.length >= MIN_HEADLESS_BYTES && (readsAsText(out) || kindOf(out) !== null)) return out;
    }
  } finally {
    Error.stackTraceLimit = limit;
  }
  return null;
}

/** Whether a raw deflate stream may start the bytes: its first block of a type deflate writes, a stored block's length and its complement agreeing. */
function deflateBlockAt(b: Buffer): boolean {
  const type = ((b[0] as number) >> 1) & 3;
  if (type === 3) return false;
  return type !== 0 || b.length < 5 || ((b[1] as number) ^ (b[3] as number)) + ((b[2] as number) ^ (b[4] as number)) === 0x1fe;
}

export function inflated(bytes: Uint8Array, max = MAX_INFLATED): Inflated {
  const kind = kindOf(bytes);
  if (kind === null) return headlessInflated(bytes, max);
  if (kind === "gzip") {
    const members = gzipMembers(bytes, max);
    return members === null || members === "too large" ? members : members.bytes;
  }
  try {
    // A stream cut short gives what it holds so far, as zcat prints it; what follows its end is not read.
    return zlib().inflateSync(bytes, upTo(max));
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE" ? "too large" : null;
  }
}

/**
 * A gzip file's members, one after another as zcat reads them, each member's own stream read past
 * its header and to its end: bytes after the last member (a tar's next block, anything appended)
 * end the reading, where gunzip fails on them. With where the last member read ends; null where
 * the first member gives nothing.
 */
export function gzipMembers(bytes: Uint8Array, max = MAX_INFLATED): { bytes: Buffer; end: number } | "too large" | null {
  const parts: Buffer[] = [];
  let [at, total] = [0, 0];
  while (kindOf(bytes.subarray(at)) === "gzip") {
    const body = gzipBodyAt(bytes, at);
    if (body === null) break;
    let read: { buffer: Buffer; engine: { bytesWritten: number } };
    if (max - total <= 0) return "too large";
    try {
      read = zlib().inflateRawSync(bytes.subarray(body), { ...upTo(max - total), info: true }) as unknown as typeof read;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE" || max - total <= 0) return "too large";
      break;
    }
    parts.push(read.buffer);
    total += read.buffer.length;
    // Its stream, then the member's eight bytes of checksum and length.
    at = body + read.engine.bytesWritten + 8;
    if (read.engine.bytesWritten === 0) break;
  }
  return parts.length === 0 ? null : { bytes: Buffer.concat(parts), end: Math.min(at, bytes.length) };
}

/** Where a gzip member's deflate stream starts: after the fixed ten bytes, and the extra field, name, comment and header check its flags say it has; null where the header runs past the bytes. */
function gzipBodyAt(b: Uint8Array, member: number): number | null {
  const flags = b[member + 3] as number;
  let at = member + 10;
  if (flags & 4) at += 2 + ((b[at] ?? 0) | ((b[at + 1] ?? 0) << 8));
  for (const bit of [8, 16]) {
    if (!(flags & bit)) continue;
    while (at < b.length && b[at] !== 0) at++;
    at++;
  }
  if (flags & 2) at += 2;
  return at < b.length ? at : null;
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

// Archives and compressed formats beside gzip and zlib. A zip (and what is built on one: a jar, a
// docx, a wheel) is opened entry by entry, stored or deflated, within the inflation bound; any other
// format Node 20 cannot undo (xz, bzip2, zstd, 7z, rar, lz4, lzip) is named, so that a file in one
// is refused as unchecked, never passed as bytes the check cannot read.

/** The formats named by their first bytes that the check cannot open. */
// Each magic in decimal: written in hex, the list read as one dump of bytes would start as xz's, and the check would refuse this file.
const SEALED: { name: string; magic: number[] }[] = [
  { name: "xz", magic: [253, 55, 122, 88, 90, 0] },
  { name: "bzip2", magic: [66, 90, 104] },
  { name: "zstd", magic: [40, 181, 47, 253] },
  { name: "7z", magic: [55, 122, 188, 175, 39, 28] },
  { name: "rar", magic: [82, 97, 114, 33, 26, 7] },
  { name: "lz4", magic: [4, 34, 77, 24] },
  { name: "lzip", magic: [76, 90, 73, 80] },
  // lzma(1)'s own format: its properties byte as every preset writes it, then a dictionary size (checked below).
  { name: "lzma", magic: [93, 0, 0] },
];

const startsWith = (b: Uint8Array, magic: number[]): boolean => b.length >= magic.length && magic.every((m, i) => b[i] === m);

/** The name of a compressed format the check cannot open, where the bytes start as one does (bzip2's "BZh" with its block size and block magic). */
export function sealedKind(b: Uint8Array): string | null {
  for (const s of SEALED) {
    if (!startsWith(b, s.magic)) continue;
    if (s.name === "bzip2" && !(b[3] !== undefined && b[3] >= 0x31 && b[3] <= 0x39 && startsWith(b.subarray(4), [0x31, 0x41, 0x59, 0x26, 0x53, 0x59]))) continue;
    if (s.name === "lzma" && !lzmaDictionary(b)) continue;
    return s.name;
  }
  return null;
}

/** An .lzma header's dictionary size: a power of two from 64 KiB to 1 GiB, as lzma(1) writes one, followed by the 8-byte size. */
function lzmaDictionary(b: Uint8Array): boolean {
  if (b.length < 13) return false;
  const size = Buffer.from(b.buffer, b.byteOffset, 13).readUInt32LE(1);
  return size >= 1 << 16 && size <= 1 << 30 && (size & (size - 1)) === 0;
}

/** Git's packed history: a pack, or a bundle (its header, then a pack); its objects are zlib streams and deltas the check does not read. */
const PACKED_HISTORY: { name: string; magic: Buffer }[] = [
  { name: "a git pack", magic: Buffer.from("PACK\0\0\0", "latin1") },
  { name: "a git bundle", magic: Buffer.from("# v2 git bundle\n", "latin1") },
  { name: "a git bundle", magic: Buffer.from("# v3 git bundle\n", "latin1") },
];

const GZIP_MAGIC = Buffer.from([0x1f, 0x8b, 0x08]);
/** More starts than this in one file cannot all be opened: the file cannot be shown free of a payload. */
export const MAX_EMBEDDED = 256;
/** A tar holds each member's bytes from a block of this size. */
const TAR_BLOCK = 512;

/** Something compressed or packed that stands inside a file rather than at its start (in a tar, after a prefix). */
export type Embedded = { kind: "gzip" | "zip" | "zlib"; at: number } | { kind: "sealed"; at: number; name: string };

/**
 * Every place after the first byte where a gzip stream or a zip entry starts (a self-extracting
 * zip or a log line puts bytes before one), and every tar member whose bytes start as any other
 * compressed format: a zlib stream, one the check cannot open, or git's packed history. A format's
 * magic elsewhere is a constant in a library that reads it, no archive. Places inside the file's
 * own gzip members (before `from`) are theirs. Null past MAX_EMBEDDED.
 */
export function embeddedStarts(bytes: Uint8Array, from = 1): Embedded[] | null {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: Embedded[] = [];
  for (let at = b.indexOf(GZIP_MAGIC, Math.max(from, 1)); at !== -1; at = b.indexOf(GZIP_MAGIC, at + 1)) if (gzipHeader(b, at)) out.push({ kind: "gzip", at });
  for (let at = b.indexOf(LOCAL_HEADER, Math.max(from, 1)); at !== -1; at = b.indexOf(LOCAL_HEADER, at + 1)) out.push({ kind: "zip", at });
  // A tar member's bytes start in the block after its header, which says "ustar" 257 bytes in.
  for (let header = 0; header + TAR_BLOCK < b.length; header += TAR_BLOCK) {
    const at = header + TAR_BLOCK;
    if (at < from || b.toString("latin1", header + 257, header + 262) !== "ustar") continue;
    const block = b.subarray(at);
    const sealed = sealedKind(block) ?? packedHistory(block);
    if (sealed !== null) out.push({ kind: "sealed", at, name: sealed.startsWith("a ") ? sealed : `${sealed}-compressed bytes` });
    else if (kindOf(block) === "zlib") out.push({ kind: "zlib", at });
  }
  return out.length > MAX_EMBEDDED ? null : out.sort((x, y) => x.at - y.at);
}

/** Whether a zlib stream may start at `at`: its header check holding, no preset dictionary, and a first block of a type deflate writes (a stored one's length checked). */
function zlibStartAt(b: Uint8Array, at: number): boolean {
  const [cmf, flg, block] = [b[at] as number, b[at + 1] as number, b[at + 2] as number];
  if ((cmf & 0x0f) !== 8 || cmf >> 4 > 7 || ((cmf << 8) | flg) % 31 !== 0 || (flg & 0x20) !== 0) return false;
  const type = (block >> 1) & 3;
  if (type === 3) return false;
  return type !== 0 || ((b[at + 3] as number) ^ (b[at + 5] as number)) + ((b[at + 4] as number) ^ (b[at + 6] as number)) === 0x1fe;
}

/**
 * Each place after the first byte where a gzip member (its magic and a writer's flags) or a zlib
 * stream may start, in order: a stream encoded on its own and glued to other bytes starts at a
 * multiple of `group` (base64's three), where a zlib header is looked for; a gzip member's magic
 * is rare enough among other bytes to be looked for anywhere.
 */
export function* compressedStarts(bytes: Uint8Array, group: number): Generator<number> {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = 1; at + 8 <= b.length; at++) {
    if (b[at] === 0x1f && b[at + 1] === 0x8b && b[at + 2] === 0x08 && at + 18 <= b.length && gzipHeader(b, at)) yield at;
    else if (at % group === 0 && zlibStartAt(b, at)) yield at;
  }
}

/** The methods zip writers use (stored, deflate, deflate64, bzip2, LZMA, zstd, xz, JPEG, WavPack, PPMd, AES). */
const ZIP_METHODS = new Set([0, 8, 9, 12, 14, 93, 95, 96, 97, 98, 99]);

/**
 * Whether a local header's fields read as a zip writer's: a version it needs, a method it knows, a
 * name of printable text, and data that fits the bytes (or a size written after it). A library that
 * reads zip holds the header's four bytes as a constant, with anything after them.
 */
function plausibleEntry(b: Buffer, at: number): boolean {
  const [version, flags, method, size, nameLength] = [u16(b, at + 4), u16(b, at + 6), u16(b, at + 8), u32(b, at + 18), u16(b, at + 26)];
  const start = at + 30 + nameLength + u16(b, at + 28);
  const name = b.subarray(at + 30, at + 30 + nameLength);
  const fits = size === 0 ? (flags & 8) !== 0 || start <= b.length : start + size <= b.length;
  return version <= 63 && ZIP_METHODS.has(method) && nameLength > 0 && nameLength <= 1024 && isUtf8(name) && !/[\x00-\x1f\x7f]/.test(name.toString("utf8")) && fits;
}

/** Whether a gzip header's flags and extra flags read as a gzip writer's (no reserved bit; XFL 0, 2 or 4): a magic met by chance in other bytes mostly does not. */
const gzipHeader = (b: Buffer, at: number): boolean => ((b[at + 3] ?? 255) & 224) === 0 && [0, 2, 4].includes(b[at + 8] ?? 255);

/** Git's packed history at the start of the bytes: its name, else null. */
export function packedHistory(b: Uint8Array): string | null {
  return PACKED_HISTORY.find((x) => startsWith(b, [...x.magic]))?.name ?? null;
}

/**
 * The entry of a zip whose local header stands at `at`, read from that header alone (a zip after
 * a prefix, or cut short, has no directory to trust): its name and bytes, stored or deflated; a
 * size of zero (written after the data) reads the deflated stream to its end. Null where no entry
 * can be read there.
 */
export function localEntry(bytes: Uint8Array, at: number, max = MAX_INFLATED): { name: string; bytes: Buffer } | { unchecked: string } | "too large" | null {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (at + 30 > b.length) return null;
  const [flags, method, size] = [u16(b, at + 6), u16(b, at + 8), u32(b, at + 18)];
  if (!plausibleEntry(b, at)) return null;
  if ((flags & 1) !== 0) return { unchecked: `a zip entry ${at} bytes into it is encrypted` };
  const start = at + 30 + u16(b, at + 26) + u16(b, at + 28);
  const name = b.subarray(at + 30, at + 30 + u16(b, at + 26)).toString("utf8");
  if (start > b.length) return null;
  const data = size === 0 ? b.subarray(start) : b.subarray(start, start + size);
  if (method === 0) return { name, bytes: data };
  if (method !== 8) return { unchecked: `a zip entry ${at} bytes into it is compressed by method ${method}, which the check does not read` };
  try {
    return { name, bytes: zlib().inflateRawSync(data, upTo(max)) };
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE" ? "too large" : null;
  }
}

/** Whether bytes are a zip archive: a local file header first, or an empty archive's end record. */
export function isZip(b: Uint8Array): boolean {
  return startsWith(b, [0x50, 0x4b, 0x03, 0x04]) || startsWith(b, [0x50, 0x4b, 0x05, 0x06]);
}

export type ZipEntries = { entries: { name: string; bytes: Buffer }[] } | { unchecked: string };

const LOCAL_HEADER = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const u16 = (b: Buffer, at: number): number => b.readUInt16LE(at);
const u32 = (b: Buffer, at: number): number => b.readUInt32LE(at);

/** Where the central directory's end record stands: searched back from the end, over a comment of up to 64 KiB. */
function endRecord(b: Buffer): number {
  for (let at = b.length - 22; at >= Math.max(0, b.length - 22 - 0xffff); at--) if (u32(b, at) === 0x06054b50) return at;
  return -1;
}

/**
 * Every entry of a zip archive, read through its central directory: stored or deflated, the whole
 * archive inflating to at most MAX_INFLATED bytes. An archive the check cannot read whole (zip64,
 * encrypted, another method, a directory that does not add up) is `unchecked`, with why.
 */
export function zipEntries(bytes: Uint8Array, max = MAX_INFLATED): ZipEntries {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = endRecord(b);
  if (end === -1) return { unchecked: "it is a zip archive whose directory cannot be found" };
  const count = u16(b, end + 10);
  let at = u32(b, end + 16);
  if (count === 0xffff || at === 0xffffffff) return { unchecked: "it is a zip64 archive, which the check does not read" };
  const entries: { name: string; bytes: Buffer }[] = [];
  const locals: number[] = [];
  let total = 0;
  for (let k = 0; k < count; k++) {
    if (at + 46 > b.length || u32(b, at) !== 0x02014b50) return { unchecked: "it is a zip archive whose directory does not add up" };
    const [flags, method, size, full] = [u16(b, at + 8), u16(b, at + 10), u32(b, at + 20), u32(b, at + 24)];
    const [nameLength, extraLength, commentLength, local] = [u16(b, at + 28), u16(b, at + 30), u16(b, at + 32), u32(b, at + 42)];
    const name = b.subarray(at + 46, at + 46 + nameLength).toString("utf8");
    at += 46 + nameLength + extraLength + commentLength;
    if ((flags & 1) !== 0) return { unchecked: `it is a zip archive with an encrypted entry` };
    if (local + 30 > b.length || u32(b, local) !== 0x04034b50) return { unchecked: "it is a zip archive whose directory does not add up" };
    locals.push(local);
    const start = local + 30 + u16(b, local + 26) + u16(b, local + 28);
    const data = b.subarray(start, start + size);
    total += full;
    if (total > max) return { unchecked: `it is a zip archive that inflates past ${max} bytes` };
    if (method === 0) entries.push({ name, bytes: data });
    else if (method === 8) {
      try {
        entries.push({ name, bytes: zlib().inflateRawSync(data, upTo(max - total + full)) });
      } catch {
        return { unchecked: `it is a zip archive with an entry that does not inflate within ${max} bytes` };
      }
    } else return { unchecked: `it is a zip archive with an entry compressed by method ${method}, which the check does not read` };
  }
  // A local header the directory does not list holds an entry some readers (a stream reader) still extract.
  const listed = new Set(locals);
  for (let at = b.indexOf(LOCAL_HEADER); at !== -1; at = b.indexOf(LOCAL_HEADER, at + 4)) {
    if (!listed.has(at)) return { unchecked: "it is a zip archive with an entry its directory does not list" };
  }
  return { entries };
}
