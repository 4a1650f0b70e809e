import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, PROJECT_ROOT, tempDir } from "./helpers.js";

const CHROMIUM = process.env.CLEAR_CHROMIUM ?? "/usr/bin/chromium";
const HAVE_BROWSER = existsSync(CHROMIUM);

let child: ChildProcess;
let url: URL;

beforeAll(async () => {
  child = spawn(process.execPath, [CLI, "review", path.join(PROJECT_ROOT, "examples", "sitting")], { cwd: tempDir(), stdio: ["ignore", "pipe", "pipe"] });
  const first = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("\n")) resolve(out.split("\n")[0] as string);
    });
    child.on("exit", (code) => reject(new Error(`review exited ${code}`)));
  });
  url = new URL(first);
});

afterAll(async () => {
  const exit = new Promise<number | null>((resolve) => child.on("exit", resolve));
  child.kill("SIGINT");
  expect(await exit).toBe(0);
});

function get(pathAndQuery: string, host = url.host, method = "GET"): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port: url.port, path: pathAndQuery, method, headers: { Host: host } }, (res) => {
      let body = "";
      res.on("data", (d: Buffer) => (body += d.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("clear review, the server", () => {
  const token = (): string => url.searchParams.get("token") as string;

  it("serves 127.0.0.1 only, with the token in the URL it printed", () => {
    expect(url.hostname).toBe("127.0.0.1");
    expect(token()).toMatch(/^[0-9a-f]{48}$/);
  });

  it("answers any request it does not serve with a plain error status, and keeps serving", async () => {
    for (const odd of ["//", "//x/..", `//?token=${token()}`, "*", "/%", `/?token=${token()}%ZZ`]) {
      const r = await get(odd);
      expect(r.status, odd).toBeGreaterThanOrEqual(400);
      expect(r.status, odd).toBeLessThan(500);
    }
    const raw = await new Promise<string>((resolve) => {
      const socket = net.connect(Number(url.port), "127.0.0.1", () => socket.write("NOT A REQUEST\r\n\r\n"));
      let got = "";
      socket.on("data", (d: Buffer) => (got += d.toString()));
      socket.on("close", () => resolve(got));
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400/);
    expect((await get(`/?token=${token()}`)).status).toBe(200);
  });

  it("refuses no token, a wrong token, a foreign Host header; answers 404 outside its paths", async () => {
    expect((await get("/")).status).toBe(403);
    expect((await get(`/?token=${"0".repeat(48)}`)).status).toBe(403);
    // As long as the token in characters, longer in bytes: a wrong token, not a failure of the server.
    expect((await get(`/?token=%C3%A9${"0".repeat(47)}`)).status).toBe(403);
    expect((await get(`/?token=${token()}`, "evil.example")).status).toBe(403);
    expect((await get(`/?token=${token()}`, `rebind.example:${url.port}`)).status).toBe(403);
    expect((await get(`/etc/passwd?token=${token()}`)).status).toBe(404);
    expect((await get(`/captures/?token=${token()}`)).status).toBe(404);
    expect((await get(`/reveal?token=${token()}&file=nope&span=1`)).status).toBe(404);
  });

  it("answers a path it serves asked with another method 405, saying which it answers; HEAD as GET without the body", async () => {
    for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
      const r = await get(`/?token=${token()}`, url.host, method);
      expect(r.status, method).toBe(405);
      expect(r.headers.allow, method).toBe("GET, HEAD");
    }
    expect((await get(`/nope?token=${token()}`, url.host, "POST")).status).toBe(404);
    expect((await get(`/?token=${"0".repeat(48)}`, url.host, "POST")).status).toBe(403);
    const head = await get(`/?token=${token()}`, url.host, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body).toBe("");
    expect((await get(`/?token=${token()}`)).status).toBe(200);
  });

  it("sends no-store and a strict CSP, and the page as first served holds no raw value", async () => {
    const r = await get(`/?token=${token()}`);
    expect(r.status).toBe(200);
    expect(r.headers["cache-control"]).toBe("no-store");
    expect(r.headers["content-security-policy"]).toContain("default-src 'none'");
    expect(r.body).not.toContain("capturer");
    expect(r.body).toContain("Outside a repository");
    expect(r.body).toMatch(/<code>clear run [^<]*\/examples\/sitting<\/code>/);
    expect(r.body).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);
  });
});

describe.skipIf(!HAVE_BROWSER)(`clear review in headless Chromium${HAVE_BROWSER ? "" : ` (skipped: no browser at ${CHROMIUM}; apt-get install chromium)`}`, () => {
  it("shows the grid and marked spans, reveals one raw value on request, and asks no other origin", async () => {
    const { chromium } = await import("playwright-core");
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
    try {
      const page = await browser.newPage();
      const origins = new Set<string>();
      page.on("request", (req) => origins.add(new URL(req.url()).origin));
      await page.goto(url.toString());
      await expect(page.locator("#coverage .cell.selected").count()).resolves.toBeGreaterThan(5);
      const mark = page.locator("mark.span.home-path-v1[data-span]").first();
      await expect(mark.textContent()).resolves.toContain("/home/user");
      await expect(page.locator("#reveal").isHidden()).resolves.toBe(true);
      await mark.click();
      await page.locator("#reveal-value").filter({ hasText: "capturer" }).waitFor();
      await expect(page.locator("#reveal-value").textContent()).resolves.toContain("/home/capturer");
      await page.screenshot({ path: path.join(process.env.CLEAR_SCREENSHOT_DIR ?? tempDir(), "review.png"), fullPage: true });
      expect([...origins]).toEqual([url.origin]);
    } finally {
      await browser.close();
    }
  });
});
