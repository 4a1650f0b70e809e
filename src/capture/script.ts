// What the scripted model answers: the scenario is named in the conversation's first user
// message, the step is how many tool results the conversation already holds. Requests that offer
// no tools (titles, summaries, compaction) and steps past the script get plain text.

export interface ToolCall {
  tool: string;
  input: Record<string, unknown>;
  /** Codex's namespaced tools (`multi_agent_v1`). */
  namespace?: string;
}

export interface ScriptedReply {
  text?: string;
  tools?: ToolCall[];
  /** The prompt's size in tokens the reply reports (a context near its limit makes a host compact). */
  inputTokens?: number;
  /** An HTTP status the server answers with instead of a reply (a model failure). */
  status?: number;
  /** With `status`: the `retry-after-ms` header the failure carries (how long a host waits to retry). */
  retryAfterMs?: number;
  /** With `status`: the reply to the same turn asked again (a retry), so the failure happens once. */
  then?: ScriptedReply;
}

export type Script = Record<string, ScriptedReply[]>;

export const SCENARIO_MARK = /\[\[scenario:([a-z0-9-]+)\]\]/;
export const PLAIN_TEXT = "Done.";

/** The words a scripted summary holds, so a compacted conversation still names its scenario. */
export function summaryText(scenario: string | null): string {
  return scenario === null ? "A short summary." : `A short summary of [[scenario:${scenario}-after]].`;
}

export interface Turn {
  scenario: string | null;
  step: number;
  offersTools: boolean;
}

export function replyFor(script: Script, turn: Turn): ScriptedReply {
  if (!turn.offersTools || turn.scenario === null) return { text: turn.offersTools ? PLAIN_TEXT : summaryText(turn.scenario) };
  const steps = script[turn.scenario];
  return steps?.[turn.step] ?? { text: PLAIN_TEXT };
}

/** Every `{name}` in a string of the script, replaced by the sitting's own value (the project's path). */
export function fillScript(script: Script, values: Record<string, string>): Script {
  const fill = (v: unknown): unknown => {
    if (typeof v === "string") return v.replace(/\{([a-zA-Z]+)\}/g, (whole, k: string) => values[k] ?? whole);
    if (Array.isArray(v)) return v.map(fill);
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fill(x)]));
    return v;
  };
  return fill(script) as Script;
}
