/** Text made literal inside a regular expression (valid in Unicode mode too: "-" is left as is). */
export function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/**
 * Every match of a global pattern in a text, as matchAll gives them, without the copy of the
 * pattern matchAll makes at each call: the scan's rules read every string of a file, thousands a scan.
 * The pattern is global and read by nothing else meanwhile; its lastIndex is 0 again after, however
 * the walk ends.
 */
export function* eachMatch(pattern: RegExp, text: string): Generator<RegExpExecArray> {
  pattern.lastIndex = 0;
  try {
    for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
      const at = pattern.lastIndex;
      yield m;
      // An empty match moves on one character (a code point where the pattern reads them), as matchAll does.
      pattern.lastIndex = m[0] === "" ? at + ((pattern.unicode || pattern.flags.includes("v")) && (text.codePointAt(at) ?? 0) > 0xffff ? 2 : 1) : at;
    }
  } finally {
    // Also where the caller stops early or throws.
    pattern.lastIndex = 0;
  }
}

interface WordNode {
  next: Map<string, WordNode>;
  ends: boolean;
}

/**
 * Literal words as one alternation shaped as a tree of their letters ("a(?:kia|sia)|s(?:g\.|ecret)"),
 * which a regular expression tries letter by letter at each place instead of word by word. It
 * matches where any of the words begins.
 */
export function wordsPattern(words: Iterable<string>): string {
  const root: WordNode = { next: new Map(), ends: false };
  for (const word of words) {
    let node = root;
    for (const c of word) {
      let child = node.next.get(c);
      if (!child) node.next.set(c, (child = { next: new Map(), ends: false }));
      node = child;
    }
    node.ends = true;
  }
  const source = (node: WordNode): string => {
    const parts = [...node.next].map(([c, child]) => escapeRegex(c) + source(child));
    if (parts.length === 0) return "";
    const body = parts.length === 1 ? (parts[0] as string) : `(?:${parts.join("|")})`;
    return node.ends ? `(?:${body})?` : body;
  };
  return root.ends ? "" : source(root);
}

/**
 * The words of a list that stand in a text, each place a word may begin read, so that words that
 * overlap ("a3t" in "a3t3blbkfj") are all found: one pass of a letter-tree pattern, then only the
 * words that begin with the letter found.
 */
export class WordFinder {
  private readonly pattern: RegExp;
  private readonly byFirst = new Map<string, string[]>();
  /** The words, each once. */
  readonly words: readonly string[];

  constructor(words: Iterable<string>) {
    const listed = [...new Set(words)];
    this.words = listed;
    this.pattern = new RegExp(listed.length === 0 ? "(?!)" : wordsPattern(listed), "g");
    for (const w of listed) this.byFirst.set(w.charAt(0), [...(this.byFirst.get(w.charAt(0)) ?? []), w]);
  }

  in(text: string): Set<string> {
    const found = new Set<string>();
    const re = this.pattern;
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      for (const w of this.byFirst.get(text.charAt(m.index)) ?? []) if (text.startsWith(w, m.index)) found.add(w);
      re.lastIndex = m.index + 1;
    }
    return found;
  }
}
