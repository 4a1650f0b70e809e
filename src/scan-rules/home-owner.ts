import type { SecretLintRuleCreator } from "@secretlint/types";
import { spellsName, type HomeGrammar, type LineEndCrossing, type NamePattern, type OwnerSpan } from "../homes.js";
import type { Reading } from "./reading-builder.js";
import { readingsOf } from "./readings.js";

// Substitution's final check as a scan rule: a home whose owner is not the placeholder, or a known
// user name, in any reading of any string. The scan catches what substitution let through.

export const HOME_OWNER_RULE = "clear/home-owner";
export const HOME_OWNER_DESCRIPTION = "A home directory's owner or a known user name";

export function homeOwnerRule(grammar: HomeGrammar, names: NamePattern | null, structure: ReadonlySet<string> = new Set()): SecretLintRuleCreator {
  const messages = { FOUND: { en: () => "a home directory's owner or a user name is here" } };
  return {
    messages,
    meta: { id: HOME_OWNER_RULE, type: "scanner", recommended: true, supportedContentTypes: ["text"] },
    create(context) {
      const t = context.createTranslator(messages);
      const report = (range: [number, number]): void => context.report({ message: t("FOUND"), range });
      return {
        file(source) {
          // Readings of one text (each escape undone, each spelling read) share most of their lines: each line is judged once.
          const seen: Seen = { spelled: new Map(), written: new Map(), crossed: new Map(), controlled: new Map() };
          for (const s of readingsOf(source.content).strings) {
            // A member name the rules spell is the host's structure, as in substitution's final check.
            if (s.keyShapesOnly || (s.isKey && s.readings.length === 1 && structure.has(s.readings[0]?.text ?? "") && !grammar.mayHold(s.readings[0]?.text ?? ""))) continue;
            for (const r of s.readings) {
              if (/^x*$/.test(r.text)) continue;
              if (grammar.mayHold(r.text)) {
                // As in the final check: a home after a tilde counts in a member name, where no substitution reads it.
                for (const o of grammar.realOwners(r.text)) if ((s.isKey || !o.unlearned) && !endedAtControl(grammar, r, o, seen)) report([r.rawAt(o.start), r.rawAt(o.end)]);
              }
              if (names === null) continue;
              const finds = writtenNames(r.text, names, seen);
              for (const [start, end] of finds) report([r.rawAt(start), r.rawAt(end)]);
              for (const [start, end] of spelledLines(r.text, names, finds.length > 0, seen)) report([r.rawAt(start), r.rawAt(end)]);
            }
          }
        },
      };
    },
  };
}

/**
 * Whether an owner read once controls of ASCII were taken out starts where the reading they were
 * taken from reads an owner: the grammar, as learning and substitution do, ends that owner at the
 * control ("/home/<placeholder> \x01a", a backspace one level of escapes too far in
 * "C:\\Users\\<placeholder>\\bin"), and the reading with it is read. An owner the controls hid
 * ("/home/\x01<owner>") is still one.
 */
function endedAtControl(grammar: HomeGrammar, r: Reading, o: OwnerSpan, seen: Seen): boolean {
  const source = r.controlsOutOf;
  if (source === undefined) return false;
  // Read once for all its owners: the grammar keeps no answer for a long text, and a file of source may find hundreds.
  let starts = seen.controlled.get(source);
  if (starts === undefined) seen.controlled.set(source, (starts = new Set(grammar.owners(source.text).map((k) => source.rawAt(k.start)))));
  return starts.has(r.rawAt(o.start));
}

/** What the readings of one text were found to hold, by line (and around each line end): most lines stand in many readings. */
interface Seen {
  spelled: Map<string, boolean>;
  written: Map<string, [number, number][]>;
  crossed: Map<string, boolean>;
  /** Where each owner of a reading that holds controls starts in the raw text. */
  controlled: Map<Reading, Set<number>>;
}

/** Where the pattern finds each name as written in a text, as a search of the text finds them. */
const findsIn = (within: string, names: NamePattern): [number, number][] => names.all(within).map((m) => [m.index, m.index + m[0].length]);

/** The finds in one line (or lines a find may run over), searched once for all readings of a text. */
function lineFinds(line: string, names: NamePattern, seen: Seen): [number, number][] {
  let found = seen.written.get(line);
  if (found === undefined) seen.written.set(line, (found = findsIn(line, names)));
  return found;
}

/**
 * Each name the pattern finds as written in a text, as a search of the whole text finds them. A
 * line end no find may run over parts the text: a search of each part finds the same (the
 * pattern's boundaries read a line end as they read the text's ends), and each part is searched
 * once for all readings.
 */
function writtenNames(text: string, names: NamePattern, seen: Seen): [number, number][] {
  const out: [number, number][] = [];
  for (let at = 0, nl = text.indexOf("\n"); at <= text.length; nl = text.indexOf("\n", nl + 1)) {
    if (nl !== -1 && crossesLineEnd(text, nl, names.crossing, seen.crossed)) continue;
    const end = nl === -1 ? text.length : nl;
    for (const [start, stop] of lineFinds(text.slice(at, end), names, seen)) out.push([at + start, at + stop]);
    at = end + 1;
  }
  return out;
}

/** Whether a find of the pattern for names may run over the line end at `nl`: what stands within reach of it is looked at once. */
function crossesLineEnd(text: string, nl: number, crossing: LineEndCrossing, crossed: Map<string, boolean>): boolean {
  if (crossing === null) return false;
  if (crossing === "any") return true;
  const around = text.slice(Math.max(0, nl - crossing.reach), nl + crossing.reach + 1);
  let crosses = crossed.get(around);
  if (crosses === undefined) crossed.set(around, (crosses = crossing.pattern.test(around)));
  return crosses;
}

/** A line with each name the pattern finds in it as written made a space. */
function namesTakenOut(line: string, names: NamePattern, seen: Seen): string {
  let [out, from] = ["", 0];
  for (const [start, end] of lineFinds(line, names, seen)) [out, from] = [`${out}${line.slice(from, start)} `, end];
  return out + line.slice(from);
}

/**
 * Each line of a text that spells a name through an escape the readings do not undo ("\\x7a" for
 * "z", a shell's quoting), as its range: which characters spell it is not known. A name the
 * pattern finds as written is reported at its own place, and is not what makes a line spell one.
 * What a line spells depends on the line alone (and on `written`): each verdict is kept for the
 * other readings of the same text.
 */
function spelledLines(text: string, names: NamePattern, written: boolean, seen: Seen): [number, number][] {
  const out: [number, number][] = [];
  for (let at = 0; at < text.length; ) {
    const nl = text.indexOf("\n", at);
    const end = nl === -1 ? text.length : nl;
    // Where the text holds no name as written (`written`), no line does: there is nothing to take out.
    const line = text.slice(at, end);
    const key = `${written ? "w" : "-"}${line}`;
    let spells = seen.spelled.get(key);
    if (spells === undefined) seen.spelled.set(key, (spells = spellsName(written ? namesTakenOut(line, names, seen) : line, names)));
    if (spells) out.push([at, end]);
    at = end + 1;
  }
  return out;
}
