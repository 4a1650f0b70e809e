import { LATER_MARKS, LEGACY_LETTER_NAMES, LEGACY_MARKS } from "./home-escapes.js";

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
// escaped one beside another are read as UTF-8 (those that are not, as Latin-1); what an escape
// spelt is undone again. Taken out: a terminal's sequence (ESC, its C1 form, or an escape or
// reference of either, then a CSI's parameters, the text of an OSC, DCS, SOS, PM or APC string to
// its end, or the one character of a shorter sequence), what a backspace or a move back writes
// over, and every character that is a control, a format character, a mark or one Unicode ignores
// by default (a reading with tag characters read as the ASCII they tag is asked for apart: `tagsRead`).

// ESC, however written: itself, an escape of it (by number or name), a reference to it, URL-encoded.
const ESC = String.raw`(?:\x1b|(?<!\\)\\+(?:x0*1[bB]|x\{0*1[bB]\}|u001[bB]|u\{0*1[bB]\}|U0000001[bB]|0{0,2}33|e|E|c\[|N\{(?:ESCAPE|ESC|U\+0*1[bB])\})|&(?:amp;)*#(?:0*27|[xX]0*1[bB]);?|%1[bB]|%[uU]001[bB])`;
// A C1 control (`code` its two hex digits) as itself, escaped, referenced or URL-encoded; or as ESC and the character that makes it.
function c1Itself(code: string, octal: string, decimal: string): string {
  const hex = code.replace(/[a-f]/g, (c) => `[${c}${c.toUpperCase()}]`);
  return String.raw`\x${code}|(?<!\\)\\+(?:x${hex}|u00${hex}|${octal})|&(?:amp;)*#(?:[xX]0*${hex}|0*${decimal});?|%[cC]2%${hex}`;
}
const c1 = (ascii: string, code: string, octal: string, decimal: string): string => `(?:${ESC}${ascii}|${c1Itself(code, octal, decimal)})`;
const CSI = c1(String.raw`\[`, "9b", "233", "155");
// A terminal hides the text of an OSC, DCS, SOS, PM or APC string up to its end: BEL (OSC's) or ST.
const STRING_START = new RegExp([c1(String.raw`\]`, "9d", "235", "157"), c1("P", "90", "220", "144"), c1("X", "98", "230", "152"), c1(String.raw`\^`, "9e", "236", "158"), c1("_", "9f", "237", "159")].join("|"), "g");
const STRING_END = new RegExp(String.raw`\x07|(?<!\\)\\+(?:a|x07|007|u0007)|${c1(String.raw`\\`, "9c", "234", "156")}`, "g");
const TERMINAL = [String.raw`${CSI}[0-?]{0,256}[ -/]{0,4}[@-~]`, String.raw`${ESC}(?:[ #%()*+\-./][0-9A-Za-z@%]|[0-9=>@-Z\\^_a-z|}~])`].join("|");
// A CSI that moves the cursor back (`ESC[3D`): what it moves over is written over.
const CURSOR_BACK = /(?:[[\x9b]|9[bB]|233|155)([0-9]{0,3})D$/;
const movedBack = (sequence: string): number => {
  const back = CURSOR_BACK.exec(sequence);
  return back === null ? 0 : Math.max(1, Number(back[1]));
};

// A byte: two hex digits (after zeros only where nothing more follows, as C reads "\x0065"), three octal digits, or four from a 0 (echo's "\0145").
const BACKSLASH_BYTE = String.raw`(?<!\\)\\+(?:x(?:0+(?=[0-9A-Fa-f]{2}(?![0-9A-Fa-f])))?[0-9A-Fa-f]{2}|0[0-7]{3}|[0-7]{3})`;
function spelling(terminal: string): RegExp {
  return new RegExp(
    [
      `(${terminal})`,
      `((?:${BACKSLASH_BYTE})+)`,
      String.raw`((?:(?<!\\)\\+u[0-9A-Fa-f]{4})+|(?:%[uU][0-9A-Fa-f]{4})+)`,
      String.raw`(?<!\\)\\+(?:([xu])\{0*([0-9A-Fa-f]{1,8})\}|x([0-9A-Fa-f])(?![0-9A-Fa-f])|U([0-9A-Fa-f]{8})|o\{0*([0-7]{1,8})\}|([0-7]{1,2})(?![0-7])|c([@-_a-z?])|N\{([^}\n]{1,80})\}|([abefnrtv]))`,
      String.raw`((?:%[0-9A-Fa-f]{2})+)`,
      String.raw`&(?:amp;)*(?:#(?:[xX]0*([0-9A-Fa-f]{1,8})|0*([0-9]{1,10}));?|([A-Za-z][A-Za-z0-9]{1,31});|(shy|${LEGACY_LETTER_NAMES}))`,
    ].join("|"),
    "g",
  );
}
const SPELLING = spelling(TERMINAL);
// A group that never matches keeps the groups' numbers.
const SPELLING_NO_TERMINAL = spelling("(?!)");

/** Whether a text may hold anything `spellingsUndone` undoes: a cheap test before it. */
const MAY_SPELL = /[\\%&\x00-\x1f\x7f-\x9f]/;

// HTML's names of what shows nothing, and of a letter with a mark (the mark is taken out after);
// those HTML reads without their ";" too (`&shy`, `&eacute`).
const NAMED_NOTHING = new Set(["shy", "zwnj", "zwj", "lrm", "rlm", "ZeroWidthSpace", "NegativeVeryThinSpace", "NegativeThinSpace", "NegativeMediumSpace", "NegativeThickSpace", "NoBreak", "ApplyFunction", "af", "InvisibleTimes", "it", "InvisibleComma", "ic", "Tab", "NewLine", "DownBreve", "tdot", "TripleDot", "DotDot"]);
const NAMED_LETTER = new RegExp(`^([A-Za-z])(?:${LEGACY_MARKS}|${LATER_MARKS})$`);
const NAMED_LOOK_ALIKE = new Map(Object.entries({ imath: "i", inodot: "i", jmath: "j", szlig: "ss", aelig: "ae", AElig: "AE", oelig: "oe", OElig: "OE", eth: "d", ETH: "D" }));

// Python's and Perl's names and aliases of what shows nothing: a control or format character by
// name, a mark ("COMBINING ..."), a selector or filler; a letter by its name in any style, the
// Cyrillic and Greek ones drawn as Latin ones as those; a name no table here holds stays as written.
const NAMED_NOTHING_CHARACTER = /^(?:ZWSP|ZWNJ|ZWJ|ZWNBSP|WJ|LRM|RLM|ALM|SHY|BOM|CGJ|MVS|FVS[1-4]|VS[0-9]{1,3}|LRE|RLE|PDF|LRO|RLO|LRI|RLI|FSI|PDI|NUL|ESC|DEL|[A-Z -]*(?:ZERO WIDTH|JOINER|SOFT HYPHEN|BYTE ORDER MARK|MARK|VARIATION SELECTOR|ISOLATE|EMBEDDING|OVERRIDE|DIRECTIONAL FORMATTING|INVISIBLE|FILLER|SEPARATOR|FUNCTION APPLICATION|SHAPING|SYMMETRIC SWAPPING|DIGIT SHAPES|SHORTHAND FORMAT|TAG)[A-Z0-9 -]*|COMBINING [A-Z0-9 -]+|NULL|ESCAPE|DELETE|[A-Z -]*CONTROL[A-Z -]*)$/;
const NAMED_LETTER_CHARACTER = /^(?:[A-Z-]+ )*?(SMALL|CAPITAL) (?:LETTER )?([A-Z]+)(?: WITH [A-Z -]+)?$/;
const LETTER_NAMES = new Map(
  Object.entries({ IE: "E", IO: "E", UKRAINIAN: "E", ER: "P", ES: "C", HA: "X", JE: "J", DZE: "S", KA: "K", EM: "M", EN: "H", TE: "T", VE: "B", ALPHA: "A", BETA: "B", EPSILON: "E", ZETA: "Z", ETA: "H", IOTA: "I", KAPPA: "K", MU: "M", NU: "N", OMICRON: "O", RHO: "P", TAU: "T", UPSILON: "Y", CHI: "X" }),
);

/** Bytes as UTF-8, each byte of no sequence as the Latin-1 character it is. */
function bytesText(bytes: number[]): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(bytes));
  } catch {
    return bytes.map((b) => String.fromCharCode(b)).join("");
  }
}

