import { realpathSync } from "node:fs";
import os from "node:os";
import path from "node:path";

// What the library throws: one error class, whose message names the fixture (as CLEARANCE.md
// lists it, from the repository's root) and says what to do, and whose code a test may match.

export type FixtureProblem =
  | "query" // the fixture asked for is not one the layout can name
  | "repository" // no repository found to read fixtures from
  | "config" // clear.config.json could not be read
  | "record" // CLEARANCE.md missing, a link, or in a shape the tool does not know
  | "not-found" // no such fixture, accepted or not
  | "not-accepted" // the file is there, and no batch lists it
  | "pending" // only a batch still awaiting ACCEPT lists it
  | "edited" // the batch that accepted it was edited after ACCEPT
  | "changed" // its bytes differ from those its accepted batch lists
  | "missing" // an accepted batch lists it, and it is not there
  | "link" // the fixture, its sidecar or a folder above them is a link
  | "not-a-file" // something other than a regular file stands there
  | "unreadable" // a regular file this user may not read (its permissions)
  | "not-json" // accepted bytes that do not parse (a record accepted by hand)
  | "provenance"; // the sidecar does not describe these bytes

/**
 * A message as a terminal may show it: a control, format or line-separator character that a query
 * or a path brought (a NUL, an escape sequence, a bidi override, a lone surrogate) is written as its code point.
 */
function printable(text: string): string {
  return text.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu, (c) => `\\u{${(c.codePointAt(0) as number).toString(16)}}`);
}

export class FixtureError extends Error {
  override readonly name = "FixtureError";
  readonly code: FixtureProblem;
  /** The fixture's path from the repository's root, where one is known. */
  readonly fixture: string | null;

  constructor(code: FixtureProblem, fixture: string | null, message: string) {
    super(printable(withoutHome(`fixture-clear: ${fixture === null ? "" : `${fixture}: `}${message}`)));
    this.code = code;
    this.fixture = fixture;
  }
}

/** What to do about a file that could not be read as it stands: a link or a non-file replaced, a file made readable. */
export function fixFor(refused: string, regular: string): string {
  return refused === "unreadable" ? "let the user running the tests read it (its permissions, or those of a folder above it)" : `${regular} (put the file itself there)`;
}

/**
 * The runner's home as a path in a message may spell it: as the system gives it, and as it resolves
 * where a link leads to it (a calling file, the current directory and a root are real paths).
 */
function homesOf(): string[] {
  const given = os.homedir();
  if (!given) return [];
  const home = path.resolve(given);
  let real = home;
  try {
    real = realpathSync(home);
  } catch {
    // A home that is not there is masked as given.
  }
  return [...new Set([home, real])].filter((h) => h !== path.parse(h).root);
}

/** As regex.ts has it; the library loads none of the tool's modules but its record reader and SHA-256. */
const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Where a home in a message starts a path: not within another path (a home under /srv), or just after a file: URL's host. */
const PATH_START = String.raw`(?:(?<![A-Za-z0-9._-])|(?<=file://[^/\s"]*))`;
const PATH_END = "(?![A-Za-z0-9._-])";

/**
 * A message with the runner's home shown as ~ wherever it stands whole, as everywhere in the tool:
 * not where its name runs on ("<home>s") or where it stands under another folder. The longer
 * spelling is tried first.
 */
function withoutHome(text: string): string {
  const homes = homesOf().sort((a, b) => b.length - a.length);
  if (homes.length === 0) return text;
  return text.replace(new RegExp(`${PATH_START}(?:${homes.map(escapeRegex).join("|")})${PATH_END}`, "g"), "~");
}

/** A path safe to put in a message: the runner's home shown as ~, as everywhere in the tool. */
export function shownPath(p: string): string {
  return withoutHome(p);
}
