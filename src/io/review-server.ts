import { randomBytes, timingSafeEqual } from "node:crypto";
import http from "node:http";

// The review page's server: 127.0.0.1 only, a one-time token, the Host header checked (against
// DNS rebinding), a fixed set of paths, nothing cached, nothing loaded from elsewhere.

export const SECURITY_HEADERS = {
  "Cache-Control": "no-store",
  "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "Cross-Origin-Resource-Policy": "same-origin",
};

export type Route = (params: URLSearchParams) => { status: number; type: string; body: string };

export interface ReviewServer {
  url: string;
  close(): Promise<void>;
}

/** Compared as bytes: a token of the right length in characters, one of them not ASCII, is longer in bytes, and a wrong token. */
function tokenMatches(given: string | null, token: string): boolean {
  if (given === null) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

export async function serveReview(routes: (token: string) => Record<string, Route>, port: number): Promise<ReviewServer> {
  const token = randomBytes(24).toString("hex");
  const table = routes(token);
  const server = http.createServer((req, res) => {
    const send = (status: number, type: string, body: string): void => {
      if (res.headersSent) return;
      // A path it serves asked with another method: which ones it answers (HEAD is GET without the body).
      res.writeHead(status, { ...SECURITY_HEADERS, "Content-Type": type, ...(status === 405 ? { Allow: "GET, HEAD" } : {}) });
      res.end(body);
    };
    // Whatever a request holds, it gets a plain answer and the server keeps serving.
    try {
      answer(req, send);
    } catch {
      send(500, "text/plain", "the request could not be answered\n");
    }
  });
  const answer = (req: http.IncomingMessage, send: (status: number, type: string, body: string) => void): void => {
    const actual = (server.address() as { port: number }).port;
    const host = req.headers.host ?? "";
    if (host !== `127.0.0.1:${actual}` && host !== `localhost:${actual}`) return send(403, "text/plain", "forbidden: unknown host\n");
    const target = req.url ?? "/";
    // Only an absolute path is a request for this page; "//x", "http://x", "*" are not.
    if (!target.startsWith("/") || target.startsWith("//")) return send(400, "text/plain", "bad request\n");
    let url: URL;
    try {
      url = new URL(target, `http://127.0.0.1:${actual}`);
    } catch {
      return send(400, "text/plain", "bad request\n");
    }
    if (!tokenMatches(url.searchParams.get("token"), token)) return send(403, "text/plain", "forbidden: a token is needed\n");
    const route = table[url.pathname];
    if (!route) return send(404, "text/plain", "not found\n");
    if (req.method !== "GET" && req.method !== "HEAD") return send(405, "text/plain", "method not allowed: this page answers GET\n");
    const r = route(url.searchParams);
    return send(r.status, r.type, r.body);
  };
  server.on("clientError", (_err, socket) => {
    if (socket.writable) socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
    else socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const actual = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${actual}/?token=${token}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