const codePoint = (cp: number): string => (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ? "\ufffd" : String.fromCodePoint(cp));

const BYTE_IN_RUN = /\\+(?:x0*([0-9A-Fa-f]{2})|0?([0-7]{3}))/g;
const UNIT_IN_RUN = /[uU]([0-9A-Fa-f]{4})/g;
const PERCENT_BYTE = /%([0-9A-Fa-f]{2})/g;
const C_ESCAPE = new Map(Object.entries({ a: 7, b: 8, e: 0x1b, f: 0xc, n: 0xa, r: 0xd, t: 9, v: 0xb }));

function byName(name: string, spelt: string): string {
  const upper = name.trim().toUpperCase();
  const plus = /^U\+([0-9A-F]{1,6})$/.exec(upper);
  if (plus) return codePoint(parseInt(plus[1] as string, 16));
  if (NAMED_NOTHING_CHARACTER.test(upper)) return "";
  const letter = NAMED_LETTER_CHARACTER.exec(upper);
  const plain = letter === null ? undefined : letter[2]!.length === 1 ? letter[2] : LETTER_NAMES.get(letter[2] as string);
  if (plain === undefined) return spelt;
  return letter?.[1] === "SMALL" ? plain.toLowerCase() : plain;
}

function htmlName(name: string, spelt: string): string {
  if (NAMED_NOTHING.has(name)) return "";
  // A script, fraktur or double-struck letter ("&escr;", "&Zopf;"), and the script l ("&ell;").
  const styled = /^([A-Za-z])(?:scr|fr|opf)$/.exec(name)?.[1] ?? (name === "ell" ? "l" : undefined);
  return NAMED_LETTER.exec(name)?.[1] ?? NAMED_LOOK_ALIKE.get(name) ?? styled ?? spelt;
}

