import { promises as fs } from "node:fs";
import path from "node:path";
import { parseFlags, requireDir, UsageError } from "../cli-args.js";
import { guarded, type Command } from "../command.js";
import { loadSetting, progressFor } from "../io/setting.js";
import type { Io } from "../types.js";
import { isInside, writeFolderWhole } from "../io/write-atomic.js";
import { refuseUncleared, runLine } from "../line.js";
import { renderSubstitution } from "../render/human.js";
import { writeJson } from "../render/json.js";
import { checkedValue } from "./checked-output.js";

async function checkOut(out: string, captureDir: string, shown: string): Promise<void> {
  if (await isInside(out, captureDir)) throw new UsageError(`--out ${shown}: inside the capture folder; nothing is ever written there`);
  const stat = await fs.lstat(out).catch(() => null);
  if (stat && !stat.isDirectory()) throw new UsageError(`--out ${shown}: exists and is not a folder`);
  if (stat && (await fs.readdir(out)).length > 0) throw new UsageError(`--out ${shown}: not empty; name a new or empty folder`);
}

const FLAGS = {
  json: { type: "boolean" },
  verbose: { type: "boolean" },
  out: { type: "string" },
  user: { type: "string", multiple: true },
  root: { type: "string" },
} as const;

async function run(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseFlags(argv, FLAGS, 1, "substitute");
  if (values.out === undefined) throw new UsageError("clear substitute needs --out <dir>");
  const setting = loadSetting(values.root, io.cwd, { users: values.user ?? [] });
  setting.progress = progressFor(io, values.json);
  const dir = requireDir(positionals[0], "substitute");
  const out = path.resolve(io.cwd, values.out);
  const outShown = setting.display.path(out);
  await checkOut(out, path.resolve(io.cwd, dir), outShown);
  const { sitting, substitution, names } = await runLine(setting, dir, "substitute");
  // Nothing is written that the scan has not read clean: a file holding a secret shape or a name is refused.
  await refuseUncleared(substitution, names, setting);
  const written = substitution.files.flatMap((f) => (f.cleared !== null ? [{ name: f.report.name, bytes: Buffer.from(f.cleared, "utf8") }] : []));
  if (written.length > 300) setting.progress?.(`writing ${written.length} cleared files`);
  await writeFolderWhole(out, written, outShown);
  setting.progress?.("");
  const ok = substitution.skipped.length === 0 && substitution.files.every((f) => f.cleared !== null) && !substitution.findings.some((f) => f.code === "control-silent");
  // What is printed is the report, checked: the cleared texts are written, not printed.
  const folders = { dir: setting.display.path(sitting.dir), out: outShown };
  const shown = await checkedValue({ ...folders, ...substitution, files: substitution.files.map((f) => ({ ...f, cleared: f.cleared === null ? null : "" })) }, setting, names);
  if (values.json) {
    const { files, ...rest } = shown;
    writeJson(io, { command: "substitute", ok, ...rest, files: files.map(({ report: { spans: _spans, ...report } }) => report) });
  } else io.stdout(renderSubstitution(shown, shown.out, values.verbose === true));
  return ok ? 0 : 1;
}

export const substituteCommand: Command = { run: (argv, io) => guarded(io, argv, () => run(argv, io)) };
