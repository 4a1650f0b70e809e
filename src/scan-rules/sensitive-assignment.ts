import type { SecretLintRuleCreator } from "@secretlint/types";
import type { Reading } from "./reading-builder.js";
import { eachMatch } from "../regex.js";
import { readingsOf } from "./readings.js";
import { looksSecret, OBJECT_PATH, sensitive } from "./sensitive-member.js";

// A value a text assigns to a name that names a credential (the names sensitive-member judges):
// an environment line or `export`, a flag (`--password=…`, `--token …`), a header
// (`Authorization: <scheme> …`, `X-Api-Key: …`, a cookie's values), a YAML, TOML or INI line, JSON
// written in text (`"password": "…"`), an element (`<password>…</password>`), and the password of a
// URL, a DSN or a command line's user (`scheme://user:pw@host`, `user:pw@tcp(…)`, `curl -u user:pw`), a token a URL gives as its user,
// a client's own password flag (`docker login -p …`, `redis-cli -a …`), and what a command sets a
// credential's name to or stores as a secret (`setx API_KEY …`, `git config github.token …`, `gh secret set X --body …`),
// a value in quotes after such a name in quotes and a comma (`define('DB_PASSWORD', '…')`), a value
// beside such a name in a table a tool printed (`| DB_PASSWORD | … |`, `DB_PASSWORD    …`, `DB_PASSWORD,…`),
// a `.pgpass` line's password, and a value in JSON apart from its name (`["X-Api-Key", "…"]`, `{"key": …, "val": …}`).
// It reads every reading of every string (member names, encoded readings, the text of a file that
// is not JSON), where no structure tells a member from its value.

export const SENSITIVE_ASSIGNMENT_RULE = "clear/sensitive-assignment";
export const SENSITIVE_ASSIGNMENT_DESCRIPTION = "A value a text assigns to a password, secret, token, key or credential name (an environment line, a flag, a header, a configuration line, a URL's password)";

