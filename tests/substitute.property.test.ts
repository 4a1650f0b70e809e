import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { captureOf, clearInMemory, clearJson, tempDir } from "./helpers.js";
import { prng } from "./seeded.mjs";
import { makeDisplay } from "../src/display.js";
import { homeGrammar } from "../src/homes.js";
import { loadRules } from "../src/io/load-rules.js";
import { scanJson } from "../src/json/reader.js";
import { learnOwners } from "../src/passes/substitute/index.js";
import type { JsonDocument } from "../src/types.js";

// Thousands of generated payloads per run, from a printed seed: home paths planted in every
// spelling and free text at random pointers, every escape style, unicode and surrogate pairs.

const SEED = Number(process.env.CLEAR_PROPERTY_SEED ?? Date.now() % 2 ** 31);
const DOCS = Number(process.env.CLEAR_PROPERTY_DOCS ?? 3000);

const PATH_KEYS = ["cwd", "transcript_path", "agent_transcript_path"];
const FREE_KEYS = ["prompt", "last_assistant_message"];
const ID_KEYS = ["session_id", "turn_id", "tool_use_id"];
const OTHER_KEYS = ["notes", "detail", "é", "a\"b", "sl/ash", "k~0", ""];
const ALPHABET = ["a", "b", "Z", "0", " ", "-", "_", ".", "/", "\\", '"', "\n", "\t", "é", "ß", "中", "😀", "\u0001", "\u2028", "~"];

function spellings(user: string, rnd: () => number): string[] {
  const slug = user.replace(/[^A-Za-z0-9-]/g, "-");
  const drive = String.fromCharCode(65 + Math.floor(rnd() * 26));
  return [
    `/home/${user}`,
    `/home/${user}/project/file.txt`,
    `/Users/${user}/Library`,
    `${drive}:\\Users\\${user}\\AppData`,
    `${drive}:/Users/${user}/src`,
    `home/${user}/.config`,
    `Users/${user}/x`,
    `/home/user/.claude/projects/-home-${slug}-work-proj/s.jsonl`,
    `-Users-${slug}-proj`,
    `C--Users-${slug}-proj`,
    `file:///home/${user}/notes.md`,
    `see /home/${user}/a and then ${drive}:\\Users\\${user}`,
  ];
}

/** What a path member holds reads as a path (one line, its blanks beside a separator), else it is refused as prose: the planted home with its random text made one. */
function asPath(text: string): string {
  const line = text.replace(/[\p{Cc}\u2028\u2029]/gu, "");
  return /\s/.test(line) && !/[/\\]/.test(line) ? `/${line}` : line;
}

interface Gen {
  value: unknown;
  text: string;
}

