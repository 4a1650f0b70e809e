import os from "node:os";
import { OutputError, REPORTED } from "./errors.js";
import { printable } from "./record/data.js";
import { escapeRegex } from "./regex.js";
import type { Io } from "./types.js";
import { writeJson } from "./render/json.js";

// What every command shares: its help, and the mapping of "could not read the input at all" and
// of file-system failures to exit 2 with a clear line (and, under --json, still one JSON object).

export interface Command {
  help: string;
  run: (argv: string[], io: Io) => Promise<number>;
}

export { OutputError };

export async function guarded(io: Io, argv: string[], run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (err) {
    const known = REPORTED.some((kind) => err instanceof kind);
    const fsCode = (err as NodeJS.ErrnoException | null)?.code;
    if (!known && !(typeof fsCode === "string" && /^E[A-Z]+$/.test(fsCode))) throw err;
    // The runner's home is shown as ~ here as everywhere else.
    const home = os.homedir();
    const raw = known ? (err as Error).message : `a file-system operation failed (${fsCode}); nothing was left half-written`;
    // Only where the home stands whole: "/root" is a home, "/roots/0" a JSON pointer.
    const message = printable(home && home !== "/" ? raw.replace(new RegExp(`${escapeRegex(home)}(?![A-Za-z0-9._-])`, "g"), "~") : raw);
    // A message that already names its command ("clear run works inside…") is not prefixed again.
    io.stderr(`${message.startsWith("clear ") ? "" : "clear: "}${message}\n`);
    if (argv.includes("--json")) writeJson(io, { ok: false, error: message, findings: [] });
    return 2;
  }
}
