// A name can be written so that it shows, or decodes, as itself while its characters do not spell
// it: a letter written as an escape ("zo\x65"), something that shows nothing put between its letters
// ("zoe\u200blla" with the zero-width space spelt in any way), or a terminal's control sequence
// between them. `spellingsUndone` reads a text with all of that undone, for the final check to look
// for names in; the reading is only looked in, never written.
//
// Undone: a character written as a C, Python, Perl, shell or JavaScript escape (`\x65`, `\x{65}`,
// `\u0065`, `\u{65}`, `\U00000065`, `\145`, `\cA`, `\e`, `\N{...}` by name or `U+` number), after
// any number of backslashes; URL-encoded (`%65`, `%u0065`); an HTML reference by number, its ";"
// left out or not, or by name (`&#101;`, `&#x65;`, `&amp;#101;`, `&shy;`, `&eacute;`). Bytes
// escaped one beside another are read as UTF-8 (those that are not, as Latin-1). Taken out: a
// terminal's sequence (ESC, its C1 form, or an escape or reference of either, then a CSI's
// parameters, an OSC's text to its end, or the one character of a shorter sequence), and every
// character that is a control, a format character, a mark or one Unicode ignores by default.

// ESC, however written: itself, an escape of it, a reference to it, URL-encoded.
const ESC = String.raw`(?:\x1b|(?<!\\)\\+(?:x1[bB]|x\{0*1[bB]\}|u001[bB]|u\{0*1[bB]\}|U0000001[bB]|0?33|e|E|c\[)|&(?:amp;)*#(?:0*27|[xX]0*1[bB]);?|%1[bB])`;
// A C1 control (`code` its two hex digits): ESC and the character that makes it, or the control itself, escaped, referenced or URL-encoded.
function c1(ascii: string, code: string, octal: string, decimal: string): string {
  const hex = code.replace(/[a-f]/g, (c) => `[${c}${c.toUpperCase()}]`);
  return String.raw`(?:${ESC}${ascii}|\x${code}|(?<!\\)\\+(?:x${hex}|u00${hex}|${octal})|&(?:amp;)*#(?:[xX]0*${hex}|0*${decimal});?|%[cC]2%${hex})`;
}
const CSI = c1(String.raw`\[`, "9b", "233", "155");
const OSC = c1(String.raw`\]`, "9d", "235", "157");
const STRING_END = String.raw`(?:\x07|${ESC}\\|(?<!\\)\\+(?:a|x07|007|u0007)|\x9c)`;
const TERMINAL = [
  String.raw`${CSI}[0-?]{0,32}[ -/]{0,4}[@-~]`,
  String.raw`${OSC}[^\x07\x1b\x9c\n]{0,512}?${STRING_END}`,
  String.raw`${ESC}(?:[ #%()*+\-./][0-9A-Za-z@%]|[0-9=>@-Z\\^_a-z|}~])`,
].join("|");

const BACKSLASH_BYTE = String.raw`(?<!\\)\\+(?:x[0-9A-Fa-f]{2}|[0-7]{3})`;
function spelling(terminal: string): RegExp {
  return new RegExp(
    [
      `(${terminal})`,
      `((?:${BACKSLASH_BYTE})+)`,
      String.raw`(?<!\\)\\+(?:([xu])\{([0-9A-Fa-f]{1,8})\}|x([0-9A-Fa-f])(?![0-9A-Fa-f])|u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|([0-7]{1,2})(?![0-7])|c([@-_a-z?])|N\{([^}\n]{1,80})\}|([abefnrtv]))`,
      String.raw`((?:%[0-9A-Fa-f]{2})+)|%[uU]([0-9A-Fa-f]{4})`,
      String.raw`&(?:amp;)*(?:#(?:[xX]([0-9A-Fa-f]{1,8})|([0-9]{1,10}));?|([A-Za-z][A-Za-z0-9]{1,31});|(shy|[A-Za-z](?:acute|grave|circ|uml|tilde|ring|cedil|slash)|[aA][eE]lig|szlig|eth|ETH))`,
    ].join("|"),
    "g",
  );
}
const SPELLING = spelling(TERMINAL);
// A group that never matches keeps the groups' numbers.
const SPELLING_NO_TERMINAL = spelling("(?!)");

/** Whether a text may hold anything `spellingsUndone` undoes: a cheap test before it. */
const MAY_SPELL = /[\\%&\x1b\x80-\x9f]/;

// HTML's names of what shows nothing, and of a letter with a mark (the mark is taken out after);
// those HTML reads without their ";" too (`&shy`, `&eacute`).
const NAMED_NOTHING = new Set(["shy", "zwnj", "zwj", "lrm", "rlm", "ZeroWidthSpace", "NegativeVeryThinSpace", "NegativeThinSpace", "NegativeMediumSpace", "NegativeThickSpace", "NoBreak", "ApplyFunction", "af", "InvisibleTimes", "it", "InvisibleComma", "ic", "Tab", "NewLine", "DownBreve", "tdot", "TripleDot", "DotDot"]);
const NAMED_LETTER = /^([A-Za-z])(?:acute|grave|circ|uml|tilde|ring|cedil|slash|caron|ogon|macr|dot|breve|strok|dblac)$/;
const NAMED_LOOK_ALIKE = new Map(Object.entries({ imath: "i", inodot: "i", jmath: "j", szlig: "ss", aelig: "ae", AElig: "AE", oelig: "oe", OElig: "OE", eth: "d", ETH: "D" }));

