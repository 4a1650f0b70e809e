// Whether a line of a pre-push hook, above the gate's line, may take what git hands the hook on
// standard input: the refs pushed, which the gate checks. Any reader may leave the gate some of
// them (a reader of one line, of a block, of a count of bytes), or none, or hand it others
// (`exec 0<file`), so every command that may read standard input counts as taking them. Only a
// command known to read none, or one given its own standard input (`</dev/null`, `<file`), does
// not. A substitution inherits the shell's standard input, whatever its command's redirections. Pure.

/** Commands, by their bare name, that read no standard input whatever their arguments. */
const READS_NONE = new Set([
  "echo", "printf", "true", "false", ":", "test", "[", "export", "readonly", "unset", "local", "declare", "typeset", "umask",
  "sleep", "basename", "dirname", "pwd", "set", "shift", "exit", "return", "break", "continue",
]);

/**
 * git's own commands that read standard input only when an argument asks them to, and start no
 * program of the configuration's (a pager, an external diff, a text conversion, fsmonitor).
 */
const GIT_READS_NONE = new Set(["rev-parse", "config", "symbolic-ref", "rev-list", "ls-files", "describe", "var", "branch", "remote"]);

/** An argument that has git read standard input (`-`, --stdin, a file under /dev or /proc), or open an editor, which may. */
const GIT_READS_ASKED = /^(?:-|-e|-F|--(?:stdin|batch|parseopt|exclude-existing|edit|file|interactive|patch)\b.*|.*=-|(?:.*=)?\/+(?:dev|proc)\/.*)$/;

/** Words that open a compound command before the command whose input is asked about. */
const OPENERS = new Set(["if", "then", "else", "elif", "while", "until", "do", "!", "time"]);

const SUBSTITUTION = /\$\([^()'"`\\]*\)|`[^`'"\\]*`/g;
const QUOTED = /'[^']*'|"(?:[^"\\$`]|\\.|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|\$[?#@*0-9])*"/g;
const MARK = "\u0001";

/** A file given as standard input that is not the hook's own again (/dev/stdin, /dev/fd/0, /proc/self/fd/0, any of /dev or /proc but /dev/null). */
function ownInput(target: string): boolean {
  if (target === "" || /[$\u0001*?[~]/.test(target)) return false;
  const file = target.replace(/\/+/g, "/").replace(/\/\.(?=\/|$)/g, "");
  return file === "/dev/null" || !/^\/(?:dev|proc)(?:\/|$)/.test(file);
}

interface Redirected {
  /** A redirection gives the command a standard input of its own. */
  own: boolean;
  /** A redirection moves standard input at all (`<&-`, `0<&3`, `<file`). */
  moved: boolean;
}

/** What the redirections among `words` (their operator and target, one word or two) do to standard input; the rest are the command's words. */
function redirections(words: string[]): Redirected & { rest: string[] } {
  const found: Redirected = { own: false, moved: false };
  const rest: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const at = /^([0-9]*)(<>|<&|<|>>|>&|>\||>)(.*)$/.exec(words[i] as string);
    if (at === null) {
      rest.push(words[i] as string);
      continue;
    }
    const [, fd, op, glued] = at as unknown as [string, string, string, string];
    const target = glued !== "" ? glued : (words[++i] ?? "");
    if ((fd || (op.startsWith("<") ? "0" : "1")) !== "0") continue;
    found.moved = true;
    found.own = op === "<&" ? target === "-" : ownInput(target);
  }
  return { ...found, rest };
}

/** Whether one simple command, standing first in its pipeline, may read the hook's standard input. */
function commandReads(command: string): boolean {
  const { own, moved, rest } = redirections(command.trim().split(/[ \t]+/).filter(Boolean));
  let at = 0;
  while (at < rest.length && (/^[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=/.test(rest[at] as string) || OPENERS.has(rest[at] as string))) at++;
  const name = rest[at];
  // `exec` with redirections alone moves the shell's own standard input, and so the gate's.
  if (name === "exec") return moved || rest.length > at + 1;
  if (own) return false;
  // Redirections alone: bash's `$(<file)` reads the file, which may be the hook's standard input again.
  if (name === undefined) return moved;
  if (READS_NONE.has(name)) return false;
  const args = rest.slice(at + 2);
  return !(name === "git" && GIT_READS_NONE.has(rest[at + 1] ?? "") && args.every((a) => !/[$\u0001`]/.test(a) && !GIT_READS_ASKED.test(a)));
}

/** The line with what was quoted or substituted standing as one mark each, and the substitutions' own commands. */
function marked(line: string): { bare: string; substituted: string[] } {
  const substituted: string[] = [];
  let bare = line;
  for (let before = ""; before !== bare; ) {
    before = bare;
    bare = bare.replace(SUBSTITUTION, (s) => {
      substituted.push(s.startsWith("`") ? s.slice(1, -1) : s.slice(2, -1));
      return MARK;
    });
  }
  return { bare: bare.replace(QUOTED, MARK).replace(/(?:^|[ \t]+)#.*$/, ""), substituted };
}

/** Whether a line may read the hook's standard input: a command first in its pipeline, or one in a substitution. */
export function readsStdin(line: string): boolean {
  if (/^[ \t]*(#.*)?$/.test(line)) return false;
  const { bare, substituted } = marked(line);
  if (substituted.some(readsStdin)) return true;
  // Past a `|` a command reads the pipe; past any other separator, the hook's own standard input.
  const pieces = bare.split(/(\|\||&&|\|&?|;|(?<![<>])&)/);
  for (let k = 0; k < pieces.length; k += 2) {
    const after = pieces[k - 1];
    if (after !== undefined && after.startsWith("|") && after !== "||") continue;
    if (commandReads(pieces[k] as string)) return true;
  }
  return false;
}
