import http from "node:http";
import type { AddressInfo } from "node:net";
import { anthropicMessages, chatCompletions, openaiResponses, type Api } from "./model-apis.js";
import { replyFor, type Script, type ScriptedReply } from "./script.js";

// A scripted model on 127.0.0.1: the hosts' own streaming APIs, answering from a script, never
// from a model. It records what reached it (route, scenario, step), never a request's content.

export interface ModelRequest {
  method: string;
  route: string;
  api: Api["name"] | null;
  scenario: string | null;
  step: number | null;
  offersTools: boolean;
  status: number;
}

export interface ModelServer {
  url: string;
  port: number;
  requests: ModelRequest[];
  /** Forgets which turns a failure was answered on: the next asking of each meets its failure again. */
  freshTurns(): void;
  close(): Promise<void>;
}

const ROUTES: Record<string, Api> = {
  "/v1/messages": anthropicMessages,
  "/messages": anthropicMessages,
  "/v1/responses": openaiResponses,
  "/responses": openaiResponses,
  "/v1/chat/completions": chatCompletions,
  "/chat/completions": chatCompletions,
};

const MAX_BODY = 64 * 1024 * 1024;

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    req.on("data", (d: Buffer) => {
      size += d.length;
      if (size > MAX_BODY) req.destroy(new Error("request too large"));
      else parts.push(d);
    });
    req.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    req.on("error", reject);
  });
}

const json = (res: http.ServerResponse, status: number, value: unknown): void => answer(res, status, "application/json", JSON.stringify(value));
const failure = (type: string, message: string): unknown => ({ type: "error", error: { type, message } });

function answer(res: http.ServerResponse, status: number, contentType: string, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...headers, "content-type": contentType, "cache-control": "no-store", connection: "close" });
  res.end(text);
}

/** A failure with a `then` is answered once per turn; the same turn asked again gets `then`. */
function answeredOnce(reply: ScriptedReply, turnKey: string, failed: Set<string>): ScriptedReply {
  if (reply.status === undefined || reply.then === undefined) return reply;
  if (failed.has(turnKey)) return reply.then;
  failed.add(turnKey);
  return reply;
}

/** The error type the hosts' APIs give a status: a server's trouble is retried, a request's is not. */
const failureType = (status: number): string =>
  status === 429 ? "rate_limit_error" : status === 529 ? "overloaded_error" : status >= 500 ? "api_error" : "invalid_request_error";

async function handle(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  script: Script,
  state: { requests: ModelRequest[]; models: string[]; failed: Set<string> },
): Promise<void> {
  const route = (req.url ?? "/").split("?")[0] as string;
  const seen: ModelRequest = { method: req.method ?? "?", route, api: null, scenario: null, step: null, offersTools: false, status: 404 };
  state.requests.push(seen);
  const text = await readBody(req);
  if (req.method === "GET" && /^(?:\/v1)?\/models$/.test(route)) {
    seen.status = 200;
    const data = state.models.map((id) => ({ id, object: "model", created: 0, owned_by: "scripted", type: "model", display_name: id }));
    return json(res, 200, { object: "list", data });
  }
  if (req.method === "POST" && /count_tokens$/.test(route)) {
    seen.status = 200;
    return json(res, 200, { input_tokens: 12 });
  }
  const api = req.method === "POST" ? ROUTES[route] : undefined;
  if (!api) return json(res, 404, failure("not_found", "the scripted model serves no such route"));
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    seen.status = 400;
    return json(res, 400, failure("invalid_request_error", "the body is not JSON"));
  }
  const turn = api.turnOf(body);
  Object.assign(seen, { api: api.name, scenario: turn.scenario, step: turn.step, offersTools: turn.offersTools });
  const reply = answeredOnce(replyFor(script, turn), `${turn.scenario}:${turn.step}`, state.failed);
  if (reply.status !== undefined) {
    seen.status = reply.status;
    const headers: Record<string, string> = reply.retryAfterMs === undefined ? {} : { "retry-after-ms": String(reply.retryAfterMs) };
    return answer(res, reply.status, "application/json", JSON.stringify(failure(failureType(reply.status), "scripted failure")), headers);
  }
  const out = api.encode(reply, body, state.requests.length);
  seen.status = 200;
  answer(res, 200, out.contentType, out.text);
}

/** Starts the scripted model on 127.0.0.1, on a free port. */
export function startModelServer(script: Script, models: string[]): Promise<ModelServer> {
  const state = { requests: [] as ModelRequest[], models, failed: new Set<string>() };
  const server = http.createServer((req, res) => {
    handle(req, res, script, state).catch(() => {
      if (!res.headersSent) answer(res, 500, "application/json", "{}");
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const port = (server.address() as AddressInfo).port;
      resolve({
        url: `http://127.0.0.1:${port}`,
        port,
        requests: state.requests,
        freshTurns: () => state.failed.clear(),
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
