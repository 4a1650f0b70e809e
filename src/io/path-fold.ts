// How a checkout compares names where the file system does not tell spellings apart: letter case
// (macOS, Windows), code points HFS+ ignores and composed against decomposed letters (macOS),
// dots and spaces at the end of a name (Windows). Two paths that fold alike land in one place.

const IGNORED = /[\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff]/g;

export function foldedPath(p: string): string {
  return p
    .normalize("NFC")
    .replace(IGNORED, "")
    .split("/")
    .map((segment) => segment.replace(/[. ]+$/, ""))
    .join("/")
    .toLowerCase();
}
