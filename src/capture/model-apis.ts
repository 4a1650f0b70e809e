import { SCENARIO_MARK, type ScriptedReply, type Turn } from "./script.js";

// The three streaming APIs the hosts speak, each as a reader of the request (which scenario,
// which step, whether tools are offered) and a writer of the scripted reply as the host expects it.

type Json = Record<string, unknown>;

export interface Api {
  name: "anthropic-messages" | "openai-responses" | "chat-completions";
  turnOf(body: Json): Turn;
  /** Server-sent events, or one JSON body when the request did not ask to stream. */
  encode(reply: ScriptedReply, body: Json, id: number): { contentType: string; text: string };
}

function textsOf(content: unknown): string[] {
  if (typeof content === "string") return [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap((part: Json) => (typeof part?.text === "string" ? [part.text] : []));
}

/** The last scenario named: a compacted conversation names its summary's scenario after the first. */
function scenarioIn(texts: string[]): string | null {
  let found: string | null = null;
  for (const t of texts) for (const m of t.matchAll(new RegExp(SCENARIO_MARK.source, "g"))) found = m[1] as string;
  return found;
}

const sse = (events: [string | null, Json | string][]): string =>
  events
    .map(([event, data]) => `${event ? `event: ${event}\n` : ""}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`)
    .join("");

/** The prompt's size the model reports: small, unless the step says the context is nearly full. */
const INPUT_TOKENS = 12;
const inputTokens = (reply: ScriptedReply): number => reply.inputTokens ?? INPUT_TOKENS;

function anthropicBlocks(reply: ScriptedReply, id: number): Json[] {
  const blocks: Json[] = [];
  if (reply.text !== undefined) blocks.push({ type: "text", text: reply.text });
  (reply.tools ?? []).forEach((t, i) => blocks.push({ type: "tool_use", id: `toolu_scripted_${id}_${i}`, name: t.tool, input: t.input }));
  return blocks;
}

export const anthropicMessages: Api = {
  name: "anthropic-messages",
  turnOf(body) {
    const messages = (Array.isArray(body.messages) ? body.messages : []) as Json[];
    const firstUser = messages.find((m) => m.role === "user");
    const step = messages.reduce(
      (n, m) => n + (Array.isArray(m.content) ? (m.content as Json[]).filter((b) => b?.type === "tool_result").length : 0),
      0,
    );
    const offersTools = Array.isArray(body.tools) && body.tools.length > 0;
    return { scenario: scenarioIn(textsOf(firstUser?.content)), step, offersTools };
  },
  encode(reply, body, id) {
    const blocks = anthropicBlocks(reply, id);
    const stop = reply.tools?.length ? "tool_use" : "end_turn";
    const message = {
      id: `msg_scripted_${id}`,
      type: "message",
      role: "assistant",
      model: body.model ?? "scripted",
      stop_sequence: null,
      usage: { input_tokens: inputTokens(reply), output_tokens: 4 },
    };
    if (body.stream !== true)
      return { contentType: "application/json", text: JSON.stringify({ ...message, content: blocks, stop_reason: stop }) };
    const events: [string, Json][] = [
      ["message_start", { type: "message_start", message: { ...message, content: [], stop_reason: null } }],
    ];
    blocks.forEach((b, index) => {
      const start = b.type === "text" ? { type: "text", text: "" } : { ...b, input: {} };
      const delta =
        b.type === "text" ? { type: "text_delta", text: b.text } : { type: "input_json_delta", partial_json: JSON.stringify(b.input) };
      events.push(["content_block_start", { type: "content_block_start", index, content_block: start }]);
      events.push(["content_block_delta", { type: "content_block_delta", index, delta }]);
      events.push(["content_block_stop", { type: "content_block_stop", index }]);
    });
    events.push([
      "message_delta",
      { type: "message_delta", delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 4 } },
    ]);
    events.push(["message_stop", { type: "message_stop" }]);
    return { contentType: "text/event-stream", text: sse(events) };
  },
};

