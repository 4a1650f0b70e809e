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

function tokenMatches(given: string | null, token: string): boolean {
  if (given === null || given.length !== token.length) return false;
  return timingSafeEqual(Buffer.from(given), Buffer.from(token));
}

export async function serveReview(routes: (token: string) => Record<string, Route>, port: number): Promise<ReviewServer> {
  const token = randomBytes(24).toString("hex");
  const table = routes(token);
  const server = http.createServer((req, res) => {
    const send = (status: number, type: string, body: string): void => {
      res.writeHead(status, { ...SECURITY_HEADERS, "Content-Type": type });
      res.end(body);
    };
    const actual = (server.address() as { port: number }).port;
    const host = req.headers.host ?? "";
    if (host !== `127.0.0.1:${actual}` && host !== `localhost:${actual}`) return send(403, "text/plain", "forbidden: unknown host\n");
    const url = new URL(req.url ?? "/", `http://127.0.0.1:${actual}`);
    if (!tokenMatches(url.searchParams.get("token"), token)) return send(403, "text/plain", "forbidden: a token is needed\n");
    const route = req.method === "GET" ? table[url.pathname] : undefined;
    if (!route) return send(404, "text/plain", "not found\n");
    const r = route(url.searchParams);
    return send(r.status, r.type, r.body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const actual = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${actual}/?token=${token}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
