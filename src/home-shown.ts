import { INVISIBLE, type TextEscapeReading } from "./home-escapes.js";
import { CONFUSABLE_LATIN, CONFUSABLE_OTHER_SCRIPTS } from "./look-alike-table.js";

// A text as it shows, for reading a home in it: what shows nothing is left out (an invisible unit,
// a combining mark, a control above ASCII), and a character drawn as a separator, a tilde, a dash, a colon or a
// Latin letter reads as that one ("\u2215home\u2215<name>" is "/home/<name>", "\uff48\uff4f\uff4d\uff45" and
// "\u04bb\u043eme" are "home"). Each unit of the reading keeps the range of the input it came from,
// so that an owner read in it is replaced whole. Only read, never written.

// Letters Unicode does not decompose that read as a plain one: a dotless i, a barred, stroked,
// hooked or belted letter, a ligature, the Latin letters of other shapes.
export const LOOK_ALIKES = new Map(
  Object.entries({
    // Unicode's confusables that are Latin or common characters, before the shapes below.
    ...CONFUSABLE_LATIN,
    ...{ ı: "i", ȷ: "j", ł: "l", Ł: "L", ø: "o", Ø: "O", đ: "d", Đ: "D", ħ: "h", Ħ: "H", ŧ: "t", Ŧ: "T", ƀ: "b", ɨ: "i", ʉ: "u", ɫ: "l", ɬ: "l", ɭ: "l", ƚ: "l", ᴌ: "l", ɵ: "o", Ɵ: "O", ƶ: "z", Ƶ: "Z", ɀ: "z", ǥ: "g", Ǥ: "G", ð: "d", Ð: "D", ɇ: "e", Ɇ: "E", ⱥ: "a", Ⱥ: "A" },
    ...{ ß: "ss", ẞ: "SS", æ: "ae", Æ: "AE", œ: "oe", Œ: "OE", ɑ: "a", ɡ: "g", ɩ: "i", ɛ: "e", Ɛ: "E", ɜ: "e", ʏ: "y", ʀ: "r", ɪ: "i", ɴ: "n", ʙ: "b", ʜ: "h", ʟ: "l", ᴅ: "d", ᴇ: "e", ᴋ: "k", ᴍ: "m", ᴏ: "o", ᴘ: "p", ᴛ: "t", ᴜ: "u", ᴠ: "v", ᴡ: "w", ᴢ: "z", ꜱ: "s" },
    ...{ ᴀ: "a", ᴄ: "c", ᴊ: "j", ꜰ: "f", ɢ: "g", ꞯ: "q" },
    // Letters with a hook, a tail, a curl, a stroke or a descender that Unicode neither decomposes nor lists as confusable.
    ...{ ɓ: "b", ƃ: "b", ƈ: "c", ȼ: "c", ɕ: "c", ɖ: "d", ɗ: "d", ƌ: "d", ȡ: "d", ƒ: "f", ɠ: "g", ɦ: "h", ⱨ: "h", ɟ: "j", ʄ: "j", ʝ: "j", ɉ: "j" },
    ...{ ƙ: "k", ⱪ: "k", ꝁ: "k", ꝃ: "k", ꞣ: "k", ĸ: "k", ȴ: "l", ꝉ: "l", ɱ: "m", ɲ: "n", ɳ: "n", ȵ: "n", ƞ: "n", ꞥ: "n", ƥ: "p", ᵽ: "p", ꝑ: "p" },
    ...{ ʠ: "q", ɋ: "q", ꝗ: "q", ɍ: "r", ɽ: "r", ɼ: "r", ʂ: "s", ȿ: "s", ƫ: "t", ƭ: "t", ʈ: "t", ȶ: "t", ʋ: "v", ⱱ: "v", ƴ: "y", ɏ: "y", ȥ: "z", ʐ: "z", ʑ: "z", ⱬ: "z" },
    // The phonetic letters with a palatal or retroflex hook, a middle tilde or a bar, and Latin Extended-D's with a bar, a stroke or a flourish.
    ...{ ᶀ: "b", ᶁ: "d", ᶂ: "f", ᶄ: "k", ᶅ: "l", ᶆ: "m", ᶇ: "n", ᶈ: "p", ᶉ: "r", ᶊ: "s", ᶌ: "v", ᶍ: "x", ᶎ: "z", ᶏ: "a", ᶐ: "a", ᶑ: "d", ᶒ: "e", ᶓ: "e", ᶖ: "i", ᶗ: "o", ᶙ: "u" },
    ...{ ᵬ: "b", ᵭ: "d", ᵮ: "f", ᵯ: "m", ᵰ: "n", ᵱ: "p", ᵲ: "r", ᵳ: "r", ᵴ: "s", ᵵ: "t", ᵶ: "z", ᵻ: "i", ᵾ: "U", ɾ: "r", ɿ: "r", ʗ: "c", ꞓ: "c", Ꞓ: "C", ꞔ: "c", ꞕ: "h", ꞗ: "b", Ꞗ: "B", ꞡ: "g", Ꞡ: "G", ꞧ: "r", Ꞧ: "R", ꞩ: "s", Ꞩ: "S", Ꞣ: "K", Ꞥ: "N" },
    ...{ Ɓ: "B", Ƈ: "C", Ȼ: "C", Ɗ: "D", Ƒ: "F", Ɠ: "G", Ɦ: "H", Ⱨ: "H", Ɉ: "J", Ƙ: "K", Ⱪ: "K", Ꝁ: "K", Ɱ: "M", Ɲ: "N", Ƥ: "P", Ɋ: "Q", Ɍ: "R", Ɽ: "R", Ƭ: "T", Ʈ: "T", Ʋ: "V", Ƴ: "Y", Ɏ: "Y", Ȥ: "Z", Ⱬ: "Z" },
    // Coptic's o and Lisu's letters, drawn after Latin capitals, in whatever word.
    ...{ ⲟ: "o", Ⲟ: "O", ꓜ: "Z", ꓳ: "O", ꓰ: "E", ꓡ: "L", ꓮ: "A", ꓐ: "B", ꓚ: "C", ꓓ: "D", ꓝ: "F", ꓖ: "G", ꓧ: "H", ꓲ: "I", ꓙ: "J", ꓗ: "K", ꓟ: "M", ꓠ: "N", ꓑ: "P", ꓣ: "R", ꓢ: "S", ꓔ: "T", ꓴ: "U", ꓦ: "V", ꓪ: "W", ꓫ: "X", ꓬ: "Y" },
    // Letters drawn in a shape Unicode keeps apart: in parentheses ("(a)" as it decomposes), in a
    // black circle or square, and the regional indicators that pair into flags.
    ...lettersFrom(0x249c, "a"),
    ...lettersFrom(0x1f150, "A"),
    ...lettersFrom(0x1f170, "A"),
    ...lettersFrom(0x1f1e6, "A"),
  }),
);
export const LOOK_ALIKE = new RegExp(`[${[...LOOK_ALIKES.keys()].join("")}]`, "gu");