/** A name, quoted or not (a sigil before it: PHP's and Perl's `$password`, Ruby's `@token` and `@@token`), then what assigns to it: `=`, `:=`, `=>`, R's `<-`, a colon before a blank or a quote (not a URL's `://`), or blanks after a flag. */
const ASSIGNED = /(?<![\w.$-])(["'`]?)(-{0,2}[$@]?[A-Za-z_][\w.-]{0,63})\1(?:([ \t]*(?:=>|:=|=|<-|:(?=[ \t"'`\r\n]|[^\s/:]))[ \t]*)|[ \t]+)/g;
/**
 * What carries an assigned value to a line below, indented: a YAML block scalar's indicator
 * (`password: |`, `token: >-`), a shell line's continuation (`API_KEY=\`), an open parenthesis
 * (`api_key = (`), or the line's end alone (`password:` or `api_key =` with the value below); a few
 * blank lines between, each part bounded.
 */
const NEXT_LINE = /(?:[|>][1-9]?[+-]?[1-9]?|\\|\()?[ \t]{0,64}(?:#[^\n]{0,256})?(?:\r?\n[ \t]{0,64}){1,4}(?<=[ \t])(?=\S)/y;
/** A flag's value goes to the next line only after a shell's continuation (`--token \`). */
const FLAG_NEXT_LINE = /\\\r?\n[ \t]{1,64}(?=\S)/y;
/** What a line below starts with that is no value: a name assigned to (`api_key: …`, `OTHER=…`, not base64's `=` padding), a flag, a list's item. */
const NOT_A_VALUE_BELOW = /^(?:["'`]?[A-Za-z_][\w.-]{0,63}["'`]?[ \t]{0,8}(?::(?=[\s"'`]|$)|=(?!=*(?:[\s"'`]|$)))|-)/;
/** A value in quotes (one line, a bounded length), or a bare one up to a blank, a quote or what ends it in code, a query or a cookie. */
const QUOTED = /"([^"\n]{0,512})"|'([^'\n]{0,512})'|`([^`\n]{0,512})`/y;
const BARE = /[^\s"'`;,&()[\]{}<>|\\]{1,512}/y;
const BLANKS_THEN_BARE = /[ \t]+([^\s"'`;,&()[\]{}<>|\\]{1,512})/y;
/** An authorization's scheme before its credentials (`token …`, `Bearer …`, `SSWS …`). */
const SCHEME = /^[A-Za-z][A-Za-z0-9-]{1,15}$/;
const SCHEME_IN_QUOTES = /^[A-Za-z][A-Za-z0-9-]{1,15} +(?=\S+$)/;
/** A cookie header's value runs to its line's end: each of its pairs' values is judged. */
const COOKIE_LINE = /[^\n"'`]{0,4096}/y;
const COOKIE_PAIR = /[^\s;=]+=([^\s;]+)/g;
/** A URL's password (`scheme://user:pw@host`, `scheme://:pw@host`) and a DSN's (`user:pw@tcp(host)/db`). */
// Each part bounded (a user of 64 characters, a password of 128): a text of many colons and no at sign is read in linear time.
const URL_PASSWORD = /:\/\/[^\s:/@?#"'`<>]{0,64}:([^\s:/@?#"'`<>]{1,128})@/dg;
/** A token a URL gives as its user, with no password (`https://<token>@github.com/…`): twenty characters at least. */
const URL_TOKEN_USER = /:\/\/([^\s:/@?#"'`<>]{20,128})@/dg;
const DSN_PASSWORD = /(?<![^\s:@/"'`=(),;])[^\s:@/"'`=(),;]{1,64}:([^\s:@/"'`]{1,128})@[a-z][a-z0-9]{0,9}\(/dg;
/** A user and password a command line gives (`curl -u user:pw`, `--proxy-user user:pw`). */
const USER_PASSWORD = /(?<![\w-])(?:-u|--user|--proxy-user)(?:[ \t]{1,8}|=)["']?[^\s:"']{0,64}:([^\s"']{1,128})/dg;
/**
 * A password a command line gives glued to its flag or after it (`mysql -pS`, `mysql -p'S'`,
 * `sshpass -p S`), one a `.netrc` or a prose line gives after the word (`login bob password S`), and a
 * signed URL's signature (`?sig=…`, `&X-Amz-Signature=…`).
 */
const GLUED_PASSWORD = /\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mariadb(?:-dump|-admin)?)\b[^\n]{0,200}?\s-p(["']?)([^\s"']{1,128})\1/dg;
const SSHPASS = /\bsshpass\s+-p\s*(["']?)([^\s"']{1,128})\1/dg;
/**
 * A password a client's own flag gives, apart or glued (`docker login -p S`, `redis-cli -a S`,
 * `sqlcmd -P S`, `ldapsearch -w S`, `zip -P S`, `7z x f -pS`, `keytool -storepass S`), by the client.
 */
const CLIENT_PASSWORD_FLAGS: readonly (readonly [string, string])[] = [
  ["(?:docker|podman|buildah|nerdctl|skopeo|oras|helm[ \\t]+registry)[ \\t]+login", "-p"],
  ["redis-cli", "-a"],
  ["sqlcmd|bcp", "-P"],
  ["ldap(?:search|add|modify|delete|whoami|passwd|compare|modrdn)", "-w"],
  ["zip|unzip", "-P"],
  ["7z[az]?", "-p"],
  ["mongo(?:sh|dump|restore|import|export)?", "-p"],
  ["keytool", "-(?:src|dest)?(?:store|key)pass"],
];
const CLIENT_PASSWORD = CLIENT_PASSWORD_FLAGS.map(
  ([client, flag]) => new RegExp(String.raw`(?<![\w-])(?:${client})(?![\w-])[^\n]{0,200}?\s${flag}(?:[ \t]+|=)?(["']?)([^\s"']{1,128})\1`, "dg"),
);
/** A Samba user's password after `%` (`smbclient -U bob%S`, `rpcclient -U 'bob%S'`). */
const PERCENT_PASSWORD = /(?<![\w-])(?:-U|--user(?:name)?)(?:[ \t]+|=)["']?[^\s%"']{1,64}%([^\s"']{1,128})/dg;
/** A value a command sets a name to, given apart (`setx API_KEY S`, `npm config set …:_authToken S`, `git config --global github.token S`): judged where the name names a credential. */
const SET_COMMAND = /(?<![\w-])(?:setx|aws[ \t]+configure[ \t]+set|(?:npm|yarn|pnpm)[ \t]+config[ \t]+set|git[ \t]+config(?:[ \t]+--?[\w-]+){0,8}|dotnet[ \t]+user-secrets[ \t]+set)[ \t]+(["']?)([^\s"'=]{1,128})\1[ \t]+(["']?)([^\s"']{1,512})\3/dg;
/** A secret a command stores, whatever its name (`gh secret set NAME --body S`, `az keyvault secret set … --value S`). */
const SECRET_SET = /\b(?:gh[ \t]+secret[ \t]+set|az[ \t]+keyvault[ \t]+secret[ \t]+set)\b[^\n]{0,200}?\s(?:--body|-b|--value)(?:[ \t]+|=)(["']?)([^\s"']{1,512})\1/dg;
/** A value in quotes after a credential's name in quotes and a comma (`define('DB_PASSWORD', '…')`, `headers.set("X-Api-Key", "…")`); the value is looked ahead to, so it may name the next pair. */
const NAME_COMMA_VALUE = /(["'`])([A-Za-z_][\w.-]{0,63})\1[ \t]*,[ \t]*(?=(["'`])([^"'`\n]{1,512})\3)/dg;
/** Colour codes a terminal's table writes around a cell (`ESC[1;32m`). */
const ANSI = String.raw`(?:\x1b\[[0-9;]{0,16}m){0,4}`;
const CELL = String.raw`[^\s|│┃,"'\`\x1b]{1,512}`;
/**
 * A credential's name and its value as a table a tool printed holds them, the name first on its
 * line: cells between bars (markdown's `|`, a box's `│`), two columns alone on their line, parted by a
 * tab or two blanks and more (`DB_PASSWORD    …`, also in colour), or a CSV row (`DB_PASSWORD,…`).
 */
const TABLE_ROW = new RegExp(
  String.raw`^[ \t]{0,64}(?:[|│┃][ \t]{0,64})?${ANSI}([A-Za-z_][\w.-]{0,63})${ANSI}` +
    String.raw`(?:[ \t]{0,64}[|│┃][ \t]{0,64}${ANSI}(${CELL})${ANSI}[ \t]{0,64}[|│┃]|,${ANSI}(${CELL})${ANSI}(?=,|\r?$)|(?:\t|[ \t]{2})[ \t]{0,64}${ANSI}(${CELL})${ANSI}[ \t]{0,64}\r?$)`,
  "dgm",
);
/** What parts a table's cells, by the kind of table: bars (markdown's `|`, a box's `│`), a tab, a comma, or two blanks and more. */
const CELL_PARTS = [/[|│┃]/g, /\t/g, /,/g, / {2,}/g];
/** A cell's name or value, blanks and colour codes around it taken off. */
const CELL_TEXT = new RegExp(String.raw`^[ \t]*${ANSI}(${CELL})${ANSI}[ \t]*\r?$`, "d");
const CELL_NAME = /^[A-Za-z_][\w.-]{0,63}$/;
/** A column's title that says it holds the values of the names beside it. */
const VALUE_TITLE = /^(?:values?|val|secrets?|data|passwords?|tokens?|keys?|credentials?)$/i;
/** A value a cell may hold: no code's brackets, quotes or operators. */
const CELL_VALUE = /^[^\s"'`;,&()[\]{}<>|\\=]{1,512}$/;
const BAR_FIRST = new RegExp(String.raw`^[ \t]{0,64}${ANSI}[|│┃]`);
/** A `.pgpass` line: host, port, database, user and password, parted by colons (a colon in the password escaped). */
const PGPASS = /^[A-Za-z0-9_.*-]{1,253}:(?:[0-9]{1,5}|\*):[\w.$*-]{1,63}:[\w.$@*-]{1,63}:((?:[^\s:\\]|\\.){1,128})\r?$/dgm;
/** `htpasswd` and its arguments, each bare or in quotes: with -b the password is the last of them. */
const HTPASSWD = /(?<![\w-])htpasswd((?:[ \t]+(?:"[^"\n]{0,256}"|'[^'\n]{0,256}'|[^\s"'|;&<>()]{1,256})){2,8})/dg;
const HTPASSWD_ARG = /"([^"\n]*)"|'([^'\n]*)'|(\S+)/g;
/**
 * A value a program falls back on where a credential's variable is unset, after the name and what
 * closes its reading (a bracket, or the name read as `env.`'s member): `ENV['API_KEY'] || '…'`, `process.env.API_KEY ?? "…"`, `os.getenv("API_KEY") or "…"`,
 * `getenv('API_KEY') ?: '…'`, `ENV.fetch('API_KEY') { '…' }`.
 */
const FALLBACK = /(?:\|\||\?\?|\?:|\bor\b|\{)[ \t]{0,8}(?=(["'`])([^"'`\n]{1,512})\1)(?<=(?<![\w-])([A-Za-z_][\w-]{0,63})(?:(?<=\benv\.[A-Za-z_][\w-]{0,63})|["'`]?[ \t]{0,8}[\])])[ \t]{0,8}(?:\|\||\?\?|\?:|or|\{)[ \t]{0,8})/dg;
/** A name and its value as a pair in JSON (`[["X-Api-Key", "…"]]`, as a header list is written). */
const JSON_PAIR = /\[[ \t]*"([A-Za-z_][\w.-]{0,63})"[ \t]*,[ \t]*"([^"\\\n]{1,512})"[ \t]*\]/dg;
const WORD_PASSWORD = /(?<![\w-])(?:password|passwd|passphrase)[ \t]+(["']?)([^\s"']{1,128})\1/dgi;
/** A signed URL's signature by its name (`sig`, `Signature`, `X-Amz-Signature`, `X-Goog-Credential`): whatever it holds is a credential. */
export const SIGNATURE_NAME = /^(?:x-[a-z]+-)?(?:sig|signature|credential|security-token)$/i;
const QUERY_PAIR = /[?&]([\w.-]{1,64})=([^&#\s"']{1,1024})/dg;

/**
 * A setting's name in text (`- name: API_TOKEN`, `"Name": "/app/db_password",`, `key = "SECRET"`), as
 * Kubernetes, ECS, SSM and HCL write settings, and the member of its item that holds the value: the
 * first `value` after the name, a bounded way on, before any other item's name.
 */
const SETTING_NAME = /(?<![\w.$-])(["'`]?)(?:name|key)\1[ \t]*[:=][ \t]*(["'`]?)([A-Za-z_/][\w./-]{0,127})\2/gi;
const SETTING_MEMBER = /(?<![\w.$-])(["'`]?)(value|val|v|name|key)\1[ \t]*[:=](?!=)[ \t]*/i;
const SETTING_REACH = 256;

/** An element of markup named for a credential (`<password>…</password>`). */
const ELEMENT = /<([A-Za-z_][\w.-]{0,63})>([^<\s]{1,512})<\/\1>/dg;
/** Words a credential's name holds (sensitive-member.ts): a text that holds none assigns to no such name. */
const CREDENTIAL_WORD = /pass|pw|psk|otp|secret|token|credential|bearer|cookie|auth|key/i;

/**
 * What no secret is: a reference to one (`${VAR}`, `$VAR`, `%VAR%`, `{{ … }}`, `$(…)`), a
 * placeholder (`<token>`, `[redacted]`, `***`, stars or x's), a path, or words and numbers joined
 * (`process.env.API_KEY`, `my-secret-v2`, `token_v2.value`, `1.2.3`): the names and versions code and
 * settings write.
 */
const REFERENCE = /^(?:\$[{(A-Za-z_]|%[A-Za-z_]\w*%$|\{\{|<.*>$|\[.*\]$)|redact|placeholder|\*\*\*/i;
const PATH = /^(?:~|\.{1,2})?\/[^/]/;
const WORDS_AND_NUMBERS = /^(?:[A-Za-z]+[0-9]*|[0-9]+)(?:[-._:](?:[A-Za-z]+[0-9]*|[0-9]+))+$/;

/** A piece of a name in camel case: a capital and the small letters after it, small letters, or capitals before another piece. */
const CAMEL_PIECE = /[A-Z]?[a-z]+|[A-Z]+(?![a-z])/g;

/**
 * Letters alone, in both cases, that spell no name: a password generated of letters, not a name
 * in camel case (`getPasswordFromVault`, `isForInStatement`). Its case changes within a word's
 * length (three pieces of a letter or two) and fewer than a third of its letters are vowels, as in few words.
 */
function randomLetters(value: string): boolean {
  if (!/^[A-Za-z]{12,}$/.test(value) || !/[a-z]/.test(value) || !/[A-Z]/.test(value) || new Set(value).size < 8) return false;
  const short = (value.match(CAMEL_PIECE) ?? []).filter((piece) => piece.length <= 2).length;
  const vowels = value.match(/[aeiouy]/gi)?.length ?? 0;
  return short >= 3 && vowels < value.length / 3;
}

/**
 * A value a credential's name is given that looks like one: eight characters and more, five of
 * them different, letters with digits, letters alone that spell no name, or letters and symbols
 * with a secret's spread; never a word, a reference, a placeholder, a path or a version.
 */
export function looksAssigned(value: string): boolean {
  if (value.length < 8 || /\s/.test(value) || new Set(value).size < 5) return false;
  if (REFERENCE.test(value) || PATH.test(value) || OBJECT_PATH.test(value) || WORDS_AND_NUMBERS.test(value)) return false;
  if ((/[0-9]/.test(value) && /[A-Za-z]/.test(value)) || randomLetters(value)) return true;
  return /[^A-Za-z0-9._-]/.test(value) && looksSecret(value);
}

type Report = (start: number, end: number) => void;

/** Each pair's value of a cookie header from `at`; where the header ends. */
function cookieValues(text: string, at: number, report: Report): number {
  COOKIE_LINE.lastIndex = at;
  const line = COOKIE_LINE.exec(text)?.[0] ?? "";
  for (const m of eachMatch(COOKIE_PAIR, line)) {
    const value = m[1] as string;
    const start = at + m.index + m[0].length - value.length;
    if (looksAssigned(value)) report(start, start + value.length);
  }
  return at + line.length;
}

/** The value assigned at `at` judged (and, to an authorization, the credentials after a scheme); where it ends. */
function assignedValue(text: string, at: number, authorization: boolean, report: Report): number {
  QUOTED.lastIndex = at;
  const quoted = QUOTED.exec(text);
  if (quoted) {
    const inner = quoted[1] ?? quoted[2] ?? quoted[3] ?? "";
    const scheme = SCHEME_IN_QUOTES.exec(inner)?.[0].length ?? 0;
    if (looksAssigned(inner.slice(scheme))) report(at + 1 + scheme, at + 1 + inner.length);
    return QUOTED.lastIndex;
  }
  BARE.lastIndex = at;
  const bare = BARE.exec(text)?.[0];
  if (bare === undefined) return at;
  let end = at + bare.length;
  // A value followed by `(` or `[` is code that computes one (`hash(pw)`, `tokens[0]`), not a value.
  if (/[([]/.test(text[end] ?? "")) return end;
  if (looksAssigned(bare)) report(at, end);
  else if (authorization && SCHEME.test(bare)) {
    BLANKS_THEN_BARE.lastIndex = end;
    const credentials = BLANKS_THEN_BARE.exec(text);
    if (credentials) {
      const value = credentials[1] as string;
      end = BLANKS_THEN_BARE.lastIndex;
      if (looksAssigned(value)) report(end - value.length, end);
    }
  }
  return end;
}

/**
 * The value assigned at `at`, on its line or carried to a line below; where it ends. A line below is
 * read for a value only when it holds one, and is otherwise left to be read for names of its own.
 */
function valueHereOrBelow(text: string, at: number, flag: boolean, authorization: boolean, report: Report): number {
  const below = flag ? FLAG_NEXT_LINE : NEXT_LINE;
  below.lastIndex = at;
  if (!below.test(text)) return assignedValue(text, at, authorization, report);
  const next = below.lastIndex;
  if (NOT_A_VALUE_BELOW.test(text.slice(next, next + 80))) return at;
  let found = false;
  const end = assignedValue(text, next, authorization, (start, stop) => {
    found = true;
    report(start, stop);
  });
  return found ? end : at;
}

/** Every value a setting named for a credential is given in text (`- name: API_TOKEN` then `value: …`). */
function settingsIn(text: string, report: Report): void {
  if (!/val|\bv\b/i.test(text)) return;
  for (const m of eachMatch(SETTING_NAME, text)) {
    if (!sensitive(m[3] as string)) continue;
    const from = m.index + m[0].length;
    const item = text.slice(from, from + SETTING_REACH);
    const member = SETTING_MEMBER.exec(item);
    if (member === null || !/^(?:value|val|v)$/i.test(member[2] as string)) continue;
    valueHereOrBelow(text, from + (member.index ?? 0) + member[0].length, false, false, report);
  }
}

/** A match's group reported where it looks like an assigned credential. */
function judged(text: string, m: RegExpMatchArray, group: number, report: Report): void {
  const [start, end] = m.indices?.[group] ?? [0, 0];
  if (looksAssigned(text.slice(start, end))) report(start, end);
}

/** A line's cells, parted as a table of the kind parts them: each cell's text and where it starts. */
function cellsOf(line: string, at: number): { kind: number; cells: [string, number][] } | null {
  const kind = CELL_PARTS.findIndex((part) => line.search(part) >= 0);
  // A row of bars starts with one (not a pipe or a union type); a CSV row is not indented and has no blank after a comma (code has).
  if (kind < 0 || (kind === 0 && !BAR_FIRST.test(line)) || (kind === 2 && /^[ \t]|, /.test(line))) return null;
  const cells: [string, number][] = [];
  let from = 0;
  for (const m of eachMatch(CELL_PARTS[kind] as RegExp, line)) {
    cells.push([line.slice(from, m.index), at + from]);
    from = m.index + m[0].length;
  }
  cells.push([line.slice(from), at + from]);
  return { kind, cells };
}

/**
 * Each value a table of any number of columns gives a credential's name, wherever the name stands
 * in its row: in the cell after the name's (under a header row, only where that column's title says
 * it holds values: not kubectl's `NAME  TYPE`), or below the name where it heads a column of a table
 * of three columns and more (a row of as many cells, of the same kind of table).
 */
function columnsIn(text: string, report: Report): void {
  if (!/[|│┃,\t]| {2}/.test(text) || !CREDENTIAL_WORD.test(text)) return;
  let header: { kind: number; titles: string[]; columns: number[] } | null = null;
  let at = 0;
  for (const line of text.split("\n")) {
    const row = cellsOf(line, at);
    at += line.length + 1;
    const read = (row?.cells ?? []).map(([cell, start]) => {
      const m = CELL_TEXT.exec(cell);
      const [from, to] = m?.indices?.[1] ?? [0, 0];
      return { text: m?.[1] ?? "", start: start + from, end: start + to };
    });
    const judge = (i: number): void => {
      const c = read[i];
      if (c !== undefined && CELL_VALUE.test(c.text) && looksAssigned(c.text)) report(c.start, c.end);
    };
    const named = read.flatMap((c, i) => (CELL_NAME.test(c.text) && sensitive(c.text) ? [i] : []));
    const under = header !== null && header.kind === row?.kind && header.titles.length === read.length ? header : null;
    for (const i of named) if (under === null || VALUE_TITLE.test(under.titles[i + 1] ?? "")) judge(i + 1);
    if (under !== null) under.columns.forEach(judge);
    // A header row is one of names alone (`ENV  DB_PASSWORD  REGION`), not a row of values beside a name.
    else if (row !== null && read.length >= 2 && read.every((c) => c.text === "" || CELL_NAME.test(c.text))) {
      header = { kind: row.kind, titles: read.map((c) => c.text), columns: read.length >= 3 ? named : [] };
    } else header = null;
  }
}

/** Each value a table a tool printed gives a credential's name, and each password of a `.pgpass` line. */
function tablesIn(text: string, report: Report): void {
  const judge = (m: RegExpMatchArray, group: number): void => judged(text, m, group, report);
  if (/[|│┃,\t]| {2}/.test(text) && CREDENTIAL_WORD.test(text)) {
    for (const m of eachMatch(TABLE_ROW, text)) if (sensitive(m[1] as string)) judge(m, m[2] !== undefined ? 2 : m[3] !== undefined ? 3 : 4);
  }
  if (text.includes(":")) for (const m of eachMatch(PGPASS, text)) judge(m, 1);
}

/** The password `htpasswd -b` is given on its command line (`htpasswd -bc file user …`, `htpasswd -nb user …`). */
function htpasswdIn(text: string, report: Report): void {
  if (!text.includes("htpasswd")) return;
  for (const m of eachMatch(HTPASSWD, text)) {
    const from = m.indices?.[1]?.[0] ?? 0;
    let flags = "";
    let takesValue = false;
    const positional: [number, number][] = [];
    for (const a of (m[1] as string).matchAll(HTPASSWD_ARG)) {
      const arg = a[1] ?? a[2] ?? a[3] ?? "";
      const start = from + (a.index ?? 0) + (a[3] === undefined ? 1 : 0);
      if (takesValue) takesValue = false;
      else if (a[3]?.startsWith("-")) {
        flags += arg;
        takesValue = /[Cr]$/.test(arg);
      } else positional.push([start, start + arg.length]);
    }
    const [start, end] = positional[flags.includes("n") ? 1 : 2] ?? [0, 0];
    if (flags.includes("b") && end > start && looksAssigned(text.slice(start, end))) report(start, end);
  }
}

/** Each value a program falls back on where a credential's variable is unset (`ENV['API_KEY'] || '…'`). */
function fallbacksIn(text: string, report: Report): void {
  if (!/\|\||\?\?|\?:|\bor\b|\{/.test(text)) return;
  for (const m of eachMatch(FALLBACK, text)) if (sensitive(m[3] as string)) judged(text, m, 2, report);
}

/** Each value a JSON pair gives a credential's name (`["X-Api-Key", "…"]`), in text or in a JSON document a string holds. */
function pairsIn(text: string, report: Report): void {
  if (!text.includes("[")) return;
  for (const m of eachMatch(JSON_PAIR, text)) if (sensitive(m[1] as string)) judged(text, m, 2, report);
}

/** Every value a reading's text assigns to a credential's name, after `=`, `:` or a flag; a cookie header's values. */
function assignmentsIn(text: string, report: Report): void {
  if (!CREDENTIAL_WORD.test(text)) return;
  ASSIGNED.lastIndex = 0;
  for (let m = ASSIGNED.exec(text); m !== null; m = ASSIGNED.exec(text)) {
    const name = m[2] as string;
    // Blanks assign only to a flag (`--token …`).
    if ((m[3] === undefined && !name.startsWith("-")) || !sensitive(name)) continue;
    const at = m.index + m[0].length;
    const end = /cookie/i.test(name) ? cookieValues(text, at, report) : valueHereOrBelow(text, at, m[3] === undefined, /auth/i.test(name), report);
    ASSIGNED.lastIndex = Math.max(ASSIGNED.lastIndex, end);
  }
  ASSIGNED.lastIndex = 0;
}

/** Each value of an element named for a credential, and each password a URL, a DSN or a command line's user gives. */
function elementsAndPasswordsIn(text: string, report: Report): void {
  const judge = (m: RegExpMatchArray, group: number): void => judged(text, m, group, report);
  if (text.includes("</")) for (const m of eachMatch(ELEMENT, text)) if (sensitive(m[1] as string)) judge(m, 2);
  if (/-p/.test(text)) for (const pattern of [GLUED_PASSWORD, SSHPASS]) for (const m of eachMatch(pattern, text)) judge(m, 2);
  if (/ -[a-z]*[pPaw]/.test(text)) for (const pattern of CLIENT_PASSWORD) for (const m of eachMatch(pattern, text)) judge(m, 2);
  if (text.includes("%")) for (const m of eachMatch(PERCENT_PASSWORD, text)) judge(m, 1);
  if (/set|config/.test(text)) for (const m of eachMatch(SET_COMMAND, text)) if (sensitive(m[2] as string)) judge(m, 4);
  if (/secret/.test(text)) for (const m of eachMatch(SECRET_SET, text)) judge(m, 2);
  if (text.includes(",")) for (const m of eachMatch(NAME_COMMA_VALUE, text)) if (sensitive(m[2] as string)) judge(m, 4);
  if (/pass/i.test(text)) for (const m of eachMatch(WORD_PASSWORD, text)) judge(m, 2);
  if (/[?&]/.test(text)) for (const m of eachMatch(QUERY_PAIR, text)) if (SIGNATURE_NAME.test(m[1] as string)) judge(m, 2);
  for (const pattern of text.includes("@") ? [URL_PASSWORD, URL_TOKEN_USER, DSN_PASSWORD, USER_PASSWORD] : [USER_PASSWORD]) for (const m of eachMatch(pattern, text)) judge(m, 1);
}

export const sensitiveAssignmentRule: SecretLintRuleCreator = {
  messages: { FOUND: { en: () => "a password, secret, token, key or credential name is assigned a value in text" } },
  meta: { id: SENSITIVE_ASSIGNMENT_RULE, type: "scanner", recommended: true, supportedContentTypes: ["text"] },
  create(context) {
    const t = context.createTranslator(sensitiveAssignmentRule.messages);
    return {
      file(source) {
        for (const s of readingsOf(source.content).strings) {
          // Lines joined to mend a broken key also join a value to the next line's name (`tokens: 12\noutput_tokens`).
          if (s.keyShapesOnly) continue;
          // A JSON document held in a string is read through its own strings, by sensitive-member; its settings
          // (`[{"name": "API_TOKEN", "value": …}]`) only whole, where a name stands beside its value.
          s.readings.forEach((reading, i) => {
            const r: Reading = reading;
            const report: Report = (start, end) => context.report({ message: t("FOUND"), range: [r.rawAt(start), r.rawAt(end)] });
            settingsIn(r.text, report);
            pairsIn(r.text, report);
            if (i === 0 && s.holdsDocument) return;
            assignmentsIn(r.text, report);
            elementsAndPasswordsIn(r.text, report);
            tablesIn(r.text, report);
            htpasswdIn(r.text, report);
            fallbacksIn(r.text, report);
            // A reading that takes a line end out (to mend a key, a wrapped run's decoding) also takes a table's header off the rows below it.
            if (!r.joined && r.controlsOutOf === undefined && s.encoded !== true) columnsIn(r.text, report);
          });
        }
      },
    };
  },
};
