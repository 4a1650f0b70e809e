// How the names of the files a change brings are read for raw captures, by the gate's fast path
// and by the verify pass alike.
import { mayBeEncodedTail } from "./base64-tails.js";

/**
 * A name, and each tail of it after a slash that may be base64: read from the folders' start, base64
 * standing after them ("notes/eyJ…") is read from the wrong place, a slash being one of its characters.
 */
export function readingsOfName(name: string): string[] {
  const texts = [name];
  for (let i = name.indexOf("/"); i !== -1; i = name.indexOf("/", i + 1)) {
    const tail = name.slice(i + 1);
    if (mayBeEncodedTail(tail)) texts.push(tail);
  }
  return texts;
}
