// How a checkout compares names where the file system does not tell spellings apart: letter case
// (macOS, Windows), code points HFS+ ignores and composed against decomposed letters (macOS),
// dots and spaces at the end of a name (Windows). Two paths that fold alike land in one place.
//
// Letter case is folded as those file systems fold it, not only as lower case does: APFS folds by
// Unicode case folding, where a long s (ſ) is an s and a ligature (ﬁ) its letters; NTFS compares
// upper case, where a dotless ı is an I and a long s an S; a Kelvin sign is a k. Upper case first
// and lower case after gives each of these its plain letters, so `fixtureſ/` or `ﬁxtures/` is
// known for the place it lands in. Folding more than a file system does only refuses more.

const IGNORED = /[\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff]/g;

const ASCII = /^[\x00-\x7f]*$/;

export function foldedPath(p: string): string {
  // An ASCII path folds to its lower case, once each name's trailing dots and spaces are gone: the long way gives the same.
  if (ASCII.test(p)) return p.replace(/[. ]+(?=\/|$)/g, "").toLowerCase();
  return p
    .normalize("NFC")
    .replace(IGNORED, "")
    .split("/")
    .map((segment) => segment.replace(/[. ]+$/, ""))
    .join("/")
    .toUpperCase()
    .toLowerCase()
    .normalize("NFC");
}
