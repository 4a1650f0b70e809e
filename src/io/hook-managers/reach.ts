// Whether a shell hook the user owns certainly runs the gate's line. Shell cannot be read whole
// here, so only what is plainly harmless above that line counts as passing on to it: blank lines,
// comments and simple commands (quoted words, variables, substitutions closed on the line,
// redirections, pipes and lists), none of them a word that ends the script, skips, branches, loops
// or changes what `sh` means. A line that leaves a quote, a heredoc, a group or a substitution
// open, or carries on to the next, is not read. Where git runs the file itself, its first line
// must name a POSIX-family shell, or nothing. A line that sets or exports a variable the gate's line
// depends on (GATE_ENVIRONMENT: which programs it finds, which repository and index git reads, code
// run first) does not pass on either: the gate would run, but not reliably as itself on what is committed.
// At pre-push, neither does a line that may read the refs git hands the gate on standard input (stdin.ts). Pure.

import { readsStdin } from "./stdin.js";

/** `changes`: the line in the way changes what the gate's line runs or reads; `readsRefs`: it takes the refs git hands the gate on standard input; else it may end or skip it. */
export type Reach = { kind: "reached"; line: number } | { kind: "absent" } | { kind: "not-shell" } | { kind: "blocked"; line: number; gate: number; changes: boolean; readsRefs: boolean };

const SH_SHEBANG = /^#!\s*\S*\/(?:env[ \t]+)?(?:sh|bash|dash|ash|ksh|zsh)(?:[ \t].*)?$/;

/** Words that can end the script, skip or branch past a line, or change what a later command runs. */
const STOPS = new Set([
  "exit", "exec", "return", "break", "continue", "if", "then", "else", "elif", "fi", "case", "esac", "for", "while", "until", "do",
  "done", "select", "function", "trap", "kill", "eval", "source", ".", "set", "alias", "unalias", "hash", "command", "builtin",
  "enable", "shopt", "cd", "pushd", "popd", "logout", "suspend", "shift",
]);

/** husky 4 to 8's first line: its helper ends the hook only under its own skip switch (HUSKY=0). */
export const HUSKY_HELPER = /^\. "\$\(dirname (?:-- )?"\$0"\)\/_\/husky\.sh"[ \t]*$/;

