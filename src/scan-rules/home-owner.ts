import type { SecretLintRuleCreator } from "@secretlint/types";
import { spellsName, type HomeGrammar, type OwnerSpan } from "../homes.js";
import type { Reading } from "./reading-builder.js";
import { readingsOf } from "./readings.js";

// Substitution's final check as a scan rule: a home whose owner is not the placeholder, or a known
// user name, in any reading of any string. The scan catches what substitution let through.

export const HOME_OWNER_RULE = "clear/home-owner";
export const HOME_OWNER_DESCRIPTION = "A home directory's owner or a known user name";

export function homeOwnerRule(grammar: HomeGrammar, names: RegExp | null, structure: ReadonlySet<string> = new Set()): SecretLintRuleCreator {
  const messages = { FOUND: { en: () => "a home directory's owner or a user name is here" } };
  const everyName = names ? new RegExp(names.source, `g${names.flags.replace("g", "")}`) : null;
  return {
    messages,
    meta: { id: HOME_OWNER_RULE, type: "scanner", recommended: true, supportedContentTypes: ["text"] },
    create(context) {
      const t = context.createTranslator(messages);
      const report = (range: [number, number]): void => context.report({ message: t("FOUND"), range });
      return {
        file(source) {
          for (const s of readingsOf(source.content).strings) {
            // A member name the rules spell is the host's structure, as in substitution's final check.
            if (s.keyShapesOnly || (s.isKey && s.readings.length === 1 && structure.has(s.readings[0]?.text ?? "") && !grammar.mayHold(s.readings[0]?.text ?? ""))) continue;
            for (const r of s.readings) {
              if (/^x*$/.test(r.text)) continue;
              if (grammar.mayHold(r.text)) {
                // As in the final check: a home after a tilde counts in a member name, where no substitution reads it.
                for (const o of grammar.realOwners(r.text)) if ((s.isKey || !o.unlearned) && !endedAtControl(grammar, r, o)) report([r.rawAt(o.start), r.rawAt(o.end)]);
              }
              const written = everyName !== null && names !== null && names.test(r.text);
              if (everyName && written) {
                for (const m of r.text.matchAll(everyName)) report([r.rawAt(m.index ?? 0), r.rawAt((m.index ?? 0) + m[0].length)]);
              }
              if (everyName) for (const [start, end] of spelledLines(r.text, everyName, written)) report([r.rawAt(start), r.rawAt(end)]);
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
function endedAtControl(grammar: HomeGrammar, r: Reading, o: OwnerSpan): boolean {
  const source = r.controlsOutOf;
  if (source === undefined) return false;
  const at = r.rawAt(o.start);
  return grammar.owners(source.text).some((k) => source.rawAt(k.start) === at);
}

/**
 * Each line of a text that spells a name through an escape the readings do not undo ("\\x7a" for
 * "z", a shell's quoting), as its range: which characters spell it is not known. A name the
 * pattern finds as written is reported at its own place, and is not what makes a line spell one.
 */
function spelledLines(text: string, names: RegExp, written: boolean): [number, number][] {
  const out: [number, number][] = [];
  for (let at = 0; at < text.length; ) {
    const nl = text.indexOf("\n", at);
    const end = nl === -1 ? text.length : nl;
    // Where the text holds no name as written (`written`), no line does: there is nothing to take out.
    const line = text.slice(at, end);
    if (spellsName(written ? line.replace(names, " ") : line, names)) out.push([at, end]);
    at = end + 1;
  }
  return out;
}
