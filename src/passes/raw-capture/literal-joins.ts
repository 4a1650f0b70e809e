import { applyEdits, derived, type Edit, type Reading } from "./decodings.js";
import { escapeAt } from "./literal.js";

// A text code cuts into string literals, read whole: a payload pasted into a test over many lines,
// each line a literal and a plus sign (or PHP's dot, Lua's two, SQL's bars, or nothing between
// them, as Python and C join literals that stand side by side).

/**
 * The end of one string literal and the start of the next, as code cuts a long text into literals:
 * what joins them (`+`, PHP's `.`, Lua's `..`, `&`, SQL's `||`, or nothing but blanks, as Python
 * and C join adjacent literals), with blanks and line breaks (a line's continuation too) around it.
 */
const LITERALS_JOINED = /["'`][ \t]*(?:(?:\+|\.\.?|&|\|\|)[ \t]*)?(?:\\?\r?\n[ \t]*(?:(?:\+|\.\.?|&|\|\|)[ \t]*)?)*["'`]/g;

/** Where a literal whose quote stands at `at` starts (searching back) or ends (forward): the same quote, not escaped, on the same line; -1 where there is none. */
function literalQuote(text: string, at: number, step: 1 | -1): number {
  const quote = text.charCodeAt(at);
  for (let i = at + step; i >= 0 && i < text.length; i += step) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) return -1;
    if (c !== quote) continue;
    let backslashes = 0;
    for (let k = i - 1; k >= 0 && text.charCodeAt(k) === 0x5c; k--) backslashes++;
    if (backslashes % 2 === 0) return i;
  }
  return -1;
}

/** The edits that read a literal's content (from `start` to `end`) as the string it spells: each escape undone as the literal reader undoes it. */
function literalValue(text: string, start: number, end: number, edits: Edit[]): void {
  for (let at = text.indexOf("\\", start); at !== -1 && at < end - 1; ) {
    const escape = escapeAt(text, at);
    edits.push({ start: at, end: at + escape.length, with: escape.decoded });
    at = text.indexOf("\\", at + escape.length);
  }
}

/**
 * Literals that code joins, read as the one string each chain of them spells (each literal's
 * escapes undone), chain after chain on lines of their own; what stands between chains is code, left
 * out. A payload pasted into a test cut over lines, a literal and a plus sign on each, a member's
 * name cut in two too. Two quotes side by side (an empty string, or a string's own closing quote
 * before its literal's) join nothing.
 */
export function literalsJoined(r: Reading): Reading | null {
  const { text } = r;
  if (!/["'`][ \t]*(?:[+.&|\r\n\\]|["'`])/.test(text)) return null;
  // Each chain as the contents of its literals, from the opening quote's next character to the closing quote.
  const chains: [number, number][][] = [];
  let chainEnd = -1;
  LITERALS_JOINED.lastIndex = 0;
  for (let m = LITERALS_JOINED.exec(text); m !== null; m = LITERALS_JOINED.exec(text)) {
    const [close, open] = [m.index, m.index + m[0].length - 1];
    if (open - close < 2) {
      LITERALS_JOINED.lastIndex = m.index + 1;
      continue;
    }
    // A join at the end of the chain's last literal goes on with it; any other starts a chain of its own.
    if (close !== chainEnd) {
      const first = literalQuote(text, close, -1);
      if (first === -1 || first < chainEnd) continue;
      chains.push([[first + 1, close]]);
    }
    const chain = chains[chains.length - 1] as [number, number][];
    chainEnd = literalQuote(text, open, 1);
    // A literal that does not close on its line ends its chain there; a chain of one literal joins nothing.
    if (chainEnd !== -1) chain.push([open + 1, chainEnd]);
    else if (chain.length === 1) chains.pop();
  }
  if (chains.length === 0) return null;
  const edits: Edit[] = [];
  let from = 0;
  for (const chain of chains) {
    for (const [start, end] of chain) {
      edits.push({ start: from, end: start, with: from === 0 || chain[0]?.[0] !== start ? "" : "\n" });
      literalValue(text, start, end, edits);
      from = end;
    }
  }
  edits.push({ start: from, end: text.length, with: "" });
  return derived(r, applyEdits(text, edits.filter((e) => e.end > e.start || e.with !== "")), "string literals joined");
}
