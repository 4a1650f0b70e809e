// What a home directory and a user name look like, in values and in printed pointers.

export const USER_PLACEHOLDER = "user";

/** Names that stand where a user name would but belong to nobody. */
const NOT_USERS = new Set(["user", "shared", "public", "default", "all users", "default user", "guest"]);

export function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}

export const HOME_OWNER = /(?:^|[^A-Za-z0-9_.-])(?:\/home|\/Users|[A-Za-z]:[\\/]+Users)[\\/]+([^\\/\s"'<>|:*?]+)/g;

/** User names seen as the owner of a home directory in a string. */
export function homeOwnersIn(value: string): string[] {
  const out: string[] = [];
  for (const m of value.matchAll(HOME_OWNER)) {
    const name = m[1] as string;
    if (isUserName(name)) out.push(name);
  }
  return out;
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

