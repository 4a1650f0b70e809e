import type { Display } from "../../display.js";
import { finding, type Finding } from "../../findings.js";
import { nameReadings, plainLetters, shellJoined, type HomeGrammar, type NamePattern } from "../../homes.js";
import { decodeJsonString, nestedReadings, percentDecoded } from "../../json/escapes.js";
import { placeOf, stringTokens } from "../../json/reader.js";
import type { JsonDocument, LearnedName } from "../../types.js";
import { forEachByteRun } from "../../scan-rules/byte-runs.js";
import { ENV_DUMP_PLACEHOLDER } from "./env-dump.js";
import { holdsPhoneMember, membersOf, numberIsPhone, phoneAtEnds, phoneByMembers, readsAsTime } from "./phone-members.js";

// The last word on a cleared file, independent of the rules that cleared it: every string and
// every member name is decoded fully, strings nested in strings included, and the file is refused
// if a home root is followed by anyone but the placeholder, or a known user name is still there,
// or a value or a member name holds a mailbox or a phone number.

// A mailbox: a local part of letters, digits and ._%+- (a path's "/@scope" is none), or words of
// them in quotes ("first last"@host), an at sign, and a host of dotted labels ending in letters (what
// follows it is not looked at: "name@mail.com2024" is one), or an address in brackets. A release
// or a region after an at sign (sonnet@20240620, pro@us-central1, plugin@marketplace) has no dot
// and is no host; git@ is the SSH remote's user, nobody's mailbox, and x…@ is a URL's user
// information that substitution already replaced.
const LABEL = String.raw`[\p{L}\p{N}_](?:[\p{L}\p{N}_-]*[\p{L}\p{N}])?`;
const MAILBOX = new RegExp(String.raw`(?:(?<![\p{L}\p{N}._%+-])(?!git@|x+@)[\p{L}\p{N}._%+-]+|"[\p{L}\p{N}._%+-]+(?: [\p{L}\p{N}._%+-]+){0,4}")@(?!\d+(?:\.\d+)?x\.)(?:(?:${LABEL}\.)+\p{L}{2,}|\[[0-9A-Fa-f.:]+\])`, "u");
// A phone number: international (a plus or 00, then digits and the separators people write between
// them; after 00 the country's code ends at a separator, and nothing joins the 00 to what is before
// it as a group of an identifier or a path is joined, "…-0012-3456-7890-…" or "/0012/345678");
// a tel: address; a vCard's TEL line; North American (the area code in brackets, or three, three and four digits, a 1
// and a space or a dash before them or not, a space, a dot or a dash between each); or national,
// begun with the trunk's 0 (00 is the international prefix) and written in groups with spaces or
// dashes ("090-1234-5678", "06 12 34 56 78", "020 7946 0958"), nine to eleven digits in all, in
// pairs with dots ("06.12.34.56.78"), as an area code and a number ("030 12345678"), or with the
// area code in brackets ("(030) 1234 5678", "(0)20 7946 0958"). A
// number stands apart from digits and from a group of digits it would continue ("12-415-555-2671",
// "v555.010.4477.2"), not from letters or a file's extension ("tel-555-010-4477", "1-555-010-4477.vcf").
const APART_BEFORE = String.raw`(?<!\d|\d[ .\p{Pd}_\/])`;
const APART_AFTER = String.raw`(?!\d|[.\p{Pd}_\/ ]\d)`;
// Bytes written in hex ("01-23-45-67-89-AB", a dump's "0a 01 02 03 04 05") are no national
// number, nor is a date before a time ("01-12-2026 10:30").
// Nor is a run glued to letters, as a UUID's groups are ("f14c0513-0591-47b1-…").
const NOT_HEX_BEFORE = String.raw`(?<![0-9A-Fa-f]{2}[.\p{Pd}: ]|\p{L})`;
const NOT_HEX_AFTER = String.raw`(?![.\p{Pd}: ][0-9A-Fa-f]{2}|\p{L})`;
const NANP_SEP = String.raw`[. \p{Pd}]`;
const PHONE = new RegExp(
  [
    String.raw`\+\d[\d\s().\/\p{Pd}]{6,}\d`,
    String.raw`(?<![\p{L}\p{N}_.\/\p{Pd}])00[1-9]\d{0,3}\)?[\s.\/\p{Pd}]\(?\d[\d\s().\/\p{Pd}]{4,}\d`,
    String.raw`\btel:\+?[\d(][\d\s().\p{Pd}]{5,}\d`,
    // A vCard's TEL line, its types between ("TEL;type=CELL;type=pref:+1 415 555 0199").
    String.raw`(?<![\p{L}\p{N}])[Tt][Ee][Ll](?:;[^:\n]{0,80})?:\s?\+?[\d(][\d\s().\p{Pd}]{5,}\d`,
    String.raw`\(\d{3}\)[\s\p{Pd}.]?\d{3}[\s\p{Pd}.]?\d{4}(?!\d)`,
    `${APART_BEFORE}(?:1[ \\p{Pd}])?\\d{3}${NANP_SEP}\\d{3}${NANP_SEP}\\d{4}${APART_AFTER}`,
    `${APART_BEFORE}0[1-9](?:\\.\\d{2}){4}${APART_AFTER}`,
    `${APART_BEFORE}${NOT_HEX_BEFORE}0[1-9]\\d{1,3}[ \\p{Pd}]\\d{6,8}${APART_AFTER}${NOT_HEX_AFTER}`,
    String.raw`\(0\d{0,4}\)\s?\d{1,4}[ \p{Pd}]?\d{3,4}[ \p{Pd}]?\d{3,4}(?!\d)`,
    `${APART_BEFORE}${NOT_HEX_BEFORE}(?=(?:[ \\p{Pd}]?\\d){9,11}${APART_AFTER})0[1-9]\\d{0,3}(?:[ \\p{Pd}]\\d{2,4}){2,4}${APART_AFTER}${NOT_HEX_AFTER}(?!:\\d)`,
  ].join("|"),
  "u",
);

