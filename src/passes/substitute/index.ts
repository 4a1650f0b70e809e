import type { Display } from "../../display.js";
import { finding } from "../../findings.js";
import { hashedOwners, homeGrammar, ownerNames, spanNames, tooLongName, tooLongOwner, userNamePattern, type HomeGrammar, type OwnerSpan } from "../../homes.js";
import { decodeJsonString, nestedReadings } from "../../json/escapes.js";
import { stringTokens, type StringToken } from "../../json/reader.js";
import { anchoredOwners, mayHoldAnchor } from "../../home-anchors.js";
import { accountNames, mayNameAccount, memberAccount, outputAccounts } from "../../account-names.js";
import type { Capture, HomeRules, LearnedName, Rules, Substitution } from "../../types.js";
import { clearFile, type ClearContext } from "./clear-file.js";
import { envDumpRule } from "./env-dump.js";
import { freeTextRule } from "./free-text.js";
import { homePathRule } from "./home-path.js";
import { literalRule, type Literal } from "./literal.js";
import type { SubstitutionRule } from "./rule.js";
import { urlRule } from "./url.js";

// The substitution pass: learn every home owner the sitting names, then clear each capture with
// the registry of rules in their fixed order.

export interface SubstituteOptions {
  /** Names given by --user, clear.config.json and the runner's home. */
  users: string[];
  literals: Literal[];
}

/** The owners a sitting names and the names given: learned once, used by substitution, its final check and the scan. Never printed. */
export interface SittingNames {
  /** Every name, learned or given: the home grammar extends owners by these. */
  all: string[];
  /** The names the final check and the scan look for as words (a one-letter learned name is not). */
  checked: string[];
  learnedAt: Map<string, LearnedName>;
  grammar: HomeGrammar;
}

/** A text sitting.json or kit.json gives the record and the sidecars, with where it stands. */
export interface CompanionText {
  file: string;
  pointer: string;
  value: string;
}

/** What a sitting's names are learned from: its captures, and any other file of it read as JSON (a capture under a name the tool refuses is the same person's). */
export type Teacher = Pick<Capture, "name" | "doc" | "homeHints">;

/** The names the sitting teaches (its captures' homes, and the homes its sitting.json and kit.json name) and the names given. */
export function sittingNames(captures: readonly Teacher[], rules: Rules, users: string[], display: Display, companions: CompanionText[] = []): SittingNames {
  const learnedAt = learnOwners(captures, homeGrammar(rules.homes), rules.homes);
  const plain = homeGrammar(rules.homes);
  for (const t of companions) {
    for (const reading of nestedReadings(t.value)) {
      for (const o of plain.realOwners(reading).filter((x) => !x.unlearned)) learn(learnedAt, o, { file: t.file, pointer: t.pointer });
      learnAnchored(learnedAt, reading, plain, rules.homes, { file: t.file, pointer: t.pointer });
    }
  }
  refuseTooLong(learnedAt, display);
  const all = [...new Set([...learnedAt.keys(), ...users])];
  // A name only a slug taught, where its end was not known, does not say where a slug's owner ends.
  const given = new Set(users.map((u) => u.toLowerCase()));
  const unsettled = [...learnedAt].filter(([name, at]) => at.runsOn === true && !given.has(name)).map(([name]) => name);
  const grammar = homeGrammar(rules.homes, all, { unsettled });
  // A learned name of one letter would refuse every file with that letter standing alone; its homes are still replaced.
  const givenNames = users.flatMap((u) => [u, ...ownerNames(u).slice(1)]);
  const checked = [...new Set([...[...learnedAt.keys()].filter((n) => n.length >= 2), ...givenNames])].filter((n) => grammar.isOwner(n));
  return { all, checked, learnedAt, grammar };
}

/**
 * A name no account has (thousands of characters) cannot be looked for: the run stops before
 * anything is written, saying where the sitting taught it (a name given is refused with its flag). Its length is said, never its letters.
 */
function refuseTooLong(learnedAt: Map<string, LearnedName>, display: Display): void {
  const learned = tooLongName(learnedAt.keys());
  const at = learned && learnedAt.get(learned.name);
  if (!learned || !at) return;
  throw tooLongOwner(`${at.file} at ${display.pointer(at.pointer)}`, learned.chars);
}

/** The registry, in the order the rules apply. */
export function registry(rules: Rules, grammar: HomeGrammar, literals: Literal[]): SubstitutionRule[] {
  return [homePathRule(grammar), ...literals.map(literalRule), envDumpRule(rules.refusals), urlRule(rules.urls), freeTextRule];
}

