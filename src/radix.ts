// Bytes written in base32 and Ascii85, found in a text and read back, and bytes written in base32
// (a taught name's encoded spellings, homes.ts): base32 as RFC 4648 writes it
// (upper or lower case, padded with '=' or not, wrapped over lines as base32(1) wraps it), and
// Ascii85 between Adobe's <~ and ~> (as Python's a85encode(adobe=True) and PostScript write it). A
// run is read from its first character: what it spells, if text, is the payload check's to read
// (decodings.ts), as for base64. Base85 with no delimiters (Python's b85, Z85) is not looked for: its
// alphabets hold most of the characters of code, whose every long token would be a run to decode.

/** Characters of a base32 run before it may hold a payload (twenty bytes): no payload is shorter. */
const MIN_BASE32 = 32;
/** A base32 line this long or longer may go on at the next line (base32(1) wraps at 76). */
const MIN_WRAPPED_LINE = 40;

/**
 * A run of base32 characters of either case at least MIN_BASE32 long, from its first character (the
 * look-behind keeps the search linear); base32Runs keeps those of one case. An '=' before it is no
 * base32 character: an assignment's ("PAYLOAD=<run>", "?d=<run>") or the padding of a run before it.
 */
const BASE32_RUN = new RegExp(`(?<![A-Za-z0-9+/_-])[A-Za-z2-7]{${MIN_BASE32}}`, "g");

const isUpper32 = (c: number): boolean => (c >= 0x41 && c <= 0x5a) || (c >= 0x32 && c <= 0x37);
const isLower32 = (c: number): boolean => (c >= 0x61 && c <= 0x7a) || (c >= 0x32 && c <= 0x37);

/** Where the run of base32 characters (of the case `is` says) from `i` ends, its padding included. A loop: a run megabytes long would overflow a pattern's stack. */
function base32End(text: string, i: number, is: (c: number) => boolean): number {
  let k = i;
  while (is(text.charCodeAt(k))) k++;
  while (text.charCodeAt(k) === 0x3d) k++;
  return k;
}

/** A base32 run wrapped over lines (a full line long enough and not padded, a line break, the next line of it): where it ends, and its characters. */
function wrapped32(text: string, start: number, end: number, is: (c: number) => boolean): { end: number; body: string } {
  const pieces = [text.slice(start, end)];
  let at = end;
  while (at - start >= MIN_WRAPPED_LINE && text.charCodeAt(at - 1) !== 0x3d) {
    let next = at + (text.charCodeAt(at) === 0x0d ? 1 : 0);
    if (text.charCodeAt(next) !== 0x0a) break;
    next++;
    const lineEnd = base32End(text, next, is);
    if (lineEnd === next) break;
    pieces.push(text.slice(next, lineEnd));
    start = next;
    at = lineEnd;
  }
  return { end: at, body: pieces.join("") };
}

/** Each run of base32 characters long enough to hold a payload, as its start and characters (a wrapped run's lines joined, its padding dropped). One native search for where runs start. */
export function base32Runs(text: string): { start: number; body: string }[] {
  const runs: { start: number; body: string }[] = [];
  BASE32_RUN.lastIndex = 0;
  for (let m = BASE32_RUN.exec(text); m !== null; m = BASE32_RUN.exec(text)) {
    const is = m[0] !== m[0].toLowerCase() ? isUpper32 : isLower32;
    if (!is(m[0].charCodeAt(0)) || base32End(m[0], 0, is) < MIN_BASE32) continue;
    const run = wrapped32(text, m.index, base32End(text, m.index + m[0].length, is), is);
    BASE32_RUN.lastIndex = run.end;
    // A word's letters or a name's are not base32: encoded text has digits among its letters.
    if (/[2-7]/.test(run.body)) runs.push({ start: m.index, body: run.body.replace(/=+/g, "") });
  }
  return runs;
}

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** Bytes in base32 (RFC 4648), in capitals, without padding. */
export function base32Of(bytes: Buffer): string {
  let out = "";
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    for (; bits >= 5; bits -= 5) out += BASE32[(value >>> (bits - 5)) & 31];
    value &= (1 << bits) - 1;
  }
  return bits > 0 ? out + BASE32[(value << (5 - bits)) & 31] : out;
}

/** The bytes a run of base32 characters (either case) spells; a last group cut short gives the whole bytes it holds. */
export function base32Bytes(body: string): Buffer {
  const out = Buffer.alloc(Math.floor((body.length * 5) / 8));
  let bits = 0;
  let value = 0;
  let o = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i) | 0x20;
    value = ((value << 5) | (c >= 0x61 ? c - 0x61 : c - 0x32 + 26)) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (value >> bits) & 0xff;
    }
  }
  return out;
}

const isWhite = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/**
 * The bytes Ascii85 from `from` to `to` spells (read in place: a block need not be copied out to be refused), five digits ('!' to 'u') to four bytes, a last group cut short padded
 * with the highest digit (as a85encode pads it); `z` is four zero bytes and white space is skipped.
 * Null where a character is not a digit or a group overflows.
 */
function ascii85Bytes(text: string, from: number, to: number): Buffer | null {
  const out: number[] = [];
  let group = 0;
  let n = 0;
  const flush = (take: number): boolean => {
    if (group > 0xffffffff) return false;
    out.push(group >>> 24, (group >>> 16) & 0xff, (group >>> 8) & 0xff, group & 0xff);
    out.length -= 4 - take;
    group = 0;
    n = 0;
    return true;
  };
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (isWhite(c)) continue;
    if (c === 0x7a && n === 0) {
      out.push(0, 0, 0, 0);
      continue;
    }
    if (c < 0x21 || c > 0x75) return null;
    group = group * 85 + (c - 0x21);
    if (++n === 5 && !flush(4)) return null;
  }
  // One digit left over spells no byte.
  if (n === 1) return null;
  const take = n - 1;
  for (; n > 1 && n < 5; n++) group = group * 85 + 84;
  return take > 0 && !flush(take) ? null : Buffer.from(out);
}

/** Each Ascii85 block between Adobe's <~ and ~>, as its start and the bytes it spells; a block that spells none is left out. */
export function ascii85Blocks(text: string): { start: number; bytes: Buffer }[] {
  const blocks: { start: number; bytes: Buffer }[] = [];
  let end = -1;
  for (let at = text.indexOf("<~"); at !== -1; at = text.indexOf("<~", at + 2)) {
    // The first ~> after a <~ is searched for once for all the <~ before it, not once for each.
    if (end < at + 2) end = text.indexOf("~>", at + 2);
    if (end === -1) break;
    // A character that is no digit (another <~ among them) ends the reading: each is read once or twice.
    const bytes = ascii85Bytes(text, at + 2, end);
    if (bytes !== null && bytes.length > 0) blocks.push({ start: at, bytes });
  }
  return blocks;
}
