// Where a text names its account outright rather than by a home: what `id` prints
// (uid=1000(<name>) gid=1000(<name>)), an environment's USER=, LOGNAME= and USERNAME=, and the
// SUDO_USER= or DOAS_USER= of a command run as another account (the account that ran it). A sitting
// whose homes stand nowhere a root reads (a cwd under /srv, a sandbox) still shows its account
// there, and the name is learned as a home's owner is, so a file keeping it is refused.

/** A word these forms begin with: a text without one names no account so. */
const ACCOUNT_WORD = /uid=|USER(?:NAME)?=|LOGNAME=/;
/** An account's name as `id` or an environment writes it: a letter or an underscore, then at most 31 of letters, digits, dots, dashes and underscores. */
const NAME = String.raw`[A-Za-z_][A-Za-z0-9._-]{0,31}`;
const ACCOUNT = new RegExp(String.raw`(?<![A-Za-z0-9_])(?:(?:(?:SUDO_|DOAS_)?USER|LOGNAME|USERNAME)=["']?(${NAME})(?![A-Za-z0-9._-])|[ug]id=\d+\((${NAME})\))`, "g");

/** Whether a text may write an account in these forms: a cheap test before `accountNames`. */
export const mayNameAccount = (text: string): boolean => ACCOUNT_WORD.test(text);

/** The account names a text writes in these forms, as written; none where it writes none. */
export function accountNames(text: string): string[] {
  if (!mayNameAccount(text)) return [];
  ACCOUNT.lastIndex = 0;
  return [...text.matchAll(ACCOUNT)].map((m) => (m[1] ?? m[2]) as string);
}
