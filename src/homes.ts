// What a home directory and a user name look like, in values and in printed pointers.

export const USER_PLACEHOLDER = "user";

/** Names that stand where a user name would but belong to nobody. */
const NOT_USERS = new Set(["user", "shared", "public", "default", "all users", "default user", "guest"]);

export function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}

// The owner of a home directory: the folder under /home, under /Users, or under a drive's Users folder.
const OWNER_AT = /(?:\/home|\/Users|[A-Za-z]:[\\/]+Users)[\\/]+([^\\/\s"'<>|:*?]+)/y;
const NAME_CHAR = /[A-Za-z0-9_.-]/;

/**
 * User names seen as the owner of a home directory in a string. In a window cut from a longer
 * text (`window`), a name that runs into the window's end may be cut short, so it is not taken.
 */
export function homeOwnersIn(value: string, window = false): string[] {
  const out: string[] = [];
  // Find the words natively first, then try the pattern only where a home can start.
  for (const word of ["home", "Users"]) {
    for (let at = value.indexOf(word); at !== -1; at = value.indexOf(word, at + 1)) {
      for (let back = 1; back <= 5 && at - back >= 0; back++) {
        const start = at - back;
        if (start > 0 && NAME_CHAR.test(value[start - 1] as string)) continue;
        OWNER_AT.lastIndex = start;
        const m = OWNER_AT.exec(value);
        if (m) {
          const cut = window && m.index + m[0].length === value.length;
          if (!cut && isUserName(m[1] as string)) out.push(m[1] as string);
          break;
        }
      }
    }
  }
  return out;
}

/** Home owners in a window of raw JSON text, read without parsing: `\/`, `\\` and `\uXXXX` count as what they spell. */
export function homeOwnersInJsonText(text: string): string[] {
  if (!text.includes("\\")) return homeOwnersIn(text, true);
  const unescaped = text.replace(/\\(?:u([0-9a-fA-F]{4})|([\\/]))/g, (_m, hex: string | undefined, ch: string | undefined) =>
    hex !== undefined ? String.fromCharCode(parseInt(hex, 16)) : (ch as string),
  );
  return homeOwnersIn(unescaped, true);
}

export function isUserName(name: string): boolean {
  return name.length >= 2 && !NOT_USERS.has(name.toLowerCase()) && /^[A-Za-z0-9][A-Za-z0-9._ -]*$/.test(name);
}

/** A pointer safe to print: any home directory spelled in a member name shows the placeholder. */
export function displayPointer(pointer: string, users: string[] = []): string {
  if (!pointer.includes("home") && !pointer.includes("Users") && users.length === 0) return pointer;
  const generic = pointer.replace(/((?:~1|\\)(?:home|Users)(?:~1|\\)+)([^~\\/]+)/gi, (m, lead: string, name: string) => (isUserName(name) ? `${lead}${USER_PLACEHOLDER}` : m));
  const named = userNamePattern(users);
  return named ? generic.replace(new RegExp(named.source, "gi"), USER_PLACEHOLDER) : generic;
}

export function userNamePattern(users: string[]): RegExp | null {
  const names = [...new Set(users.filter(isUserName))].sort((a, b) => b.length - a.length);
  if (names.length === 0) return null;
  const variants = new Set<string>();
  for (const n of names) {
    variants.add(escapeRegex(n));
    variants.add(escapeRegex(n.replace(/[^A-Za-z0-9-]/g, "-")));
  }
  return new RegExp(`(?<![A-Za-z0-9])(?:${[...variants].join("|")})(?![A-Za-z0-9])`, "i");
}

