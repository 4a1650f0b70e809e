import { pushAll } from "./collections.js";
import { withoutTerminalSequences } from "./home-shown.js";

// Where a text names its account outright rather than by a home: what `id` prints
// (uid=1000(<name>) gid=1000(<name>)), an environment's USER=, LOGNAME= and USERNAME= (also as JSON
// members, "USER": "<name>"), the SUDO_USER= or DOAS_USER= of a command run as another account (the
// account that ran it), a shell's prompt (<name>@host:~/w$ , [<name>@host w]$ ) and git's user.name=
// (the person's name, as `git config --list` prints it). A sitting whose homes stand nowhere a root
// reads (a cwd under /srv, a sandbox) still shows its account there, and the name is learned as a
// home's owner is, so a file keeping it is refused. An author git's log names is not learned: a log
// names whoever wrote each commit, most of them other people. A system's listings name accounts too:
// a passwd line (cat /etc/passwd, getent passwd) and stat's Uid: of a person's number (500 and up,
// not nobody's 65534), and the owner ls -l writes of a file, where it is no system's account.

/** A word these forms begin with, as written or spelt with a JSON escape ("\u0055SER="): a text without one names no account so. */
const ACCOUNT_WORD = /uid=|USER|LOGNAME|user\.name=|\\u00[4-7][0-9A-Fa-f]|:\d+:\d+:|Uid: \(|[r-][w-][xsS-][r-][w-][xsS-][r-][w-][xtT-]/;
/** What a prompt holds: a prompt's mark before a blank or a line's end (with an at sign, tested apart). */
const PROMPT_MARK = /[$#%](?: |$)/m;
/** An account's name as `id` or an environment writes it: a letter or an underscore, then at most 31 of letters, digits, dots, dashes and underscores. */
const NAME = String.raw`[A-Za-z_][A-Za-z0-9._-]{0,31}`;
const ACCOUNT = new RegExp(
  String.raw`(?<![A-Za-z0-9_])(?:(?:(?:SUDO_|DOAS_)?USER|LOGNAME|USERNAME)(?:=["']?|["']\s*:\s*["'])(${NAME})(?![A-Za-z0-9._-])|[ug]id=\d+\((${NAME})\))`,
  "g",
);
const HOST = String.raw`@[A-Za-z0-9][A-Za-z0-9.-]{0,252}`;
/**
 * A shell's prompt at a line's start, after an optional (venv): [<name>@host folder]$ , or <name>@host
 * then the folder after ":" or after a blank (zsh's <name>@host ~ % , a blank before its mark), then $, # or % before a blank or the line's end.
 */
const PROMPT = new RegExp(String.raw`(?<![^\r\n])(?:\([^()\r\n]{1,64}\) )?(?:\[(${NAME})${HOST} [^\s\]]{0,256}\]|(${NAME})${HOST}(?::[^\s]{0,256}| [^\s\]]{1,256} ?)?)[$#%](?= |$)`, "gm");
/** git's user.name= at a line's start to its end, as `git config --list` prints it: a person's name, spaces and all (not a command's -c user.name=, often a bot's). */
const GIT_USER = /(?<![^\r\n])user\.name=([^\r\n=]{1,64})/g;
/** A passwd line at a line's start (<name>:x:1000:1000:…), its name and number. */
const PASSWD = new RegExp(String.raw`(?<![^\r\n])(${NAME}):[^:\r\n]{0,128}:(\d{1,10}):\d{1,10}:`, "g");
/** stat's owner: Uid: ( 1000/<name>). */
const STAT_UID = new RegExp(String.raw`Uid: \(\s{0,10}(\d{1,10})/\s{0,32}(${NAME})\)`, "g");
/** ls -l's line at a line's start: the mode, the links, then the owner. */
const LISTED = new RegExp(String.raw`(?<![^\r\n])[-dlcbps][r-][w-][xsS-][r-][w-][xsS-][r-][w-][xtT-][.@+]? {1,16}\d{1,10} {1,16}(${NAME}) `, "g");
/** The accounts a system makes for itself, which own files ls -l lists: no person's. */
const SYSTEM_ACCOUNTS = new Set(["root", "daemon", "bin", "sys", "sync", "games", "man", "lp", "mail", "news", "uucp", "proxy", "www-data", "backup", "list", "irc", "nobody", "messagebus", "syslog", "sshd", "postgres", "mysql", "redis", "nginx", "apache", "admin", "staff", "wheel"]);
/** A number a person's account has: 500 and up (macOS begins at 501, Linux at 1000), not nobody's. */
const personNumber = (n: string): boolean => Number(n) >= 500 && Number(n) !== 65534 && Number(n) !== 4294967294;

/** The accounts a system's listings name: passwd lines and stat's Uid: of a person's number, ls -l's owner where it is no system's. */
function listedNames(text: string): string[] {
  const named: string[] = [];
  for (const m of text.matchAll(PASSWD)) if (personNumber(m[2] as string)) named.push(m[1] as string);
  for (const m of text.matchAll(STAT_UID)) if (personNumber(m[1] as string)) named.push(m[2] as string);
  for (const m of text.matchAll(LISTED)) if (!SYSTEM_ACCOUNTS.has((m[1] as string).toLowerCase()) && !(m[1] as string).startsWith("_")) named.push(m[1] as string);
  return named;
}

/** Accounts a prompt-like text names that are a service's, not a person's (git@github.com:). */
const SERVICE_ACCOUNTS = new Set(["git"]);

const mayPrompt = (text: string): boolean => text.includes("@") && PROMPT_MARK.test(text);

/** Whether a text may write an account in these forms: a cheap test before `accountNames`. */
export const mayNameAccount = (text: string): boolean => ACCOUNT_WORD.test(text) || mayPrompt(text);

/** A member of a capture's own JSON that holds the account, as an environment's variable does ({"env": {"USER": "<name>"}}): its pointer's end. */
const ACCOUNT_MEMBER = /\/(?:SUDO_|DOAS_)?USER$|\/LOGNAME$|\/USERNAME$/;
const WHOLE_NAME = new RegExp(`^${NAME}$`);

/** The account a member of a capture's own JSON holds, by its pointer: its value where it is a name; none otherwise. */
export const memberAccount = (pointer: string, value: string): string | null => (ACCOUNT_MEMBER.test(pointer) && WHOLE_NAME.test(value) ? value : null);

/** The account names a text writes in these forms, as written; none where it writes none. */
export function accountNames(text: string): string[] {
  if (!mayNameAccount(text)) return [];
  ACCOUNT.lastIndex = 0;
  const named = [...text.matchAll(ACCOUNT)].map((m) => (m[1] ?? m[2]) as string);
  GIT_USER.lastIndex = 0;
  pushAll(named, [...text.matchAll(GIT_USER)].map((m) => (m[1] as string).trim()).filter((n) => n !== ""));
  pushAll(named, listedNames(text));
  if (mayPrompt(text)) pushAll(named, promptNames(withoutTerminalSequences(text)));
  return named;
}

/** The accounts a text's shell prompts name, a service's (git) left out. */
function promptNames(text: string): string[] {
  PROMPT.lastIndex = 0;
  return [...text.matchAll(PROMPT)].map((m) => (m[1] ?? m[2]) as string).filter((n) => !SERVICE_ACCOUNTS.has(n.toLowerCase()));
}

/**
 * A command whose output's first line is the account's name: whoami, id -un, logname, echo $USER, printenv USER,
 * git config user.name (the person's name), Windows' echo %USERNAME% and $env:USERNAME; after a cd, its errors
 * sent along or a tr, head or cat it is piped to; after it, only more commands.
 */
const NAMING_COMMAND = new RegExp(
  String.raw`^\s*(?:cd\s+[^\s;&|]{1,256}\s*&&\s*)?(?:whoami|id\s+-(?:un|nu|u\s+-n|n\s+-u)|logname|echo\s+"?\$\{?(?:USER|LOGNAME)\}?"?|printenv\s+(?:USER|LOGNAME)|git\s+config\s+(?:--(?:global|local|get)\s+)*user\.name|echo\s+%USERNAME%|(?:echo\s+|Write-Output\s+)?\$env:USERNAME)` +
    String.raw`(?:\s*2>(?:&1|\/dev\/null))?(?:\s*\|\s*(?:tr|head|cat)\b[^|;&\n]{0,64})?\s*(?:(?:&&|;|\|\||\n)[^]*)?$`,
  "i",
);

/** Whether a tool call's command prints the account's name on its output's first line. */
export const namesAccount = (command: string): boolean => command.length <= 4096 && NAMING_COMMAND.test(command);

/** The name a naming command's output holds: its first line that is not blank (after a Windows host\), where it is a name (a person's has spaces); none otherwise. */
export function namedInOutput(output: string): string | null {
  const first = output.split(/\r?\n/).find((l) => l.trim() !== "")?.trim() ?? "";
  // Windows' whoami writes the machine's or the domain's name before the account's: host\<name>.
  const line = /^[A-Za-z0-9._-]{1,63}\\./.test(first) ? first.slice(first.indexOf("\\") + 1) : first;
  return /^[\p{L}_][\p{L}\p{M}0-9._' -]{0,63}$/u.test(line) ? line : null;
}
