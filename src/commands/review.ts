import path from "node:path";
import { parseFlags, UsageError } from "../cli-args.js";
import { OutputError } from "../errors.js";
import { companionMask, runLine, type Line } from "../line.js";
import { guarded, type Command } from "../command.js";
import { repoPaths } from "../io/repo-tree.js";
import { serveReview, type Route } from "../io/review-server.js";
import { loadSetting, type Setting } from "../io/setting.js";
import { readRepoFile } from "../io/write-repo.js";
import { provenancePass } from "../passes/provenance.js";
import type { Io } from "../types.js";
import { acceptanceOf, rawValue, reviewModel, type Acceptance, type RecordRead, type ReviewContext } from "../review/model.js";
import { pageHtml, SCRIPT, STYLE } from "../review/page.js";
import { checkedValue } from "./checked-output.js";

/** How a person runs clear run on this sitting: the inbox needs no argument; another folder is named, quoted for a shell. */
function runCommandFor(setting: Setting, dir: string): string {
  const inbox = setting.root ? path.join(setting.root, repoPaths(setting.config).capturesInbox) : null;
  if (inbox !== null && path.resolve(inbox) === path.resolve(dir)) return "clear run";
  const shown = setting.display.path(dir);
  const plain = /^[A-Za-z0-9_./~+-]+$/;
  if (plain.test(shown)) return `clear run ${shown}`;
  const quote = (s: string): string => `'${s.replace(/'/g, "'\\''")}'`;
  return `clear run ${shown.startsWith("~/") ? `~/${quote(shown.slice(2))}` : quote(shown)}`;
}

/** The record as the repository holds it, read without following a link; null when absent. */
async function readRecord(root: string, file: string): Promise<RecordRead> {
  try {
    const bytes = readRepoFile(root, file);
    return bytes === null ? null : { text: bytes.toString("utf8") };
  } catch (err) {
    if (err instanceof OutputError) return { error: err.message };
    throw err;
  }
}

async function contextFor(setting: Setting, dir: string, line: Line): Promise<ReviewContext> {
  const paths = repoPaths(setting.config);
  const b = line.batch;
  const blocked = b.blockers.length > 0;
  // A blocked batch writes no fixture; its paths are still the ones a clean run would write.
  const fixtures = blocked ? provenancePass(line.sitting, line.captures, line.substitution, line.pairing, line.selection, paths.fixtures, b.id, companionMask(line, setting)) : line.fixtures;
  const listed = b.listed;
  const record = setting.root ? await readRecord(setting.root, paths.clearance) : null;
  const acceptance: Acceptance = !setting.root && !blocked ? { state: "outside" } : acceptanceOf(record, { ...b, blocked }, listed, paths.clearance);
  const shown = { recordPath: paths.clearance, runCommand: runCommandFor(setting, dir) };
  return { batch: { id: b.id, digest: b.digest }, fixtures, sidecarsWritten: !blocked, blockers: b.blockers, acceptance, ...shown };
}

async function run(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseFlags(argv, { root: { type: "string" }, port: { type: "string" } }, 1, "review");
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError("--port takes a port number");
  const setting = loadSetting(values.root, io.cwd);
  const dir = positionals[0] ? path.resolve(io.cwd, positionals[0]) : setting.root ? path.join(setting.root, repoPaths(setting.config).capturesInbox) : undefined;
  if (dir === undefined) throw new UsageError("clear review needs a capture directory outside a repository");
  const cleared = await runLine(setting, dir, "record", { keepDocuments: true });
  const model = reviewModel(cleared, cleared.selection, cleared.scan, await contextFor(setting, dir, cleared));
  // What the page shows of the sitting (capture names, pair ids, findings) is checked as printed output is.
  const shown = await checkedValue(model, setting, cleared.names);
  const reveal: Route = (q) => {
    const fixture = model.fixtures[shown.fixtures.findIndex((f) => f.file === q.get("file"))];
    const index = Number(q.get("span"));
    if (!fixture || !fixture.spans.some((s) => s.index === index)) return { status: 404, type: "application/json", body: JSON.stringify({ error: "no such marked span" }) };
    return { status: 200, type: "application/json", body: JSON.stringify({ value: rawValue(cleared, fixture.file, index) }) };
  };
  const server = await serveReview((token) => ({
    "/": () => ({ status: 200, type: "text/html; charset=utf-8", body: pageHtml(shown, token) }),
    "/app.js": () => ({ status: 200, type: "text/javascript; charset=utf-8", body: SCRIPT }),
    "/style.css": () => ({ status: 200, type: "text/css; charset=utf-8", body: STYLE }),
    "/reveal": reveal,
  }), port);
  io.stdout(`${server.url}\n`);
  io.stderr("clear review: serving on 127.0.0.1 until Ctrl-C\n");
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await server.close();
  return 0;
}

export const reviewCommand: Command = { run: (argv, io) => guarded(io, argv, () => run(argv, io)) };
