import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { FixtureError, shownPath } from "./errors.js";

// Which repository a test reads fixtures from: the one holding the file that called the library
// (found in the call stack, as vitest, jest and node:test all report real file paths there), else
// the one holding the current directory. A repository's top is the nearest folder with a .git
// entry (a folder, or a file in a worktree or submodule), as the command line finds it.

const LIBRARY_DIR = path.dirname(fileURLToPath(import.meta.url));
const topOf = new Map<string, string | null>();

/** The nearest folder at or above `dir` holding a .git entry, or null. */
export function repositoryTop(dir: string): string | null {
  const start = path.resolve(dir);
  if (topOf.has(start)) return topOf.get(start) ?? null;
  let top: string | null = null;
  for (let d = start; ; d = path.dirname(d)) {
    if (existsSync(path.join(d, ".git"))) {
      top = d;
      break;
    }
    if (path.dirname(d) === d) break;
  }
  topOf.set(start, top);
  return top;
}

function fileOf(where: string): string | null {
  if (where.startsWith("file://")) {
    try {
      return fileURLToPath(where);
    } catch {
      return null;
    }
  }
  return path.isAbsolute(where) ? where : null;
}

/** The file a stack frame runs in, or null for Node's own code and evaluated text. */
function frameFile(frame: string): string | null {
  const at = /^\s*at (?:async )?(.+):\d+:\d+\)?$/.exec(frame)?.[1];
  if (at === undefined) return null;
  // "at name (place)" or "at place"; a place may itself hold " (" in a folder name.
  const candidates = frame.trimEnd().endsWith(")") ? at.split(" (").map((_, i, parts) => parts.slice(i + 1).join(" (")) : [];
  for (const where of [...candidates.filter((c) => c !== ""), at]) {
    const file = fileOf(where);
    if (file !== null) return file;
  }
  return null;
}

/** Whether a file is an installed package's: a helper that wraps loadFixture says nothing of whose fixtures are meant. */
const isInstalled = (file: string): boolean => file.split(/[\\/]/).includes("node_modules");

/** The first file in the call stack outside this library and outside installed packages. */
export function callingFile(): string | null {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 40;
  const stack = new Error().stack ?? "";
  Error.stackTraceLimit = limit;
  for (const frame of stack.split("\n").slice(1)) {
    const file = frameFile(frame);
    if (file !== null && path.dirname(file) !== LIBRARY_DIR && !isInstalled(file)) return file;
  }
  return null;
}

/** The repository to read: `root` when given, else the calling file's, else the current directory's. */
export function findRepository(root: string | undefined): string {
  if (root !== undefined) {
    const top = path.resolve(root);
    if (!existsSync(top)) throw new FixtureError("repository", null, `root ${shownPath(top)} does not exist; give the repository's top folder`);
    if (!statSync(top).isDirectory()) throw new FixtureError("repository", null, `root ${shownPath(top)} is not a folder; give the repository's top folder`);
    return top;
  }
  const caller = callingFile();
  const found = (caller === null ? null : repositoryTop(path.dirname(caller))) ?? repositoryTop(process.cwd());
  if (found === null) {
    const from = caller === null ? "" : `the calling file ${shownPath(caller)} or `;
    const todo = "run the tests inside the repository that keeps the fixtures, or pass { root }";
    throw new FixtureError("repository", null, `no git repository above ${from}the current directory ${shownPath(process.cwd())}; ${todo}`);
  }
  return found;
}