/** An owner's names (itself and the words of it a text may write alone), each with where it was first seen. */
function learn(learned: Map<string, LearnedName>, owner: OwnerSpan, at: LearnedName): void {
  for (const name of spanNames(owner)) teach(learned, name, owner.runsOn ? { ...at, runsOn: true } : at);
}

/** A name where it was first seen; a name only a slug that may run on had taught is settled by any other teacher, and keeps its place. */
function teach(learned: Map<string, LearnedName>, name: string, at: LearnedName): void {
  const before = learned.get(name);
  if (before === undefined) learned.set(name, at);
  else if (before.runsOn && !at.runsOn) learned.set(name, { file: before.file, pointer: before.pointer });
}

/** The owners a text's readings name: by the roots' rules, and by the anchor folders a host keeps in a home (home-anchors.ts). Whether the text may hold a home by the roots' words. */
function learnFrom(learned: Map<string, LearnedName>, raw: string, grammar: HomeGrammar, rules: HomeRules, at: LearnedName): boolean {
  learnAccounts(learned, raw, grammar, rules, at);
  const byRoots = grammar.mayHold(raw);
  const byAnchors = mayHoldAnchor(rules, raw);
  if (!byRoots && !byAnchors) return false;
  for (const reading of nestedReadings(decodeJsonString(raw))) {
    if (byRoots) {
      for (const o of grammar.realOwners(reading).filter((x) => !x.unlearned)) {
        learn(learned, o, at);
        for (const name of hashedOwners(reading, o)) teach(learned, name, at);
      }
    }
    if (byAnchors) learnAnchored(learned, reading, grammar, rules, at);
  }
  return byRoots;
}

/** The accounts a text names outright (account-names.ts): each that is someone, not the superuser nor a name the rules say is nobody. */
function learnAccounts(learned: Map<string, LearnedName>, raw: string, grammar: HomeGrammar, rules: HomeRules, at: LearnedName): void {
  if (!mayNameAccount(raw)) return;
  const decoded = decodeJsonString(raw);
  for (const reading of decoded.includes("\\") ? nestedReadings(decoded) : [decoded]) {
    for (const account of accountNames(reading)) learnAccount(learned, account, grammar, rules, at);
  }
}

/** The names the rules say are nobody, in lower case: made once per rules, not once per account. */
const nobodies = new WeakMap<HomeRules, Set<string>>();

/** An account's names, where it is someone: not the superuser nor a name the rules say is nobody. */
function learnAccount(learned: Map<string, LearnedName>, account: string, grammar: HomeGrammar, rules: HomeRules, at: LearnedName): void {
  let nobody = nobodies.get(rules);
  if (!nobody) nobodies.set(rules, (nobody = new Set((rules.anchors?.notOwners ?? []).map((n) => n.toLowerCase()))));
  if (!grammar.isOwner(account) || nobody.has(account.toLowerCase())) return;
  for (const name of ownerNames(account)) teach(learned, name, at);
}

/** Where a tool call's response is the output of its command: Claude Code's stdout, Codex's text, OpenCode's output and result (a text part of its content). */
const RESPONSE_OUTPUT = /^\/(?:tool_response(?:\/stdout|\/output)?|output\/output|output\/metadata\/output|result\/output|result\/content\/\d+\/text)$/;
/** Where a tool call's command stands: Claude Code's and Codex's tool_input (command, or Codex's cmd), OpenCode's input (or its args) and output's args. */
const COMMAND_AT = /^\/(?:tool_input\/(?:command|cmd)|input\/command|input\/args\/command|output\/args\/command)(?:\/\d+)?$/;

/**
 * The accounts a capture's structure names: a member named as an environment's variable
 * ({"env": {"USER": …}}, git's committer), and what a tool call prints by its command (whoami, id -un,
 * echo $USER and echo $HOME, who and last, finger and net user, ls /home, stat -c %U, persons' first
 * field of passwd: the output names the account with nothing around it saying so), learned where its output stands.
 */
