import { afterEach, describe, expect, it } from "vitest";
import { startModelServer, type ModelServer } from "../src/capture/model-server.js";
import type { Script } from "../src/capture/script.js";

// The scripted model a driven sitting runs against: a failure the host retries is answered once,
// with the header that says when to retry, and the same turn asked again gets the reply after it;
// a failure without one is answered every time; a step can report a prompt near the context's limit.

let server: ModelServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const tool = { type: "function", function: { name: "bash", parameters: { type: "object" } } };
const chat = (scenario: string): Record<string, unknown> => ({
  model: "scripted",
  messages: [{ role: "user", content: `[[scenario:${scenario}]] go` }],
  tools: [tool],
});

async function post(route: string, body: unknown): Promise<{ status: number; retryAfter: string | null; json: Record<string, unknown> }> {
  const r = await fetch(`${server!.url}${route}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: r.status, retryAfter: r.headers.get("retry-after-ms"), json: (await r.json()) as Record<string, unknown> };
}

describe("the scripted model server", () => {
  it("answers a failure with then once per turn, with retry-after-ms, and the turn asked again gets then", async () => {
    const script: Script = {
      retry: [{ status: 503, retryAfterMs: 200, then: { text: "second try" } }],
      broken: [{ status: 400 }],
    };
    server = await startModelServer(script, ["scripted"]);
    const first = await post("/v1/chat/completions", chat("retry"));
    expect(first.status).toBe(503);
    expect(first.retryAfter).toBe("200");
    expect(first.json).toMatchObject({ error: { type: "api_error" } });
    const again = await post("/v1/chat/completions", chat("retry"));
    expect(again.status).toBe(200);
    expect(again.retryAfter).toBeNull();
    expect(again.json).toMatchObject({ choices: [{ message: { content: "second try" } }] });
    for (let i = 0; i < 2; i++) {
      const refused = await post("/v1/chat/completions", chat("broken"));
      expect(refused.status).toBe(400);
      expect(refused.retryAfter).toBeNull();
      expect(refused.json).toMatchObject({ error: { type: "invalid_request_error" } });
    }
    expect(server.requests.map((r) => r.status)).toEqual([503, 200, 400, 400]);
    // A step run again (an attempt) meets the failure again.
    server.freshTurns();
    expect((await post("/v1/chat/completions", chat("retry"))).status).toBe(503);
    expect((await post("/v1/chat/completions", chat("retry"))).status).toBe(200);
  });

  it("reports the prompt's size a step names, in each API's usage, and a small one otherwise", async () => {
    server = await startModelServer({ full: [{ text: "near the limit", inputTokens: 199000 }], plain: [{ text: "small" }] }, ["scripted"]);
    const full = await post("/v1/chat/completions", chat("full"));
    expect(full.json.usage).toMatchObject({ prompt_tokens: 199000, total_tokens: 199004 });
    const plain = await post("/v1/chat/completions", chat("plain"));
    expect((plain.json.usage as { prompt_tokens: number }).prompt_tokens).toBeLessThan(100);
    const messages = await post("/v1/messages", { model: "m", messages: [{ role: "user", content: "[[scenario:full]] go" }], tools: [{ name: "bash" }] });
    expect(messages.json.usage).toMatchObject({ input_tokens: 199000 });
    const responses = await post("/v1/responses", {
      model: "m",
      input: [{ role: "user", content: [{ type: "input_text", text: "[[scenario:full]] go" }] }],
      tools: [tool],
    });
    expect(responses.json).toMatchObject({ usage: { input_tokens: 199000, total_tokens: 199004 } });
  });
});