function responsesItems(reply: ScriptedReply, id: number): Json[] {
  const items: Json[] = [];
  if (reply.text !== undefined) {
    items.push({
      type: "message",
      id: `msg_scripted_${id}`,
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: reply.text, annotations: [] }],
    });
  }
  (reply.tools ?? []).forEach((t, i) => {
    const call: Json = {
      type: "function_call",
      id: `fc_scripted_${id}_${i}`,
      call_id: `call_scripted_${id}_${i}`,
      name: t.tool,
      arguments: JSON.stringify(t.input),
      status: "completed",
    };
    if (t.namespace !== undefined) call.namespace = t.namespace;
    items.push(call);
  });
  return items;
}

export const openaiResponses: Api = {
  name: "openai-responses",
  turnOf(body) {
    const input = (Array.isArray(body.input) ? body.input : []) as Json[];
    const userTexts = input.filter((m) => m.role === "user").flatMap((m) => textsOf(m.content));
    const step = input.filter((m) => m.type === "function_call_output" || m.type === "custom_tool_call_output").length;
    return { scenario: scenarioIn(userTexts), step, offersTools: Array.isArray(body.tools) && body.tools.length > 0 };
  },
  encode(reply, body, id) {
    const items = responsesItems(reply, id);
    const tokens = {
      input_tokens: inputTokens(reply),
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 4,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: inputTokens(reply) + 4,
    };
    const response = {
      id: `resp_scripted_${id}`,
      object: "response",
      created_at: 0,
      model: body.model ?? "scripted",
      status: "completed",
      output: items,
      usage: tokens,
    };
    if (body.stream !== true) return { contentType: "application/json", text: JSON.stringify(response) };
    const events: [string, Json][] = [
      ["response.created", { type: "response.created", response: { ...response, status: "in_progress", output: [] } }],
    ];
    items.forEach((item, output_index) => {
      events.push(["response.output_item.added", { type: "response.output_item.added", output_index, item }]);
      if (item.type === "message") {
        const text = ((item.content as Json[])[0] as Json).text;
        events.push([
          "response.output_text.delta",
          { type: "response.output_text.delta", item_id: item.id, output_index, content_index: 0, delta: text },
        ]);
      }
      events.push(["response.output_item.done", { type: "response.output_item.done", output_index, item }]);
    });
    events.push(["response.completed", { type: "response.completed", response }]);
    return { contentType: "text/event-stream", text: sse(events) };
  },
};

export const chatCompletions: Api = {
  name: "chat-completions",
  turnOf(body) {
    const messages = (Array.isArray(body.messages) ? body.messages : []) as Json[];
    const userTexts = messages.filter((m) => m.role === "user").flatMap((m) => textsOf(m.content));
    const step = messages.filter((m) => m.role === "tool").length;
    return { scenario: scenarioIn(userTexts), step, offersTools: Array.isArray(body.tools) && body.tools.length > 0 };
  },
  encode(reply, body, id) {
    const calls = (reply.tools ?? []).map((t, index) => ({
      index,
      id: `call_scripted_${id}_${index}`,
      type: "function",
      function: { name: t.tool, arguments: JSON.stringify(t.input) },
    }));
    const finish = calls.length > 0 ? "tool_calls" : "stop";
    const base = { id: `chatcmpl_scripted_${id}`, created: 0, model: body.model ?? "scripted" };
    const tokens = { prompt_tokens: inputTokens(reply), completion_tokens: 4, total_tokens: inputTokens(reply) + 4 };
    const message: Json = { role: "assistant", content: reply.text ?? null };
    if (calls.length > 0) message.tool_calls = calls.map(({ index: _index, ...c }) => c);
    if (body.stream !== true) {
      return {
        contentType: "application/json",
        text: JSON.stringify({
          ...base,
          object: "chat.completion",
          choices: [{ index: 0, message, finish_reason: finish }],
          usage: tokens,
        }),
      };
    }
    const chunk = (delta: Json, finish_reason: string | null, extra: Json = {}): [null, Json] => [
      null,
      { ...base, object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason }], ...extra },
    ];
    const events: [null, Json | string][] = [chunk({ role: "assistant", content: "" }, null)];
    if (reply.text !== undefined) events.push(chunk({ content: reply.text }, null));
    if (calls.length > 0) events.push(chunk({ tool_calls: calls }, null));
    events.push(chunk({}, finish, { usage: tokens }));
    events.push([null, "[DONE]"]);
    return { contentType: "text/event-stream", text: sse(events) };
  },
};
