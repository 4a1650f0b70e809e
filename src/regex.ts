/** Text made literal inside a regular expression (valid in Unicode mode too: "-" is left as is). */
export function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
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