function learnCommandOutput(learned: Map<string, LearnedName>, c: Teacher, tokens: readonly StringToken[], grammar: HomeGrammar, rules: HomeRules): void {
  let reader: ((output: string) => string[]) | null = null;
  const outputs: { raw: string; pointer: string }[] = [];
  for (const { span: t, isKey } of tokens) {
    if (isKey) continue;
    const raw = c.doc.text.slice(t.start + 1, t.end - 1);
    const member = memberAccount(t.pointer, raw);
    if (member !== null) learnAccount(learned, member, grammar, rules, { file: c.name, pointer: t.pointer });
    if (COMMAND_AT.test(t.pointer) && raw.length <= 4096) reader ??= outputAccounts(decodeJsonString(raw));
    else if (RESPONSE_OUTPUT.test(t.pointer)) outputs.push({ raw, pointer: t.pointer });
  }
  if (reader === null) return;
  for (const o of outputs) {
    for (const account of reader(decodeJsonString(o.raw))) learnAccount(learned, account, grammar, rules, { file: c.name, pointer: o.pointer });
  }
}

/** Only separators, as a raw JSON string writes them (/, \\, \/): between a home's owner and the folder right below it. */
const SEPARATORS_ONLY = /^[\\/]{1,4}$/;

/**
 * The owners the anchor folders of a text name. A segment inside a home the roots know is a folder
 * of that home (a dotfiles repository, a test's fixtures, a CLAUDE_CONFIG_DIR in it), no owner;
 * but before a host's own data, the folder right below the owner the roots read is a home one
 * level down (/home/<group>/<owner>, where the roots read the group as the owner), and is learned.
 */
function learnAnchored(learned: Map<string, LearnedName>, text: string, grammar: HomeGrammar, rules: HomeRules, at: LearnedName): void {
  const anchored = anchoredOwners(rules, text);
  if (anchored.length === 0) return;
  const homes = grammar.mayHold(text) ? grammar.owners(text) : [];
  for (const a of anchored) {
    const inHome = homes.filter((o) => o.end >= a.path && o.end <= a.start);
    const oneLevelDown = !a.inRepository && inHome.some((o) => SEPARATORS_ONLY.test(text.slice(o.end, a.start)));
    if (!grammar.isOwner(a.owner) || (inHome.length > 0 && !oneLevelDown)) continue;
    for (const name of ownerNames(a.owner)) teach(learned, name, at);
  }
}

/** How many texts learning keeps to pass over when they come again: a sitting of a million distinct texts holds no more than this in memory. */
const MAX_READ_KEPT = 1 << 16;

/**
 * Every home owner the captures name (in values, member names and nested JSON), by the roots of
 * `grammar` and the anchor folders of `rules`, with where each was first seen. Each capture is given
 * the values that may hold a home (homeHints), which substitution reads rather than search again.
 */
export function learnOwners(captures: readonly Teacher[], grammar: HomeGrammar, rules: HomeRules): Map<string, LearnedName> {
  const learned = new Map<string, LearnedName>();
  // A sitting repeats its texts (a cwd, a transcript's path in every capture): a text read once has taught all it can, where it was first seen.
  const read = new Map<string, boolean>();
  for (const c of captures) {
    const tokens = stringTokens(c.doc);
    learnCommandOutput(learned, c, tokens, grammar, rules);
    const mayHold = new Uint8Array(c.doc.spans.length);
    for (const { span: t, isKey, index } of tokens) {
      const raw = c.doc.text.slice(t.start + 1, t.end - 1);
      let holds = read.get(raw);
      if (holds === undefined) {
        if (read.size >= MAX_READ_KEPT) read.clear();
        read.set(raw, (holds = learnFrom(learned, raw, grammar, rules, { file: c.name, pointer: t.pointer })));
      }
      if (holds && !isKey) mayHold[index] = 1;
    }
    c.homeHints = { rules, mayHold };
  }
  return learned;
}

export function substitutePass(captures: Capture[], rules: Rules, options: SubstituteOptions, display: Display, names: SittingNames = sittingNames(captures, rules, options.users, display), cleared?: (capture: Capture) => void): Substitution {
  const known = { pattern: userNamePattern(names.checked), learnedAt: names.learnedAt };
  const context: ClearContext = { rules, registry: registry(rules, names.grammar, options.literals), grammar: names.grammar, names: known, display };
  const files = captures.map((c) => {
    const file = clearFile(c, context);
    cleared?.(c);
    return file;
  });
  const findings = files.flatMap((f) => [
    ...f.report.refused,
    ...f.report.review.map((pointer) => finding("review-free-text", { file: f.report.name, pointer })),
    ...f.report.undocumented.map((pointer) => finding("undocumented-value", { file: f.report.name, pointer })),
  ]);
  return { userNames: names.all.length, declarations: rules.homes.declared ?? [], files, skipped: [], findings };
}
