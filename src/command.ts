import os from "node:os";
import { OutputError, REPORTED } from "./errors.js";
import { printable } from "./record/data.js";
import { escapeRegex } from "./regex.js";
import { saidBack } from "./said-back.js";
import type { Io } from "./types.js";
import { writeJson } from "./render/json.js";

// What every command shares (its help lives in commands/help.ts, printed without loading it): the mapping of "could not read the input at all" and
// of file-system failures to exit 2 with a clear line (and, under --json, still one JSON object).

export interface Command {
  run: (argv: string[], io: Io) => Promise<number>;
}

export { OutputError };

// What a file-system failure means, said in words; the code stays beside them.
const FS_WORDS: Record<string, string> = {
  ENOENT: "does not exist",
  EACCES: "permission denied",
  EPERM: "not permitted",
  EISDIR: "is a folder, not a file",
  ENOTDIR: "a part of the path is not a folder",
  EEXIST: "already exists",
  ENOSPC: "no space left on the device",
  EROFS: "the file system is read-only",
  ELOOP: "a symbolic link stands on the way",
  ENAMETOOLONG: "the name is too long",
  EMFILE: "too many files open",
};

/** A path in a message, shown as every path is (no home, no user name); the runner's home as ~ where the rules cannot load. */
async function shownPath(p: string): Promise<string> {
  try {
    const [{ loadRules }, { makeDisplay }] = await Promise.all([import("./io/load-rules.js"), import("./display.js")]);
    return makeDisplay(loadRules(), [], os.homedir()).path(p);
  } catch {
    return p;
  }
}

/** A failed file-system call: which file, what happened, and that nothing was left half-written. */
async function fsMessage(err: NodeJS.ErrnoException, code: string): Promise<string> {
  const where = typeof err.path === "string" ? `${await shownPath(err.path)}: ` : "";
  return `${where}${FS_WORDS[code] ?? "a file-system operation failed"} (${code}); nothing was left half-written`;
}

export async function guarded(io: Io, argv: string[], run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (err) {
    const known = REPORTED.some((kind) => err instanceof kind);
    const fsCode = (err as NodeJS.ErrnoException | null)?.code;
    if (!known && !(typeof fsCode === "string" && /^E[A-Z]+$/.test(fsCode))) throw err;
    // The runner's home is shown as ~ here as everywhere else.
    const home = os.homedir();
    const raw = known ? (err as Error).message : await fsMessage(err as NodeJS.ErrnoException, fsCode as string);
    // Only where the home stands whole: "/root" is a home, "/roots/0" a JSON pointer.
    const tilded = home && home !== "/" ? raw.replace(new RegExp(`${escapeRegex(home)}(?![A-Za-z0-9._-])`, "g"), "~") : raw;
    // What the message says back of the command line is checked as a fixture is: no owner, no name, no secret shape.
    const message = printable(await saidBack(tilded, argv));
    // A message that already names its command ("clear run works inside…") is not prefixed again.
    io.stderr(`${message.startsWith("clear ") ? "" : "clear: "}${message}\n`);
    if (argv.includes("--json")) writeJson(io, { ok: false, error: message, findings: [] });
    return 2;
  }
}
