import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { ScanFinding } from "../src/types.js";
import { clear, clearJson, tempDir } from "./helpers.js";

// A token glued onto the word before it (`nonexist` + a GitHub token, as a tool's output prints
// it), onto what an escape left as text (`u0022`, `x3d`, a `\n` two levels down), or onto more
// word characters after a fixed-length token, is still found by `clear scan`: named by file and
// pointer, and never printed. Every token is built here from pieces, so no file holds one whole.

/** `n` characters of `alphabet`, varied by `seed`. */
function chars(n: number, seed: number, alphabet = "Kq7wXz9RbT4mVn2LpS8dYc1FhJ3gN6vB0aEuMrWt5yPiOoLkZxCs"): string {
  return Array.from({ length: n }, (_, i) => alphabet[(i * 7 + seed * 13 + 3) % alphabet.length]).join("");
}
const HEX = "0123456789abcdef";
const UPPER = "ABCDEFGHJKLMNPQRSTUVWXYZ234567";

/** One token of each family whose prefix is distinctive, built from pieces. */
const tokens: Record<string, string> = {
  "github-classic": ["gh", "p_", chars(36, 1)].join(""),
  "github-oauth": ["gh", "o_", chars(36, 2)].join(""),
  "github-server": ["gh", "s_", chars(36, 3)].join(""),
  "github-fine-grained": ["github", "_pat_", chars(22, 4), "_", chars(59, 5)].join(""),
  gitlab: ["gl", "pat-", chars(20, 6)].join(""),
  npm: ["np", "m_", chars(36, 7)].join(""),
  anthropic: ["sk-", "ant-", "api03-", chars(93, 8), "AA"].join(""),
  "openai-project": ["sk-", "proj-", chars(48, 9)].join(""),
  "openai-service": ["sk-", "svcacct-", chars(48, 10)].join(""),
  slack: ["xo", "xb-", "2718281828-", "3141592653-", chars(24, 11)].join(""),
  huggingface: ["h", "f_", chars(34, 12, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")].join(""),
  "aws-key-id": ["AK", "IA", chars(16, 13, UPPER)].join(""),
  "google-api-key": ["AI", "za", chars(35, 14)].join(""),
  docker: ["dckr", "_pat_", chars(27, 15)].join(""),
  perplexity: ["pp", "lx-", chars(48, 16)].join(""),
  replicate: ["r8", "_", chars(37, 17)].join(""),
  supabase: ["sb", "p_", chars(40, 18, HEX)].join(""),
  "google-oauth": ["ya", "29.", chars(60, 19)].join(""),
  sendgrid: ["S", "G.", chars(22, 20), ".", chars(43, 21)].join(""),
  xai: ["xa", "i-", chars(80, 22)].join(""),
  groq: ["gs", "k_", chars(52, 23)].join(""),
};

/** How a token is glued into a tool's output: before it, after it, and how the string holds it. */
const glues: Record<string, (t: string) => string> = {
  word: (t) => `nonexist${t}`,
  digits: (t) => `run42${t}`,
  quote: (t) => `u0022${t}`,
  hex: (t) => `x3d${t}`,
  // Quoted-printable writes "=" as "=3D": the D before the key is a letter an escape left.
  "quoted-printable": (t) => `export KEY=3D${t}`,
  // `\\n` in the JSON text: a backslash and an n once decoded, a line break a level further down.
  "newline-escaped": (t) => `\\\\n${t}`,
};

function scanFolder(files: Record<string, string>): { findings: ScanFinding[]; printed: string; code: number } {
  const dir = tempDir();
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  const json = clearJson(["scan", dir, "--root", dir]);
  const human = clear(["scan", dir, "--root", dir, "--verbose"]);
  return { findings: json.json.findings as ScanFinding[], printed: [JSON.stringify(json.json), json.stderr, human.stdout, human.stderr].join("\n"), code: json.code };
}

const holding = (content: string): string => `{"session_id": "s", "tool_response": {"stdout": "${content}"}}`;

describe("clear scan finds a token glued to the text around it", () => {
  for (const [glue, wrap] of Object.entries(glues)) {
    it(`glued ${glue}: every family is found, at its file and pointer, and no value is printed`, () => {
      const files = Object.fromEntries(Object.entries(tokens).map(([family, t]) => [`${family}.json`, holding(wrap(t))]));
      const { findings, printed, code } = scanFolder(files);
      expect(code).toBe(1);
      const missed = Object.keys(files).filter((name) => !findings.some((f) => f.file === name && f.pointer === "/tool_response/stdout"));
      expect(missed).toEqual([]);
      for (const t of Object.values(tokens)) expect(printed, t.slice(0, 4)).not.toContain(t.slice(4, 20));
    });
  }

  it("a fixed-length token followed by more word characters is found", () => {
    const fixed = ["github-classic", "github-oauth", "npm", "replicate", "google-api-key", "docker", "groq", "sendgrid"];
    const files = Object.fromEntries(fixed.map((family) => [`${family}.json`, holding(`${tokens[family]}Xtra9`)]));
    const { findings, printed } = scanFolder(files);
    expect(Object.keys(files).filter((name) => !findings.some((f) => f.file === name && f.pointer === "/tool_response/stdout"))).toEqual([]);
    for (const family of fixed) expect(printed).not.toContain((tokens[family] as string).slice(4, 20));
  });

  it("a generic sk- key is found after digits or an escape left as text, never in words like task-, risk- or desk-", () => {
    const key = ["sk-", chars(32, 24, HEX)].join("");
    const prose = [
      `the task-${chars(40, 25)} finished`,
      `risk-${chars(36, 26)} and desk-${chars(32, 27, HEX)}`,
      "risk-admin-dashboard-configuration-panel-settings",
      `ask-${chars(44, 28)}`,
    ];
    const { findings } = scanFolder({
      "digits.json": holding(`run42${key}`),
      "quote.json": holding(`u0022${key}`),
      "hex.json": holding(`x3d${key}`),
      "qp.json": holding(`KEY=3D${key}`),
      "prose.json": JSON.stringify({ session_id: "s", tool_response: { stdout: prose.join("\n") } }),
    });
    expect(findings.filter((f) => f.rule === "clear/sk-key").map((f) => `${f.file} ${f.pointer}`).sort()).toEqual(
      ["digits.json", "hex.json", "qp.json", "quote.json"].map((f) => `${f} /tool_response/stdout`),
    );
    expect(findings.filter((f) => f.file === "prose.json")).toEqual([]);
  });

  it("a Hugging Face or Replicate prefix inside base64url data is noise, not a key; the same key ending the data is one", () => {
    const B64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    // Data of the base64url alphabet, '-' and '_' in it, with each prefix and a long run of letters and digits after it.
    const blob = (k: number): string => [chars(900, 40 + k, B64URL), tokens.huggingface, "_", chars(900, 50 + k, B64URL), tokens.replicate, "-", chars(900, 60 + k, B64URL)].join("");
    const { findings } = scanFolder({
      "data.json": JSON.stringify({ session_id: "s", tool_response: { stdout: `data:${blob(0)}` } }),
      "more.json": JSON.stringify({ session_id: "s", tool_response: { stdout: blob(1) } }),
      "ends.json": holding(`${chars(40, 70, B64URL)}${tokens.huggingface}`),
    });
    expect(findings.filter((f) => f.rule === "clear/huggingface" || f.rule === "clear/replicate").map((f) => `${f.file} ${f.rule}`)).toEqual(["ends.json clear/huggingface"]);
  });
});