function generator(rnd: () => number, users: string[]): () => Gen {
  const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const randomString = (): string => {
    const len = rnd() < 0.1 ? 0 : rnd() < 0.05 ? 300 + Math.floor(rnd() * 400) : Math.floor(rnd() * 20);
    let s = "";
    for (let i = 0; i < len; i++) s += pick(ALPHABET);
    return s;
  };
  const planted = (): string => {
    const user = pick(users);
    const spelled = pick(spellings(user, rnd));
    return rnd() < 0.5 ? spelled : `${randomString().replace(/[a-zA-Z0-9]$/, "")} ${spelled} ${randomString()}`;
  };
  const ws = (): string => (rnd() < 0.8 ? "" : pick([" ", "\n", "  ", "\t", "\r\n"]));
  const encodeString = (s: string): string => {
    let out = '"';
    for (const ch of s) {
      const c = ch.codePointAt(0) as number;
      if (ch === '"') out += '\\"';
      else if (ch === "\\") out += "\\\\";
      else if (ch === "/") out += pick(["/", "/", "\\/", "\\u002F", "\\u002f"]);
      else if (c < 0x20) out += ch === "\n" && rnd() < 0.5 ? "\\n" : ch === "\t" && rnd() < 0.5 ? "\\t" : `\\u${c.toString(16).padStart(4, "0")}`;
      else if (c > 0xffff) out += rnd() < 0.5 ? ch : [...ch].map(() => "").join("") + `\\u${ch.charCodeAt(0).toString(16)}\\u${ch.charCodeAt(1).toString(16).toUpperCase()}`;
      else if (c > 0x7f) out += rnd() < 0.5 ? ch : `\\u${c.toString(16).padStart(4, "0")}`;
      else if (/[a-z]/.test(ch) && rnd() < 0.03) out += `\\u00${c.toString(16)}`;
      else out += ch;
    }
    return `${out}"`;
  };
  const gen = (depth: number): Gen => {
    const r = rnd();
    if (depth > 0 && r < 0.25) {
      const n = Math.floor(rnd() * 5);
      const keys = new Set<string>();
      const members: [string, Gen][] = [];
      for (let i = 0; i < n; i++) {
        const key = pick([...PATH_KEYS, ...FREE_KEYS, ...ID_KEYS, ...OTHER_KEYS, "tool_input", "nested"]);
        if (keys.has(key)) continue;
        keys.add(key);
        const leafIsString = PATH_KEYS.includes(key) || FREE_KEYS.includes(key) || ID_KEYS.includes(key);
        members.push([key, leafIsString ? { value: "", text: "" } : gen(depth - 1)]);
        if (leafIsString) {
          const s = ID_KEYS.includes(key) ? `id-${Math.floor(rnd() * 1e6)}` : PATH_KEYS.includes(key) ? asPath(planted()) : rnd() < 0.4 ? planted() : randomString();
          members[members.length - 1] = [key, { value: s, text: encodeString(s) }];
        }
      }
      return {
        value: Object.fromEntries(members.map(([k, g]) => [k, g.value])),
        text: `{${ws()}${members.map(([k, g]) => `${encodeString(k)}${ws()}:${ws()}${g.text}`).join(`${ws()},${ws()}`)}${ws()}}`,
      };
    }
    if (depth > 0 && r < 0.4) {
      const n = Math.floor(rnd() * 4);
      const items = Array.from({ length: n }, () => gen(depth - 1));
      return { value: items.map((g) => g.value), text: `[${ws()}${items.map((g) => g.text).join(`${ws()},${ws()}`)}${ws()}]` };
    }
    if (r < 0.5) {
      const v = pick([0, -1, 3.25, 1e21, 12345678901234]);
      return { value: v, text: pick([String(v), v === 0 ? "0" : String(v)]) };
    }
    if (r < 0.55) return { value: null, text: "null" };
    if (r < 0.6) {
      const b = rnd() < 0.5;
      return { value: b, text: String(b) };
    }
    const s = rnd() < 0.3 ? planted() : randomString();
    return { value: s, text: encodeString(s) };
  };
  return () => {
    // Top level is an object, as every payload is.
    for (;;) {
      const g = gen(4);
      if (g.value !== null && typeof g.value === "object" && !Array.isArray(g.value)) return g;
    }
  };
}

function skeleton(doc: JsonDocument): string {
  let out = "";
  let at = 0;
  for (const s of doc.spans.filter((x) => x.kind === "string")) {
    out += `${doc.text.slice(at, s.start)}\u0000`;
    at = s.end;
  }
  return out + doc.text.slice(at);
}

