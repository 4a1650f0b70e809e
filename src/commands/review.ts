import path from "node:path";
import { parseFlags, UsageError } from "../cli-args.js";
import { runLine } from "../line.js";
import { guarded, type Command } from "../command.js";
import { repoPaths } from "../io/repo-tree.js";
import { serveReview, type Route } from "../io/review-server.js";
import { loadSetting } from "../io/setting.js";
import type { Io } from "../types.js";
import { rawValue, reviewModel } from "../review/model.js";
import { pageHtml, SCRIPT, STYLE } from "../review/page.js";

const help = `clear review [<capture-dir>] [--root DIR] [--port N]

Serves a page on 127.0.0.1 (a random free port unless given, a one-time token in the printed URL)
to look at a batch before ACCEPT: the coverage grid, each fixture as it will be committed with its
substituted spans marked (the raw value of one span is sent only when you reveal it), the pairs,
the scan and its reach control, and the exact ACCEPT instruction. Nothing raw is written to disk
or cached. Ctrl-C ends it.
`;

async function run(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseFlags(argv, { root: { type: "string" }, port: { type: "string" } }, 1, "review");
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError("--port takes a port number");
  const setting = loadSetting(values.root, io.cwd);
  const dir = positionals[0] ? path.resolve(io.cwd, positionals[0]) : setting.root ? path.join(setting.root, repoPaths(setting.config).capturesInbox) : undefined;
  if (dir === undefined) throw new UsageError("clear review needs a capture directory outside a repository");
  const cleared = await runLine(setting, dir, "record", { keepDocuments: true });
  const batch = cleared.batch.blockers.length === 0 ? { id: cleared.batch.id, digest: cleared.batch.digest } : null;
  const model = reviewModel(cleared, cleared.selection, cleared.scan, batch);
  const reveal: Route = (q) => {
    const fixture = model.fixtures.find((f) => f.file === q.get("file"));
    const index = Number(q.get("span"));
    if (!fixture || !fixture.spans.some((s) => s.index === index)) return { status: 404, type: "application/json", body: JSON.stringify({ error: "no such marked span" }) };
    return { status: 200, type: "application/json", body: JSON.stringify({ value: rawValue(cleared, fixture.file, index) }) };
  };
  const server = await serveReview((token) => ({
    "/": () => ({ status: 200, type: "text/html; charset=utf-8", body: pageHtml(model, token) }),
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

export const reviewCommand: Command = { help, run: (argv, io) => guarded(io, argv, () => run(argv, io)) };
