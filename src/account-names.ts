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

/** A person's name as a command prints it: letters first, then letters, marks, digits, dots, apostrophes, dashes and blanks. */
const PERSON_NAME = /^[\p{L}_][\p{L}\p{M}0-9._' -]{0,63}$/u;

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

/** What a command's line may hold before the command itself: a cd to where it runs. */
const CD = String.raw`^\s*(?:cd\s+[^\s;&|]{1,256}\s*&&\s*)?`;
/** Its errors sent along, or thrown away. */
const ERRORS = String.raw`(?:\s*2>(?:&1|\/dev\/null))?`;
/** After a command whose output's first line is read: its errors, a tr, head or cat it is piped to, then only more commands, whose output follows. */
const FIRST_LINE_THEN = String.raw`${ERRORS}(?:\s*\|\s*(?:tr|head|cat)\b[^|;&\n]{0,64})?\s*(?:(?:&&|;|\|\||\n)[^]*)?$`;

/** A text's first line that is not blank, without the blanks around it. */
const firstLine = (text: string): string => (text.split(/\r?\n/).find((l) => l.trim() !== "") ?? "").trim();
/** A text's last line that is not blank, without the blanks around it. */
const lastLine = (text: string): string => (text.split(/\r?\n/).filter((l) => l.trim() !== "").pop() ?? "").trim();
/**
 * A command's arguments up to the next pipe or command: never ending in a blank, which the blanks
 * before a pipe take. Where both could take them, a run of blanks is cut in every way there is:
 * 20 pipes after `ls /home` took seconds.
 */
const ARGS = String.raw`(?:[^|;&\n<>]{0,127}[^|;&\n<>\s])?`;
/** Files named to a command: from a character that is not a blank to one that is not. */
const FILES = String.raw`[^|;&\n<>\s](?:[^|;&\n<>]{0,254}[^|;&\n<>\s])?`;
/** After a command whose output's last line is read: its errors, a tr, head or cat it is piped to, and nothing more. */
const LAST_LINE = String.raw`${ERRORS}(?:\s*\|\s*(?:tr|head|cat)\b${ARGS})?\s*;?\s*$`;
/** After a command whose output lists accounts one a line: its errors, then what keeps its lines (grep, head, tail, sort, uniq, less, more, cat). */
const LINES_KEPT = String.raw`${ERRORS}(?:\s*\|\s*(?:grep|egrep|head|tail|sort|uniq|less|more|cat)\b${ARGS})*\s*$`;

/** The naming commands that print the account's name whenever they succeed: whoami, id -un (also spelt in long options), logname. */
const ALWAYS_NAMING = String.raw`(?:whoami|id\s+-(?:un|nu|u\s+-n|n\s+-u)|id\s+--(?:user\s+--name|name\s+--user)|logname)`;

/**
 * A command whose output's first line is the account's name: whoami, id -un, logname, echo $USER, printenv USER,
 * git config user.name (the person's name), Windows' echo %USERNAME% and $env:USERNAME; after a cd, its errors
 * sent along or a tr, head or cat it is piped to; after it, only more commands, whose output follows.
 */
const NAMING = `(?:${ALWAYS_NAMING}|echo\\s+"?\\$\\{?(?:USER|LOGNAME)\\}?"?|printenv\\s+(?:USER|LOGNAME)|git\\s+config\\s+(?:--(?:global|local|get)\\s+)*user\\.name|echo\\s+%USERNAME%|(?:echo\\s+|Write-Output\\s+)?\\$env:USERNAME)`;
const NAMING_COMMAND = new RegExp(`${CD}${NAMING}${FIRST_LINE_THEN}`, "i");
/**
 * A naming command that always prints the name (whoami, id -un, logname), last after other commands
 * run whatever they did (ls; whoami): its output is the last line. Not after && or ||, which skip it
 * when the command before fails (its last line, "Killed", would be read as the name); not echo
 * $USER or git config user.name, which print nothing where it is unset. One between two others
 * cannot be told apart.
 */
const NAMING_LAST = new RegExp(`(?:;|\\n)[ \\t]*${ALWAYS_NAMING}${LAST_LINE}`, "i");

/** A command whose output's first line is the account's home: echo $HOME or ~, printenv HOME, cd and pwd, Windows' %USERPROFILE% and $env:USERPROFILE; as a naming command may stand. */
const HOME_COMMAND = new RegExp(
  `${CD}(?:echo\\s+"?(?:\\$\\{?HOME\\}?|~)"?|printenv\\s+HOME|cd\\s*(?:~\\s*)?(?:&&|;)\\s*pwd|echo\\s+%USERPROFILE%|(?:echo\\s+|Write-Output\\s+)?\\$env:USERPROFILE)` +
    FIRST_LINE_THEN,
  "i",
);

/**
 * A command whose output is a table of the accounts logged in, one a line in its first column: who,
 * w, users, last, lastlog, Windows' query user and quser; alone, or piped to what keeps the first
 * column first (grep, head, tail, sort, less, cat, or awk and cut printing it): another command's
 * output after it would be read as the table. ps is not one: the accounts its processes run as are
 * mostly a system's (a container's app, a mail server's postfix).
 */
const TABLE_COMMAND = new RegExp(
  `${CD}(?:sudo\\s+)?(who|w|users|last|lastb|lastlog|query\\s+user|quser)\\b${ARGS}${ERRORS}(?:\\s*\\|\\s*(?:(?:grep|egrep|head|tail|sort|uniq|less|more|cat)\\b|awk\\s+'\\{\\s*print\\s+\\$1\\s*\\}'|cut\\s+-d\\s*'?\\s?'?\\s+-f\\s*1\\b)${ARGS})*\\s*$`,
  "i",
);

/** A command that prints the environment, where git's committer stands on a line of its own: env, printenv, export -p, declare -x, set. */
const ENVIRONMENT_COMMAND = new RegExp(`${CD}(?:env|printenv|export\\s+-p|declare\\s+-[xp]{1,2}|set)${ERRORS}(?:\\s*\\|\\s*(?:grep|egrep|sort|head|tail|cat)\\b${ARGS})*\\s*$`, "i");

/** A command that prints one account's record: finger, pinky, Windows' net user, macOS's dscl . -read /Users/… */
const RECORD_COMMAND = new RegExp(`${CD}(?:finger|pinky|net\\s+user|dscl\\s+\\.\\s+-read)\\b[^;&\\n]{0,256}$`, "i");

/** The folder a system's homes stand in, as a listing names it: each entry is an account's home. */
const HOMES_FOLDER = String.raw`["']?(?:/home|/Users|/export/home|/usr/home)/?["']?`;
/** ls of the folder homes stand in (ls /home, ls -1 /Users/): its entries are the accounts'. A long listing is read as ls -l's lines are, anywhere. */
const HOMES_LISTING = new RegExp(`${CD}(?:sudo\\s+)?ls(?:\\s+(?:-[1aACFGp]{1,6}|--color(?:=(?:never|auto|always))?))*\\s+${HOMES_FOLDER}${LINES_KEPT}`);

/**
 * passwd's first field of the accounts from a person's number up ($3 >= 1000, or from 500): awk
 * -F: '$3 >= 1000 {print $1}'. Every account's first field (cut -d: -f1) is not read: most are a
 * system's, which no list of them holds all of (halt, operator, cron, gnome-initial-setup).
 */
const PERSONS_FIELD = String.raw`awk\s+-F\s*["']?:["']?\s+["']\$3\s*>=?\s*(?:[5-9]\d\d|[1-9]\d{3,9})\s*(?:&&\s*\$3\s*<=?\s*\d{1,10}\s*)?\{\s*print\s+\$1\s*\}["']`;
/**
 * Commands that print one account a line and nothing else: stat printing only each file's owner
 * (stat -c %U, macOS's stat -f %Su), passwd's first field of persons' accounts (of /etc/passwd, or
 * of getent passwd), and the owner's column of ls -l (awk '{print $3}').
 */
const ACCOUNT_LINES = [
  new RegExp(`${CD}stat\\s+(?:-L\\s+)?(?:-L?c\\s*|--format[=\\s]\\s*|--printf[=\\s]\\s*|-L?f\\s*)["']?%(?:U|Su)(?:\\\\n)?["']?\\s+${FILES}${LINES_KEPT}`),
  new RegExp(`${CD}(?:${PERSONS_FIELD}\\s+/etc/passwd|(?:getent\\s+passwd|cat\\s+/etc/passwd)\\s*\\|\\s*${PERSONS_FIELD})${LINES_KEPT}`),
  new RegExp(`${CD}ls\\s+-[A-Za-z]*l[A-Za-z]*(?:\\s+${FILES})?\\s*\\|\\s*(?:tail\\s+-n\\s*\\+2\\s*\\|\\s*)?awk\\s+["'](?:NR\\s*>\\s*1\\s*)?\\{\\s*print\\s+\\\\?\\$3\\s*\\}["']${LINES_KEPT}`),
];

/** The accounts a system makes for itself, which own processes and files: no person's. */
const DAEMONS = new Set([
  ...["avahi", "colord", "rtkit", "kernoops", "whoopsie", "gdm", "lightdm", "sddm", "polkitd", "tss", "uuidd", "tcpdump", "usbmux", "dnsmasq"],
  ...["pulse", "geoclue", "saned", "speech-dispatcher", "fwupd-refresh", "landscape", "pollinate", "lxd", "chrony", "ntp", "statd", "libvirt-qemu"],
  ...["dbus", "polkit", "rpc", "rpcuser", "nscd", "unbound", "ftp", "mongodb", "elasticsearch", "docker", "containerd", "jenkins", "git", "gitlab-runner"],
]);
/** The words a table's header, or a line that names no account, begins with. */
const NOT_ACCOUNTS = new Set(["user", "uid", "name", "username", "login", "reboot", "shutdown", "runlevel", "wtmp", "btmp", "unknown"]);

/** Whether an account (in lower case) is one a system makes for itself: listed, or named as a system names its own (_www, systemd-network). */
const systemAccount = (lower: string): boolean => SYSTEM_ACCOUNTS.has(lower) || DAEMONS.has(lower) || lower.startsWith("_") || lower.startsWith("systemd-");

/** Whether a first column of a table names a person's account: a name, no number, no header's word, no system's account. */
function personsColumn(word: string): boolean {
  return WHOLE_NAME.test(word) && !NOT_ACCOUNTS.has(word.toLowerCase()) && !systemAccount(word.toLowerCase());
}

/** The name a naming command's output holds: its first line that is not blank (after a Windows host\), where it is a name (a person's has spaces); none otherwise. */
function namedInOutput(output: string): string[] {
  const first = firstLine(output);
  // Windows' whoami writes the machine's or the domain's name before the account's: host\<name>.
  const line = /^[A-Za-z0-9._-]{1,63}\\./.test(first) ? first.slice(first.indexOf("\\") + 1) : first;
  return PERSON_NAME.test(line) ? [line] : [];
}

/** Folders a home may be named after that name no one (a container's HOME=/github/home, /root, /app). */
const FOLDER_WORDS = new Set(["home", "users", "root", "tmp", "var", "srv", "opt", "app", "work", "workspace", "data", "github", "config", "nonexistent", "www", "lib"]);

/** The owner a home printed on the output's first line names: its last folder (/srv/<name>, C:\Users\<name>). */
function homeInOutput(output: string): string[] {
  const first = firstLine(output);
  if (!/^(?:\/|[A-Za-z]:\\|\\\\)/.test(first)) return [];
  const last = first.split(/[\\/]+/).filter((p) => p !== "").at(-1) ?? "";
  return PERSON_NAME.test(last) && !FOLDER_WORDS.has(last.toLowerCase()) && !systemAccount(last.toLowerCase()) ? [last] : [];
}

/** The accounts a table names in its first column (after quser's mark of the session it runs in, ">"); lastlog's accounts never logged in are a system's. */
function tableAccounts(output: string): string[] {
  const named: string[] = [];
  for (const line of output.split(/\r?\n/)) {
    const word = /^(?: ?>| (?=\S))?(\S+)/.exec(line)?.[1];
    if (word !== undefined && personsColumn(word) && !line.includes("**Never logged in**")) named.push(word);
  }
  return named;
}

/** One account a line: each line that is a person's account's name. */
const accountPerLine = (output: string): string[] => output.split(/\r?\n/).map((l) => l.trim()).filter(personsColumn);

/** Entries of the homes' folder that are no account's home. */
const NOT_HOMES = new Set(["shared", "guest", "public", "default", "deleted", "lost+found", "linuxbrew", ".localized", "desktop.ini", ".", ".."]);

/** A listing of the homes' folder: each entry an account's, where every entry is a name (a listing, not a message). */
function homesListed(output: string): string[] {
  const entries = output.split(/\s+/).map((e) => e.replace(/\/$/, "")).filter((e) => e !== "" && !NOT_HOMES.has(e.toLowerCase()));
  if (!entries.every((e) => WHOLE_NAME.test(e))) return [];
  return entries.filter((e) => personsColumn(e) && !FOLDER_WORDS.has(e.toLowerCase()));
}

/** users's one line: every account logged in, parted by blanks. */
const loggedInAccounts = (output: string): string[] => firstLine(output).split(/\s+/).filter(personsColumn);

/** An account's record (a field's value on its own line: an empty one is not the next line's label): finger's and pinky's Login: and Name:, net user's User name and Full Name, dscl's RecordName: and RealName:. */
const RECORD_FIELDS = [
  new RegExp(String.raw`(?<![^\r\n])\s{0,8}Login(?: name)?:[ \t]{1,32}(${NAME})(?![A-Za-z0-9._-])`, "g"),
  /\bIn real life:[ \t]{1,32}([^\r\n\t]{1,64}?)[ \t]*$/gm,
  /(?<![^\r\n])\s{0,8}Login:[ \t]{1,32}\S+[ \t]+Name:[ \t]{1,32}([^\r\n\t]{1,64}?)[ \t]*$/gm,
  new RegExp(String.raw`(?<![^\r\n])User name[ \t]{1,64}(${NAME})[ \t]*\r?$`, "gm"),
  /(?<![^\r\n])Full Name[ \t]{1,64}([^\r\n]{1,64}?)[ \t]*\r?$/gm,
  new RegExp(String.raw`(?<![^\r\n])RecordName:[ \t]{1,32}(${NAME})[ \t]*\r?$`, "gm"),
  /(?<![^\r\n])RealName:(?:[ \t]*\r?\n)?[ \t]+([^\r\n]{1,64}?)\s*$/gm,
];

/** finger's and pinky's table of everyone logged in (a header of Login then Name), and net user's list of every account, between its rule of dashes and its last line. */
const FINGER_TABLE = /^\s*Login\s+Name\b/;
const ACCOUNT_LIST = /^-{20,}\s*$/m;
/** The accounts Windows makes for itself, which net user lists: no person's. */
const WINDOWS_ACCOUNTS = new Set(["administrator", "guest", "defaultaccount", "wdagutilityaccount", "defaultuser0"]);

function accountList(output: string): string[] {
  const rule = ACCOUNT_LIST.exec(output);
  if (rule === null) return [];
  const lines = output.slice(rule.index + rule[0].length).split(/\r?\n/);
  const body = lines.slice(0, Math.max(0, lines.findIndex((l) => /^The command completed/.test(l))));
  return body.flatMap((l) => l.trim().split(/\s{2,}/)).filter((n) => personsColumn(n) && !WINDOWS_ACCOUNTS.has(n.toLowerCase()));
}

function recordAccounts(output: string): string[] {
  if (FINGER_TABLE.test(firstLine(output))) return tableAccounts(output);
  const named: string[] = accountList(output);
  for (const field of RECORD_FIELDS) {
    field.lastIndex = 0;
    for (const m of output.matchAll(field)) if (PERSON_NAME.test((m[1] as string).trim())) named.push((m[1] as string).trim());
  }
  return named;
}

/** git's committer as the environment prints it: GIT_AUTHOR_NAME= or GIT_COMMITTER_NAME= on a line of its own (declared or exported), quoted or not; a bot's (dependabot[bot]) is no person's name. */
const COMMITTER = /^(?:declare -x |export )?GIT_(?:AUTHOR|COMMITTER)_NAME=(.{1,66})$/;

function committersPrinted(output: string): string[] {
  const named: string[] = [];
  for (const line of output.split(/\r?\n/)) {
    const value = COMMITTER.exec(line)?.[1]?.replace(/^(["'])(.*)\1$/, "$2").trim() ?? "";
    if (PERSON_NAME.test(value)) named.push(value);
  }
  return named;
}

/**
 * An echo of text around one account's variable (echo "user: $USER", echo "home=${HOME}"), alone
 * or before more commands: the words before the variable, the variable, the words after it. One
 * with a second expansion, a command's output or a backslash in it cannot be lined up with what it printed.
 */
const QUOTED_AROUND = String.raw`"([^"$\x60\\\n]{0,128})\$\{?(USER|LOGNAME|HOME)\}?([^"$\x60\\\n]{0,128})"`;
const BARE_AROUND = String.raw`([^\s"'$\x60\\;&|<>]{0,128})\$\{?(USER|LOGNAME|HOME)\}?([^\s"'$\x60\\;&|<>]{0,128})`;
const ECHO_AROUND = new RegExp(`${CD}echo\\s+(?:-[neE]{1,3}\\s+)?(?:${QUOTED_AROUND}|${BARE_AROUND})\\s*(?:(?:&&|;|\\n)[^]*)?$`);

/** The reader of what an echo around an account's variable prints: its first line, with the words around the variable as the echo wrote them. */
function echoedAround(command: string): ((output: string) => string[]) | null {
  const m = ECHO_AROUND.exec(command);
  if (m === null) return null;
  const [before, variable, after] = m[2] !== undefined ? [m[1] ?? "", m[2], m[3] ?? ""] : [m[4] ?? "", m[5] ?? "", m[6] ?? ""];
  return (output) => {
    const first = firstLine(output);
    if (first.length < before.trim().length + after.trim().length || !first.startsWith(before.trimStart()) || !first.endsWith(after.trimEnd())) return [];
    const value = first.slice(before.trimStart().length, first.length - after.trimEnd().length);
    return variable === "HOME" ? homeInOutput(value) : namedInOutput(value);
  };
}

/** How a tool call's command names accounts in its output: the reader of that output, or null where the command names none. */
export function outputAccounts(command: string): ((output: string) => string[]) | null {
  if (command.length > 4096) return null;
  if (NAMING_COMMAND.test(command)) return namedInOutput;
  if (HOME_COMMAND.test(command)) return homeInOutput;
  const echoed = echoedAround(command);
  if (echoed !== null) return echoed;
  const table = TABLE_COMMAND.exec(command)?.[1]?.toLowerCase();
  if (table !== undefined) return table === "users" ? loggedInAccounts : tableAccounts;
  if (ENVIRONMENT_COMMAND.test(command)) return committersPrinted;
  if (RECORD_COMMAND.test(command)) return recordAccounts;
  if (NAMING_LAST.test(command)) return (output) => namedInOutput(lastLine(output));
  if (HOMES_LISTING.test(command)) return homesListed;
  if (ACCOUNT_LINES.some((c) => c.test(command))) return accountPerLine;
  return null;
}
