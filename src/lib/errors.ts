import os from "node:os";

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
    super(printable(`fixture-clear: ${fixture === null ? "" : `${fixture}: `}${message}`));
    this.code = code;
    this.fixture = fixture;
  }
}

/** What to do about a file that could not be read as it stands: a link or a non-file replaced, a file made readable. */
export function fixFor(refused: string, regular: string): string {
  return refused === "unreadable" ? "let the user running the tests read it (its permissions, or those of a folder above it)" : `${regular} (put the file itself there)`;
}

/** A path safe to put in a message: the runner's home shown as ~, as everywhere in the tool. */
export function shownPath(p: string): string {
  const home = os.homedir();
  if (!home || home === "/") return p;
  return p === home || p.startsWith(`${home}/`) ? `~${p.slice(home.length)}` : p;
}
