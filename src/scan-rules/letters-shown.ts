import { LOOK_ALIKES, OTHER_SCRIPT_LOOK_ALIKES, shownAs } from "../home-shown.js";
import { SHOWS_NOTHING_CLASS } from "./char-escapes.js";
import { ReadingBuilder, type Reading } from "./reading-builder.js";

// A key written in letters that show as ASCII ones: full-width or mathematics' styled forms
// ("ＡＫＩＡ…", "𝗀𝗁𝗉_…"), letters of other shapes or scripts drawn as Latin ones (a Cyrillic "р"
// in "ghр_…"), marks and what shows nothing among them. A person copying it from a screen reads the
// key; the reading spells it as ASCII, each character at the place of the one it stands for.

const ABOVE_ASCII = /[^\x00-\x7f]/u;
const ABOVE_ASCII_G = /[^\x00-\x7f]/gu;
const PRINTABLE = /^[\x21-\x7e]+$/;
/** What the scan reads as showing nothing (char-escapes.ts), and a mark standing alone. */
const SHOWS_NOTHING = new RegExp(`^(?:\\p{M}|${SHOWS_NOTHING_CLASS})$`, "u");

/**
 * The ASCII one character above ASCII shows as, or null: its compatibility form (full-width,
 * styled), a look-alike's letter, or a drawn separator or dash. A letter with a mark ("é") is a
 * letter of its own language, no key's: left as it stands.
 */
function asAscii(c: string): string | null {
  // A look-alike first: a letter in parentheses ("\u249c") shows as the letter, though its compatibility form is "(a)".
  const alike = OTHER_SCRIPT_LOOK_ALIKES.get(c) ?? LOOK_ALIKES.get(c);
  if (alike !== undefined) return alike;
  const compatible = c.normalize("NFKC");
  if (PRINTABLE.test(compatible)) return compatible;
  const shown = c.normalize("NFD") === c ? shownAs(c) : c;
  return PRINTABLE.test(shown) ? shown : null;
}

/** The reading with every character above ASCII that shows as ASCII written so, and what shows nothing among them left out; null where none shows as ASCII. */
export function lettersShown(r: Reading): Reading | null {
  if (!ABOVE_ASCII.test(r.text)) return null;
  const out = new ReadingBuilder(r);
  let from = 0;
  let changed = false;
  for (const m of r.text.matchAll(ABOVE_ASCII_G)) {
    const shown = SHOWS_NOTHING.test(m[0]) ? "" : asAscii(m[0]);
    if (shown === null) continue;
    out.copy(from, m.index);
    out.put(shown, m.index);
    from = m.index + m[0].length;
    changed ||= shown !== "";
  }
  if (!changed) return null;
  out.copy(from, r.text.length);
  return out.finish();
}

/** What stands between the characters of a key spelt out: a tab, any space (an em space, an ideographic one, a no-break one), a braille blank. */
const BLANK = String.raw`\t\p{Zs}\u2800`;
/**
 * Sixteen characters or more, each alone between blanks, as many as may stand between each two: a
 * key spelt out character by character ("A K I A …", "A\u3000K…"), in a path or a line. A letter
 * glued to either end (x"A K I …") stays glued to it in the reading.
 */
const SPACED_OUT = new RegExp(String.raw`[^\s${BLANK}](?:[${BLANK}]+[^\s${BLANK}]){15,}`, "gu");
const SPACED_OUT_TEST = new RegExp(SPACED_OUT.source, "u");
const IS_BLANK = new RegExp(`[${BLANK}]`, "u");

/** The reading with each run of characters standing alone between blanks written together; null where none stands. */
export function spacedOut(r: Reading): Reading | null {
  if (!SPACED_OUT_TEST.test(r.text)) return null;
  const out = new ReadingBuilder(r);
  let from = 0;
  for (const m of r.text.matchAll(SPACED_OUT)) {
    out.copy(from, m.index);
    for (let k = m.index; k < m.index + m[0].length; k++) if (!IS_BLANK.test(r.text.charAt(k))) out.copy(k, k + 1);
    from = m.index + m[0].length;
  }
  out.copy(from, r.text.length);
  return out.finish();
}
