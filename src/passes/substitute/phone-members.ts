import { pointerTokens } from "../../json/reader.js";

// A phone number written as digits alone ("4155550100", 14155550100) is a run of digits like any
// count, time or id, but not under a member that names it: a member whose last word (its case style
// undone, digits after it and a number's word after it left aside) is a phone's, in English or in
// the words other languages use ("phone", "homePhone", "PHONENUMBER", "phone2", "tel", "mobile_no",
// "cell", "fax", "msisdn", "sms", "telefono", "handy"; not "smsSent" nor "phoneVerifiedAt"), or a
// part of one (`{"phone": {"number": …}}`); seven to fifteen digits (a plus before them, blanks,
// dots, dashes or brackets between them), as a number or a string, in a capture or in JSON (or a
// Python dict) a string holds.

const PHONE_WORD = /^(?:(?:tele|home|work|office|mobile|cell|cellular|main|primary|my|contact|personal|private|business)?phones?|tel|t[eé]l[eé]fon[oe]?|telefoon|телефон|电话|mobiles?|cell|cellular|celular|cellulare|handy|m[oó]vil|fax|msisdn|whats?app|sms|landline)(?:no|nr|num|number|nummer|numero|número)?$/u;
/** Words that name a phone only with a number's word after them ("contact_number", "caller": {"number": …}). */
const WITH_NUMBER = /^(?:contact|caller|callee|dial|recipient|emergency)$/;
const NUMBER_WORD = /^(?:numbers?|nos?|nrs?|nums?|nummer|numero|número|e164)$/;
/** The member under a phone's that holds its number: `{"phone": {"number": …}}`, `{"phones": {"home": …}}`. */
const PHONE_PART = /^(?:numbers?|value|home|work|office|mobile|cell|main|primary|personal|private|business|local|e164|national|international|digits|full|formatted|raw|landline|fax)$/;
const PHONE_DIGITS = /^\+?\(?\d[\d ().\p{Pd}]*\d$/u;

/** A member's words: its case style (camel, snake, kebab, dotted) undone, in lower case, each without the digits that end it ("phone2"; "e164" is a word). */
function memberWords(name: string): string[] {
  const words = name.replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, "$1 $2").toLowerCase().split(/[^\p{L}\p{N}]+/u);
  return words.map((w) => (NUMBER_WORD.test(w) || PHONE_PART.test(w) ? w : w.replace(/\d+$/, ""))).filter((w) => w !== "");
}

function namesPhone(name: string): boolean {
  const words = memberWords(name);
  // WhatsApp's wa_id is the person's phone number.
  if (words.join(" ") === "wa id") return true;
  let numbered = false;
  while (words.length > 1 && NUMBER_WORD.test(words[words.length - 1] as string)) {
    words.pop();
    numbered = true;
  }
  const last = words[words.length - 1] ?? "";
  return PHONE_WORD.test(last) || (numbered && WITH_NUMBER.test(last));
}

/** Whether a member, by its own words, names a part of a phone ("number", "home", "e164"). */
const namesPart = (name: string): boolean => {
  const words = memberWords(name);
  return words.length > 0 && words.every((w) => PHONE_PART.test(w) || NUMBER_WORD.test(w));
};

/** Whether members, outermost first, name a phone: the innermost does, or it is a part of one the one around it names. */
function pathNamesPhone(members: string[]): boolean {
  // Inward from the member that holds the value: parts of a phone ({"phone": {"number": {"value": …}}}), then what they are parts of.
  for (let at = members.length - 1, depth = 0; at >= 0 && depth < 3; at--, depth++) {
    const name = members[at] as string;
    if (namesPhone(name) || (depth > 0 && WITH_NUMBER.test(memberWords(name).join(" ")))) return true;
    if (!namesPart(name)) return false;
  }
  return false;
}