/** What one spelling reads as: "" for a terminal's sequence (backspaces for one that moves back), the characters it spells, or itself where it spells nothing this reads. */
function undo(m: string, ...g: (string | undefined)[]): string {
  const [terminal, byteRun, unitRun, braceKind, braced, oneHex, long, octalBraced, octal, control, name, letter, percentRun, refHex, refDec, refName, legacyName] = g;
  if (terminal !== undefined) return "\b".repeat(movedBack(m));
  if (byteRun !== undefined) return bytesText([...byteRun.matchAll(BYTE_IN_RUN)].map((b) => (b[1] !== undefined ? parseInt(b[1], 16) : parseInt(b[2] as string, 8) & 0xff)));
  if (unitRun !== undefined) return [...unitRun.matchAll(UNIT_IN_RUN)].map((u) => String.fromCharCode(parseInt(u[1] as string, 16))).join("");
  if (braceKind !== undefined) return codePoint(parseInt(braced as string, 16));
  const hex = oneHex ?? long ?? refHex;
  if (hex !== undefined) return codePoint(parseInt(hex, 16));
  if (octalBraced !== undefined) return codePoint(parseInt(octalBraced, 8));
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
// How often a text is undone again, for what a spelling spelt ("%2565" is "%65", then "e").
const PASSES = 3;

/** A text without the strings a terminal hides (OSC, DCS, SOS, PM, APC), read in one pass: one never ended runs to the end. */
function withoutHiddenStrings(text: string): string {
  let out = "";
  let at = 0;
  STRING_START.lastIndex = 0;
  for (let m = STRING_START.exec(text); m !== null; m = STRING_START.exec(text)) {
    out += text.slice(at, m.index);
    STRING_END.lastIndex = STRING_START.lastIndex;
    at = STRING_END.exec(text) === null ? text.length : STRING_END.lastIndex;
    STRING_START.lastIndex = at;
  }
  return out + text.slice(at);
}

/** What a terminal shows where a backspace writes over the character before it. */
function writtenOver(text: string): string {
  if (!text.includes("\b")) return text;
  const shown: string[] = [];
  for (const ch of text) {
    if (ch === "\b") shown.pop();
    else shown.push(ch);
  }
  return shown.join("");
}

function undoneWith(pattern: RegExp, text: string): string {
  let undone = text;
  for (let pass = 0; pass < PASSES; pass++) {
    pattern.lastIndex = 0;
    const again = undone.replace(pattern, (m: string, ...rest: unknown[]) => undo(m, ...(rest.slice(0, 17) as (string | undefined)[])));
    if (again === undone) break;
    undone = again;
  }
  return undone;
}

/**
 * A text with every spelling of a character undone and what shows nothing taken out, its letters
 * as `plain` reads them, twice: as a terminal shows the text (its sequences and hidden strings taken
 * out whole, a backspace or a move back written over), and with only their controls taken out, as a
 * viewer that shows no controls does ("\x9blla" is "" and "lla" to a terminal, "lla" to the viewer).
 * None where the text holds nothing to undo.
 */
export function spellingsUndone(text: string, plain: (text: string) => string, before: (text: string) => string = (t) => t): string[] {
  if (!MAY_SPELL.test(text)) return [];
  const terminal = writtenOver(undoneWith(SPELLING, withoutHiddenStrings(text)));
  const viewer = undoneWith(SPELLING_NO_TERMINAL, text);
  return [terminal, viewer].map((undone) => plain(before(undone).replace(SHOWS_NOTHING, "")).replace(SHOWS_NOTHING, ""));
}

// Unicode's tag characters (U+E0020 to U+E007E) show nothing, and each stands for the ASCII
// character it tags: a text may spell a name in them that no viewer shows.
const TAG_CHARACTERS = /\uDB40([\uDC20-\uDC7E])/g;
/** Whether a text may hold a tag character, as itself or escaped, referenced or URL-encoded: a cheap test before `tagsRead`. */
export const MAY_TAG = /\uDB40|[eE]00[2-7][0-9A-Fa-f]|[dD][bB]40|%[fF]3%[aA]0|&#(?:[xX]0*[eE]00|917[56])/;

/** The text with each tag character read as the ASCII character it tags. */
export function tagsRead(text: string): string {
  return text.replace(TAG_CHARACTERS, (_tag: string, low: string) => String.fromCharCode(low.charCodeAt(0) - 0xdc00));
}