// Python's and Perl's names and aliases of what shows nothing: a control or format character by
// name, a mark ("COMBINING ..."), a selector or filler; a name no table here holds stays as written.
const NAMED_NOTHING_CHARACTER = /^(?:ZWSP|ZWNJ|ZWJ|ZWNBSP|WJ|LRM|RLM|ALM|SHY|BOM|CGJ|MVS|FVS[1-4]|VS[0-9]{1,3}|LRE|RLE|PDF|LRO|RLO|LRI|RLI|FSI|PDI|NUL|ESC|DEL|[A-Z ]*(?:ZERO WIDTH|JOINER|SOFT HYPHEN|BYTE ORDER MARK|MARK|VARIATION SELECTOR|ISOLATE|EMBEDDING|OVERRIDE|DIRECTIONAL FORMATTING|INVISIBLE|FILLER|SEPARATOR|FUNCTION APPLICATION|SHAPING|SYMMETRIC SWAPPING|DIGIT SHAPES|SHORTHAND FORMAT|TAG)[A-Z0-9 -]*|COMBINING [A-Z0-9 -]+|NULL|ESCAPE|DELETE|[A-Z -]*CONTROL[A-Z -]*)$/;
const NAMED_LATIN = /^LATIN (SMALL|CAPITAL) LETTER ([A-Z])(?: WITH [A-Z ]+)?$/;

/** Bytes as UTF-8, each byte of no sequence as the Latin-1 character it is. */
function bytesText(bytes: number[]): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(bytes));
  } catch {
    return bytes.map((b) => String.fromCharCode(b)).join("");
  }
}

const codePoint = (cp: number): string => (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ? "\ufffd" : String.fromCodePoint(cp));

const BYTE_IN_RUN = /\\+(?:x([0-9A-Fa-f]{2})|([0-7]{3}))/g;
const PERCENT_BYTE = /%([0-9A-Fa-f]{2})/g;
const C_ESCAPE = new Map(Object.entries({ a: 7, b: 8, e: 0x1b, f: 0xc, n: 0xa, r: 0xd, t: 9, v: 0xb }));

function byName(name: string, spelt: string): string {
  const upper = name.trim().toUpperCase();
  const plus = /^U\+([0-9A-F]{1,6})$/.exec(upper);
  if (plus) return codePoint(parseInt(plus[1] as string, 16));
  if (NAMED_NOTHING_CHARACTER.test(upper)) return "";
  const latin = NAMED_LATIN.exec(upper);
  if (latin) return latin[1] === "SMALL" ? (latin[2] as string).toLowerCase() : (latin[2] as string);
  return spelt;
}

function htmlName(name: string, spelt: string): string {
  if (NAMED_NOTHING.has(name)) return "";
  return NAMED_LETTER.exec(name)?.[1] ?? NAMED_LOOK_ALIKE.get(name) ?? spelt;
}

/** What one spelling reads as: "" for a terminal's sequence, the characters it spells, or itself where it spells nothing this reads. */
function undo(m: string, ...g: (string | undefined)[]): string {
  const [terminal, byteRun, braceKind, braced, oneHex, unit, long, octal, control, name, letter, percentRun, percentUnit, refHex, refDec, refName, legacyName] = g;
  if (terminal !== undefined) return "";
  if (byteRun !== undefined) return bytesText([...byteRun.matchAll(BYTE_IN_RUN)].map((b) => (b[1] !== undefined ? parseInt(b[1], 16) : parseInt(b[2] as string, 8) & 0xff)));
  if (braceKind !== undefined) return codePoint(parseInt(braced as string, 16));
  const hex = oneHex ?? unit ?? long ?? percentUnit ?? refHex;
  if (hex !== undefined) return codePoint(parseInt(hex, 16));
  if (octal !== undefined) return String.fromCharCode(parseInt(octal, 8));
  if (control !== undefined) return String.fromCharCode(control === "?" ? 0x7f : control.toUpperCase().charCodeAt(0) & 0x1f);
  if (name !== undefined) return byName(name, m);
  if (letter !== undefined) return String.fromCharCode(C_ESCAPE.get(letter) as number);
  if (percentRun !== undefined) return bytesText([...percentRun.matchAll(PERCENT_BYTE)].map((b) => parseInt(b[1] as string, 16)));
  if (refDec !== undefined) return codePoint(parseInt(refDec, 10));
  return htmlName((refName ?? legacyName) as string, m);
}

// What shows nothing, once undone; backslashes left over too, as a name spread by them reads whole.
const SHOWS_NOTHING = /[\p{Cc}\p{Cf}\p{M}\p{Default_Ignorable_Code_Point}\\]/gu;

/**
 * A text with every spelling of a character undone and what shows nothing taken out, its letters
 * as `plain` reads them, twice: with a terminal's sequences taken out whole, as a terminal shows the
 * text, and with only their controls taken out, as a viewer that shows no controls does ("\x9blla"
 * is "" and "lla" to a terminal, "lla" to the viewer). None where the text holds nothing to undo.
 */
export function spellingsUndone(text: string, plain: (text: string) => string): string[] {
  if (!MAY_SPELL.test(text)) return [];
  return [SPELLING, SPELLING_NO_TERMINAL].map((pattern) => {
    pattern.lastIndex = 0;
    const undone = text.replace(pattern, (m: string, ...rest: unknown[]) => undo(m, ...(rest.slice(0, 17) as (string | undefined)[])));
    return plain(undone.replace(SHOWS_NOTHING, "")).replace(SHOWS_NOTHING, "");
  });
}