/** Letters of a script with case, each as its Latin look-alike, and their small forms as the same letter. */
function withSmallLetters(capitals: Record<string, string>): Record<string, string> {
  return { ...capitals, ...Object.fromEntries(Object.entries(capitals).map(([c, l]) => [c.toLowerCase(), l.toLowerCase()])) };
}

/** The 26 letters a block of shaped letters draws, from its first code point. */
function lettersFrom(first: number, a: "a" | "A"): Record<string, string> {
  return Object.fromEntries(Array.from({ length: 26 }, (_, k) => [String.fromCodePoint(first + k), String.fromCharCode(a.charCodeAt(0) + k)]));
}
// Letters of other scripts drawn as Latin ones (Cyrillic, Greek, Armenian): read so
// only in a word that holds a Latin letter too, as one written to pass for a Latin name does; a
// word all in its own script ("και", "она") is that script's.
export const OTHER_SCRIPT_LOOK_ALIKES = new Map(
  Object.entries({
    // Unicode's confusables of other scripts (Armenian's "ո" for "n", Coptic's, Lisu's, mathematical Greek), before the letters below.
    ...CONFUSABLE_OTHER_SCRIPTS,
    ...{ а: "a", в: "b", е: "e", є: "e", к: "k", м: "m", н: "h", о: "o", р: "p", с: "c", т: "t", у: "y", х: "x", і: "i", ј: "j", ѕ: "s", ԁ: "d", ԛ: "q", ԝ: "w", һ: "h", ӏ: "l", Ӏ: "l" },
    ...{ А: "A", В: "B", Е: "E", Є: "E", К: "K", М: "M", Н: "H", О: "O", Р: "P", С: "C", Т: "T", У: "Y", Х: "X", І: "I", Ј: "J", Ѕ: "S", Ԁ: "D", Ԛ: "Q", Ԝ: "W", Һ: "H" },
    ...{ α: "a", ο: "o", ρ: "p", ν: "v", ι: "i", κ: "k", τ: "t", υ: "u", χ: "x", ε: "e", Α: "A", Β: "B", Ε: "E", Ζ: "Z", Η: "H", Ι: "I", Κ: "K", Μ: "M", Ν: "N", Ο: "O", Ρ: "P", Τ: "T", Υ: "Y", Χ: "X" },
    ...{ օ: "o", Օ: "O", ⲛ: "n" },
    // Cherokee's letters drawn as Latin ones, and its small letters, drawn as the same at a small capital's size.
    ...withSmallLetters({ Ꭺ: "A", Ᏼ: "B", Ꮯ: "C", Ꭰ: "D", Ꭼ: "E", Ꮐ: "G", Ꮋ: "H", Ꭵ: "i", Ꭻ: "J", Ꮶ: "K", Ꮮ: "L", Ꮇ: "M", Ꮲ: "P", Ꮢ: "R", Ꮪ: "S", Ꭲ: "T", Ꮩ: "V", Ꮃ: "W", Ꮓ: "Z" }),
    ...withSmallLetters({ Ꮻ: "O", Ꭱ: "R", Ꮍ: "Y", Ꮤ: "W", Ꮒ: "h", Ꮟ: "b", Ꮷ: "d" }),
  }),
);
export const OTHER_SCRIPT_LOOK_ALIKE = new RegExp(`[${[...OTHER_SCRIPT_LOOK_ALIKES.keys()].join("")}]`, "u");
export const OTHER_SCRIPT_LOOK_ALIKE_G = new RegExp(OTHER_SCRIPT_LOOK_ALIKE.source, "gu");
// Characters drawn as a path's separators, a tilde, a dash or a colon, which Unicode's
// compatibility forms do not all make plain: solidus and reverse solidus operators, fractions'
// slash, box drawings' diagonals, overlays, a radical's stroke, wave dashes, minus signs, low lines.
const DRAWN_AS: Readonly<Record<string, string>> = {
  ...{ "\u2215": "/", "\u2044": "/", "\uff0f": "/", "\u29f8": "/", "\u2571": "/", "\u27cb": "/", "\u2f03": "/", "\u1735": "/" },
  ...{ "\u2216": "\\", "\u29f5": "\\", "\u29f9": "\\", "\ufe68": "\\", "\uff3c": "\\", "\u2572": "\\", "\u27cd": "\\", "\u244a": "\\" },
  ...{ "\uff5e": "~", "\u223c": "~", "\u301c": "~", "\u02dc": "~", "\u2053": "~", "\u1fc0": "~", "\u2e1e": "~" },
  ...{ "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2015": "-", "\u2043": "-", "\u2212": "-", "\ufe58": "-", "\ufe63": "-", "\uff0d": "-", "\u2e3a": "-", "\u2e3b": "-", "\u2796": "-" },
  // Low lines drawn otherwise: doubled, a modifier's macron below.
  ...{ "\u2017": "_", "\u02cd": "_", "\uff3f": "_" },
  ...{ "\uff1a": ":", "\u2236": ":", "\ua789": ":", "\u0589": ":", "\u05c3": ":", "\ufe55": ":", "\ufe13": ":" },
};
const SHOWS_NOTHING = new RegExp(`^[${INVISIBLE}\\p{M}]$`, "u");
const shownCache = new Map<string, string>();

