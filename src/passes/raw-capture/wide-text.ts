// Text written two or four bytes a character (UTF-16, as Windows PowerShell 5 writes a redirect,
// and UTF-32), read as UTF-8 for the payload check: a file's bytes, or what an encoding in it spells.

/** UTF-32 text as UTF-8, through UTF-16: each four bytes one code point, one that is none read as U+FFFD. */
function utf32(body: Buffer, bigEndian: boolean): Buffer {
  const wide = Buffer.alloc(Math.floor(body.length / 4) * 4);
  let o = 0;
  for (let i = 0; i + 4 <= body.length; i += 4) {
    let cp = bigEndian ? body.readUInt32BE(i) : body.readUInt32LE(i);
    if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) cp = 0xfffd;
    if (cp < 0x10000) o = wide.writeUInt16LE(cp, o);
    else o = wide.writeUInt16LE(0xdc00 + ((cp - 0x10000) & 0x3ff), wide.writeUInt16LE(0xd800 + ((cp - 0x10000) >> 10), o));
  }
  return Buffer.from(wide.subarray(0, o).toString("utf16le"), "utf8");
}

/**
 * The bytes as UTF-8 where they may be UTF-16 text (as Windows PowerShell 5 writes a redirect) or
 * UTF-32: with a byte order mark, that reading alone; else, where a brace stands beside a zero
 * byte, both byte orders of UTF-16, and of UTF-32 where three zero bytes stand beside one. Empty
 * for any other bytes.
 */
export function utf16Readings(bytes: Uint8Array): Buffer[] {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const as = (body: Buffer, bigEndian: boolean): Buffer => {
    const even = Buffer.from(body.subarray(0, body.length - (body.length % 2)));
    return Buffer.from((bigEndian ? even.swap16() : even).toString("utf16le"), "utf8");
  };
  if (buf[0] === 0xff && buf[1] === 0xfe && buf[2] === 0 && buf[3] === 0) return [utf32(buf.subarray(4), false)];
  if (buf[0] === 0 && buf[1] === 0 && buf[2] === 0xfe && buf[3] === 0xff) return [utf32(buf.subarray(4), true)];
  if (buf[0] === 0xff && buf[1] === 0xfe) return [as(buf.subarray(2), false)];
  if (buf[0] === 0xfe && buf[1] === 0xff) return [as(buf.subarray(2), true)];
  if (!buf.includes(0x00) || !(buf.includes("{\0") || buf.includes("\0{"))) return [];
  const wide = buf.includes("{\0\0\0") || buf.includes("\0\0\0{") ? [utf32(buf, false), utf32(buf, true)] : [];
  return [as(buf, false), as(buf.subarray(1), false), as(buf, true), ...wide];
}