function sameShape(a: unknown, b: unknown): boolean {
  if (typeof a === "string") return typeof b === "string";
  if (a === null || typeof a !== "object") return a === b;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => sameShape(x, b[i]));
  if (b === null || typeof b !== "object" || Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && sameShape((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** Whether a capture's random text spells a home of its own, teaching a name that is none of the planted users'. */
function teachesByChance(users: string[], rules: ReturnType<typeof loadRules>): (capture: ReturnType<typeof captureOf>) => boolean {
  // A planted user's words are its own: those between its marks, and its letters between its digits ("t-rex9" teaches "rex").
  const plantedWords = new Set(users.flatMap((u) => [u, ...u.split(/[.-]/), ...u.split(/[^A-Za-z]+/)]).map((w) => w.toLowerCase()));
  return (capture) => [...learnOwners([capture], homeGrammar(rules.homes), rules.homes).keys()].some((n) => n.length >= 2 && !plantedWords.has(n));
}

describe("substitution, as a property", () => {
  it(`holds for ${DOCS} generated payloads (seed ${SEED}; rerun with CLEAR_PROPERTY_SEED=${SEED})`, () => {
    console.log(`substitution property seed: ${SEED}`);
    const rnd = prng(SEED);
    const users = ["zqvexa", "ann.lee", "bo-kraw", "Xyloph"];
    const next = generator(rnd, users);
    const rules = loadRules();
    const display = makeDisplay(rules, users, null);
    const leftover = new RegExp(`(?<![A-Za-z0-9])(?:zqvexa|ann.lee|ann-lee|bo-kraw|xyloph)(?![A-Za-z0-9])`, "i");
    let planted = 0;
    let byChance = 0;
    // Random text may spell a home itself ("~/../Zb"): its owner is learned, and a word of it standing
    // elsewhere in the doc refuses it by design. Only that refusal is let pass, and only rarely.
    const teaches = teachesByChance(users, rules);
    const taughtByChance = (capture: ReturnType<typeof captureOf>, refused: { code: string }[]): boolean =>
      refused.length > 0 && refused.every((f) => f.code === "user-name-left") && teaches(capture);
    for (let i = 0; i < DOCS; i++) {
      const g = next();
      const doc = scanJson(g.text, { maxDepth: 64 });
      expect(doc.value).toEqual(g.value);
      const capture = captureOf(g.text, `doc-${i}`, "codex", "pre_tool_use");
      const [result] = clearInMemory([capture], users, rules).files;
      const cleared = { ...result!.report, cleared: result!.cleared };
      if (taughtByChance(capture, cleared.refused)) {
        byChance++;
        continue;
      }
      expect(cleared.refused, `doc ${i} refused: ${JSON.stringify(cleared.refused)}\n${g.text}`).toEqual([]);
      const out = cleared.cleared as string;
      const outDoc = scanJson(out, { maxDepth: 64 });
      expect(sameShape(doc.value, outDoc.value), `shape of doc ${i}`).toBe(true);
      expect(skeleton(outDoc), `bytes outside string tokens of doc ${i}`).toBe(skeleton(doc));
      const touched = new Set(cleared.rules.flatMap((r) => r.changed));
      doc.spans.forEach((s, k) => {
        const o = outDoc.spans[k] as (typeof outDoc.spans)[number];
        // Reported pointers are masked where a member name is not in the rules; compare them so.
        if (s.kind === "string" && !touched.has(display.pointer(s.pointer))) expect(out.slice(o.start, o.end)).toBe(g.text.slice(s.start, s.end));
      });
      if (leftover.test(g.text)) planted++;
      expect(leftover.test(out), `a user name survived in doc ${i}:\n${out}`).toBe(false);
      const [again] = clearInMemory([captureOf(out, `doc-${i}`, "codex", "pre_tool_use")], users, rules).files;
      expect(again!.cleared as string, `second pass over doc ${i}`).toBe(out);
      expect(again!.report.rules.flatMap((r) => r.changed)).toEqual([]);
    }
    expect(planted).toBeGreaterThan(DOCS / 4);
    console.log(`substitution property: ${byChance} of ${DOCS} refused for what their random text wrote`);
    expect(byChance, "docs refused for what their random text wrote").toBeLessThanOrEqual(Math.max(2, DOCS / 2000));
  });
});

describe("substitution of a generated sitting, through the command line", () => {
  it(`finds every user from the sitting's own paths and leaves none behind (seed ${SEED})`, () => {
    const rnd = prng(SEED + 1);
    const users = ["qwolfe", "jo.anne", "t-rex9"];
    const next = generator(rnd, users);
    const dir = tempDir();
    const texts: string[] = [];
    // A payload whose random text spells a home of its own ("~a/../中Z") would teach that name to the
    // whole sitting and refuse every file that writes a word of it, by design: the first property
    // counts those; this one is about the planted users, so such a payload is drawn again.
    const teaches = teachesByChance(users, loadRules());
    let redrawn = 0;
    for (let i = 1; i <= 300; i++) {
      let g = next();
      for (; teaches(captureOf(g.text, `doc-${i}`, "codex", "pre_tool_use")); redrawn++) g = next();
      texts.push(g.text);
      writeFileSync(path.join(dir, `codex_pre_tool_use_0_153_0.${i}.json`), g.text);
    }
    // Every user must appear at least once as an absolute home, where the tool can learn the name.
    writeFileSync(path.join(dir, "codex_session_start_0_153_0.1.json"), JSON.stringify({ session_id: "s", cwd: users.map((u) => `/home/${u}`).join(":") }));
    const out = path.join(tempDir(), "out");
    const { code, json } = clearJson(["substitute", dir, "--out", out]);
    expect(json.skipped).toEqual([]);
    const blocking = (json.findings as { severity: string; file: string }[]).filter((f) => f.severity === "block");
    if (process.env.CLEAR_PROPERTY_DEBUG) for (const f of blocking) console.log(readFileSync(path.join(dir, f.file), "utf8"));
    expect(blocking, JSON.stringify(blocking)).toEqual([]);
    expect(code).toBe(0);
    expect(json.userNames).toBeGreaterThanOrEqual(3);
    const leftover = /(?<![A-Za-z0-9])(?:qwolfe|jo.anne|jo-anne|t-rex9)(?![A-Za-z0-9])/i;
    expect(texts.filter((t) => leftover.test(t)).length).toBeGreaterThan(50);
    const written = readdirSync(out);
    expect(written).toHaveLength(301);
    for (const name of written) expect(leftover.test(readFileSync(path.join(out, name), "utf8")), name).toBe(false);
    console.log(`substitution of a sitting: ${redrawn} payloads drawn again for what their random text wrote`);
    expect(redrawn, "payloads drawn again for what their random text wrote").toBeLessThan(40);
  });
});