/**
 * How one character above ASCII shows: its drawn-as or look-alike form, its compatibility form or
 * its letter without marks where that is ASCII ("\uff48", "\u{1d421}" and "\u0125" are "h"),
 * nothing, or itself. Letters of other scripts are read as Latin ones word by word (`withLatinWords`).
 */
export function shownAs(c: string): string {
  let out = shownCache.get(c);
  if (out !== undefined) return out;
  const plain = c.normalize("NFKD").replace(/\p{M}/gu, "");
  out = DRAWN_AS[c] ?? LOOK_ALIKES.get(c) ?? (plain !== "" && /^[\x20-\x7e]+$/.test(plain) ? plain : SHOWS_NOTHING.test(c) ? "" : c);
  shownCache.set(c, out);
  return out;
}

const WORD_G = /[\p{L}\p{N}]+/gu;

/** Letters of other scripts drawn as Latin ones, read as those in a word that holds a Latin letter too (one unit for one). */
export function withLatinWords(text: string): string {
  if (!OTHER_SCRIPT_LOOK_ALIKE.test(text)) return text;
  return text.replace(WORD_G, (word) => (/[A-Za-z]/.test(word) ? word.replace(OTHER_SCRIPT_LOOK_ALIKE_G, (c) => OTHER_SCRIPT_LOOK_ALIKES.get(c) as string) : word));
}

