import { createReadStream, type ReadStream } from "node:fs";
import { sha256Hash } from "../digest.js";

/** SHA-256 and size of what a stream reads, chunk by chunk, so a large binary is never held whole. */
export async function digestStream(stream: ReadStream): Promise<{ sha256: string; bytes: number }> {
  const hash = sha256Hash();
  let bytes = 0;
  for await (const chunk of stream) {
    hash.update(chunk as Uint8Array);
    bytes += (chunk as Uint8Array).length;
  }
  return { sha256: hash.digest("hex"), bytes };
}

/** SHA-256 and size of a file, streamed. */
export function digestFile(file: string): Promise<{ sha256: string; bytes: number }> {
  return digestStream(createReadStream(file, { highWaterMark: 1 << 20 }));
}
