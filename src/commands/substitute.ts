import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { many, one, parseArgs, UsageError } from "../args.js";
import { readCaptureEntry } from "../io/read-capture-dir.js";
import { isInside, writeAtomic } from "../io/write-atomic.js";
import { inventoryContext, inventoryEntry } from "../passes/inventory.js";
import { clearFile, type SubstituteOptions } from "../passes/substitute.js";
import { homeOwnersIn, homeOwnersInJsonText, isUserName } from "../homes.js";
import type { ClearedFile, Finding } from "../types.js";
import { stringLeaves, type Classifier } from "../classify.js";
import { checkSitting } from "./inventory.js";
import { findingLine, guarded, listing, setting, table, writeJson, type Io } from "./common.js";

export const substituteHelp = `clear substitute <capture-dir> --out <dir> [--user NAME]... [--json] [--root DIR]

Clears every capture in the folder into --out under its own name: home-path-v1 first (every
spelling of the capturing user's home becomes the user placeholder), then any literal-v1 rules
and the opt-in env-dump-v1 policy from clear.config.json, then free-text-v1 (free text becomes
x of the same raw length). Only string values change; every other byte is kept.
User names come from the sitting's own home paths, from --user, from clear.config.json and from
the current home directory. A capture that cannot be cleared is reported and not written.
--out must be a new or empty folder outside the capture folder. Exit 0 when every capture was
cleared, 1 when one was refused or unreadable, 2 on usage errors.
`;

/** The current user's name, when their home directory is spelled the usual way. */
function currentHomeUser(): string[] {
  const home = os.homedir();
  const m = /^(?:\/home|\/Users|[A-Za-z]:[\\/]Users)[\\/]([^\\/]+)[\\/]?$/.exec(home);
  return m && isUserName(m[1] as string) ? [m[1] as string] : [];
}

async function prepareOut(out: string, captureDir: string): Promise<string> {
  const abs = path.resolve(out);
  if (await isInside(abs, captureDir)) throw new UsageError(`--out ${out}: inside the capture folder; nothing is ever written there`);
  let stat;
  try {
    stat = await fs.lstat(abs);
  } catch {
    await fs.mkdir(abs, { recursive: true });
    return abs;
  }
  if (!stat.isDirectory()) throw new UsageError(`--out ${out}: exists and is not a folder`);
  if ((await fs.readdir(abs)).length > 0) throw new UsageError(`--out ${out}: not empty; name a new or empty folder`);
  return abs;
}

export function renderSubstitution(files: ClearedFile[], skipped: { file: string; reason: string }[], users: number, out: string): string {
  const lines: string[] = [];
  const rows = [["capture", "raw bytes", "cleared bytes", "rules"]];
  for (const f of files) {
    rows.push([f.name, String(f.rawBytes), f.clearedBytes === null ? "REFUSED" : String(f.clearedBytes), f.rules.map((r) => `${r.rule} (${r.pointers.length})`).join(", ") || "none"]);
  }
  lines.push(table(rows));
  lines.push("");
  for (const f of files) {
    if (f.rules.length === 0 && f.refused.length === 0 && f.review.length === 0 && f.exemptions.length === 0) continue;
    lines.push(f.name);
    for (const r of f.rules) lines.push(`  ${r.rule}: ${r.pointers.join(", ")}`);
    for (const p of f.review) lines.push(`  review: ${p} had no field rule and looked like free text; substituted`);
    for (const e of f.exemptions) {
      lines.push(`  exemption ${e.rule} at ${e.pointer}: ${e.reason}; every value is the placeholder, what remains is ${e.remaining.length} member names: ${e.remaining.join(", ")}`);
    }
    for (const x of f.refused) lines.push(`  ${findingLine(x)}`);
  }
  if (skipped.length > 0) {
    lines.push("Not cleared (unreadable or not a capture):");
    for (const s of skipped) lines.push(`  ${s.file}: ${s.reason}`);
  }
  const refused = files.filter((f) => f.cleared === null).length;
  lines.push("");
  lines.push(`${files.length - refused} cleared into ${out}, ${refused} refused, ${skipped.length} skipped; ${users} user name(s) substituted`);
  return `${lines.join("\n")}\n`;
}

