// Whether a shell hook the user owns certainly runs the gate's line. Shell cannot be read whole
// here, so only what is plainly harmless above that line counts as passing on to it: blank lines,
// comments and simple commands (quoted words, variables, substitutions closed on the line,
// redirections, pipes and lists), none of them a word that ends the script, skips, branches, loops
// or changes what `sh` means. A line that leaves a quote, a heredoc, a group or a substitution
// open, or carries on to the next, is not read. Where git runs the file itself, its first line
// must name a POSIX-family shell, or nothing. A line that sets or exports PATH or a GIT_ variable
// (which programs the gate's line finds, which repository and index git reads) does not pass on
// either: the gate would run, but not reliably as itself on what is committed. Pure.

/** `changes`: the line in the way changes what the gate's line runs or reads, rather than ending or skipping it. */
export type Reach = { kind: "reached"; line: number } | { kind: "absent" } | { kind: "not-shell" } | { kind: "blocked"; line: number; gate: number; changes: boolean };

const SH_SHEBANG = /^#!\s*\S*\/(?:env[ \t]+)?(?:sh|bash|dash|ash|ksh|zsh)(?:[ \t].*)?$/;

/** Words that can end the script, skip or branch past a line, or change what a later command runs. */
const STOPS = new Set([
  "exit", "exec", "return", "break", "continue", "if", "then", "else", "elif", "fi", "case", "esac", "for", "while", "until", "do",
  "done", "select", "function", "trap", "kill", "eval", "source", ".", "set", "alias", "unalias", "hash", "command", "builtin",
  "enable", "shopt", "cd", "pushd", "popd", "logout", "suspend",
]);

/** husky 4 to 8's first line: its helper ends the hook only under its own skip switch (HUSKY=0). */
const HUSKY_HELPER = /^\. "\$\(dirname (?:-- )?"\$0"\)\/_\/husky\.sh"[ \t]*$/;

const SUBSTITUTION = /\$\([^()'"`\\]*\)|`[^`'"\\]*`/g;
const QUOTED = /'[^']*'|"(?:[^"\\$`]|\\.|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|\$[?#@*0-9])*"/g;

const QUOTE_MARK = "\u0001";

/** PATH or a GIT_ variable named as a word (`export PATH`, `GIT_DIR=x`, `unset GIT_INDEX_FILE`) or set in an expansion (`${PATH:=x}`). */
const GATE_ENVIRONMENT = /(?<![$\w{])(?:PATH|GIT_\w*)(?!\w)|\$\{(?:PATH|GIT_\w*):?=/;

/** Commands that set a variable named by an argument: one built of quotes or expansions (export "$v=x") may name any. */
const SETTERS = new Set(["export", "readonly", "declare", "typeset", "local", "unset", "read", "getopts", "printf", "mapfile", "readarray", "let"]);
/** A command's name written out in letters, digits and the marks a path or a program's name holds; or the test command. */
const PLAIN_NAME = /^(?:[A-Za-z0-9_./+:@%,-]+|\[)$/;

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
      if (SETTERS.has(name) && words.slice(i + 1).some((w) => w.includes("$") || w.includes(QUOTE_MARK))) return false;
      return PLAIN_NAME.test(word) && !STOPS.has(word) && !STOPS.has(name);
    }
    return true;
  });
}

/** Where `callLine` stands in `text`, alone and unindented, and whether every line above it passes on to it. */
export function gateLineReach(text: string, callLine: string, runsItself: boolean): Reach {
  const lines = text.split("\n");
  const gate = lines.indexOf(callLine);
  if (gate === -1) return { kind: "absent" };
  if (runsItself && lines[0]?.startsWith("#!") && !SH_SHEBANG.test(lines[0])) return { kind: "not-shell" };
  const changes = (l: string): boolean => !/^[ \t]*#/.test(l) && GATE_ENVIRONMENT.test(l);
  const stop = lines.slice(0, gate).findIndex((l) => !passesOn(l) || changes(l));
  if (stop === -1) return { kind: "reached", line: gate + 1 };
  return { kind: "blocked", line: stop + 1, gate: gate + 1, changes: changes(lines[stop]!) };
}