/** A number as JSON writes it, as its digits where it is a whole one ("4.1555501e9" is 4155550100). */
function numberDigits(text: string): string {
  if (/^-?\d+$/.test(text)) return text.replace("-", "");
  const value = Number(text);
  return Number.isInteger(value) && Math.abs(value) < 1e15 ? String(Math.abs(value)) : "";
}

const DATE = /^(?:19|20)\d\d(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])(?:\d\d){0,3}$/;
/** Digits that read as a date (and a time), or as a Unix time in seconds or milliseconds, which no North American number begins with a 1 as. */
export const readsAsTime = (digits: string): boolean => (DATE.test(digits) && digits.length % 2 === 0) || (/^1/.test(digits) && (digits.length === 10 || digits.length === 13));

/** Members that hold a message's or a call's ends (WhatsApp's messages[].from, Twilio's To), a phone where they hold one in full: a string of ten to fifteen digits alone. */
const ENDS = new Set(["from", "to", "sender", "recipient", "destination", "callerid", "callee", "e164", "canonicalform"]);

/** Whether a string under these members is a phone number by where it stands: ten to fifteen digits alone under a message's or a call's end. */
export function phoneAtEnds(members: string[], value: string): boolean {
  const name = (members[members.length - 1] ?? "").toLowerCase().replace(/[^a-z0-9]/g, "");
  return ENDS.has(name) && /^\+?\d{10,15}$/.test(value) && !readsAsTime(value.replace("+", ""));
}

/** Whether a value (a string's text, or a number's digits) under these members is a phone number by their names. */
export function phoneByMembers(members: string[], value: string): boolean {
  if (!PHONE_DIGITS.test(value)) return false;
  const digits = value.replace(/\D/g, "").length;
  return digits >= 7 && digits <= 15 && pathNamesPhone(members);
}

/** The members a pointer names, array indexes left out. */
export const membersOf = (pointer: string): string[] => pointerTokens(pointer).filter((t) => !/^(?:0|[1-9]\d*)$/.test(t));

/** Whether a JSON number at `pointer` is a phone number by its members' names: ten to fifteen digits (a count of a few million under "mobile" is a count), not a time. */
export function numberIsPhone(pointer: string, text: string): boolean {
  const digits = numberDigits(text);
  return digits.length >= 10 && !readsAsTime(digits) && phoneByMembers(membersOf(pointer), digits);
}

/** A member and its value: a name in double or single quotes, a colon (or =), digits in quotes or none, in a list or not. */
const MEMBER_DIGITS = /(["'])((?:(?!\1)[^\\]|\\.){1,80})\1\s*[:=]\s*(?:\[\s*)?(["']?)(\+?\(?\d[\d ().\p{Pd}]{5,30}\d|\d\.\d+[eE]\+?\d{1,2})\3(?![\d.eE])/gu;
/** The same one object down: a phone's member holding an object whose member holds the number. */
const NESTED_DIGITS = /(["'])((?:(?!\1)[^\\]|\\.){1,80})\1\s*:\s*(?:\[\s*)?\{[^{}]{0,300}?(["'])((?:(?!\3)[^\\]|\\.){1,40})\3\s*:\s*(["']?)(\+?\(?\d[\d ().\p{Pd}]{5,30}\d|\d\.\d+[eE]\+?\d{1,2})\5(?![\d.eE])/gu;

/** Whether a text holds JSON (or a Python dict) whose member names a phone and whose value is one. */
export function holdsPhoneMember(text: string): boolean {
  if (!/[:=]/.test(text)) return false;
  // A number in exponent form is its digits.
  const digits = (v: string): string => (/[eE]/.test(v) ? numberDigits(v) : v);
  return [...text.matchAll(MEMBER_DIGITS)].some((m) => phoneByMembers([m[2] as string], digits(m[4] as string))) || [...text.matchAll(NESTED_DIGITS)].some((m) => phoneByMembers([m[2] as string, m[4] as string], digits(m[6] as string)));
}