// A terminal's control sequences show nothing (ls, fd and grep colour what they print): CSI (ESC [
// or 0x9b, its parameters, intermediates and final: "\x1b[1;34m", "\x1b[38:5:196m", "\x1b[?25l";
// 0x9b with one parameter at least, so that before a letter it is the invisible unit it is alone),
// OSC (ESC ] or 0x9d up to BEL or ST: a title, a hyperlink), DCS, SOS, PM and APC up to ST, and ESC
// with intermediates and a final ("\x1b(B", a character set chosen). One left open is no sequence.
// ESC itself may be written out as text a shell or a program reads (\e, \033, \x1b, \u001b, and
// caret notation ^[ as cat -v and less show it): such a sequence shows nothing either.
const WRITTEN_ESC = String.raw`(?:\\+(?:[eE]|[xX]1[bB]|u001[bB]|u\{1[bB]\}|0?33|0x1[bB])|\^\[)`;
const TERMINAL_SEQUENCE = String.raw`(?:\x1b\[[\x30-\x3f]*|(?:\x9b|\\+(?:x9[bB]|u009[bB]))[\x30-\x3f]+|${WRITTEN_ESC}\[[\x30-\x3f]*)[\x20-\x2f]*[\x40-\x7e]|(?:\x1b\]|\x9d)[^\x07\x1b\x80-\x9f]*(?:\x07|\x1b\\|\x9c)|(?:\x1b[PX^_]|[\x90\x98\x9e\x9f])[^\x1b\x80-\x9f]*(?:\x1b\\|\x9c)|\x1b[\x20-\x2f]*[\x30-\x7e]`;
const TERMINAL_SEQUENCE_G = new RegExp(TERMINAL_SEQUENCE, "g");
const isTerminalSequence = (unit: string): boolean => unit.length > 1 && /^(?:[\x1b\x90\x98\x9b\x9d-\x9f]|\\|\^\[)/.test(unit);

/** A text without the terminal's control sequences in it, as the terminal shows it. */
export function withoutTerminalSequences(text: string): string {
  return MAY_HOLD_SEQUENCE.test(text) ? text.replace(TERMINAL_SEQUENCE_G, "") : text;
}

// A character above ASCII, or a terminal's control sequence. Any other control of ASCII is kept: it
// ends a name, as a backspace a reading of "C:\\Users\\<name>\\bin" decoded one level too far
// ("<name><BS>in") must.
const MAY_HOLD_SEQUENCE = /[\x1b\x90-\x9f]|\\[eExXu0]|\^\[/;
const CHANGES = new RegExp(`[^\\x00-\\x7f]|${MAY_HOLD_SEQUENCE.source}`);
/** A character above ASCII: a surrogate pair whole, or one unit. */
const ABOVE_ASCII = String.raw`[\ud800-\udbff][\udc00-\udfff]|[^\x00-\x7f]`;
const CHANGES_G = new RegExp(`${TERMINAL_SEQUENCE}|${ABOVE_ASCII}`, "g");
// Every terminal sequence starts with ESC, a C1 control, a backslash or "^[": in a text holding none
// of them, only a character above ASCII changes, and it is looked for alone (the sequences' pattern
// would be tried at every character).
const MAY_START_SEQUENCE = /[\x1b\x90-\x9f\\]|\^\[/;
const ABOVE_ASCII_G = new RegExp(ABOVE_ASCII, "g");
const shownUnit = (unit: string): string => (isTerminalSequence(unit) ? "" : shownAs(unit));

/** The text as it shows, without ranges; the text itself where it shows as written ("café", "中"). */
export function shownText(text: string): string {
  if (!CHANGES.test(text)) return text;
  const units = MAY_START_SEQUENCE.test(text) ? CHANGES_G : ABOVE_ASCII_G;
  let changed = false;
  for (const m of text.matchAll(units)) {
    if (shownUnit(m[0]) === m[0]) continue;
    changed = true;
    break;
  }
  return withLatinWords(changed ? text.replace(units, shownUnit) : text);
}

/**
 * The reading of a text (its escape reading, or itself) as it shows; null where it shows as
 * written or holds nothing `wanted` finds. What shows nothing belongs to the unit before it, so that an owner read before a mark
 * or an invisible unit is replaced with it ("zoe\u0308"); a terminal's sequence to the unit after it.
 */
export function shownReading(text: string, reading: TextEscapeReading | null, wanted: RegExp): TextEscapeReading | null {
  const from = reading?.text ?? text;
  const shown = shownText(from);
  // Only a reading `wanted` finds something in is built (a home's root word).
  if (shown === from || !wanted.test(shown)) return null;
  const out: TextEscapeReading = { text: "", starts: [], ends: [] };
  // Where a terminal's sequence began, that belongs to the unit after it: colour set before an owner is replaced with it, one reset after it is kept.
  let leading: number | null = null;
  const put = (units: string, first: number, last: number, before = false): void => {
    const start = reading === null ? first : (reading.starts[first] as number);
    const end = reading === null ? last + 1 : (reading.ends[last] as number);
    if (units === "" && before) leading ??= start;
    else if (units === "" && out.ends.length > 0) out.ends[out.ends.length - 1] = end;
    if (units === "") return;
    out.text += units;
    for (let k = 0; k < units.length; k++) {
      out.starts.push(leading ?? start);
      out.ends.push(end);
    }
    leading = null;
  };
  let kept = 0;
  for (const m of from.matchAll(CHANGES_G)) {
    for (let k = kept; k < m.index; k++) put(from.charAt(k), k, k);
    const terminal = isTerminalSequence(m[0]);
    put(terminal ? "" : shownAs(m[0]), m.index, m.index + m[0].length - 1, terminal);
    kept = m.index + m[0].length;
  }
  // A sequence at the end belongs to no unit: a reset after an owner is kept.
  for (let k = kept; k < from.length; k++) put(from.charAt(k), k, k);
  out.text = withLatinWords(out.text);
  return out;
}
