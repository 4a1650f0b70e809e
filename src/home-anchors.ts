import { MAY_HOLD_ESCAPE } from "./home-escapes.js";
import { escapeRegex } from "./regex.js";
import type { HomeRules } from "./types.js";

// The folders a host keeps in its user's home and nowhere else (rules/homes.json `anchors`):
// Claude Code's transcripts under `<home>/.claude/projects/`, Codex's under `<home>/.codex/sessions/`.
// The segment right before one is that home's owner, under whatever root the home stands, a root
// the rules list or not (`/afs/<cell>/user/a/<owner>`, a NAS's own mount). The owners found here are
// learned, so that a file keeping one is refused; the home itself is replaced by the roots' rules.

interface AnchorPatterns {
  /** The folders' first segments: a text without one (and without an escape) names no anchor. */
  words: RegExp;
  /** An anchor folder after a separator, standing whole (a separator, the end, or a character no name holds after it). */
  folder: RegExp;
}

const compiled = new WeakMap<HomeRules, AnchorPatterns | null>();

const SEPARATOR = "[/\\\\]";

function anchorPatterns(rules: HomeRules): AnchorPatterns | null {
  let p = compiled.get(rules);
  if (p !== undefined) return p;
  const folders = rules.anchors?.folders ?? [];
  p =
    folders.length === 0
      ? null
      : {
          words: new RegExp([...new Set(folders.map((f) => escapeRegex(f.split("/")[0] as string)))].join("|"), "i"),
          folder: new RegExp(`${SEPARATOR}(?:${folders.map((f) => f.split("/").map(escapeRegex).join(SEPARATOR)).join("|")})(?![A-Za-z0-9._-])`, "gi"),
        };
  compiled.set(rules, p);
  return p;
}

/** An owner an anchor folder names: the segment, where it starts, and where the path holding it starts. */
export interface AnchoredOwner {
  owner: string;
  start: number;
  path: number;
  /** The folder is one a person may keep in a repository inside a home too (`inRepositories`): inside a home the roots know, the segment is that home's folder. */
  inRepository: boolean;
}

/** Whether a string may name an anchor folder, read before its readings are taken: one of their words, or an escape that may spell one. */
export function mayHoldAnchor(rules: HomeRules, text: string): boolean {
  const p = anchorPatterns(rules);
  return p !== null && (p.words.test(text) || MAY_HOLD_ESCAPE.test(text));
}

/** Where the path holding `at` begins: after a space, a quote, `=` or another character a path written in text does not hold, and after `file://`. */
function pathStart(text: string, at: number): number {
  let start = at;
  while (start > 0 && !/[\s"'`=,;()<>|]/.test(text[start - 1] as string)) start--;
  const url = /^file:\/\/(?:localhost)?/i.exec(text.slice(start, at));
  return url ? start + url[0].length : start;
}

/** Whether the path before a home's owner starts under a folder no person's home stands under (a sandbox's throwaway home in /tmp). */
function underTemporary(rules: HomeRules, parent: string): boolean {
  const slashed = parent.replace(/\\/g, "/");
  return (rules.anchors?.notUnder ?? []).some((f) => slashed.startsWith(`${f}/`));
}

/**
 * The segment before each anchor folder a text names, where a separator stands before that segment
 * too (a relative `ana/.claude/projects` names no home it can place), the path does not start
 * under a temporary folder, and the segment is not one of the anchors' notOwners (`root`); an
 * empty segment is none. Whether a segment is an owner (not the placeholder, not `~` or a
 * variable), and whether a home the roots know stands before it in its path (a dotfiles
 * repository in a home, where the folder is one kept in repositories too), is the caller's to judge.
 */
export function anchoredOwners(rules: HomeRules, text: string): AnchoredOwner[] {
  const p = anchorPatterns(rules);
  if (p === null) return [];
  const nobody = new Set((rules.anchors?.notOwners ?? []).map((n) => n.toLowerCase()));
  const inRepositories = new Set((rules.anchors?.inRepositories ?? []).map((f) => f.toLowerCase()));
  const out: AnchoredOwner[] = [];
  p.folder.lastIndex = 0;
  for (let m = p.folder.exec(text); m !== null; m = p.folder.exec(text)) {
    let start = m.index;
    while (start > 0 && text[start - 1] !== "/" && text[start - 1] !== "\\") start--;
    if (start === 0 || start === m.index) continue;
    const owner = text.slice(start, m.index);
    // A reading that undid an escape a Windows path writes as a separator and a letter ("\thessaly"
    // read as a tab and "hessaly") runs two folders into one: a segment holding a control character is no folder's name.
    if (/[\x00-\x1f\x7f]/.test(owner)) continue;
    const path = pathStart(text, start);
    if (nobody.has(owner.toLowerCase()) || underTemporary(rules, text.slice(path, start))) continue;
    out.push({ owner, start, path, inRepository: inRepositories.has(m[0].slice(1).replace(/\\/g, "/").toLowerCase()) });
  }
  return out;
}