export async function substituteCommand(argv: string[], io: Io): Promise<number> {
  return guarded(io, argv, async () => {
    const args = parseArgs(argv, { json: "bool", out: "string", user: "strings", root: "string", help: "bool" });
    if (args.bools.has("help")) {
      io.stdout(substituteHelp);
      return 0;
    }
    if (args.positionals.length > 1) throw new UsageError("clear substitute takes one capture directory");
    const outFlag = one(args, "out");
    if (outFlag === undefined) throw new UsageError("clear substitute needs --out <dir>");
    for (const u of many(args, "user")) if (!isUserName(u)) throw new UsageError(`--user "${u}" is not a user name this tool can substitute`);
    const s = setting(one(args, "root"), io.cwd);
    const list = await listing(args.positionals[0], "substitute");
    const out = await prepareOut(path.resolve(io.cwd, outFlag), list.path);
    const ctx = inventoryContext(s.rules, checkSitting);

    // First pass: whose home directories the sitting names, read as text without parsing.
    const discovered = new Set<string>();
    for (const listed of list.entries) {
      const entry = await readCaptureEntry(list.path, listed, s.limits, { parse: false, hash: false });
      if (!entry.bytes) continue;
      // Only around each "home" and "Users": a home the byte search cannot see (spelled in escapes)
      // is caught by the second reading, which refuses the file.
      const bytes = Buffer.from(entry.bytes.buffer, entry.bytes.byteOffset, entry.bytes.byteLength);
      const owners: string[] = [];
      for (const word of ["home", "Users"]) {
        for (let at = bytes.indexOf(word); at !== -1; at = bytes.indexOf(word, at + 1)) {
          owners.push(...homeOwnersInJsonText(bytes.toString("utf8", Math.max(0, at - 8), Math.min(bytes.length, at + 512))));
        }
      }
      for (const u of owners) discovered.add(u);
    }
    const users = [...new Set([...discovered, ...many(args, "user"), ...(s.config.users ?? []), ...currentHomeUser()])];
    const envPolicy = s.config.policies?.["env-dump-v1"];
    const options: SubstituteOptions = { users, literals: s.config.literals ?? [], envDump: envPolicy ? { ...envPolicy } : null };

    // Second pass: read, check, clear and write, one capture at a time.
    const files: ClearedFile[] = [];
    const skipped: { file: string; reason: string }[] = [];
    // Writes overlap, since each waits on its own fsync; a bounded number are in flight at once.
    const writing = new Set<Promise<void>>();
    for (const listed of list.entries) {
      const entry = await readCaptureEntry(list.path, listed, s.limits, { hash: false });
      const inv = inventoryEntry(entry, ctx, { fields: false });
      if (inv.companion) continue;
      if (!inv.file || !inv.file.valid || !entry.doc) {
        const why = inv.findings.find((f) => f.severity === "block");
        skipped.push({ file: entry.name, reason: why ? `${why.code}: ${why.message}` : "not a readable capture" });
        continue;
      }
      // Every capture is cleared against the same names; a home owner the first reading missed
      // (a file changed since, or a name spelled only in escapes) could hide elsewhere too.
      const unseen = stringLeaves(entry.doc).flatMap((v) => homeOwnersIn(v)).filter((u) => !users.includes(u));
      if (unseen.length > 0) {
        skipped.push({ file: entry.name, reason: "names a home directory the first reading did not find (changed since, or spelled in escapes); pass that user with --user and run again" });
        continue;
      }
      const cleared = clearFile({ name: entry.name, event: inv.file.event, doc: entry.doc, rawBytes: entry.size }, ctx.classifiers.get(inv.file.harness) as Classifier, s.rules, options);
      if (cleared.cleared) {
        const write = writeAtomic(path.join(out, entry.name), cleared.cleared).finally(() => writing.delete(write));
        writing.add(write);
        if (writing.size >= 16) await Promise.race(writing);
      }
      files.push({ ...cleared, cleared: cleared.cleared ? new Uint8Array(0) : null });
    }
    await Promise.all(writing);

    const findings: Finding[] = files.flatMap((f) => f.refused);
    for (const f of files) {
      for (const pointer of f.review) {
        findings.push({ code: "review-free-text", severity: "note", file: f.name, pointer, message: "no field rule; looked like free text and was substituted" });
      }
    }
    const ok = skipped.length === 0 && files.every((f) => f.cleared !== null);
    if (args.bools.has("json")) {
      writeJson(io, {
        command: "substitute",
        ok,
        dir: list.path,
        out,
        userNames: users.length,
        files: files.map(({ cleared: _bytes, ...rest }) => rest),
        skipped,
        findings,
      });
    } else {
      io.stdout(renderSubstitution(files, skipped, users.length, out));
    }
    return ok ? 0 : 1;
  });
}