const SUBSTITUTION = /\$\([^()'"`\\]*\)|`[^`'"\\]*`/g;
const QUOTED = /'[^']*'|"(?:[^"\\$`]|\\.|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|\$[?#@*0-9])*"/g;

const QUOTE_MARK = "\u0001";

/**
 * The variables that change what the gate's line runs or reads: which programs it finds (PATH),
 * which repository, index and configuration git reads (GIT_*, HOME, XDG_CONFIG_HOME), code a shell
 * or node runs first (BASH_ENV, ENV, NODE_OPTIONS, NODE_PATH, LD_*, DYLD_*), how the shell parts
 * words (IFS, SHELLOPTS, BASHOPTS), npm's own settings, and what the gate itself reads (PRE_COMMIT*,
 * CLEAR_*). A variable set for one command alone (`NODE_ENV=test npx x`) is that command's.
 */
export const GATE_ENVIRONMENT = /^(?:PATH|GIT_\w*|HOME|XDG_CONFIG_HOME|BASH_ENV|ENV|NODE_OPTIONS|NODE_PATH|LD_\w+|DYLD_\w+|IFS|SHELLOPTS|BASHOPTS|PRE_COMMIT\w*|CLEAR_\w*|HUSKY\w*|npm_config_\w+|NPM_CONFIG_\w+)$/;

/** A default given in an expansion (`${PATH:=x}`, `${HOME=x}`) sets the variable where it is unset or empty. */
const DEFAULT_SET = /\$\{([A-Za-z_][A-Za-z0-9_]*):?=/g;

/** Commands that set a variable named by an argument: one built of quotes or expansions (export "$v=x") may name any. */
const SETTERS = new Set(["export", "readonly", "declare", "typeset", "local", "unset", "read", "getopts", "mapfile", "readarray", "let"]);
/** A command's name written out in letters, digits and the marks a path or a program's name holds; or the test command. */
const PLAIN_NAME = /^(?:[A-Za-z0-9_./+:@%,-]+|\[)$/;

/**
 * `set` with only the options that make a failing command end the hook with its failure, or that
 * trace (-e, -u, -x, -v, -f, -o pipefail; never -n, which runs nothing after it, nor `set --`), and
 * `exec` with only redirections (`exec 1>&2`), which moves the output and runs no other program.
 */
function harmless(word: string, args: string[]): boolean {
  const named = /^(?:pipefail|errexit|nounset|xtrace)$/;
  if (word === "set") return args.length > 0 && args.every((a, k) => /^[-+][euxvf]+$/.test(a) || (/^[-+][euxvf]*o$/.test(a) && named.test(args[k + 1] ?? "")) || (named.test(a) && /^[-+][euxvf]*o$/.test(args[k - 1] ?? "")));
  return word === "exec" && args.length > 0 && args.every((a) => /^[0-9]*(?:>|>>|<|>&|<&)[0-9-]*$/.test(a) || /^[0-9]*>&?[0-9]+$/.test(a));
}

/** True when a line above the gate's line certainly neither ends the script nor keeps the shell from reading the next line. */
function passesOn(line: string): boolean {
  if (/^[ \t]*(#.*)?$/.test(line) || HUSKY_HELPER.test(line)) return true;
  // A substitution runs in a subshell: whatever it holds cannot end the script, once it closes on the line.
  // What was quoted or substituted stands as one mark: as an argument it passes, as (part of) the command's name it is not read.
  let bare = line;
  for (let before = ""; before !== bare; ) [before, bare] = [bare, bare.replace(SUBSTITUTION, QUOTE_MARK)];
  bare = bare.replace(QUOTED, QUOTE_MARK).replace(/[ \t]+#.*$/, "");
  if (/['"`\\(){}\r]|<<|\$\(/.test(bare) || /(&&|\|\||\|)[ \t]*$/.test(bare)) return false;
  return bare.split(/;|&&|\|\||\||(?<![<>])&/).every((command) => {
    const words = command.trim().split(/[ \t]+/).filter(Boolean);
    for (let i = 0; i < words.length; i++) {
      const word = words[i] as string;
      if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) continue;
      if (/^[0-9]*[<>]/.test(word)) {
        if (/^[0-9]*(?:<|>|>>|<>|>\|)$/.test(word)) i++;
        continue;
      }
      // The command's name, written out: one built of quotes, variables or patterns ("ex""it", $c, e*t) may be any word.
      const name = word.slice(word.lastIndexOf("/") + 1);
      if (harmless(word, words.slice(i + 1))) return true;
      // printf sets a variable only with -v (bash); its format in quotes is what it prints.
      const sets = SETTERS.has(name) || (name === "printf" && words[i + 1] === "-v");
      if (sets && words.slice(i + 1).some((w) => /[$\u0001]/.test(w.split("=")[0] as string))) return false;
      return PLAIN_NAME.test(word) && !STOPS.has(word) && !STOPS.has(name);
    }
    return true;
  });
}

/** A listed variable's name anywhere in a word (`p=PATH` of a nameref, `a[GIT_DIR=0]` of a subscript), not read through an expansion. */
const LISTED_IN = new RegExp(`(?<![\\w$])(?:${GATE_ENVIRONMENT.source.slice(4, -2)})(?!\\w)`);
/** Arithmetic (`$((…))`, `$[…]`, `((…))`), which may assign to any variable it names. */
const ARITHMETIC = /\$\(\([^)]*\)\)|\$\[[^\]]*\]|\(\([^)]*\)\)/g;

/**
 * The variables a line sets for the shell itself (and so for the gate's line below it): bare
 * assignments (`NAME=`, `NAME+=`, `NAME[i]=`), defaults given in expansions, and, for a command
 * that sets what its arguments name (export, declare -n, let, printf -v…) or arithmetic, every
 * listed name it holds: where that one is set cannot be told.
 */
function namesSet(line: string): string[] {
  if (/^[ \t]*(#.*)?$/.test(line)) return [];
  const names = [...line.matchAll(DEFAULT_SET)].map((m) => m[1] as string);
  for (const m of line.matchAll(ARITHMETIC)) if (LISTED_IN.test(m[0])) names.push(LISTED_IN.exec(m[0])?.[0] as string);
  let bare = line;
  for (let before = ""; before !== bare; ) [before, bare] = [bare, bare.replace(SUBSTITUTION, QUOTE_MARK)];
  bare = bare.replace(QUOTED, QUOTE_MARK).replace(/[ \t]+#.*$/, "");
  for (const command of bare.split(/;|&&|\|\||\||(?<![<>])&/)) {
    const words = command.trim().split(/[ \t]+/).filter(Boolean);
    const assigned = words.findIndex((w) => !/^[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=/.test(w));
    // Assignments alone set the shell's own variables; before a command, only that command's (but a subscript's arithmetic runs in the shell).
    for (const w of assigned === -1 ? words : words.slice(0, assigned)) {
      const at = /^([A-Za-z_][A-Za-z0-9_]*)((?:\[[^\]]*\])?)/.exec(w) as RegExpExecArray;
      if (assigned === -1) names.push(at[1] as string);
      if (LISTED_IN.test(at[2] as string)) names.push(LISTED_IN.exec(at[2] as string)?.[0] as string);
    }
    const name = (words[assigned] ?? "").replace(/^.*\//, "");
    if (SETTERS.has(name) || (name === "printf" && words[assigned + 1] === "-v")) {
      for (const w of words.slice(assigned + 1)) if (LISTED_IN.test(w)) names.push(LISTED_IN.exec(w)?.[0] as string);
    }
  }
  return names;
}

/** Whether a line sets a variable that changes what the gate's line runs or reads. */
const changesGate = (line: string): boolean => namesSet(line).some((n) => GATE_ENVIRONMENT.test(n));

/**
 * Where `callLine` stands in `text`, alone and unindented, and whether every line above it passes on
 * to it; with `refsOnStdin` (pre-push), also without reading what git hands the gate.
 */
export function gateLineReach(text: string, callLine: string, runsItself: boolean, refsOnStdin = false): Reach {
  const lines = text.split("\n");
  const gate = lines.indexOf(callLine);
  if (gate === -1) return { kind: "absent" };
  if (runsItself && lines[0]?.startsWith("#!") && !SH_SHEBANG.test(lines[0])) return { kind: "not-shell" };

  const takesRefs = (l: string): boolean => refsOnStdin && !HUSKY_HELPER.test(l) && readsStdin(l);
  const stop = lines.slice(0, gate).findIndex((l) => !passesOn(l) || changesGate(l) || takesRefs(l));
  if (stop === -1) return { kind: "reached", line: gate + 1 };
  return { kind: "blocked", line: stop + 1, gate: gate + 1, changes: changesGate(lines[stop]!), readsRefs: takesRefs(lines[stop]!) };
}

/** Why a line in the way keeps the gate's line from running as itself, said of `below` (the gate's line, or a line added below it). */
export function blockedWhy(reach: Extract<Reach, { kind: "blocked" }>, below: string): string {
  if (reach.changes) return `sets a variable the gate depends on (PATH, GIT_*, HOME, NODE_OPTIONS, BASH_ENV and the like), which changes what ${below} runs or reads`;
  if (reach.readsRefs) return `reads standard input, where git hands the gate the refs pushed, so ${below} would check only what it leaves there (give it its own, as </dev/null, where it needs none)`;
  return `may end it or carry it past ${below}`;
}
