// Base64 glued to a word before it: where a run of base64 characters may start again.

interface Run {
  start: number;
  end: number;
  body: string;
}

/** Encoded text has both cases; a run of one case is a word, a path or a hash in hex. */
export const bothCases = (body: string): boolean => /[a-z]/.test(body) && /[A-Z]/.test(body);

/** A tail this long, in both cases, may be base64 of a payload. */
const ENCODED_TAIL = 24;
export const mayBeEncodedTail = (body: string): boolean => body.length >= ENCODED_TAIL && bothCases(body);

/** How far into a run a word and a separator before base64 are looked for. */
const MAX_TAIL_START = 64;
const SEPARATOR = /[/+_-]/;
/** URL-safe base64 written in the standard alphabet. */
const urlSafeUndone = (body: string): string => body.replace(/-/g, "+").replace(/_/g, "/");

/**
 * The tails of a run after a separator near its start, where they may be base64 of text of their
 * own: a URL's path or a name glues a word to the base64 (raw/eyJ…, id-eyJ…), and read from the
 * word's start it decodes out of step. A tail whose first characters decode to no text is not one,
 * so a long run of base64 is decoded again only where a tail starts as text.
 */
export function tailsOf(run: Run): Run[] {
  const tails: Run[] = [];
  for (let i = 0; i < Math.min(MAX_TAIL_START, run.body.length); i++) {
    if (!SEPARATOR.test(run.body.charAt(i))) continue;
    const body = run.body.slice(i + 1);
    if (mayBeEncodedTail(body) && startsAsText(body)) tails.push({ start: run.start + i + 1, end: run.end, body });
  }
  return tails;
}

/** Whether the first six bytes a base64 text spells are printable ASCII or white space, where text such as JSON starts. */
function startsAsText(body: string): boolean {
  const head = Buffer.from(urlSafeUndone(body.slice(0, 8)), "base64");
  return head.length === 6 && head.every((c) => (c >= 0x20 && c < 0x7f) || c === 0x09 || c === 0x0a || c === 0x0d);
}