// Digits alone right after a phone's word where a word begins, in any letter case, a number's word
// or a few marks between ("tel-4155550199", "Phone 14155550100", "PHONE=4155550100", "phone_no_…",
// "mobilePhone4155550199", "phone(…)", "<phone>…"): not a word that only ends in one (an iPhone's,
// a smartphone's id), nor digits that read as a date or a Unix time ("sms-1701234567"), which no
// North American number begins with a 1 as.
const PHONE_AFTER_WORD = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(?:(?:tele|home|work|office|mobile|cell|main|primary|my|contact)?phone|tel|cell|cel|mobile|fax|sms|msisdn|whats?app|wa\.me|callto|handy|telefono|telefon|telefoon|телефон)s?(?:[\s:_.#=\/\p{Pd}]{0,2}(?:no|nr|num|number|nummer)\.?)?[\s:_.#=\/\p{Pd}(\[,"'<>]{0,4}\+?(\d{7,15})(?!\d)`,
  "giu",
);
/** Where digits right after a phone's word stand in a text (none that read as a time). */
function phonesAfterWord(value: string): { start: number; end: number }[] {
  PHONE_AFTER_WORD.lastIndex = 0;
  return [...value.matchAll(PHONE_AFTER_WORD)].filter((m) => !readsAsTime(m[1] as string)).map((m) => ({ start: m.index, end: m.index + m[0].length }));
}

/** Whether a text holds a mailbox or a phone number: a person's, whatever field or member name holds it. */
const holdsContactAsWritten = (value: string): boolean => MAILBOX.test(value) || PHONE.test(value) || phonesAfterWord(value).length > 0;

// An at sign and a dot spelt out as people do to keep a mailbox from a robot: "(at)", "[at]",
// "{dot}", " AT ", "-at-", "_dot_", HTML's names for them, and the signs set apart by blanks
// ("name @ host . org"). " at " before a clock time is a time: a screenshot's name ("Screenshot
// 2026-05-01 at 10.22.33.png") names no mailbox.
const AT_SPELT = /\s*[([{<]\s*at\s*[)\]}>]\s*|\s+at\s+(?!\d{1,2}[.:]\d{2}(?:[.:]\d{2})?(?!\d))|(?<=[\p{L}\p{N}])[-_]at[-_](?=[\p{L}\p{N}])|&commat;|(?<=[\p{L}\p{N}])(?:\s+@\s*|@\s+)(?=[\p{L}\p{N}])/giu;
const DOT_SPELT = /\s*[([{<]\s*dot\s*[)\]}>]\s*|\s+dot\s+|(?<=[\p{L}\p{N}])[-_]dot[-_](?=[\p{L}\p{N}])|&period;|(?<=[\p{L}\p{N}])\s+\.\s*(?=[\p{L}\p{N}])/giu;

/** The text with an at sign and a dot spelt out (or set apart by blanks) written as themselves, and digits of every script as ASCII ones; the text itself where it spells none. */
function spelledOut(value: string): string {
  const spelt = /at|dot|&commat;|&period;|@/i.test(value) ? value.replace(AT_SPELT, "@").replace(DOT_SPELT, ".") : value;
  return /[^\x00-\x7f]/.test(spelt) ? spelt.replace(/\p{Nd}/gu, asciiDigit) : spelt;
}

/** A decimal digit of any script as its ASCII digit: Unicode gives each script's digits as runs of ten from zero (mathematics' five styles in one run of fifty). */
function asciiDigit(d: string): string {
  const at = d.codePointAt(0) as number;
  let start = at;
  while (at - start < 64 && /\p{Nd}/u.test(String.fromCodePoint(start - 1))) start--;
  return String((at - start) % 10);
}

/** The same, with every spelling undone: other at signs and digits (＠, ﹫, ＋, ٥), invisible characters, %40, &#64;, escapes. */
export function holdsContact(value: string): boolean {
  const spelt = spelledOut(value);
  return holdsContactAsWritten(value) || (spelt !== value && holdsContactAsWritten(spelt)) || nameReadings(value).some((r) => holdsContactAsWritten(r) || holdsContactAsWritten(spelledOut(r)));
}

/**
 * Where a text holds a mailbox or a phone number, for starring what is printed: each one as written,
 * or the whole text where only a reading of it holds one (which characters spell it is not known here).
 */
export function contactRanges(value: string): { start: number; end: number }[] {
  if (!holdsContact(value)) return [];
  const written = [...[...value.matchAll(new RegExp(MAILBOX.source, "gu")), ...value.matchAll(new RegExp(PHONE.source, "gu"))].map((m) => ({ start: m.index, end: m.index + m[0].length })), ...phonesAfterWord(value)];
  let rest = value;
  for (const w of written) rest = rest.slice(0, w.start) + " ".repeat(w.end - w.start) + rest.slice(w.end);
  return written.length > 0 && !holdsContact(rest) ? written : [{ start: 0, end: value.length }];
}

/** The text with each mailbox and phone number it holds starred out (the whole text where only a reading of it holds one): what is printed or recorded of a name or a path. */
export function withoutContacts(value: string): string {
  const ranges = contactRanges(value);
  if (ranges.length === 0) return value;
  const chars = value.split("");
  for (const { start, end } of ranges) chars.fill("*", start, end);
  return chars.join("");
}

/** Whether a text holds a mailbox or a phone number written in base64 or hex (an id a rule kept that spells one): each run of encoded bytes is read as text. */
export function holdsEncodedContact(value: string, depth = 0): boolean {
  if (depth > 0) return encodedContact(value, depth);
  // A sitting repeats its values (a session's id, a transcript's path in every capture): each distinct one is decoded once.
  let known = encodedSeen.get(value);
  if (known === undefined) {
    if (encodedSeen.size >= ENCODED_KEPT) encodedSeen.clear();
    encodedSeen.set(value, (known = encodedContact(value, 0)));
  }
  return known;
}

/** How many values' encoded readings are kept: a sitting of a million distinct values holds no more than this. */
const ENCODED_KEPT = 1 << 14;
const encodedSeen = new Map<string, boolean>();

function encodedContact(value: string, depth: number): boolean {
  let found = false;
  forEachByteRun(value, (d) => {
    // Text in UTF-16 (every other byte naught) is read so too; bytes encoded again are read again, twice
    // more. Only text is read with an at sign's spellings undone: random bytes spell " at " and a dot now and then.
    const texts = [d.bytes.toString("utf8"), ...(d.bytes.includes(0) ? [d.bytes.toString("utf16le")] : [])];
    const asText = (t: string): boolean => !/[\x00-\x08\x0e-\x1f\ufffd]/.test(t);
    found = texts.some((t) => (asText(t) ? holdsContact(t) : holdsContactAsWritten(t)) || holdsPhoneMember(t) || (depth < 2 && holdsEncodedContact(t, depth + 1)));
    return found ? "stop" : "next";
  });
  return found;
}

/**
 * Whether a string's readings hold a mailbox or a phone number: as written, in JSON (or a Python
 * dict) it holds, percent-encoded or not, in base64 or hex; or, for a value (`members` given, null
 * for a member name), by the members it stands under.
 */
function holdsContactIn(readings: string[], members: string[] | null, text: string): boolean {
  if (members !== null && (phoneByMembers(members, text) || phoneAtEnds(members, text))) return true;
  return readings.some((r) => holdsContact(r) || holdsPhoneMember(r) || holdsPhoneMember(percentDecoded(r)) || holdsEncodedContact(r));
}

// Runs of base64 (either alphabet) or hex too short for the scan's readings (byte-runs.ts reads
// eight characters of base64 and sixteen of hex, six bytes of text): a short name encoded whole
// into a kept value ("<base64 of the name>" as an id) spells it in a few bytes.
// Each alphabet's runs are looked for on their own: a run of one may stand inside a longer run of
// the other ("s-<base64 of the name>" is one run of base64url, and holds one of base64).
const SHORT_BASE64 = [/(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{3,12}={0,2}(?![A-Za-z0-9+/=])/g, /(?<![\w-])[\w-]{3,12}(?![\w-])/g];
const PRINTABLE = /^[\x20-\x7e]{2,}$/;

/** What each text's short runs spell, by the text: a sitting's kept values repeat from capture to capture. */
const spelledBy = new Map<string, string[]>();

/** What each short run of base64 or hex in a text spells, where that is printable text. */
function shortlyEncoded(text: string): string[] {
  let spelled = spelledBy.get(text);
  if (spelled === undefined) {
    if (spelledBy.size >= 8192) spelledBy.clear();
    spelledBy.set(text, (spelled = shortRunsSpell(text)));
  }
  return spelled;
}

// Bytes written one by one with something between each two ("61 6c 69", "0x61,0x6c", "97 108
// 105", octal, binary octets), hex of UTF-16 (a naught byte after each letter), and base32: spelt
// in a few bytes, as the scan's readings (eight bytes, six of text) do not read them.
const SEPARATED_HEX = /(?<![0-9A-Za-z])(?:0[xX])?[0-9A-Fa-f]{2}(?:[\s:,.;_\\-]{1,2}(?:0[xX]|[xX])?[0-9A-Fa-f]{2}){2,63}(?![0-9A-Za-z])/g;
const NUMBERS = /(?<![0-9A-Za-z.])[0-9]{1,3}(?:[\s:,.;_-]{1,2}[0-9]{1,3}){2,63}(?![0-9A-Za-z])/g;
const OCTETS = /(?<![0-9])[01]{8}(?:[\s:,.;_-]{0,2}[01]{8}){2,63}(?![0-9])/g;
const LONG_HEX = /(?<![0-9A-Za-z])(?:[0-9A-Fa-f]{2}){3,64}(?![0-9A-Za-z])/g;
const BASE32 = /(?<![A-Za-z0-9])[A-Za-z2-7]{5,24}=*(?![A-Za-z0-9=])/g;

function listsSpell(text: string): Buffer[] {
  const out: Buffer[] = [];
  const numbers = (run: string, radix: number): number[] => (run.match(/[0-9A-Fa-f]+/g) ?? []).map((n) => parseInt(n.replace(/^0[xX]/, ""), radix));
  const bytes = (values: number[]): void => void (values.every((v) => v >= 0 && v < 256) && out.push(Buffer.from(values)));
  for (const [run] of text.matchAll(SEPARATED_HEX)) bytes((run.match(/[0-9A-Fa-f]{2}(?![0-9A-Fa-f])/g) ?? []).map((h) => parseInt(h, 16)));
  for (const [run] of text.matchAll(NUMBERS)) {
    bytes(numbers(run, 10));
    if (/^[0-7]{3}(?:[^0-9]{1,2}[0-7]{3})+$/.test(run)) bytes(numbers(run, 8));
  }
  for (const [run] of text.matchAll(OCTETS)) bytes((run.match(/[01]{8}/g) ?? []).map((o) => parseInt(o, 2)));
  for (const [run] of text.matchAll(LONG_HEX)) out.push(Buffer.from(run, "hex"));
  return out;
}

const BASE32_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
function base32Bytes(run: string): Buffer {
  const out: number[] = [];
  let [bits, value] = [0, 0];
  for (const c of run) {
    value = ((value << 5) | BASE32_ALPHABET.indexOf(c)) & 0xffff;
    bits += 5;
    if (bits >= 8) out.push((value >>> (bits -= 8)) & 0xff);
  }
  return Buffer.from(out);
}

/** What each short run spells, by the run (base32's marked apart): a sitting's texts share their words. */
const spelledByRun = new Map<string, string[]>();

/** What one short run of base64 or hex (or of base32, `base32` true) spells, where that is printable text. */
function runSpells(run: string, base32: boolean): string[] {
  const key = base32 ? `\u0000${run}` : run;
  let spelt = spelledByRun.get(key);
  if (spelt === undefined) {
    if (spelledByRun.size >= 8192) spelledByRun.clear();
    const hex = !base32 && /^(?:[0-9A-Fa-f]{2}){2,8}$/.test(run) ? [Buffer.from(run, "hex")] : [];
    const decoded = base32 ? [base32Bytes(run.replace(/=+$/, "").toUpperCase())] : [...hex, Buffer.from(run, "base64"), Buffer.from(run, "base64url")];
    spelt = decoded.map((bytes) => bytes.toString("latin1")).filter((text) => PRINTABLE.test(text));
    spelledByRun.set(key, spelt);
  }
  return spelt;
}

function shortRunsSpell(text: string): string[] {
  const out = new Set<string>();
  for (const bytes of listsSpell(text)) {
    // A naught byte beside each letter is UTF-16's.
    const spelt = bytes.toString("latin1").replace(/\x00/g, "");
    if (PRINTABLE.test(spelt)) out.add(spelt);
  }
  for (const [run] of text.matchAll(BASE32)) for (const spelt of runSpells(run, true)) out.add(spelt);
  for (const [run] of SHORT_BASE64.flatMap((runs) => [...text.matchAll(runs)])) for (const spelt of runSpells(run, false)) out.add(spelt);
  return [...out];
}

/** The first name a pattern finds in a text's readings: as written, as its letters read, as a shell joins it, in a short run of base64 or hex. */
export function nameSpelt(readings: string[], pattern: NamePattern): string | undefined {
  for (const r of [...readings, ...readings.flatMap(nameReadings), ...readings.flatMap(shellJoined), ...readings.flatMap(shortlyEncoded)]) {
    const found = pattern.exec(r)?.[0];
    if (found !== undefined) return found;
  }
  return undefined;
}

export interface KnownNames {
  pattern: NamePattern | null;
  /** Where each name was learned, by its lower-case spelling (never printed: only the place is). */
  learnedAt: Map<string, LearnedName>;
}

function learnedText(names: KnownNames, found: string, display: Display): string {
  const plain = plainLetters(found).toLowerCase();
  const at = names.learnedAt.get(found.toLowerCase()) ?? [...names.learnedAt].find(([name]) => plainLetters(name) === plain)?.[1];
  if (!at) return "a name given with --user, in clear.config.json or by the runner's home";
  return `a name learned from ${at.file} at ${display.pointer(at.pointer)}`;
}

/** Whether a value as the capture holds it names a slug's owner whose name may go on past the dash substitution stopped at (homes.ts, runsOn). */
function slugOwnerUnclear(grammar: HomeGrammar, placesIn: JsonDocument, index: number): boolean {
  const span = placesIn.spans[index];
  if (span === undefined) return false;
  const raw = placesIn.text.slice(span.start + 1, span.end - 1);
  return grammar.mayHold(raw) && grammar.owners(decodeJsonString(raw)).some((o) => o.runsOn === true);
}

/** Refusals for one cleared document; places are given in the capture (`placesIn`), whose spans line up one for one. */
export function finalCheck(cleared: JsonDocument, placesIn: JsonDocument, file: string, grammar: HomeGrammar, names: KnownNames, display: Display, structure: ReadonlySet<string> = new Set()): Finding[] {
  const findings: Finding[] = [];
  // A number is kept as the host wrote it: one its member names a phone is refused, as it cannot be cleared.
  cleared.spans.forEach((span, index) => {
    if (span.kind !== "number" || !numberIsPhone(span.pointer, cleared.text.slice(span.start, span.end))) return;
    findings.push(finding("contact-in-number", { file, pointer: display.pointer(span.pointer), ...placeOf(placesIn.text, placesIn.spans[index]?.start ?? 0) }));
  });
  for (const { span, isKey, index } of stringTokens(cleared)) {
    const place = (isKey ? placesIn.keys : placesIn.spans)[index]?.start ?? 0;
    const text = decodeJsonString(cleared.text.slice(span.start + 1, span.end - 1));
    if (/^x*$/.test(text) || text === ENV_DUMP_PLACEHOLDER) continue;
    const readings = nestedReadings(text);
    const where = { file, pointer: display.pointer(span.pointer), ...placeOf(placesIn.text, place) };
    // A home after a tilde in a value is substitution's to replace, as it reads it; in a member name, which substitution never changes, it is refused.
    if (readings.some((r) => grammar.realOwners(r).some((o) => isKey || !o.unlearned))) {
      findings.push(finding(isKey ? "home-in-key" : "home-left", where));
      continue;
    }
    // Substitution replaced a slug's owner up to a dash, and the owner's name may go on past it.
    if (!isKey && slugOwnerUnclear(grammar, placesIn, index)) {
      findings.push(finding("home-owner-unclear", where));
      continue;
    }
    // A member name the rules spell is the host's own structure, not a person, even where a sitting taught that word as an owner.
    if (isKey && structure.has(text)) continue;
    // A mailbox or a phone number is a person's, in whatever class a rule kept it (an enum, an
    // identifier, a path, a URL); in a member name, which is never rewritten, it cannot be cleared.
    if (holdsContactIn(readings, isKey ? null : membersOf(span.pointer), text)) {
      findings.push(finding(isKey ? "contact-in-key" : "contact-left", where));
      continue;
    }
    const name = names.pattern ? nameSpelt(readings, names.pattern) : undefined;
    if (name !== undefined) findings.push(isKey ? finding("home-in-key", where) : finding("user-name-left", where, { learned: learnedText(names, name, display) }));
  }
  return findings;
}
