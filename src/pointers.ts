import { pointerTokens } from "./json/reader.js";

// Pointer patterns in rules: RFC 6901 pointers where a token `*` stands for one member name or
// array index and `**` for any number of them (zero included).

export type PointerPattern = string[];

const compiledPatterns = new Map<string, PointerPattern>();

export function compilePattern(pattern: string): PointerPattern {
  let tokens = compiledPatterns.get(pattern);
  if (!tokens) {
    tokens = pointerTokens(pattern);
    compiledPatterns.set(pattern, tokens);
  }
  return tokens;
}

function matchFrom(pattern: PointerPattern, pi: number, tokens: readonly string[], ti: number): boolean {
  while (pi < pattern.length) {
    const p = pattern[pi];
    if (p === "**") {
      // A trailing `**` stands for what is under a value, so it needs at least one token.
      if (pi === pattern.length - 1) return ti < tokens.length;
      for (let k = ti; k <= tokens.length; k++) {
        if (matchFrom(pattern, pi + 1, tokens, k)) return true;
      }
      return false;
    }
    if (ti >= tokens.length) return false;
    if (p !== "*" && p !== tokens[ti]) return false;
    pi++;
    ti++;
  }
  return ti === tokens.length;
}

/** True when the concrete pointer (already split into tokens) matches the pattern. */
export function matchesPattern(pattern: string, tokens: readonly string[]): boolean {
  return matchFrom(compilePattern(pattern), 0, tokens, 0);
}

/** Every concrete pointer (as tokens) under `root` that matches a pattern, with its value. */
export function findMatches(root: unknown, pattern: string): { tokens: string[]; value: unknown }[] {
  const compiled = compilePattern(pattern);
  const out: { tokens: string[]; value: unknown }[] = [];
  const walk = (node: unknown, pi: number, path: string[]): void => {
    if (pi === compiled.length) {
      out.push({ tokens: path, value: node });
      return;
    }
    if (node === null || typeof node !== "object") return;
    const p = compiled[pi] as string;
    const children: [string, unknown][] = Array.isArray(node)
      ? node.map((v, i) => [String(i), v])
      : Object.entries(node as Record<string, unknown>);
    if (p === "**") {
      // zero segments (not for a trailing `**`, which needs one), or one segment and stay on `**`
      if (pi < compiled.length - 1) walk(node, pi + 1, path);
      for (const [k, v] of children) walk(v, pi, [...path, k]);
      return;
    }
    for (const [k, v] of children) {
      if (p === "*" || p === k) walk(v, pi + 1, [...path, k]);
    }
  };
  walk(root, 0, []);
  // `**` may reach the same place twice; keep each pointer once.
  const seen = new Set<string>();
  return out.filter((m) => {
    const key = m.tokens.join("\u0000");
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
