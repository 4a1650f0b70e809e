import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { accountNames } from "../src/account-names.js";
import { ABOVE_ASCII_LETTER, INVISIBLE } from "../src/home-escapes.js";
import { homeGrammar, NamePattern, ownerNames, userNamePattern } from "../src/homes.js";
import { learnOwners } from "../src/passes/substitute/index.js";
import { loadRules } from "../src/io/load-rules.js";
import { nestedReadings } from "../src/json/escapes.js";
import { captureOf, CLI, clear, clearInMemory, clearJson, PROJECT_ROOT, tempDir } from "./helpers.js";

/** A Codex tool call whose only varying part is its id. */
const call = (id: string): object => ({ session_id: "s", turn_id: "t", hook_event_name: "PreToolUse", tool_name: "shell", tool_input: { command: "ls" }, tool_use_id: id });

/** The findings of one code in a command's JSON output. */
const findingsOf = (r: { json: Record<string, unknown> }, code: string): { code: string; file: string; pointer: string; message: string }[] =>
  (r.json.findings as { code: string; file: string; pointer: string; message: string }[]).filter((f) => f.code === code);
import { prng } from "./seeded.mjs";

/** One SessionStart capture for each cwd, cleared by clear substitute: the result, the folders, each cleared file's text and cwd. */
function substituteCwds(cwds: string[]): { r: ReturnType<typeof clearJson>; dir: string; out: string; texts: string[]; cleared: string[] } {
  const dir = tempDir();
  const name = (i: number): string => `codex_session_start_0_171_0.${i + 1}.json`;
  cwds.forEach((cwd, i) => writeFileSync(path.join(dir, name(i)), JSON.stringify({ session_id: "s", hook_event_name: "SessionStart", cwd })));
  const out = path.join(tempDir(), "out");
  const r = clearJson(["substitute", dir, "--out", out]);
  const texts = cwds.map((_, i) => readFileSync(path.join(out, name(i)), "utf8"));
  return { r, dir, out, texts, cleared: texts.map((t) => JSON.parse(t).cwd as string) };
}

/** clear substitute of SessionStart captures with these cwds, and clear substitute again of what it wrote. */
function substitutedTwice(cwds: string[]): ReturnType<typeof substituteCwds> & { again: ReturnType<typeof clearJson> } {
  const first = substituteCwds(cwds);
  return { ...first, again: clearJson(["substitute", first.out, "--out", path.join(tempDir(), "again")]) };
}

const rules = loadRules();
const grammar = homeGrammar(rules.homes);

describe("a line holding every kind of root", () => {
  it("reads each home in it as that home is read alone: one search of many roots finds what each root finds, in order, and no root again inside a home found", () => {
    // Every root's and slug's example in one line: the search meets every root's word there, the
    // roots' patterns are searched side by side, and a root inside another's match (the .ecryptfs
    // folder under /home) is passed over as it is when the example stands alone.
    const pieces = [...rules.homes.roots, ...rules.homes.slugs].flatMap((r) => r.examples.map((e) => e.text));
    for (const separator of ['", "', " | "]) {
      const line = pieces.join(separator);
      const alone: [number, number, boolean][] = [];
      let at = 0;
      for (const piece of pieces) {
        for (const o of grammar.owners(piece)) alone.push([o.start + at, o.end + at, o.real]);
        at += piece.length + separator.length;
      }
      expect(alone.length).toBeGreaterThan(pieces.length / 2);
      expect(grammar.owners(line).map((o): [number, number, boolean] => [o.start, o.end, o.real]), separator).toEqual(alone);
    }
  });
});

describe("the names a scan looks for, in patterns of a few alternatives each", () => {
  /** Every find of a pattern in a text as [start, end], and the first from each place. */
  const findsOf = (text: string, all: (t: string) => RegExpExecArray[], first: (t: string, from: number) => RegExpExecArray | null): string => {
    const froms = Array.from({ length: text.length + 1 }, (_, from) => first(text, from)).map((m) => (m === null ? "-" : `${m.index}+${m[0].length}`));
    return JSON.stringify([all(text).map((m) => [m.index, m.index + m[0].length]), froms]);
  };
  const single = (source: string) => {
    const re = new RegExp(source, "giu");
    return [(t: string) => [...t.matchAll(re)], (t: string, from: number) => ((re.lastIndex = from), re.exec(t))] as const;
  };
  const split = (p: NamePattern) => [(t: string) => p.all(t), (t: string, from: number) => p.exec(t, from)] as const;

  it("find what the one alternation finds: the leftmost find, and where two start at one place the earlier alternative's, however the alternatives are parted", () => {
    // Names that begin one another, far apart in a list long enough to be parted in several
    // patterns: where two start at one place, only the earlier one's end is the alternation's.
    const random = prng(17);
    const word = (n: number): string => Array.from({ length: n }, () => "bdfgklmnprstvz"[Math.floor(random() * 14)]).join("");
    const family = ["ann", "anna", "annabel", "annabelle", "anneli"];
    const alternatives = Array.from({ length: 8000 }, (_, i) => word(6 + (i % 5)));
    family.forEach((f, k) => alternatives.splice(300 + k * 1500, 0, f, `${f}(?=x)`));
    [...family].reverse().forEach((f, k) => alternatives.splice(1000 + k * 1500, 0, `${f}(?=x)`, f));
    const pattern = new NamePattern(alternatives, alternatives.join("|"), null);
    expect(pattern.source.length).toBeGreaterThan(4 * 16_000);
    const texts = [...family, "annabellex annax ANNABEL", `${alternatives[10]}annabelleannab${alternatives[2000]}x`, family.join(""), [...family].reverse().join(" ")];
    for (const text of texts) expect(findsOf(text, ...split(pattern)), text).toEqual(findsOf(text, ...single(pattern.source)));
  });

  it("a sitting's many names, some beginning others, are found as one pattern of them all finds them", () => {
    const [consonants, vowels] = ["bcdfghjklmnpqrstvwxz", "aeiou"];
    const made = Array.from({ length: 50 }, (_, i) => Array.from({ length: 4 }, (_, k) => `${consonants[(i * 7 + k * 13 + k * k) % 20]}${vowels[(i + k * 3) % 5]}`).join("").slice(0, 6 + (i % 3)));
    const names = [...made, "anders", "andersen", "andersson", "ann", "anna", "annabel", "jo", "jon", "jonas", "jonas.berg"];
    const pattern = userNamePattern(names) as NamePattern;
    expect(pattern.source.length).toBeGreaterThan(2 * 16_000);
    const random = prng(29);
    const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
    const pieces = [...names, ...names.map((n) => n.toUpperCase()), ...names.map((n) => Buffer.from(`/home/${n}`).toString("base64")), "the", "x", "2", "-", ".", " ", "\n", "_", "é"];
    for (let i = 0; i < 40; i++) {
      const text = Array.from({ length: 12 }, () => pick(pieces)).join(pick(["", " ", "."]));
      expect(findsOf(text, ...split(pattern)), text).toEqual(findsOf(text, ...single(pattern.source)));
      expect(pattern.test(text)).toBe(new RegExp(pattern.source, "iu").test(text));
    }
  });
  it("fifty names are searched in patterns of at most 16,000 characters each, never as the one alternation", () => {
    // Fifty names of six to eight letters, each in its every spelling, make an alternation of 28,000
    // characters, which V8 searches some fifty times slower than one of 16,000 (half a minute for a
    // text of a megabyte and a half, where the parts take a second); what is checked is that shape, never a time.
    const [consonants, vowels] = ["bcdfghjklmnpqrstvwxz", "aeiou"];
    const names = Array.from({ length: 50 }, (_, i) => Array.from({ length: 4 }, (_, k) => `${consonants[(i * 7 + k * 13 + k * k) % 20]}${vowels[(i + k * 3) % 5]}`).join("").slice(0, 6 + (i % 3)));
    const pattern = userNamePattern(names) as NamePattern;
    expect(pattern.source.length).toBeGreaterThan(16_000);
    expect(pattern.parts.length).toBeGreaterThan(1);
    for (const part of pattern.parts) expect(part.length).toBeLessThanOrEqual(16_000);
    const text = "the scan reads each line of a text again for every reading of it 12 a%2Fb\n".repeat(2_000);
    expect(pattern.test(text)).toBe(false);
    expect(pattern.test(`${text}${names[49] as string}`)).toBe(true);
  });
});

describe("the anchor folders a host keeps in a home (rules/homes.json anchors)", () => {
  /** The names a SessionStart capture whose cwd is `text` teaches; `escaped` writes every "/" of it as \\u002f in the raw JSON. */
  const learned = (text: string, escaped = false): string[] => {
    const raw = JSON.stringify({ session_id: "s", hook_event_name: "SessionStart", cwd: text });
    return [...learnOwners([captureOf(escaped ? raw.replaceAll("/", "\\u002f") : raw, "codex_session_start_0_171_0.1.json", "codex", "session_start")], grammar, rules.homes).keys()];
  };

  it("teach the owner before each, under a root no rule lists, and nothing from a project's own folder, a relative path, ~ or the placeholder", () => {
    const anchors = rules.homes.anchors;
    expect(anchors?.folders.length).toBeGreaterThan(0);
    for (const ex of anchors?.examples ?? []) expect(learned(ex.text), ex.text).toContain(ex.owner.toLowerCase());
    for (const text of anchors?.notExamples ?? []) expect(learned(text), text).toEqual([]);
    // Escaped as a JSON string may write it, and in another letter case.
    expect(learned("/srv/ana/.claude/projects/x", true)).toContain("ana");
    expect(learned("/srv/people/ana/.CLAUDE/Projects/x")).toContain("ana");
    // Before a folder a person keeps in repositories too, a folder of a home the roots know (a dotfiles repository in it) is no owner: the home's own owner is the one learned.
    expect(learned("/home/ana/dotfiles/.config/opencode/opencode.json")).toEqual(["ana"]);
    expect(learned("cat /Users/First Last/src/dots/.config/opencode/x")).not.toContain("dots");
    // Before a host's own data, kept only in the home it runs as, the segment is the owner inside a home the roots know too:
    // a home one level down, where the roots read the group folder as the owner.
    // Deeper in a home the roots know, a host's data folder is a project's or a sandbox's, no home: nothing more is learned.
    expect(learned("/home/ana/proj/test/fixtures/.claude/projects/-tmp-x/s.jsonl")).toEqual(["ana"]);
    expect(learned("C:\\Users\\ana\\AppData\\Local\\Temp\\tmpk2j3x9\\.claude\\projects\\x")).toEqual(["ana"]);
    for (const group of ["grad", "acme", "corp.example", "2024", "ke", "users2"]) {
      expect(learned(`/home/${group}/kenji/.claude/projects/-home-${group}-kenji-proj/s.jsonl`), group).toContain("kenji");
      expect(learned(`/export/home/${group}/kenji/.codex/sessions/2026/05/01/rollout.jsonl`), group).toContain("kenji");
      expect(learned(`/Users/${group}/kenji/.local/share/opencode/log`), group).toContain("kenji");
    }
  });

  for (const [where, under] of [["under a root no rule lists", "/afs/example.org/group/g"], ["one level down, under a group folder the roots read as its owner", "/home/grad"]]) {
    it(`a home ${where}, taught by a transcript's path, refuses each file that keeps its owner; run blocks and writes none of it`, () => {
      const name = ["mar", "guerite"].join("");
      const dir = tempDir();
      const home = `${under}/${name}`;
      writeFileSync(path.join(dir, "claude-code_session_start_2.1.261.1.json"), JSON.stringify({ session_id: "s", transcript_path: `${home}/.claude/projects/x/s.jsonl`, cwd: `${home}/proj`, hook_event_name: "SessionStart" }));
      writeFileSync(path.join(dir, "claude-code_session_end_2.1.261.1.json"), JSON.stringify({ session_id: "s", cwd: `${home}/proj`, hook_event_name: "SessionEnd" }));
      const out = path.join(tempDir(), "out");
      const r = clearJson(["substitute", dir, "--out", out]);
      expect(r.code).toBe(1);
      expect([...new Set(findingsOf(r, "user-name-left").map((f) => f.file))].sort()).toEqual(["claude-code_session_end_2.1.261.1.json", "claude-code_session_start_2.1.261.1.json"]);
      expect(readdirSync(out)).toEqual([]);
      const root = tempDir();
      execFileSync("git", ["init", "-q"], { cwd: root });
      const run = clear(["run", dir, "--root", root]);
      expect(run.code).toBe(1);
      expect(run.stdout + run.stderr + JSON.stringify(r.json)).not.toContain(name);
      expect(readdirSync(root).filter((f) => f !== ".git")).toEqual(["CLEARANCE.md"]);
      expect(readFileSync(path.join(root, "CLEARANCE.md"), "utf8")).not.toContain(name);
    });
  }
});

describe("the home grammar (rules/homes.json)", () => {
  it("a web or object store's path through a folder a share may be named (profiles, userdata, Users) names no home; a hidden share's does, and so does a share written with backslashes", () => {
    for (const text of ["copy to gs://bucket/userdata/demo-project", "assets from //cdn.example.com/profiles/demo-project", "wrote s3://lake/raw/Users/demo-project", "C:\\\\src\\\\app\\\\profiles\\\\x.ts"]) expect(grammar.realOwners(text), text).toEqual([]);
    for (const text of ["\\\\fs01\\userdata$\\ana\\x", "//nas/homes$/ana/x", "\\\\fs01\\d$\\home\\ana", "\\\\fs01\\profiles\\ana", "\\\\fs01\\UserData\\ana\\x"]) expect(grammar.realOwners(text).map((o) => o.owner), text).toEqual(["ana"]);
  });

  for (const root of [...rules.homes.roots, ...rules.homes.slugs]) {
    it(`${root.id}: finds the owner in each of its examples, and in none of its counter-examples`, () => {
      for (const ex of root.examples) expect(grammar.realOwners(ex.text).map((o) => o.owner), ex.text).toEqual([ex.owner]);
      for (const text of root.notExamples ?? []) expect(grammar.realOwners(text), text).toEqual([]);
    });
  }

  it("every example is found again deep in a long text of many lines, lines that name a root's word without a home among them", () => {
    // The walk starts each search on the line of the next root word: a root whose word stands far
    // into it ("/Volumes/Backup Disk/Users/ana") is still read from its beginning.
    const filler = "home sweet home, users and settings ~ near\n".repeat(40);
    for (const root of [...rules.homes.roots, ...rules.homes.slugs]) {
      for (const ex of root.examples) {
        const alone = grammar.realOwners(ex.text).map((o) => [o.start, o.end]);
        for (const before of [filler, `${filler}home users `]) {
          for (const text of [`${before}${ex.text}\n${filler}`, `${before}${ex.text}`]) {
            const found = grammar.realOwners(text).map((o) => [o.start - before.length, o.end - before.length]);
            expect(found, `${root.id}: ${ex.text}`).toEqual(alone);
          }
        }
      }
    }
  });

  it("a repository's roots of many words: a line holding any set of them finds each owner, however many sets the texts hold", () => {
    const words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"];
    const extra = words.map((w): (typeof rules.homes.roots)[number] => ({ id: `own-${w}`, root: `/${w}`, separators: ["/"], owner: "segment", examples: [{ text: `/${w}/ann`, owner: "ann" }] }));
    const wider = homeGrammar({ ...rules.homes, roots: [...rules.homes.roots, ...extra] });
    // Every set of the eight words, each on one line with a home of its own: far more sets than one search keeps patterns for.
    for (let set = 1; set < 1 << words.length; set++) {
      const held = words.filter((_, i) => (set >> i) & 1);
      const text = `x\n${held.map((w, i) => `/${w}/own${i}x${set}/p`).join(" and ")} /home/ann${set}/q\ny`;
      expect(wider.realOwners(text).map((o) => o.owner), text).toEqual([...held.map((_, i) => `own${i}x${set}`), `ann${set}`]);
    }
  });

  it("a repository's root written in letters beyond ASCII, or in none, is found in every spelling of its separators", () => {
    const extra: (typeof rules.homes.roots)[number][] = [
      { id: "jp-users", root: "/ユーザー", separators: ["/", "\\"], owner: "segment-with-spaces", examples: [{ text: "/ユーザー/ann", owner: "ann" }] },
      { id: "ru-users", root: "/Пользователи", separators: ["/"], owner: "segment", examples: [{ text: "/Пользователи/ann", owner: "ann" }] },
      { id: "plus-home", root: "/+", separators: ["/"], owner: "segment", examples: [{ text: "/+/ann", owner: "ann" }] },
      // A root word with a letter the shown reading writes plainly: its prefilter reads the text as written too.
      { id: "pt-users", root: "/Usuários", separators: ["/"], owner: "segment", examples: [{ text: "/Usuários/ann", owner: "ann" }] },
      // Root words whose lower case a pattern's letter case cannot map back ("İ" lower-cases to "i" and a dot, "ẞ" to "ß", the Kelvin sign to "k").
      { id: "tr-city", root: "/İstanbul", separators: ["/"], owner: "segment", examples: [{ text: "/İstanbul/ann", owner: "ann" }] },
      { id: "de-street", root: "/Straẞe", separators: ["/"], owner: "segment", examples: [{ text: "/Straẞe/ann", owner: "ann" }] },
      { id: "kelvin", root: "/\u212Aelvin", separators: ["/"], owner: "segment", examples: [{ text: "/\u212Aelvin/ann", owner: "ann" }] },
    ];
    const wider = homeGrammar({ ...rules.homes, roots: [...rules.homes.roots, ...extra] });
    const texts = ["C:\\ユーザー\\ann\\p", "%5Cユーザー%5Cann", "&bsol;ユーザー&bsol;ann", "\\u002fユーザー\\u002fann", "x\n/ユーザー/ann", "%2FПользователи%2Fann", "\\+\\ann", "x\n/Usuários/ann", "x\n/İstanbul/ann", "x\n/Straẞe/ann", "x\n/\u212Aelvin/ann"];
    for (const text of texts) expect(wider.realOwners(text).map((o) => o.owner), text).toEqual(["ann"]);
    for (const text of texts) expect(wider.mayHold(text), text).toBe(true);
    // A root of separators and a placeholder only: looked for on every line, and the walk still ends.
    for (const root of ["{drive}:", "//"]) {
      const bare = homeGrammar({ ...rules.homes, roots: [{ id: "bare", root, separators: ["/"], owner: "segment", examples: [{ text: "x", owner: "x" }] }] });
      const text = root === "//" ? "x\n//ann/p\n" : "x\nQ:/ann/p\n";
      expect(bare.realOwners(text).map((o) => o.owner), root).toEqual(["ann"]);
    }
  });

  it("position: a root counts where it begins a path or under a listed mount, never deep inside another path", () => {
    for (const ex of rules.homes.position.examples) expect(grammar.realOwners(ex.text).map((o) => o.owner), ex.text).toEqual([ex.owner]);
    for (const text of rules.homes.position.notExamples) expect(grammar.owners(text), text).toEqual([]);
  });

  it("position holds in every spelling: escaped, URL-encoded, backslashed, after a quote, in a PATH list", () => {
    const ana = ["a", "na"].join("");
    const homes = [`"/data/home/${ana}"`, `%2Fnfs%2Fhome%2F${ana}%2Fx`, `\\u002Fdata\\u002Fhome\\u002F${ana}`];
    homes.push(`D:\\data\\home\\${ana}`, `x=1:/export/home/${ana}`);
    for (const text of homes) expect(grammar.realOwners(text).map((o) => o.owner), text).toEqual([ana]);
    const folders = [`/srv/app/src/home/${ana}/Button.tsx`, `%2Fsrv%2Fapp%2Fsrc%2Fhome%2F${ana}`, `/opt/x/y/Users/${ana}`];
    for (const text of folders) expect(grammar.owners(text), text).toEqual([]);
  });

  it("a path cut off beyond the reach of the look back is read fail-closed", () => {
    const long = `/${"d".repeat(600)}/home/ana/x`;
    expect(grammar.realOwners(long).map((o) => o.owner)).toEqual(["ana"]);
  });

  it("a declared segment is nobody, and only that one", () => {
    const declared = homeGrammar({ ...rules.homes, declared: [{ segment: "sessions", reason: "the host's own folder" }] });
    expect(declared.realOwners("/data/home/sessions/2026/x")).toEqual([]);
    expect(declared.realOwners("/data/home/ana/x").map((o) => o.owner)).toEqual(["ana"]);
    expect(grammar.realOwners("/data/home/sessions/2026/x").map((o) => o.owner)).toEqual(["sessions"]);
  });

  it("replaces owners of any letters: non-ASCII, one letter, a leading underscore, @ and +, spaces", () => {
    const owners = ["José", "j", "_svc", "ana@corp", "ana+1", "Zoë Ødegård"];
    for (const owner of owners) {
      const text = `C:\\Users\\${owner}\\Documents and /home/${owner}/p`;
      const found = grammar.realOwners(text).map((o) => o.owner);
      expect(found, text).toEqual([owner, owner]);
    }
  });
});

// Random roots from the data, random owners of any letters (1 to 30, spaces where Windows allows
// them), random escaping depth: no written file keeps an owner the final check can find.
const SEED = Number(process.env.CLEAR_PROPERTY_SEED ?? Date.now() % 2 ** 31);

function randomOwner(rnd: () => number, spaces: boolean): string {
  const letters = ["a", "Z", "é", "ß", "ø", "Ж", "中", "_", "@", "+", "-", ".", "7", ...(spaces ? [" "] : [])];
  const length = 1 + Math.floor(rnd() * 30);
  let owner = "";
  while (owner.length < length) owner += letters[Math.floor(rnd() * letters.length)];
  // An owner never starts with a dot or ends with a space, and a dash cannot lead a slug.
  return owner.replace(/^[.\- ]+/, "q").replace(/ +$/, "");
}

function spell(rootId: string, owner: string, rnd: () => number): string {
  const root = rules.homes.roots.find((r) => r.id === rootId)!;
  const windows = root.separators.includes("\\") && rnd() < 0.5;
  const drive = String.fromCharCode(65 + Math.floor(rnd() * 26));
  const base = root.root.replace("{drive}", rnd() < 0.5 ? drive : drive.toLowerCase()).replace("{name}", "Disk").replace("{group}", "users");
  const path = `${base}/${owner}/work/file.txt`;
  return windows ? path.replace(/\//g, "\\") : path;
}

function nest(text: string, depth: number): string {
  let out = text;
  for (let k = 0; k < depth; k++) out = JSON.stringify({ inner: out });
  return out;
}

describe("home owners, as a property", () => {
  it(`no written file keeps an owner, for 400 random homes (seed ${SEED})`, () => {
    const rnd = prng(SEED);
    const roots = rules.homes.roots.filter((r) => r.id !== "tilde");
    let written = 0;
    for (let i = 0; i < 400; i++) {
      const root = roots[Math.floor(rnd() * roots.length)]!;
      const owner = randomOwner(rnd, root.owner === "segment-with-spaces");
      const value = nest(spell(root.id, owner, rnd), Math.floor(rnd() * 3));
      const text = JSON.stringify({ session_id: "s", turn_id: "t", cwd: value, prompt: `look at ${value}` });
      const [file] = clearInMemory([captureOf(text, `codex_pre_tool_use_0_153_0.${i + 1}.json`, "codex", "pre_tool_use")]).files;
      if (!file?.cleared) continue;
      written++;
      const out = JSON.parse(Buffer.from(file.cleared).toString("utf8")) as { cwd: string };
      for (const reading of nestedReadings(out.cwd)) expect(grammar.realOwners(reading), `${root.id} ${JSON.stringify(owner)}: ${out.cwd}`).toEqual([]);
    }
    // Refusal is allowed (fail closed) but must stay the exception.
    expect(written).toBeGreaterThan(300);
  });
});

describe("overlapping finds", () => {
  it("keep the first and longest owner, so no replacement lands inside another (seed 121, doc 987)", () => {
    const text = "see /home/ana/a and then U:\\Users\\ana ~é_0 ~😀/";
    const owners = grammar.owners(text);
    for (let i = 1; i < owners.length; i++) expect(owners[i]!.start).toBeGreaterThanOrEqual(owners[i - 1]!.end);
    expect(owners.map((o) => o.owner)).toEqual(["ana", "ana ~é_0 ~😀"]);
  });
});

const SPACES_ABOVE_ASCII = ["\u00a0", "\u1680", "\u2007", "\u2028", "\u2029", "\u202f", "\u205f", "\u3000", "\ufeff"];

const INVISIBLE_UNITS = ["\u0080", "\u0085", "\u009f", "\u00ad", "\u034f", "\u061c", "\u180e", "\u200b", "\u200c", "\u200d", "\u200e", "\u200f", "\u202a", "\u202e", "\u2060", "\u2061", "\u2066", "\u2069", "\ufe0f", "\ufeff"];

describe("an invisible unit beside an owner", () => {
  it("the grammar's classes are Unicode's: a letter is any unit above ASCII but a space, a control or a default-ignorable code point", () => {
    const letter = new RegExp(`[${ABOVE_ASCII_LETTER}]`);
    const invisible = new RegExp(`[${INVISIBLE}]`);
    const wrong: string[] = [];
    for (let c = 0x80; c <= 0xffff; c++) {
      const ch = String.fromCharCode(c);
      const hidden = /[\p{Cc}\p{Default_Ignorable_Code_Point}]/u.test(ch);
      if (letter.test(ch) !== !(hidden || /\s/.test(ch)) || invisible.test(ch) !== (hidden && (!/\s/.test(ch) || ch === "\ufeff"))) wrong.push(c.toString(16));
    }
    expect(wrong).toEqual([]);
  });

  it("a root after one, or a name begun with one, is read", () => {
    for (const unit of INVISIBLE_UNITS) {
      for (const text of [`see${unit}~ann/x`, `${unit}~ann/x`, `see ${unit}~ann/x`, `x/${unit}~ann/p`, `'${unit}~ann/p'`, `see${unit}-home-ann-proj`, `a${unit}-home-ann`]) {
        expect(grammar.owners(text).map((o) => o.owner), JSON.stringify(text)).toEqual(["ann"]);
      }
      for (const text of [`~${unit}ann/p`, `-home-${unit}ann-proj`, `"~${unit}ann"`]) {
        expect(grammar.owners(text).map((o) => o.owner), JSON.stringify(text)).toEqual([`${unit}ann`]);
      }
    }
  });

  it("inside a root's own word, or beside its separator, the root is read as it shows", () => {
    for (const unit of INVISIBLE_UNITS) {
      const escaped = `\\u${unit.charCodeAt(0).toString(16).padStart(4, "0")}`;
      for (const u of [unit, escaped, `${unit}${unit}`]) {
        for (const text of [`/home${u}/ann/p`, `/ho${u}me/ann/p`, `${u}/home/ann`, `/Us${u}ers/ann/p`, `C:\\Us${u}ers\\ann\\p`, `C:${u}\\Users\\ann`, `-ho${u}me-ann-proj`, `x /h${u}ome${u}/ann`]) {
          // After a backslash, the escape's own letters may be a Windows folder too: read as well, never instead.
          const owners = grammar.owners(text).map((o) => o.owner);
          if (u === escaped) expect(owners, JSON.stringify(text)).toContain("ann");
          else expect(owners, JSON.stringify(text)).toEqual(["ann"]);
        }
      }
      // Cleared, it holds the placeholder and nobody.
      expect(grammar.realOwners(`/ho${unit}me/${grammar.placeholder}/p`)).toEqual([]);
    }
  });

  it("inside a root's word leaves no owner in a cleared file, end to end", () => {
    const owner = ["zq", "vex"].join("");
    const cwds = INVISIBLE_UNITS.flatMap((unit) => [`/home${unit}/${owner}/p`, `/Us${unit}ers/${owner}/p`, `-ho${unit}me-${owner}-proj`]);
    const { r, cleared } = substituteCwds(cwds);
    expect(r.code, JSON.stringify(r.json.findings)).toBe(0);
    for (const c of cleared) expect(c).not.toContain(owner);
  });

  it("leaves no owner in a cleared file, end to end", () => {
    const owner = ["zq", "vex"].join("");
    const cwds = INVISIBLE_UNITS.flatMap((unit) => [`see${unit}~${owner}/notes`, `in${unit}-home-${owner}-proj`, `~${unit}${owner}/p`, `-home-${unit}${owner}-proj`]);
    const { r, cleared } = substituteCwds(cwds);
    expect(r.code, JSON.stringify(r.json.findings)).toBe(0);
    for (const c of cleared) expect(c).not.toContain(owner);
  });
});

// Drawn as a separator, a tilde or a dash; a root word in compatibility, styled or look-alike letters.
const SLASHES = ["\u2215", "\u2044", "\uff0f", "\u29f8", "\u2571", "\u27cb", "\u2f03"];
const BACKSLASHES = ["\u2216", "\u29f5", "\u29f9", "\ufe68", "\uff3c", "\u2572"];
const STYLED_HOME = ["\uff48\uff4f\uff4d\uff45", "\u{1d421}\u{1d428}\u{1d426}\u{1d41e}", "\u029c\u1d0f\u1d0d\u1d07", "\u04bb\u043eme", "ho\u0308me", "home\u0301", "\u0125ome", "h\u00f6me"];

describe("a home as it shows", () => {
  const owned = (text: string): boolean => grammar.owners(text).some((o) => o.real && o.owner.includes("ann"));

  it("is read where a separator, a tilde, a dash or a colon is drawn by another character", () => {
    const texts = [
      ...SLASHES.flatMap((s) => [`${s}home${s}ann${s}p`, `/home${s}ann/p`, `see ${s}Users${s}ann`, `C:${s}Users${s}ann${s}p`]),
      ...BACKSLASHES.flatMap((b) => [`C:${b}Users${b}ann${b}p`, `C:\\Users${b}ann`]),
      ...["\uff5e", "\u223c", "\u301c", "\u02dc"].map((t) => `see ${t}ann/x`),
      ...["\u2010", "\u2013", "\u2212", "\uff0d"].map((d) => `${d}home${d}ann${d}proj`),
      "C\uff1a\\Users\\ann\\p",
    ];
    for (const text of texts) expect(owned(text), JSON.stringify(text)).toBe(true);
  });

  it("is read where the root's word is styled, written in look-alike letters or carries a mark, or a control above ASCII stands in it", () => {
    const texts = [
      ...STYLED_HOME.flatMap((h) => [`/${h}/ann/p`, `-${h}-ann-proj`]),
      "C:\\\uff35\uff53\uff45\uff52\uff53\\ann\\p",
      "/U\u0455ers/ann",
      ...["\u0085", "\u009b"].flatMap((c) => [`/home/${c}ann/p`, `/ho${c}me/ann/p`]),
    ];
    for (const text of texts) expect(owned(text), JSON.stringify(text)).toBe(true);
    // As written it stays: a word all in its own script, and text with no home in it.
    expect(grammar.owners("\u043d\u043e\u043c\u0435 \u0441\u043b\u043e\u0432\u043e")).toEqual([]);
    expect(grammar.owners("/\u043d\u043e\u043c\u0435/\u043a\u043e\u043c\u0443")).toEqual([]);
    expect(grammar.owners("caf\u00e9 \u2215 na\u00efve 1\u20442")).toEqual([]);
    // A control of ASCII still ends a name: a Windows path decoded one level too far keeps its placeholder.
    expect(grammar.realOwners(`C:\\Users\\${grammar.placeholder}\bin`)).toEqual([]);
  });

  it("replaces an owner found only as it shows whole, with the marks, the invisible units and the overlays written in it or after it", () => {
    const whole = (text: string, owner: string): void => {
      const found = grammar.owners(text).filter((o) => o.real).map((o) => text.slice(o.start, o.end));
      expect(found, JSON.stringify(text)).toEqual([owner]);
    };
    whole("\u2215Users\u2215zoe\u0308\u2215x", "zoe\u0308");
    whole("/\u04bbome/ann\u0301\u0302", "ann\u0301\u0302");
    whole("/\u04bbome/ann\u200b/x", "ann\u200b");
    whole("/\u04bbome/an\u0338n/x", "an\u0338n");
    whole("/\u00fbsers/ann", "ann");
  });

  it("leaves no owner in a cleared file, end to end, and a second pass changes nothing", () => {
    const owner = ["zq", "vex"].join("");
    const cwds = [
      ...SLASHES.map((s) => `${s}home${s}${owner}${s}p`),
      ...BACKSLASHES.map((b) => `C:${b}Users${b}${owner}${b}p`),
      ...STYLED_HOME.map((h) => `/${h}/${owner}/p`),
      `\uff5e${owner}/x`,
      `\u2212home\u2212${owner}\u2212proj`,
      `/home/\u0085${owner}/p`,
      `\u2215Users\u2215${owner}\u0308\u2215x`,
    ];
    const { r, out, cleared } = substituteCwds(cwds);
    expect(r.code, JSON.stringify(r.json.findings)).toBe(0);
    for (const c of cleared) expect(c.toLowerCase()).not.toContain(owner);
    expect(cleared.at(-1)).toBe(`\u2215Users\u2215${grammar.placeholder}\u2215x`);
    const twice = path.join(tempDir(), "again");
    const again = clearJson(["substitute", out, "--out", twice]);
    expect(again.code, JSON.stringify(again.json.findings)).toBe(0);
    for (const f of readdirSync(out)) expect(readFileSync(path.join(twice, f), "utf8")).toBe(readFileSync(path.join(out, f), "utf8"));
  });
});

/** ESC written out as text a shell or a program reads, and in caret notation (cat -v, less). */
const WRITTEN_OUT = ["\\e[1m", "\\033[01;34m", "\\x1b[1m", "\\X1B[1m", "\\E[1m", "\\0x1b[1m", "\\x9b1m", "\\u009b1m", "^[[1m"];

describe("a home a terminal coloured (ls, fd, grep --color)", () => {
  // Each terminal sequence that shows nothing, where a program's colours stand: CSI with ";" or ":"
  // parameters or a private mark, CSI as one byte (0x9b), OSC (a title, a hyperlink) up to BEL or ST, a character set chosen.
  const SEQUENCES = ["\u001b[1m", "\u001b[01;34m", "\u001b[38;2;255;0;0m", "\u001b[38:5:196m", "\u001b[?25l", "\u009b1m", "\u001b(B", "\u001b]0;title\u0007", "\u001b]8;;file:///x\u001b\\", ...WRITTEN_OUT];
  const owner = ["tam", "sin"].join("");
  const shapes = (q: string): string[] => [`/home/${q}${owner}${"\u001b[0m"}/x`, `${q}/home/${"\u001b[0m"}${q}${owner}/x`, `/home${q}/${owner}/x`, `${q}C:\\Users\\${q}${owner}\\x`];

  it("is read as it shows: the owner is learned without the sequences, and they go with it; a reset after it is kept", () => {
    for (const q of SEQUENCES) {
      for (const text of shapes(q)) {
        const learned = learnOwners([captureOf(JSON.stringify({ hook_event_name: "PostToolUse", tool_response: { stdout: text } }), "x.json", "claude-code", "post_tool_use")], grammar, rules.homes);
        expect([...learned.keys()], JSON.stringify(text)).toContain(owner);
        // The owner's span reaches its last letter; a sequence is all another span may hold (the colour between a root and its separator).
        const spans = grammar.realOwners(text).map((o) => text.slice(o.start, o.end).replace(/\u001b\[0m$/, ""));
        expect(spans.filter((x) => x.endsWith(owner)), JSON.stringify(text)).toHaveLength(1);
        expect(spans.filter((x) => !x.endsWith(owner)).flatMap((x) => ownerNames(x)), JSON.stringify(text)).toEqual([]);
      }
    }
    const reset = `/home/${owner}${"\u001b[0m"}/x`;
    expect(grammar.realOwners(reset).map((o) => reset.slice(o.start, o.end))).toEqual([owner]);
  });

  it("end to end: the name a coloured listing taught refuses the file that keeps it elsewhere, naming file and pointer", () => {
    for (const q of SEQUENCES) {
      const dir = tempDir();
      const stdout = `${q}/home/${"\u001b[0m"}${q}${owner}${"\u001b[0m"}\n`;
      writeFileSync(path.join(dir, "claude-code_post_tool_use_2.1.261.1.json"), JSON.stringify({ session_id: "s", cwd: "/srv/work", hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "ls -d /home/*" }, tool_response: { stdout }, tool_use_id: "toolu_01A" }));
      writeFileSync(path.join(dir, "claude-code_pre_tool_use_2.1.261.1.json"), JSON.stringify({ session_id: "s", cwd: "/srv/work", hook_event_name: "PreToolUse", tool_name: "Read", tool_input: { file_path: `/srv/shared/${owner}-notes.md` }, tool_use_id: "toolu_01B" }));
      const out = path.join(tempDir(), "out");
      const r = clearJson(["substitute", dir, "--out", out]);
      expect(r.code, JSON.stringify(q)).toBe(1);
      expect(findingsOf(r, "user-name-left").map((f) => [f.file, f.pointer]), JSON.stringify(q)).toContainEqual(["claude-code_pre_tool_use_2.1.261.1.json", "/tool_input/file_path"]);
      expect(JSON.stringify(r.json)).not.toContain(owner);
    }
  });
});

describe("Claude Code's project slug of a home under another root", () => {
  it("is read, so a sitting recorded there clears (before, its own cwd taught the name and the slug was refused)", () => {
    const owner = ["zq", "vex"].join("");
    const homes = [`/var/home/${owner}`, `/usr/home/${owner}`, `/export/home/${owner}`, `/mnt/c/Users/${owner}`, `/c/Users/${owner}`, `/cygdrive/c/Users/${owner}`, `/Volumes/Data/Users/${owner}`, `/System/Volumes/Data/Users/${owner}`];
    for (const home of homes) {
      const dir = tempDir();
      const slug = `${home}/proj`.replace(/[^A-Za-z0-9]/g, "-");
      const body = { session_id: "s", hook_event_name: "SessionStart", cwd: `${home}/proj`, transcript_path: `${home}/.claude/projects/${slug}/s.jsonl` };
      writeFileSync(path.join(dir, "claude-code_session_start_2_1_261.1.json"), JSON.stringify(body));
      const out = path.join(tempDir(), "out");
      const r = clearJson(["substitute", dir, "--out", out]);
      expect(r.code, `${home}: ${JSON.stringify(r.json.findings)}`).toBe(0);
      expect(readFileSync(path.join(out, "claude-code_session_start_2_1_261.1.json"), "utf8")).not.toContain(owner);
    }
  });
});

describe("a space above ASCII beside an owner", () => {
  it("begins a path as a space does: a tilde home, a slug, a drive or a root after one is read", () => {
    for (const space of SPACES_ABOVE_ASCII) {
      for (const text of [`a${space}~ann/x`, `a${space}-home-ann-proj`, `a${space}C:\\Users\\ann\\x`, `a${space}/home/ann/x`]) {
        expect(grammar.owners(text).map((o) => o.owner), JSON.stringify(text)).toEqual(["ann"]);
      }
    }
  });

  it("leaves no owner after one in a cleared file, end to end", () => {
    const owner = ["zq", "vex"].join("");
    // The home beside the slugs says where the owner ends in them ("-home-<owner>-proj").
    const cwds = [`/home/${owner}/proj`, ...SPACES_ABOVE_ASCII.flatMap((space) => [`see${space}~${owner}/notes`, `in${space}-home-${owner}-proj`])];
    const { r, cleared } = substituteCwds(cwds);
    expect(r.code, JSON.stringify(r.json.findings)).toBe(0);
    for (const c of cleared) expect(c).not.toContain(owner);
  });

  it("ends the name as a space does, so a quote before it joins nothing", () => {
    // U+FEFF shows nothing too: a name is also read as it shows ("~ann'x"), as the invisible units are.
    for (const space of SPACES_ABOVE_ASCII.filter((s) => !INVISIBLE_UNITS.includes(s))) {
      for (const [text, owner] of [[`~user"${space}.`, "user"], [`~ann'${space}x`, "ann"], [`/home/ann(${space}x`, "ann"]]) {
        expect(grammar.owners(text as string).map((o) => o.owner), JSON.stringify(text)).toEqual([owner]);
      }
    }
    // A letter above ASCII after the quote still joins it, as "o'brien" does.
    expect(grammar.owners("~ann'\u00e9x").map((o) => o.owner)).toEqual(["ann'\u00e9x"]);
  });
});

describe("homes by position, end to end", () => {
  const user = ["ali", "ce"].join("");
  const rollout = "rollout-2026-05-01T10-00-00-01a0736d-6431-7730-9321-53425562ab77.jsonl";
  const write = (dir: string, files: Record<string, object>): void => {
    for (const [name, body] of Object.entries(files)) writeFileSync(path.join(dir, name), JSON.stringify(body));
  };

  it("a Codex sitting whose CODEX_HOME is a folder named home clears, and keeps sessions", () => {
    const dir = tempDir();
    const codexHome = `/tmp/probes/q5-stop-block/home`;
    const base = { session_id: "01a0736d-0000-7000-8000-000000000001", cwd: `/home/${user}/work/q5-stop-block`, model: "gpt-5", permission_mode: "default" };
    write(dir, {
      "codex_session_start_0_171_0.1.json": {
        ...base,
        hook_event_name: "SessionStart",
        source: "startup",
        transcript_path: `${codexHome}/sessions/2026/05/01/${rollout}`,
      },
      "codex_stop_0_171_0.1.json": {
        ...base,
        turn_id: "t1",
        hook_event_name: "Stop",
        stop_hook_active: false,
        transcript_path: `/home/${user}/work/q5-stop-block/home/sessions/2026/05/01/${rollout}`,
        last_assistant_message: "done",
      },
      "codex_user_prompt_submit_0_171_0.1.json": { ...base, turn_id: "t1", hook_event_name: "UserPromptSubmit", prompt: "list the sessions" },
    });
    const out = path.join(tempDir(), "out");
    const r = clearJson(["substitute", dir, "--out", out]);
    expect(r.json.findings).toEqual([]);
    expect(r.code).toBe(0);
    const start = readFileSync(path.join(out, "codex_session_start_0_171_0.1.json"), "utf8");
    expect(start).toContain(`"transcript_path":"/tmp/probes/q5-stop-block/home/sessions/2026/05/01/`);
    const stop = readFileSync(path.join(out, "codex_stop_0_171_0.1.json"), "utf8");
    expect(stop).toContain(`"/home/user/work/q5-stop-block/home/sessions/2026/05/01/`);
    expect(stop).not.toContain(user);
  });

  it("homes under /data/home, /nfs/home, a group folder and the mounted-drive forms still lose their owner", () => {
    const dir = tempDir();
    const roots = ["/data/home", "/nfs/home", "/home/staff", "/mnt/c/Users", "/Volumes/Backup Disk/Users", "/System/Volumes/Data/Users"];
    roots.push("/mnt/backup/home", "/mnt/usb/Data/home");
    const homes = roots.map((root) => `${root}/${user}/p`);
    homes.forEach((cwd, i) => write(dir, { [`codex_session_start_0_171_0.${i + 1}.json`]: { session_id: "s", hook_event_name: "SessionStart", cwd } }));
    const out = path.join(tempDir(), "out");
    const r = clearJson(["substitute", dir, "--out", out]);
    expect(r.code).toBe(0);
    for (let i = 0; i < homes.length; i++) {
      const cleared = readFileSync(path.join(out, `codex_session_start_0_171_0.${i + 1}.json`), "utf8");
      expect(cleared, homes[i]).not.toContain(user);
      expect(JSON.parse(cleared).cwd).toBe(homes[i]!.replace(user, "user"));
    }
  });

  it("the places an operating system gives each user outside a home (removable volumes under /run/media, mail, crontabs, screen's and sudo's folders, AccountsService, systemd's linger, Nix profiles, profile shares, MSYS2) lose their owner, and a home on a volume loses its own", () => {
    const other = "bertrandine";
    const places = [
      [`/run/media/${user}/Data/proj`, "/run/media/user/Data/proj"],
      [`/run/media/${user}/Backup/home/${other}/notes`, "/run/media/user/Backup/home/user/notes"],
      [`/var/mail/${user}`, "/var/mail/user"],
      [`/etc/profiles/per-user/${user}/bin/zsh`, "/etc/profiles/per-user/user/bin/zsh"],
      [`/nix/var/nix/profiles/per-user/${user}/profile/bin`, "/nix/var/nix/profiles/per-user/user/profile/bin"],
      [`/nix/var/nix/gcroots/per-user/${user}/result`, "/nix/var/nix/gcroots/per-user/user/result"],
      [`/nix/var/nix/profiles/per-user/root/channels`, "/nix/var/nix/profiles/per-user/root/channels"],
      [`\\\\?\\UNC\\fs01\\Users\\${user}\\proj`, "\\\\?\\UNC\\fs01\\Users\\user\\proj"],
      [`\\\\fs01\\users$\\${user}\\proj`, "\\\\fs01\\users$\\user\\proj"],
      [`/c/msys64/home/${user}/proj`, "/c/msys64/home/user/proj"],
      [`/afs/andrew.cmu.edu/usr12/${user}/x`, "/afs/andrew.cmu.edu/usr12/user/x"],
      [`/var/spool/cron/crontabs/${user}`, "/var/spool/cron/crontabs/user"],
      [`/var/spool/cron/${user}`, "/var/spool/cron/user"],
      [`/var/spool/cron/tabs/${user}`, "/var/spool/cron/tabs/user"],
      [`/var/cron/tabs/${user}`, "/var/cron/tabs/user"],
      [`/usr/lib/cron/tabs/${user}`, "/usr/lib/cron/tabs/user"],
      [`/run/screen/S-${user}/1234.pts-0.host`, "/run/screen/user/1234.pts-0.host"],
      [`/var/run/sudo/ts/${user}`, "/var/run/sudo/ts/user"],
      [`/private/var/db/sudo/lectured/${user}`, "/private/var/db/sudo/lectured/user"],
      [`/var/lib/AccountsService/users/${user}`, "/var/lib/AccountsService/users/user"],
      [`/var/lib/systemd/linger/${user}`, "/var/lib/systemd/linger/user"],
      [`/private/var/db/dslocal/nodes/Default/users/${user}.plist`, "/private/var/db/dslocal/nodes/Default/users/user.plist"],
      ["/var/db/dslocal/nodes/Default/users/_www.plist", "/var/db/dslocal/nodes/Default/users/_www.plist"],
      ["/var/mail/root", "/var/mail/root"],
      ["/var/spool/cron/crontabs/root", "/var/spool/cron/crontabs/root"],
      ["/run/screen/S-root/1234.pts-0.host", "/run/screen/S-root/1234.pts-0.host"],
      ["/var/run/screen/S-root", "/var/run/screen/S-root"],
      ["/run/screen/S-user/1234.pts-0.host", "/run/screen/S-user/1234.pts-0.host"],
      ["/var/spool/cron/atjobs/a0001a01c2e6b1", "/var/spool/cron/atjobs/a0001a01c2e6b1"],
    ];
    const dir = tempDir();
    places.forEach(([cwd], i) => write(dir, { [`codex_session_start_0_171_0.${i + 1}.json`]: { session_id: "s", hook_event_name: "SessionStart", cwd } }));
    const slug = `/tmp/claude/-run-media-${user}-Data-proj/s.jsonl`;
    write(dir, { "codex_session_start_0_171_0.99.json": { session_id: "s", hook_event_name: "SessionStart", transcript_path: slug } });
    const out = path.join(tempDir(), "out");
    const r = clearJson(["substitute", dir, "--out", out]);
    expect(r.code, r.stderr).toBe(0);
    places.forEach(([cwd, cleared], i) => expect(JSON.parse(readFileSync(path.join(out, `codex_session_start_0_171_0.${i + 1}.json`), "utf8")).cwd, cwd).toBe(cleared));
    expect(JSON.parse(readFileSync(path.join(out, "codex_session_start_0_171_0.99.json"), "utf8")).transcript_path).toBe("/tmp/claude/-run-media-user-Data-proj/s.jsonl");
  });

  it("the placeholder, root or a nobody a sentence ends on (screen -ls's 'in /run/screen/S-root.', 'cd /home/user.') is no one; a person's name so ended is still read", () => {
    for (const text of ["1 Socket in /run/screen/S-root.", "1 Socket in /run/screen/S-user.", "cd /home/user.", "see /home/ubuntu..", "/var/spool/cron/crontabs/root."]) expect(grammar.realOwners(text), text).toEqual([]);
    const name = ["an", "a"].join("");
    expect(grammar.realOwners(`see /home/${name}.`).length).toBe(1);
  });

  it("a root spanning folders never swallows a home that stands inside what it spans: both owners are read", () => {
    const name = ["bo", "-kr", "aw"].join("");
    const text = `"\\/\t\u{1F600}a-_\u0001 .\\\u{1F600} see /home/${name}/a and then F:\\Users\\${name}   Z\u4e2d \u00df0\\\u4e2d/`;
    expect(grammar.realOwners(text).map((o) => o.owner)).toEqual([name, `${name}   Z\u4e2d \u00df0`]);
  });

  it("a home seen through a process's root, a container's or a snapshot's, an XP profile under a mounted drive loses its owner; a process's cwd, a web address and a project's own folders keep theirs", () => {
    const places = [
      [`/proc/1234/root/home/${user}/x`, "/proc/1234/root/home/user/x"],
      [`/proc/self/root/home/${user}/x`, "/proc/self/root/home/user/x"],
      [`/mnt/c/Documents and Settings/${user}/x`, "/mnt/c/Documents and Settings/user/x"],
      [`/c/Documents and Settings/${user}/x`, "/c/Documents and Settings/user/x"],
      [`/cygdrive/c/Documents and Settings/${user}/x`, "/cygdrive/c/Documents and Settings/user/x"],
      [`/var/lib/containers/storage/overlay/3f2a/merged/home/${user}/x`, "/var/lib/containers/storage/overlay/3f2a/merged/home/user/x"],
      [`\\\\?\\GLOBALROOT\\Device\\HarddiskVolumeShadowCopy3\\Users\\${user}\\x`, "\\\\?\\GLOBALROOT\\Device\\HarddiskVolumeShadowCopy3\\Users\\user\\x"],
      ["/mnt/c/Documents and Settings/All Users/x", "/mnt/c/Documents and Settings/All Users/x"],
      ["/proc/1234/cwd/src/home/components/x", "/proc/1234/cwd/src/home/components/x"],
      ["https://api.example.com/v1/users/components", "https://api.example.com/v1/users/components"],
      ["/opt/app/api/users/components", "/opt/app/api/users/components"],
    ];
    const dir = tempDir();
    places.forEach(([cwd], i) => write(dir, { [`codex_session_start_0_171_0.${i + 1}.json`]: { session_id: "s", hook_event_name: "SessionStart", cwd } }));
    const out = path.join(tempDir(), "out");
    const r = clearJson(["substitute", dir, "--out", out]);
    expect(r.code, r.stderr).toBe(0);
    places.forEach(([cwd, cleared], i) => expect(JSON.parse(readFileSync(path.join(out, `codex_session_start_0_171_0.${i + 1}.json`), "utf8")).cwd, cwd).toBe(cleared));
    expect(JSON.stringify(r.json) + r.stderr).not.toContain(user);
  });

  it("a route right after a web address's host is replaced as a home's owner but teaches no name: an id holding what https://…/users/42 ends in is not refused", () => {
    const dir = tempDir();
    const routes = [
      ["https://api.example.com/users/42", "https://api.example.com/users/user"],
      ["http://api.example.com:8080/home/42/", "http://api.example.com:8080/home/user/"],
      ["wss://api.example.com/Users/42", "wss://api.example.com/Users/user"],
      ["https:\\/\\/api.example.com\\/Users\\/42", "https:\\/\\/api.example.com\\/Users\\/user"],
      ["https%3A%2F%2Fapi.example.com%2Fhome%2F42", "https%3A%2F%2Fapi.example.com%2Fhome%2Fuser"],
    ];
    routes.forEach(([url], i) =>
      write(dir, { [`codex_session_start_0_171_0.${i + 1}.json`]: { session_id: `s-42-${i}`, hook_event_name: "SessionStart", cwd: url, transcript_path: `/home/${user}/.codex/s.jsonl` } }),
    );
    const out = path.join(tempDir(), "out");
    const r = clearJson(["substitute", dir, "--out", out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.userNames).toBe(1);
    routes.forEach(([, cleared], i) => {
      const got = JSON.parse(readFileSync(path.join(out, `codex_session_start_0_171_0.${i + 1}.json`), "utf8"));
      expect(got.cwd).toBe(cleared);
      expect(got.session_id).toBe(`s-42-${i}`);
    });
  });

  it("a Claude project slug of an owner with letters beyond ASCII or a space loses the whole owner, with or without a home beside it", () => {
    // Claude writes each character but an ASCII letter or digit of the folder as a dash.
    const slug = (folder: string): string => folder.replace(/[^A-Za-z0-9]/g, "-");
    const owners: [string, string][] = [["\u00c9", "lodie"], ["Zo\u00eb ", "Kim"], ["j\u00f6", "rg"]];
    const homes = owners.map(([first, rest]) => (first.includes(" ") ? `C:\\Users\\${first}${rest}` : `/Users/${first}${rest}`));
    const dir = tempDir();
    homes.forEach((home, i) => write(dir, { [`codex_session_start_0_171_0.${i + 1}.json`]: { session_id: "s", hook_event_name: "SessionStart", cwd: `${home}/p`, transcript_path: `${home}/.claude/projects/${slug(`${home}/p`)}/s.jsonl` } }));
    // A slug alone, under a temporary folder: its owner's first letter is a dash. Where its owner
    // ends is known only by the name given, as "-p" may be more of it.
    write(dir, { "codex_session_start_0_171_0.9.json": { session_id: "s", hook_event_name: "SessionStart", transcript_path: `/tmp/claude/${slug("/home/\u00d3lafur/p")}/s.jsonl` } });
    const unclear = clearJson(["substitute", dir, "--out", path.join(tempDir(), "out")]);
    expect((unclear.json.findings as { code: string; file: string }[]).filter((f) => f.code === "home-owner-unclear").map((f) => f.file)).toEqual(["codex_session_start_0_171_0.9.json"]);
    const out = path.join(tempDir(), "out");
    const r = clearJson(["substitute", dir, "--out", out, "--user", "\u00d3lafur"]);
    expect(r.code).toBe(0);
    owners.forEach(([, rest], i) => expect(readFileSync(path.join(out, `codex_session_start_0_171_0.${i + 1}.json`), "utf8"), homes[i]).not.toContain(rest));
    expect(JSON.parse(readFileSync(path.join(out, "codex_session_start_0_171_0.9.json"), "utf8")).transcript_path).toBe("/tmp/claude/-home-user-p/s.jsonl");
  });

  it("a Claude project slug alone whose owner's name may go on past a dash is refused, naming file and pointer, until a name given or a home beside it says where it ends", () => {
    const [first, last] = ["zqana", "vexly"];
    const slugAlone = { session_id: "s", hook_event_name: "SessionStart", transcript_path: `/tmp/claude/-home-${first}-${last}-proj/s.jsonl` };
    const dir = tempDir();
    write(dir, { "codex_session_start_0_171_0.1.json": slugAlone });
    const out = path.join(tempDir(), "out");
    const refused = clearJson(["substitute", dir, "--out", out]);
    expect(refused.code).toBe(1);
    expect((refused.json.findings as { code: string; file: string; pointer: string }[]).map((f) => [f.code, f.file, f.pointer])).toContainEqual(["home-owner-unclear", "codex_session_start_0_171_0.1.json", "/transcript_path"]);
    expect(existsSync(path.join(out, "codex_session_start_0_171_0.1.json"))).toBe(false);
    expect(JSON.stringify(refused.json) + refused.stderr).not.toContain(last);
    // The name given says where the owner ends.
    const given = clearJson(["substitute", dir, "--out", path.join(tempDir(), "out"), "--user", `${first}-${last}`]);
    expect(given.code).toBe(0);
    expect(JSON.parse(readFileSync(path.join(given.json.out as string, "codex_session_start_0_171_0.1.json"), "utf8")).transcript_path).toBe("/tmp/claude/-home-user-proj/s.jsonl");
    // So does the owner's home in another capture of the sitting.
    write(dir, { "codex_session_start_0_171_0.2.json": { session_id: "s", hook_event_name: "SessionStart", cwd: `/home/${first}-${last}/proj` } });
    const beside = clearJson(["substitute", dir, "--out", path.join(tempDir(), "out")]);
    expect(beside.code).toBe(0);
    expect(readFileSync(path.join(beside.json.out as string, "codex_session_start_0_171_0.1.json"), "utf8")).not.toMatch(new RegExp(`${first}|${last}`));
    // A slug that ends with its owner leaves nothing to go on.
    const ends = tempDir();
    write(ends, { "codex_session_start_0_171_0.1.json": { ...slugAlone, transcript_path: `/tmp/claude/-home-${first}/s.jsonl` } });
    expect(clearJson(["substitute", ends, "--out", path.join(tempDir(), "out")]).code).toBe(0);
  });

  it("a learned name of a few letters base64- or hex-encoded whole into a kept identifier refuses the file", () => {
    const owner = ["zq", "vo"].join("");
    const encoded = [Buffer.from(owner).toString("base64"), Buffer.from(owner).toString("hex"), `toolu_${Buffer.from(`${owner} `).toString("base64url")}`];
    const dir = tempDir();
    encoded.forEach((id, i) => write(dir, { [`codex_pre_tool_use_0_171_0.${i + 1}.json`]: { session_id: "s", turn_id: "t", hook_event_name: "PreToolUse", cwd: `/home/${owner}/p`, tool_use_id: id } }));
    const r = clearJson(["substitute", dir, "--out", path.join(tempDir(), "out")]);
    expect(r.code).toBe(1);
    const refused = (r.json.findings as { code: string; file: string; pointer: string }[]).filter((f) => f.code === "user-name-left");
    expect(refused.map((f) => [f.file, f.pointer]).sort()).toEqual(encoded.map((_, i) => [`codex_pre_tool_use_0_171_0.${i + 1}.json`, "/tool_use_id"]));
  });

  it("where the tool cannot tell, it refuses; a person's declaration in clear.config.json says the segment is nobody, and the result lists it", () => {
    const dir = tempDir();
    write(dir, {
      "codex_session_start_0_171_0.1.json": { session_id: "s", hook_event_name: "SessionStart", transcript_path: `/data/home/sessions/2026/05/01/${rollout}` },
      "codex_user_prompt_submit_0_171_0.1.json": { session_id: "s", turn_id: "t", model: "sessions" },
    });
    const refused = clearJson(["substitute", dir, "--out", path.join(tempDir(), "out")]);
    expect(refused.code).toBe(1);
    expect((refused.json.findings as { code: string }[]).map((f) => f.code)).toContain("user-name-left");
    const root = tempDir();
    const declaration = { segment: "sessions", reason: "Codex keeps its sessions under CODEX_HOME, a folder named home here" };
    writeFileSync(path.join(root, "clear.config.json"), JSON.stringify({ declarations: { notPersons: [declaration] } }));
    const out = path.join(tempDir(), "out");
    const r = clearJson(["substitute", dir, "--out", out, "--root", root]);
    expect(r.code).toBe(0);
    expect(r.json.declarations).toEqual([declaration]);
    expect(readFileSync(path.join(out, "codex_session_start_0_171_0.1.json"), "utf8")).toContain("/data/home/sessions/2026/");
  });
});

describe("a declaration in the batch", () => {
  it("clear run lists every declaration in force, so accepting the batch accepts it", () => {
    const root = tempDir("clear-repo-");
    execFileSync("git", ["init", "-q"], { cwd: root });
    const inbox = path.join(root, "captures-inbox");
    mkdirSync(inbox);
    const transcript = "/data/home/sessions/2026/05/01/rollout.jsonl";
    writeFileSync(path.join(inbox, "codex_session_start_0_171_0.1.json"), JSON.stringify({ session_id: "s", hook_event_name: "SessionStart", transcript_path: transcript }));
    writeFileSync(path.join(inbox, "codex_pre_tool_use_0_171_0.1.json"), JSON.stringify({ session_id: "s", turn_id: "t", hook_event_name: "PreToolUse", tool_use_id: "c1" }));
    const reason = "Codex keeps its sessions under CODEX_HOME, a folder named home here";
    writeFileSync(path.join(root, "clear.config.json"), JSON.stringify({ declarations: { notPersons: [{ segment: "sessions", reason }] } }));
    const r = clearJson(["run"], { cwd: root });
    expect(r.code).toBe(0);
    const record = readFileSync(path.join(root, "CLEARANCE.md"), "utf8");
    expect(record).toContain(`- Declared not a person (clear.config.json): \`sessions\`: ${reason}`);
    expect(readFileSync(path.join(root, "fixtures", "codex", "0.171.0", "session_start.json"), "utf8")).toContain(transcript);
  });
});

describe("owners whose folder name holds a space or other characters, end to end", () => {
  // Fake names, built at run time.
  const first = ["Ali", "ce"].join("");
  const last = ["Smi", "th"].join("");
  const other = ["Bri", "en"].join("");
  const write = (dir: string, files: Record<string, object>): void => {
    for (const [name, body] of Object.entries(files)) writeFileSync(path.join(dir, name), JSON.stringify(body));
  };
  const start = (fields: object): object => ({ session_id: "s", hook_event_name: "SessionStart", source: "startup", ...fields });

  it("a POSIX home whose owner holds a space, an apostrophe or an encoded space loses the whole owner", () => {
    const dir = tempDir();
    write(dir, {
      "codex_session_start_0_171_0.1.json": start({ cwd: `/home/${first} ${last}/work`, transcript_path: `/Users/${first} ${last}/.codex/sessions/r.jsonl` }),
      "codex_session_start_0_171_0.2.json": start({ cwd: `file:///home/${first}%20${last}/work` }),
      "codex_session_start_0_171_0.3.json": start({ cwd: `/var/home/O'${other}/work`, transcript_path: `/home/${first}\\ ${last}/r.jsonl` }),
    });
    const out = path.join(tempDir(), "out");
    const r = clearJson(["substitute", dir, "--out", out]);
    expect(r.json.findings).toEqual([]);
    expect(r.code).toBe(0);
    const cleared = [1, 2, 3].map((n) => JSON.parse(readFileSync(path.join(out, `codex_session_start_0_171_0.${n}.json`), "utf8")));
    expect(cleared.map((c) => [c.cwd, c.transcript_path])).toEqual([
      ["/home/user/work", "/Users/user/.codex/sessions/r.jsonl"],
      ["file:///home/user/work", undefined],
      ["/var/home/user/work", "/home/user/r.jsonl"],
    ]);
    const printed = `${JSON.stringify(r.json)}${clear(["substitute", dir, "--out", path.join(tempDir(), "out"), "--verbose"]).stdout}`;
    for (const word of [first, last, other]) expect(printed + JSON.stringify(cleared), word).not.toMatch(new RegExp(word, "i"));
  });

  it("a space a shell escaped is read the same at every depth of JSON in a string: the whole owner goes, and nothing is refused", () => {
    const dir = tempDir();
    const depths = ["\\", "\\\\", "\\".repeat(4)];
    depths.forEach((run, i) => write(dir, { [`codex_session_start_0_171_0.${i + 1}.json`]: start({ cwd: `/home/${first}${run} ${last}/work` }) }));
    const out = path.join(tempDir(), "out");
    const r = clearJson(["substitute", dir, "--out", out]);
    expect(r.json.findings).toEqual([]);
    expect(r.code).toBe(0);
    const cleared = depths.map((_, i) => readFileSync(path.join(out, `codex_session_start_0_171_0.${i + 1}.json`), "utf8"));
    expect(cleared.map((c) => JSON.parse(c).cwd)).toEqual(depths.map(() => "/home/user/work"));
    for (const word of [first, last]) expect(cleared.join("") + JSON.stringify(r.json), word).not.toMatch(new RegExp(word, "i"));
  });

  it("each word of a spaced owner is a name: alone in a value substitution keeps, it refuses the file, naming file and pointer", () => {
    const dir = tempDir();
    write(dir, {
      "codex_session_start_0_171_0.1.json": start({ cwd: `/home/${first} ${last}/work` }),
      "codex_pre_tool_use_0_171_0.1.json": call(`call_${last}_01`),
      "codex_pre_tool_use_0_171_0.2.json": call(`call-${first.toLowerCase()}`),
    });
    const r = clearJson(["substitute", dir, "--out", path.join(tempDir(), "out")]);
    expect(r.code).toBe(1);
    const left = findingsOf(r, "user-name-left");
    expect(left.map((f) => [f.file, f.pointer]).sort()).toEqual([
      ["codex_pre_tool_use_0_171_0.1.json", "/tool_use_id"],
      ["codex_pre_tool_use_0_171_0.2.json", "/tool_use_id"],
    ]);
    for (const word of [first, last]) expect(JSON.stringify(r.json), word).not.toMatch(new RegExp(word, "i"));
  });

  it("each part of an owner a shell's quotes join is a name, a variable joined to it none: alone in a value substitution keeps, a name refuses the file", () => {
    const dir = tempDir();
    write(dir, {
      "codex_session_start_0_171_0.1.json": start({ cwd: `/home/'${first}'"${last}"/work` }),
      "codex_pre_tool_use_0_171_0.1.json": call(`call_${last}_01`),
      // A shell's variable joined to the name is the text's: "HOME" is learned from none.
      "codex_session_start_0_171_0.2.json": start({ cwd: `/home/'${first}'"$HOME"/work` }),
      "codex_session_start_0_171_0.3.json": start({ cwd: "/srv/home-office/work" }),
    });
    const r = clearJson(["substitute", dir, "--out", path.join(tempDir(), "out")]);
    expect(r.code).toBe(1);
    expect(findingsOf(r, "user-name-left").map((f) => [f.file, f.pointer])).toEqual([["codex_pre_tool_use_0_171_0.1.json", "/tool_use_id"]]);
    for (const word of [first, last]) expect(JSON.stringify(r.json), word).not.toMatch(new RegExp(word, "i"));
  });

  it("a home bare in a command teaches its owner's first word only: the words after it may be the command's", () => {
    const dir = tempDir();
    write(dir, {
      "codex_pre_tool_use_0_171_0.1.json": { session_id: "s", turn_id: "t", hook_event_name: "PreToolUse", tool_name: "shell", tool_input: { command: `mv /home/${first} archive/old` }, tool_use_id: "c1" },
      "codex_session_start_0_171_0.1.json": start({ cwd: "/srv/archive/old" }),
      "codex_session_start_0_171_0.2.json": start({ cwd: `/srv/${first}` }),
    });
    const r = clearJson(["substitute", dir, "--out", path.join(tempDir(), "out")]);
    const left = (r.json.findings as { code: string; file: string }[]).filter((f) => f.code === "user-name-left");
    expect(left.map((f) => f.file)).toEqual(["codex_session_start_0_171_0.2.json"]);
  });

  it("a fixture that kept the surname after the placeholder is found by the scan and the final check", () => {
    const dir = tempDir();
    write(dir, { "codex_session_start_0_171_0.1.json": start({ cwd: `/home/user ${last}/work` }) });
    const scan = clearJson(["scan", dir]);
    expect(scan.code).toBe(1);
    expect(scan.json.findings).toContainEqual(expect.objectContaining({ rule: "clear/home-owner", pointer: "/cwd" }));
    // Substitution reads "user <surname>" as the owner, so a second pass clears what a first one left.
    const out = path.join(tempDir(), "out");
    expect(clearJson(["substitute", dir, "--out", out]).code).toBe(0);
    expect(JSON.parse(readFileSync(path.join(out, "codex_session_start_0_171_0.1.json"), "utf8")).cwd).toBe("/home/user/work");
  });
});

describe("a home spelled through dot segments, a parent of the runner's home, or an encoding, end to end", () => {
  const owner = ["qu", "illon"].join("");
  const other = ["bo", "b"].join("");
  const cwds = [
    `/home/./${owner}/w`,
    `/home/${other}/../${owner}/w`,
    `/home/${other}/../../home/${owner}/w`,
    `ls ~/../${owner}/w`,
    `$HOME/../${owner}/w`,
    `"\${HOME}/../${owner}/w"`,
    // Spellings read before, pinned here with the others.
    `\\/home\\/${owner}\\/w`,
    `%2Fhome%2F${owner}%2Fw`,
    `file:///home/${owner}/w`,
    `~${owner}/w`,
    // Separators escaped as C, Python and shell strings write them, encoded twice, or as HTML.
    `\\x2fhome\\x2f${owner}\\x2fw`,
    `\\057home\\057${owner}\\057w`,
    `%252Fhome%252F${owner}%252Fw`,
    `&#x2F;home&#x2F;${owner}&#x2F;w`,
    `&#47;home&#47;${owner}&#47;w`,
    `C:\\x5cUsers\\x5c${owner}\\x5cw`,
  ];

  it("clear substitute replaces the owner in each, and no file or printed line holds it", () => {
    const dir = tempDir();
    cwds.forEach((cwd, i) => writeFileSync(path.join(dir, `codex_session_start_0_171_0.${i + 1}.json`), JSON.stringify({ session_id: "s", hook_event_name: "SessionStart", cwd })));
    const out = path.join(tempDir(), "out");
    const r = clearJson(["substitute", dir, "--out", out]);
    expect(r.json.findings).toEqual([]);
    expect(r.code).toBe(0);
    const cleared = cwds.map((_, i) => JSON.parse(readFileSync(path.join(out, `codex_session_start_0_171_0.${i + 1}.json`), "utf8")).cwd as string);
    expect(cleared.slice(0, 6)).toEqual(["/home/./user/w", "/home/user/../user/w", "/home/user/../../home/user/w", "ls ~/../user/w", "$HOME/../user/w", '"${HOME}/../user/w"']);
    // Only the owner changes: every separator, in its own spelling, and what follows it are kept.
    expect(cleared.slice(10)).toEqual(["\\x2fhome\\x2fuser\\x2fw", "\\057home\\057user\\057w", "%252Fhome%252Fuser%252Fw", "&#x2F;home&#x2F;user&#x2F;w", "&#47;home&#47;user&#47;w", "C:\\x5cUsers\\x5cuser\\x5cw"]);
    expect(JSON.stringify(cleared) + JSON.stringify(r.json)).not.toContain(owner);
    expect(JSON.stringify(cleared)).not.toContain(other);
  });

  it("clear run refuses a home held in base64 in a value substitution keeps, naming the pointer", () => {
    const root = tempDir();
    execFileSync("git", ["init", "-q"], { cwd: root });
    const dir = tempDir();
    const encoded = Buffer.from(`/home/${owner}/w`).toString("base64");
    writeFileSync(path.join(dir, "codex_session_start_0_171_0.1.json"), JSON.stringify({ session_id: "s", hook_event_name: "SessionStart", cwd: encoded }));
    const r = clearJson(["run", dir, "--root", root]);
    expect(r.code).toBe(1);
    expect(r.json.findings).toContainEqual(expect.objectContaining({ pointer: "/cwd", message: expect.stringContaining("clear/home-owner") }));
  });

  it("a name of six letters a home taught, in base64 or base32 at any offset inside a kept value, is refused as that name", () => {
    const six = ["ta", "msin"].join("");
    const encodings = [0, 1, 2, 3, 4].flatMap((k) => {
      const bytes = Buffer.from(`${"/x_:".slice(0, k)}${six}.j`);
      return [`toolu_${bytes.toString("base64")}`, `toolu_${bytes.toString("base64url").toUpperCase()}`, `id-${base32(bytes)}`];
    });
    const dir = tempDir();
    writeFileSync(path.join(dir, "claude-code_session_start_2_1_261.1.json"), JSON.stringify({ session_id: "s", hook_event_name: "SessionStart", cwd: `/home/${six}/w` }));
    encodings.forEach((id, i) => writeFileSync(path.join(dir, `claude-code_pre_tool_use_2_1_261.${i + 1}.json`), JSON.stringify({ session_id: "s", hook_event_name: "PreToolUse", tool_use_id: id })));
    const r = clearJson(["substitute", dir, "--out", path.join(tempDir(), "out")]);
    const refused = (r.json.findings as { code: string; file: string; pointer: string }[]).filter((f) => f.code === "user-name-left" && f.pointer === "/tool_use_id");
    expect(refused.map((f) => f.file).sort()).toEqual(encodings.map((_, i) => `claude-code_pre_tool_use_2_1_261.${i + 1}.json`).sort());
    expect(JSON.stringify(r.json)).not.toContain(six);
  });
});

/** Bytes in base32 (RFC 4648), without padding. */
function base32(bytes: Buffer): string {
  let bits = "";
  for (const b of bytes) bits += b.toString(2).padStart(8, "0");
  return (bits.match(/.{1,5}/g) ?? []).map((chunk) => "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"[parseInt(chunk.padEnd(5, "0"), 2)]).join("");
}

describe("homes in domain folders (rules/homes.json domainFolders)", () => {
  it("a folder that reads as a domain holds an owner too: both are read, in each example; a user's own folder never", () => {
    const folders = rules.homes.domainFolders!;
    for (const ex of folders.examples) expect(grammar.realOwners(ex.text).map((o) => o.owner), ex.text).toEqual(ex.owners);
    for (const ex of folders.notExamples) expect(grammar.realOwners(ex.text).map((o) => o.owner), ex.text).toEqual([ex.owner]);
  });

  it("a domain a person declared no person still holds an owner, and only the owner is replaced", () => {
    const declared = homeGrammar({ ...rules.homes, declared: [{ segment: "CORP", reason: "the AD domain" }] });
    expect(declared.realOwners("/home/CORP/ana/x").map((o) => o.owner)).toEqual(["ana"]);
    expect(declared.realOwners("/home/CORP/user/x")).toEqual([]);
  });
});

describe("separators and owners spelled so that a reader decodes them, end to end", () => {
  const owner = ["qu", "illon"].join("");
  const hex = (c: string): string => c.charCodeAt(0).toString(16);
  const cases: [string, string][] = [
    // HTML's named references for the slashes, and the same escaped again as &amp;.
    [`&sol;home&sol;${owner}&sol;w`, "&sol;home&sol;user&sol;w"],
    [`C:&bsol;Users&bsol;${owner}&bsol;w`, "C:&bsol;Users&bsol;user&bsol;w"],
    [`&amp;sol;home&amp;sol;${owner}&amp;sol;w`, "&amp;sol;home&amp;sol;user&amp;sol;w"],
    [`&amp;#x2F;home&amp;#x2F;${owner}&amp;#x2F;w`, "&amp;#x2F;home&amp;#x2F;user&amp;#x2F;w"],
    // An owner's letters percent-encoded, once or twice.
    [`/home/%${hex("q")}${owner.slice(1)}/w`, "/home/user/w"],
    [`/home/%25${hex("q")}${owner.slice(1)}/w`, "/home/user/w"],
    // A path that climbs above the homes and comes back.
    [`/home/../home/${owner}/w`, "/home/../home/user/w"],
    // winbind's and SSSD's domain folders: the domain and the owner in it.
    [`/home/CORP/${owner}/w`, "/home/user/user/w"],
    [`/home/corp.example.com/${owner}/w`, "/home/user/user/w"],
  ];

  it("clear substitute replaces the owner in each, keeps every separator as written, and nothing printed holds it", () => {
    const dir = tempDir();
    cases.forEach(([cwd], i) => writeFileSync(path.join(dir, `codex_session_start_0_171_0.${i + 1}.json`), JSON.stringify({ session_id: "s", hook_event_name: "SessionStart", cwd })));
    const out = path.join(tempDir(), "out");
    const r = clearJson(["substitute", dir, "--out", out]);
    expect(r.json.findings).toEqual([]);
    expect(r.code).toBe(0);
    cases.forEach(([, cleared], i) => {
      const bytes = readFileSync(path.join(out, `codex_session_start_0_171_0.${i + 1}.json`), "utf8");
      expect(bytes).toBe(JSON.stringify({ session_id: "s", hook_event_name: "SessionStart", cwd: cleared }));
    });
    expect(JSON.stringify(r.json)).not.toContain(owner);
  });

  it("HTML's names are case-sensitive: a spelling HTML does not have is no separator", () => {
    for (const text of [`&SOL;home&SOL;${owner}`, `&Sol;home&Sol;${owner}`, `&BSOL;Users&BSOL;${owner}`, `&AmP;sol;home&AmP;sol;${owner}`]) expect(grammar.owners(text), text).toEqual([]);
    expect(grammar.realOwners(`&AMP;sol;home&AMP;sol;${owner}`).map((o) => o.owner)).toEqual([owner]);
    // Nor does such a spelling hide a root written right after it.
    for (const text of [`&SOL;/home/${owner}`, `&Sol;&#x2F;home&#x2F;${owner}`, `${"&SOL;".repeat(50)}&sol;home&sol;${owner}`, `&BSOL;\\Users\\${owner}`]) {
      expect(grammar.realOwners(text).map((o) => o.owner), text).toEqual([owner]);
    }
  });

  it("a domain folder's owner alone in a value substitution keeps refuses the file, naming file and pointer, and writes none of it", () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "codex_session_start_0_171_0.1.json"), JSON.stringify({ session_id: "s", hook_event_name: "SessionStart", cwd: `/home/CORP/${owner}/w` }));
    writeFileSync(path.join(dir, "codex_pre_tool_use_0_171_0.1.json"), JSON.stringify(call(`call_${owner}`)));
    const out = path.join(tempDir(), "out");
    const r = clearJson(["substitute", dir, "--out", out]);
    expect(r.code).toBe(1);
    const left = findingsOf(r, "user-name-left");
    expect(left.map((f) => [f.file, f.pointer])).toEqual([["codex_pre_tool_use_0_171_0.1.json", "/tool_use_id"]]);
    expect(readdirSync(out)).toEqual(["codex_session_start_0_171_0.1.json"]);
    expect(JSON.stringify(r.json)).not.toContain(owner);
  });
});

describe("an owner joined by a dash or an underscore teaches each of its words", () => {
  const first = ["an", "a"].join("");
  const second = ["mar", "ia"].join("");

  it("each word alone in a value substitution keeps refuses the file, naming file and pointer; the home itself is cleared", () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "codex_session_start_0_171_0.1.json"), JSON.stringify({ session_id: "s", hook_event_name: "SessionStart", cwd: `/home/${first}-${second}/w` }));
    writeFileSync(path.join(dir, "codex_session_start_0_171_0.2.json"), JSON.stringify({ session_id: "s", hook_event_name: "SessionStart", cwd: `/Users/${second}_${first}/w` }));
    writeFileSync(path.join(dir, "codex_pre_tool_use_0_171_0.1.json"), JSON.stringify(call(`call_${second}`)));
    writeFileSync(path.join(dir, "codex_pre_tool_use_0_171_0.2.json"), JSON.stringify(call(`${first}`)));
    writeFileSync(path.join(dir, "codex_pre_tool_use_0_171_0.3.json"), JSON.stringify(call("call_01")));
    const out = path.join(tempDir(), "out");
    const r = clearJson(["substitute", dir, "--out", out]);
    expect(r.code).toBe(1);
    const left = findingsOf(r, "user-name-left");
    expect(left.map((f) => [f.file, f.pointer]).sort()).toEqual([
      ["codex_pre_tool_use_0_171_0.1.json", "/tool_use_id"],
      ["codex_pre_tool_use_0_171_0.2.json", "/tool_use_id"],
    ]);
    expect(readdirSync(out).sort()).toEqual(["codex_pre_tool_use_0_171_0.3.json", "codex_session_start_0_171_0.1.json", "codex_session_start_0_171_0.2.json"]);
    expect(JSON.parse(readFileSync(path.join(out, "codex_session_start_0_171_0.1.json"), "utf8")).cwd).toBe("/home/user/w");
    expect(JSON.parse(readFileSync(path.join(out, "codex_session_start_0_171_0.2.json"), "utf8")).cwd).toBe("/Users/user/w");
    // The temporary folders' random names are the test's, not the sitting's: "aanAqX" would spell "ana".
    const shown = [dir, path.dirname(out)].reduce((text, d) => text.split(path.basename(d)).join(""), JSON.stringify(r.json));
    for (const word of [first, second]) expect(shown, word).not.toMatch(new RegExp(word, "i"));
  });
});

describe("an owner joined by any other mark teaches each of its words", () => {
  const first = ["mar", "got"].join("");

  it("Windows's short name of a profile (<NAME>~1), a copy's number or an apostrophe: the word alone or inside a longer one in a kept value refuses the file; the home itself is cleared", () => {
    const owners = [`${first.toUpperCase()}~1`, `${first}~2`, `${first}(1)`, `${first}[1]`, `${first}#2`, `${first}\u2019s`, `${first}&co`];
    for (const owner of owners) {
      const dir = tempDir();
      const home = `C:\\Users\\${owner}\\AppData\\Local\\Temp`;
      writeFileSync(path.join(dir, "codex_session_start_0_171_0.1.json"), JSON.stringify({ session_id: "s", hook_event_name: "SessionStart", cwd: home }));
      writeFileSync(path.join(dir, "codex_pre_tool_use_0_171_0.1.json"), JSON.stringify(call(`call_${first}`)));
      writeFileSync(path.join(dir, "codex_pre_tool_use_0_171_0.2.json"), JSON.stringify(call(`call_${first}dupont`)));
      const out = path.join(tempDir(), "out");
      const r = clearJson(["substitute", dir, "--out", out]);
      expect(r.code, owner).toBe(1);
      expect(findingsOf(r, "user-name-left").map((f) => [f.file, f.pointer]).sort(), owner).toEqual([
        ["codex_pre_tool_use_0_171_0.1.json", "/tool_use_id"],
        ["codex_pre_tool_use_0_171_0.2.json", "/tool_use_id"],
      ]);
      expect(readdirSync(out), owner).toEqual(["codex_session_start_0_171_0.1.json"]);
      expect(JSON.parse(readFileSync(path.join(out, "codex_session_start_0_171_0.1.json"), "utf8")).cwd, owner).toBe("C:\\Users\\user\\AppData\\Local\\Temp");
      expect(JSON.stringify(r.json), owner).not.toMatch(new RegExp(first, "i"));
    }
  });
});

describe("an owner numbered to tell it from another's teaches its letters", () => {
  const first = ["mar", "got"].join("");
  const second = ["du", "pont"].join("");

  it("digits before, after or inside a login: its letters alone in a kept value refuse the file, naming file and pointer; the home itself is cleared", () => {
    expect(ownerNames(`${first}2`)).toEqual([`${first}2`, first]);
    expect(ownerNames(`${first}.${second}2`)).toEqual(expect.arrayContaining([first, second]));
    const owners = [`${first}2`, `2${first}`, `${first}.${second}01`, `${second}_01`];
    for (const owner of owners) {
      const dir = tempDir();
      writeFileSync(path.join(dir, "codex_session_start_0_171_0.1.json"), JSON.stringify({ session_id: "s", hook_event_name: "SessionStart", cwd: `/home/${owner}/w` }));
      writeFileSync(path.join(dir, "codex_pre_tool_use_0_171_0.1.json"), JSON.stringify(call(`call_${owner.includes(first) ? first : second}`)));
      writeFileSync(path.join(dir, "codex_pre_tool_use_0_171_0.2.json"), JSON.stringify(call("call_01")));
      const out = path.join(tempDir(), "out");
      const r = clearJson(["substitute", dir, "--out", out]);
      expect(r.code, owner).toBe(1);
      expect(findingsOf(r, "user-name-left").map((f) => [f.file, f.pointer]), owner).toEqual([["codex_pre_tool_use_0_171_0.1.json", "/tool_use_id"]]);
      expect(readdirSync(out).sort(), owner).toEqual(["codex_pre_tool_use_0_171_0.2.json", "codex_session_start_0_171_0.1.json"]);
      expect(JSON.parse(readFileSync(path.join(out, "codex_session_start_0_171_0.1.json"), "utf8")).cwd, owner).toBe("/home/user/w");
      const shown = [dir, path.dirname(out)].reduce((text, d) => text.split(path.basename(d)).join(""), JSON.stringify(r.json));
      for (const word of [first, second]) expect(shown, owner).not.toMatch(new RegExp(word, "i"));
    }
  });
});

describe("an account a tool's output names outright, with no home", () => {
  const names = [["mar", "got"], ["ber", "trand"], ["oce", "ane"]].map((p) => p.join(""));
  const output = (text: string): object => ({ session_id: "s", turn_id: "t", hook_event_name: "PostToolUse", cwd: "/srv/app", tool_name: "shell", tool_input: { command: "id" }, tool_use_id: "call_1", tool_response: text });

  it("id's uid=N(name), an environment's USER=, LOGNAME=: the name alone in a kept value refuses the file, naming file and pointer; root and the placeholder teach nothing", () => {
    expect(accountNames(`uid=1000(${names[0]}) gid=1000(${names[0]}) USER=$USER LOGNAME="${names[2]}" MYUSER=x`)).toEqual([names[0], names[0], names[2]]);
    const dir = tempDir();
    const texts = [`uid=1000(${names[0]}) gid=1000(${names[0]}) groups=1000(${names[0]}),27(sudo)`, `HOME=/srv/app\nUSER=${names[1]}\n`, `export LOGNAME='${names[2]}'`, "uid=0(root) gid=0(root) USER=root USER=user"];
    texts.forEach((t, i) => writeFileSync(path.join(dir, `codex_post_tool_use_0_171_0.${i + 1}.json`), JSON.stringify(output(t))));
    [...names, "root", "user"].forEach((n, i) => writeFileSync(path.join(dir, `codex_pre_tool_use_0_171_0.${i + 1}.json`), JSON.stringify(call(`call_${n}`))));
    const out = path.join(tempDir(), "out");
    const r = clearJson(["substitute", dir, "--out", out]);
    expect(r.code).toBe(1);
    expect(findingsOf(r, "user-name-left").map((f) => [f.file, f.pointer]).sort()).toEqual(names.map((_, i) => [`codex_pre_tool_use_0_171_0.${i + 1}.json`, "/tool_use_id"]));
    expect(readdirSync(out).filter((f) => f.startsWith("codex_pre")).sort()).toEqual(["codex_pre_tool_use_0_171_0.4.json", "codex_pre_tool_use_0_171_0.5.json"]);
    const shown = [dir, path.dirname(out)].reduce((text, d) => text.split(path.basename(d)).join(""), JSON.stringify(r.json));
    for (const n of names) expect(shown, n).not.toMatch(new RegExp(n, "i"));
  });

  it("SUDO_USER= and DOAS_USER= teach the account that ran the command; a form an escape spells (USER\\u003d…, in a string or in JSON a string holds) teaches as the plain one", () => {
    const names = [["gas", "pard"], ["ysa", "line"], ["hono", "rine"], ["qui", "terie"]].map((p) => p.join(""));
    const files = [
      JSON.stringify(output(`SUDO_USER=${names[0]}\nUSER=root`)),
      JSON.stringify(output(`DOAS_USER=${names[1]}`)),
      JSON.stringify(output(`USER=${names[2]}`)).replace("USER=", "USER\\u003d"),
      JSON.stringify(output(JSON.stringify({ env: `LOGNAME=${names[3]}` }))).replace("LOGNAME=", "LOGNAME\\\\u003d"),
    ];
    const dir = tempDir();
    files.forEach((f, i) => writeFileSync(path.join(dir, `codex_post_tool_use_0_171_0.${i + 1}.json`), f));
    names.forEach((n, i) => writeFileSync(path.join(dir, `codex_pre_tool_use_0_171_0.${i + 1}.json`), JSON.stringify(call(`call_${n}`))));
    const r = clearJson(["substitute", dir, "--out", path.join(tempDir(), "out")]);
    expect(r.code).toBe(1);
    expect(findingsOf(r, "user-name-left").map((f) => f.file).sort()).toEqual(names.map((_, i) => `codex_pre_tool_use_0_171_0.${i + 1}.json`));
  });
});

describe("an account a sitting shows without naming it a home's owner", () => {
  // Fake names, built at run time: each form teaches its own.
  const names = ["zor", "vel", "mik", "tan", "bel", "qua", "dru", "fen", "gal", "hob", "jin", "kup", "lor", "mup", "pex", "rux", "sol", "tov", "vim", "wex", "yar", "zib", "aco", "bri"].map((p) => [p, "ande"].join(""));
  const codex = (text: string): object => ({ session_id: "s", turn_id: "t", hook_event_name: "PostToolUse", cwd: "/srv/app", tool_name: "shell", tool_input: { command: "env" }, tool_use_id: "call_1", tool_response: text });
  const claude = (command: string, stdout: string): object => ({ session_id: "s", hook_event_name: "PostToolUse", cwd: "/srv/app", tool_name: "Bash", tool_input: { command }, tool_use_id: "toolu_1", tool_response: { stdout, stderr: "", interrupted: false, isImage: false } });
  /** Substitutes a sitting of these captures and a tool call kept with each word's id; the words whose call is refused, and the JSON output. */
  const refusedWords = (files: Record<string, object>, words: string[]): { refused: string[]; shown: string } => {
    const dir = tempDir();
    for (const [name, doc] of Object.entries(files)) writeFileSync(path.join(dir, name), JSON.stringify(doc));
    words.forEach((w, i) => writeFileSync(path.join(dir, `codex_pre_tool_use_0_171_0.${i + 1}.json`), JSON.stringify(call(`call_${w}`))));
    const out = path.join(tempDir(), "out");
    const r = clearJson(["substitute", dir, "--out", out]);
    const refused = findingsOf(r, "user-name-left").filter((f) => f.file.startsWith("codex_pre")).map((f) => words[Number(/\.(\d+)\.json$/.exec(f.file)![1]) - 1]!);
    const shown = [dir, path.dirname(out)].reduce((text, d) => text.split(path.basename(d)).join(""), JSON.stringify(r.json));
    return { refused: refused.sort(), shown };
  };

  it("macOS's directory record <name>.plist teaches the name, not plist; a system's _account, root's mail and root's Nix profile teach nothing", () => {
    const text = [`/private/var/db/dslocal/nodes/Default/users/${names[0]}.plist`, "/var/db/dslocal/nodes/Default/users/_www.plist", "/var/mail/root", "/var/spool/mail/root", "/etc/profiles/per-user/root/bin"].join("\n");
    const { refused, shown } = refusedWords({ "codex_post_tool_use_0_171_0.1.json": codex(text) }, [names[0]!, "plist", "www", "root"]);
    expect(refused).toEqual([names[0]]);
    expect(shown).not.toContain(names[0]);
  });

  it("an environment as JSON members (printed, or the capture's own), spelt with JSON escapes, SUDO_USER, a shell's prompts and git's user.name teach the name; git@, a log's Author and a command's -c user.name= teach nothing", () => {
    const texts = [
      JSON.stringify({ USER: names[1], HOME: "/srv/app" }),
      `"LOGNAME" : "${names[2]}"`,
      `\\u0055SER=${names[3]}`,
      `SUDO_USER=${names[4]}`,
      `${names[5]}@laptop:~/w$ ls\nREADME`,
      `[${names[6]}@host w]$ make`,
      `\u001b[01;32m${names[7]}@box\u001b[00m:\u001b[01;34m/srv/app\u001b[00m# `,
      `(venv) ${names[8]}@mac app % git status`,
      `user.name=${names[9]} Dupont\nuser.email=x@example.invalid`,
      "git@github.com: Permission denied (publickey).\ngit@github.com:org/repo.git",
      `commit 0123abc\nAuthor: ${names[10]} Dupont <x@example.invalid>\n`,
      `git -c user.name=${names[12]} -c user.email=x@example.invalid commit -qm x`,
    ];
    const files = Object.fromEntries(texts.map((t, i) => [`codex_post_tool_use_0_171_0.${i + 1}.json`, codex(t)]));
    files["codex_post_tool_use_0_171_0.98.json"] = { ...codex("ok"), tool_input: { command: "env", env: { LOGNAME: names[13], USER: "root" } } };
    files["codex_post_tool_use_0_171_0.99.json"] = JSON.parse(`{"session_id":"s","turn_id":"t","hook_event_name":"PostToolUse","cwd":"/srv/app","tool_name":"shell","tool_input":{"command":"env"},"tool_use_id":"call_1","tool_response":"\\u0055SER=${names[11]}"}`);
    const { refused, shown } = refusedWords(files, [...names.slice(1, 14), "git", "dupont"]);
    expect(refused).toEqual([...names.slice(1, 10), names[11]!, names[13]!, "dupont"].sort());
    for (const n of [...names.slice(1, 10), names[11]!, names[13]!]) expect(shown, n).not.toMatch(new RegExp(n, "i"));
  });

  it("the account a cloud image, a box or a CI runner is given, in a prompt, USER= or whoami's output (a README's or a log's), teaches nothing; a person's beside them does", () => {
    const defaults = ["admin", "vagrant", "pi", "azureuser", "ec2-user", "runner", "node"];
    const texts = [...defaults.map((d) => `${d}@host-1:~/app$ make`), "USER=centos", "I have no name!@3f2a:/app$ ls", `${names[0]}@laptop:~/w$ ls`];
    const files = Object.fromEntries(texts.map((t, i) => [`codex_post_tool_use_0_171_0.${i + 1}.json`, codex(t)]));
    files["claude-code_post_tool_use_2.1.261.1.json"] = claude("whoami", "admin\n");
    const { refused } = refusedWords(files, [...defaults, "centos", "name", names[0]!]);
    expect(refused).toEqual([names[0]]);
  });

  it("a tool call whose command prints the account (whoami, id -un, echo $USER, logname) teaches its output; another command's output teaches nothing", () => {
    const commands = ["whoami", "id -un", "echo $USER", "logname && pwd", "ls"];
    const files = Object.fromEntries(commands.map((c, i) => [`claude-code_post_tool_use_2.1.261.${i + 1}.json`, claude(c, `${names[i]}\n`)]));
    const { refused } = refusedWords(files, names.slice(0, 5));
    expect(refused).toEqual(names.slice(0, 4).sort());
  });

  it("a passwd line and stat's Uid: of a person's number, and ls -l's owner, teach the name; the system's accounts (root, daemon, nobody, staff, _www) teach nothing", () => {
    const texts = [
      `root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n${names[0]}:x:1000:1000:A B,,,:/srv/a:/bin/bash\n`,
      `${names[1]}:*:501:20:A B:/srv/b:/bin/zsh\r\n`,
      `  File: a\nAccess: (0644/-rw-r--r--)  Uid: ( 1000/${names[2]})   Gid: ( 1000/${names[2]})\nAccess: (0644/-rw-r--r--)  Uid: (    0/    root)   Gid: (    0/    root)\n`,
      `total 8\n-rw-r--r-- 1 ${names[3]} ${names[3]} 12 Dec  6 09:12 a.txt\ndrwxr-xr-x 5 root wheel 160 Dec  6 09:12 ..\n`,
      `drwxr-xr-x@ 3 ${names[4]}  staff  96 Dec  6 09:12 .\r\n-rw-r--r--  1 _www  daemon  1 Dec  6 09:12 x\r\n`,
    ];
    const files = Object.fromEntries(texts.map((t, i) => [`codex_post_tool_use_0_171_0.${i + 1}.json`, codex(t)]));
    const { refused, shown } = refusedWords(files, [...names.slice(0, 5), "root", "daemon", "nobody", "staff", "www", "wheel"]);
    expect(refused).toEqual(names.slice(0, 5).sort());
    for (const n of names.slice(0, 5)) expect(shown, n).not.toMatch(new RegExp(n, "i"));
  });

  it("a command that prints a home (echo $HOME), an echo around an account's variable, a table of the accounts logged in (who, w, users, last, lastlog, query user; piped to awk or cut printing the first column) or an account's record or list (finger, net user, dscl) teaches the accounts it names; a header, a system's account or folder, ps's accounts (mostly a system's), another column and another command's output teach nothing", () => {
    const files: Record<string, object> = {};
    const calls: [string, string][] = [
      ["echo $HOME", `/srv/${names[0]}\n`],
      ["who", `${names[1]}   pts/0        2026-11-09 10:00 (10.0.0.5)\n`],
      ["w", ` 10:00:01 up 3 days,  1 user,  load average: 0.00\nUSER     TTY      FROM             LOGIN@   IDLE WHAT\n${names[2]}  pts/0    10.0.0.5         10:00    1.00s w\n`],
      ["last -n 3", `${names[3]}  pts/1   10.0.0.5   Mon Nov  9 10:00   still logged in\nreboot   system boot  6.1.0   Mon Nov  9 09:58   still running\n\nwtmp begins Mon Nov  2 08:00:00 2026\n`],
      ["users", `${names[4]} ${names[5]}\n`],
      ["ps aux | grep node", `USER         PID %CPU COMMAND\nroot           1  0.0 /sbin/init\navahi        700  0.0 avahi-daemon\n${names[6]}    4242  1.0 node server.js\n`],
      ["ps -eo comm,pid", "COMMAND  PID\nbash 1\nnode 2\n"],
      ["lastlog", `Username         Port     From             Latest\nsyslog                                     **Never logged in**\n${names[7]}          pts/0    10.0.0.5         Mon Nov  9 10:00:00 +0000 2026\n`],
      ["finger x", `Login: ${names[8]}       \t\t\tName: Ann Dupont\nDirectory: /srv/y          \tShell: /bin/bash\n`],
      ["net user x", `User name                    ${names[9]}\nFull Name                    Ann Dupont\n`],
      ["ls && who", `a.txt\n${names[10]} pts/0\n`],
      ["echo $HOME", "/github/home\n"],
      ["echo ~", "/var/lib/jenkins\n"],
      ["dscl . -read /Users/x RecordName RealName", `RecordName: ${names[14]}\nRealName:\n Ann Dupont\n`],
      ['echo "user: $USER" && ls', `user: ${names[15]}\na.txt\n`],
      ['echo "Home is ${HOME}."', `Home is /srv/${names[16]}.\n`],
      ['echo "$USER@$HOSTNAME"', `${names[17]}@box\n`],
      ["who | awk '{print $1}' | sort -u", `${names[19]}\n`],
      ["query user", ` USERNAME  SESSIONNAME  ID  STATE\n>${names[20]}  console  1  Active\n ${names[21]}  rdp-tcp#0  2  Active\n`],
      ["finger", `Login     Name           Tty\n${names[22]}     Ann Dupont     pts/0\n`],
      ["net user", `\r\nUser accounts for \\\\HOST\r\n\r\n${"-".repeat(79)}\r\nAdministrator            ${names[23]}            DefaultAccount\r\nGuest\r\nThe command completed successfully.\r\n`],
    ];
    calls.forEach(([command, stdout], i) => (files[`claude-code_post_tool_use_2.1.261.${i + 1}.json`] = claude(command, stdout)));
    const taught = [...names.slice(0, 6), ...names.slice(7, 10), ...names.slice(14, 17), ...names.slice(19, 24)];
    const { refused, shown } = refusedWords(files, [...names.slice(0, 11), ...names.slice(14, 18), ...names.slice(19, 24), "dupont", "root", "avahi", "syslog", "bash", "node", "reboot", "wtmp", "home", "github", "jenkins", "administrator", "guest", "defaultaccount", "username"]);
    expect(refused).toEqual([...taught, "dupont"].sort());
    for (const n of taught) expect(shown, n).not.toMatch(new RegExp(n, "i"));
  });

  it("an account's record with an empty field (net user's Full Name) teaches not the label on the line after it", () => {
    const files: Record<string, object> = {
      "claude-code_post_tool_use_2.1.261.1.json": claude("net user x", `User name                    ${names[0]}\r\nFull Name                    \r\nComment                      \r\nUser's comment               \r\n`),
    };
    const { refused } = refusedWords(files, [names[0]!, "comment"]);
    expect(refused).toEqual([names[0]!]);
  });

  it("a naming command last after others, a listing of the homes' folder, stat's owner, persons' first field of passwd and ls -l's owner column teach the accounts they print; a naming command between two others, after && (skipped when the one before fails) or that may print nothing, another folder's listing, a listing holding a message, every account's first field and what stands for no account teach nothing", () => {
    const calls: [string, string][] = [
      ["ls; whoami", `a.txt\n${names[0]}\n`],
      ["make; id -un", `ok\n${names[1]}\n`],
      ["ls /home", `${names[2]}  ${names[3]}\nlost+found\n`],
      ["ls -1 /Users/", `Shared\n${names[4]}\n`],
      ["stat -c %U a.txt", `${names[5]}\nUNKNOWN\n`],
      ["stat -f '%Su' a.txt", `${names[6]}\n`],
      ["awk -F: '$3 >= 1000 {print $1}' /etc/passwd", `${names[7]}\nnobody\n`],
      ["getent passwd | awk -F: '$3>=1000{print $1}'", `${names[8]}\n`],
      ["ls -la | awk '{print $3}'", `\nroot\n${names[9]}\n`],
      ["ls; whoami; pwd", `a.txt\n${names[10]}\n/srv/app\n`],
      ["ls /srv", `${names[11]}\n`],
      ["ls /home", `ls: /home: Permission denied\n${names[12]}\n`],
      ["python train.py && whoami", "epoch 1\nKilled\n"],
      ["ls; echo $USER", "README.md\ntests\n"],
      ["cut -d: -f1 /etc/passwd", "halt\ncron\n"],
      ["ls /Users", "Deleted Users\nShared\n"],
    ];
    const files = Object.fromEntries(calls.map(([command, stdout], i) => [`claude-code_post_tool_use_2.1.261.${i + 1}.json`, claude(command, stdout)]));
    const others = ["syslog", "root", "shared", "permission", "denied", "killed", "tests", "halt", "cron", "deleted", "unknown", "nobody"];
    const { refused, shown } = refusedWords(files, [...names.slice(0, 13), ...others]);
    expect(refused).toEqual(names.slice(0, 10).sort());
    for (const n of names.slice(0, 10)) expect(shown, n).not.toMatch(new RegExp(n, "i"));
  });

  it("a command built to make the readers of commands backtrack (pipes and blanks, up to the 4,096 characters read) is read at once", () => {
    // Run apart: a pattern that backtracks for minutes blocks the process that runs it.
    const script = `import { outputAccounts } from ${JSON.stringify(path.join(PROJECT_ROOT, "dist", "account-names.js"))};
const pipes = (head) => head + " | grep -v x".repeat(60) + " ; echo done";
const blanks = (head) => head + " ".repeat(4000) + ";";
const commands = [pipes("ls /home"), pipes("who"), pipes("env"), pipes("stat -c %U a"), pipes("ls -l | awk '{print $3}'"), blanks("ls -l"), blanks("getent passwd"), blanks("stat -c %U a"), "x" + "\\n".repeat(2040) + "whoami" + "\\n ".repeat(1020) + "x"];
process.stdout.write(JSON.stringify(commands.map((c) => outputAccounts(c) === null)));`;
    const file = path.join(tempDir(), "backtrack.mjs");
    writeFileSync(file, script);
    const r = spawnSync(process.execPath, [file], { encoding: "utf8", timeout: 20_000 });
    expect(r.signal, "a pattern backtracked past 20 s").toBeNull();
    expect(r.status, r.stderr).toBe(0);
    // Each is read as no command that names accounts: the trailing ; echo done, or the blanks, end none of them.
    expect(JSON.parse(r.stdout)).toEqual([true, true, true, true, true, true, true, true, true]);
  });

  it("git's committer as the environment prints it (env, export -p) teaches the name; a bot's, one set before a command, one a script sets and the capture's own env member teach nothing", () => {
    const files: Record<string, object> = {
      "codex_post_tool_use_0_171_0.1.json": codex(`PATH=/usr/bin\nGIT_AUTHOR_NAME=${names[11]} Dupont\ndeclare -x GIT_COMMITTER_NAME="${names[12]}"\nGIT_COMMITTER_NAME=dependabot[bot]\n`),
      "codex_post_tool_use_0_171_0.2.json": codex(`GIT_AUTHOR_NAME="Claude" git commit -qm x\n`),
      "codex_post_tool_use_0_171_0.3.json": { ...codex("ok"), tool_input: { command: "env", env: { GIT_AUTHOR_NAME: `${names[13]} Kell` } } },
      "claude-code_post_tool_use_2.1.261.1.json": { ...claude("cat setup.sh", `#!/bin/sh\nexport GIT_AUTHOR_NAME="${names[18]}"\n`) },
    };
    const { refused } = refusedWords(files, [...names.slice(11, 14), names[18]!, "dupont", "kell", "dependabot", "claude"]);
    expect(refused).toEqual([names[11]!, names[12]!, "dupont"].sort());
  });

  it("a naming command's output teaches in OpenCode's and Codex's fields, piped to tr, after a cd, with its errors, and on Windows (host\\<name>, %USERNAME%, $env:USERNAME)", () => {
    const opencode2 = (command: string, text: string): object => ({ tool: "shell", sessionID: "ses_1", agent: "build", messageID: "msg_1", id: "call_00", input: { command }, status: "completed", result: { content: [{ type: "text", text }] } });
    const opencode1 = (command: string, text: string): object => ({ input: { tool: "bash", sessionID: "ses_1", callID: "call_1", args: { command } }, output: { title: command, output: text, metadata: { exit: 0 } } });
    const files: Record<string, object> = {
      "opencode_tool_execute_after_2_0_21.1.json": opencode2("whoami", `${names[0]}\n`),
      "opencode_tool_execute_after_1_18_29.1.json": opencode1("id -un", `${names[1]}\n`),
      "codex_post_tool_use_0_171_0.1.json": { ...codex(`${names[2]}\n`), tool_input: { cmd: "whoami" } },
      "claude-code_post_tool_use_2.1.261.1.json": claude("id -un | tr -d '\\n'", names[3]!),
      "claude-code_post_tool_use_2.1.261.2.json": claude("cd /srv/app && whoami 2>&1", `${names[4]}\n`),
      "claude-code_post_tool_use_2.1.261.3.json": claude("whoami", `desktop-7q\\${names[5]}\r\n`),
      "claude-code_post_tool_use_2.1.261.4.json": claude("echo %USERNAME%", `${names[6]}\r\n`),
      "claude-code_post_tool_use_2.1.261.5.json": claude("$env:USERNAME", `${names[7]}\r\n`),
      "claude-code_post_tool_use_2.1.261.6.json": claude("whoami | wc -c", `${names[8]}\n`),
    };
    const { refused } = refusedWords(files, [...names.slice(0, 9), "desktop"]);
    expect(refused).toEqual(names.slice(0, 8).sort());
  });
});

describe("an owner, or its home, written with a text escape, end to end", () => {
  // Fake names, built at run time; the escape spells the "i" of "quillon", and "llon" is its tail.
  const owner = ["qu", "illon"].join("");
  const tail = owner.slice(3);
  const other = ["bo", "b"].join("");
  const cut = `qu\\x69${tail}`;
  const start = (cwd: string): object => ({ session_id: "s", hook_event_name: "SessionStart", cwd });
  const cases: [string, string][] = [
    // Inside the owner: C, Python and shell escapes, a JSON escape left as text, HTML, URL, doubled backslashes, bash's $'...'.
    [`/home/${cut}/w`, "/home/user/w"],
    [`/home/qu\\151${tail}/w`, "/home/user/w"],
    [`/home/qu\\u0069${tail}/w`, "/home/user/w"],
    [`/home/qu\\u{69}${tail}/w`, "/home/user/w"],
    [`/home/qu\\U00000069${tail}/w`, "/home/user/w"],
    [`/home/qu&#105;${tail}/w`, "/home/user/w"],
    [`/home/qu&#x69;${tail}/w`, "/home/user/w"],
    [`/home/qu&amp;#105;${tail}/w`, "/home/user/w"],
    [`/home/qu%u0069${tail}/w`, "/home/user/w"],
    [`/home/qu\\\\x69${tail}/w`, "/home/user/w"],
    [`cd /home/qu$'\\x69'${tail}/w`, "cd /home/user/w"],
    [`cd $'/home/${cut}/w'`, "cd $'/home/user/w'"],
    [`/home/\\x71ui${tail}/w`, "/home/user/w"],
    [`/Users/qu\\x69${tail.slice(0, -1)}\\x6e`, "/Users/user"],
    // In the separators or in the root's own word: the escapes are kept as written.
    [`/home\\x2f${cut}\\x2fw`, "/home\\x2fuser\\x2fw"],
    [`/home\\u{2f}${cut}\\u{2f}w`, "/home\\u{2f}user\\u{2f}w"],
    [`/home$'\\x2f'${owner}/w`, "/home$'\\x2f'user/w"],
    [`/ho\\x6de/${owner}/w`, "/ho\\x6de/user/w"],
    [`/ho\\155e/${owner}/w`, "/ho\\155e/user/w"],
    [`/ho&#109;e/${owner}/w`, "/ho&#109;e/user/w"],
    [`/ho%6De/${owner}/w`, "/ho%6De/user/w"],
    [`C:\\U\\x73ers\\${owner}\\w`, "C:\\U\\x73ers\\user\\w"],
    // A Windows path's single backslash may be a separator: the folder the escape may begin goes with the owner.
    [`C:\\Users\\${cut}\\w`, "C:\\Users\\user\\w"],
    [`C:\\\\Users\\\\${cut}\\\\w`, "C:\\\\Users\\\\user\\\\w"],
    // JSON in a string, the escape inside it.
    [JSON.stringify({ p: `/home/${cut}/w` }), JSON.stringify({ p: "/home/user/w" })],
    // What is no escape stays as it was: HTML's quotes around a path, a Windows folder.
    [`cd &quot;/home/${owner}&quot;`, "cd &quot;/home/user&quot;"],
    [`C:\\Users\\${owner}\\Documents`, "C:\\Users\\user\\Documents"],
    // After the placeholder, a Windows path's backslash is a separator: a folder named x64 is kept.
    ["C:\\Users\\user\\x64\\w", "C:\\Users\\user\\x64\\w"],
    // A control written as an escape ends the owner where no small letter or digit follows it: no name holds one.
    [`/home/${owner}\\0/w`, "/home/user\\0/w"],
    [`/home/${owner}\\7 w`, "/home/user\\7 w"],
    [`/home/${owner}\\x01/w`, "/home/user\\x01/w"],
    [`/home/${owner}\\001`, "/home/user\\001"],
    [`/home/${owner}\\nNext`, "/home/user\\nNext"],
    [`/home/${owner}\\x1b[0m`, "/home/user\\x1b[0m"],
    // In a Windows home a backslash after the owner is a separator, whatever the separators before it; a quote by name around a path.
    [`C:/Users/${owner}\\projects\\app`, "C:/Users/user\\projects\\app"],
    [`/c/Users/${owner}\\source`, "/c/Users/user\\source"],
    [`//wsl$/Ubuntu/home/${owner}\\projects`, "//wsl$/Ubuntu/home/user\\projects"],
    [`&apos;/home/${owner}&apos;`, "&apos;/home/user&apos;"],
    [`C:/msys64/home/${owner}\\projects\\x`, "C:/msys64/home/user\\projects\\x"],
    [`C:\\Users\\${owner}&C:\\Users\\${other}`, "C:\\Users\\user&C:\\Users\\user"],
    [`/home/qu\ti${tail}/w`, "/home/user/w"],
    // A name the sitting taught, with a shell's backslash or a control inside it, is the whole owner.
    [`/home/qu\\i${tail}/w`, "/home/user/w"],
    [`/home/qu\u0000i${tail}/w`, "/home/user/w"],
    [`/home/qu\\x01i${tail}/w`, "/home/user/w"],
    [`/home/qu\\ti${tail}/w`, "/home/user/w"],
    [`/home/qu\\\\i${tail}/w`, "/home/user/w"],
    [`{\\"cwd\\":\\"/home/${owner}\\"}`, `{\\"cwd\\":\\"/home/user\\"}`],
  ];

  it("clear substitute replaces the whole owner in each, and no cleared byte or printed line holds its tail", () => {
    const { r, dir, texts, cleared } = substituteCwds(cases.map(([cwd]) => cwd));
    expect(r.json.findings).toEqual([]);
    expect(r.code).toBe(0);
    cases.forEach(([cwd, want], i) => expect(cleared[i], cwd).toBe(want));
    const printed = `${JSON.stringify(r.json)}${clear(["substitute", dir, "--out", path.join(tempDir(), "out"), "--verbose"]).stdout}`;
    expect(texts.join("\n") + printed).not.toContain(tail);
  });

  it("clear run clears the escaped owner and writes a fixture without its tail", () => {
    const root = tempDir();
    execFileSync("git", ["init", "-q"], { cwd: root });
    const dir = tempDir();
    writeFileSync(path.join(dir, "codex_session_start_0_171_0.1.json"), JSON.stringify(start(`/home/${cut}/w`)));
    const r = clearJson(["run", dir, "--root", root]);
    expect(r.json.findings).toEqual([]);
    expect(r.code).toBe(0);
    const fixture = readFileSync(path.join(root, "fixtures", "codex", "0.171.0", "session_start.json"), "utf8");
    expect(JSON.parse(fixture).cwd).toBe("/home/user/w");
    expect(fixture + JSON.stringify(r.json) + readFileSync(path.join(root, "CLEARANCE.md"), "utf8")).not.toContain(tail);
  });

  it("the decoded owner is learned: alone in a value substitution keeps, it refuses the file, naming file and pointer", () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "codex_session_start_0_171_0.1.json"), JSON.stringify(start(`/home/${cut}/w`)));
    writeFileSync(path.join(dir, "codex_session_start_0_171_0.2.json"), JSON.stringify(start(`C:\\Users\\${other}\\x64\\w`)));
    writeFileSync(path.join(dir, "codex_pre_tool_use_0_171_0.1.json"), JSON.stringify(call(`call_${owner}`)));
    writeFileSync(path.join(dir, "codex_pre_tool_use_0_171_0.2.json"), JSON.stringify(call(`call_${cut}`)));
    // The owner a Windows path's backslash may end is learned too.
    writeFileSync(path.join(dir, "codex_pre_tool_use_0_171_0.3.json"), JSON.stringify(call(`call_${other}`)));
    writeFileSync(path.join(dir, "codex_pre_tool_use_0_171_0.4.json"), JSON.stringify(call("call_01")));
    const out = path.join(tempDir(), "out");
    const r = clearJson(["substitute", dir, "--out", out]);
    expect(r.code).toBe(1);
    const left = findingsOf(r, "user-name-left");
    expect(left.map((f) => [f.file, f.pointer]).sort()).toEqual([
      ["codex_pre_tool_use_0_171_0.1.json", "/tool_use_id"],
      ["codex_pre_tool_use_0_171_0.2.json", "/tool_use_id"],
      ["codex_pre_tool_use_0_171_0.3.json", "/tool_use_id"],
    ]);
    expect(readdirSync(out).sort()).toEqual(["codex_pre_tool_use_0_171_0.4.json", "codex_session_start_0_171_0.1.json", "codex_session_start_0_171_0.2.json"]);
    expect(JSON.stringify(r.json)).not.toContain(tail);
    expect(JSON.stringify(r.json)).not.toMatch(new RegExp(`\\b${other}\\b`));
  });

  it("a taught name with an apostrophe is replaced whole however a shell spelt the apostrophe", () => {
    const apos = ["o'", "bri", "en"].join("");
    const spelt = [`cd '/home/o'\\''bri${"en"}/w'`, `cd '/home/o'"'"'bri${"en"}/w'`, `/home/o\\'bri${"en"}/w`, `/home/O'\\''Bri${"en"}/w`];
    const dir = tempDir();
    writeFileSync(path.join(dir, "codex_session_start_0_171_0.1.json"), JSON.stringify(start(`/home/${apos}/w`)));
    spelt.forEach((cwd, i) => writeFileSync(path.join(dir, `codex_session_start_0_171_0.${i + 2}.json`), JSON.stringify(start(cwd))));
    const out = path.join(tempDir(), "out");
    const r = clearJson(["substitute", dir, "--out", out]);
    expect(r.json.findings).toEqual([]);
    const cleared = spelt.map((_, i) => JSON.parse(readFileSync(path.join(out, `codex_session_start_0_171_0.${i + 2}.json`), "utf8")).cwd);
    expect(cleared).toEqual(["cd '/home/user/w'", "cd '/home/user/w'", "/home/user/w", "/home/user/w"]);
  });

  it("an escape the tool cannot read right after an owner is replaced with it, to the end of the folder name, and none of it is written or printed", () => {
    const unread = [`/home/qu&iacute;${tail}/w`, `/home/qu\\x81${tail}/w`, `/home/qu\\61${tail}/w`, `/home/qu\\777${tail}/w`, `/home/qu\\N{LATIN SMALL LETTER I}${tail}/w`, `/home/user&iacute;${tail}/w`];
    // A shell's backslash before a letter or a quote, its quote spelt inside quotes, a typographic apostrophe by name.
    unread.push(`/home/qu\\i${tail}/w`, `/home/qu\\'i${tail}/w`, `cd '/home/qu'\\''i${tail}/w'`, `cd '/home/qu'"'"'i${tail}/w'`, `/home/qu&rsquo;i${tail}/w`);
    // A control, a dot or a dash escaped before a small letter; a quote glued between letters; one escape after another.
    unread.push(`/home/qu\\1i${tail}/w`, `/home/qu\\0i${tail}/w`, `/home/qu\\x01i${tail}/w`, `/home/qu\\ni${tail}/w`, `/home/qu\\.i${tail}/w`, `/home/qu"'"i${tail}/w`, `/home/qu""i${tail}/w`);
    unread.push(`/home/q\\u\\i${tail}/w`, `~qu\\i${tail}/w`, `/home/qu\\1\\1i${tail}/w`, `/home/qu\\.\\.i${tail}/w`, `/home/qu\\t\\pi${tail}/w`);
    // A quote around a space inside the name; what a Windows profile name may hold.
    unread.push(`/home/qu' 'i${tail}/w`, `C:/Users/qu&i${tail}/w`, `C:/Users/qu(i${tail})/w`, `/home/qu#i${tail}/w`);
    const { r, out, cleared } = substituteCwds(unread);
    expect(r.json.findings).toEqual([]);
    expect(r.code).toBe(0);
    // The folder after the root, whatever it holds, up to the next one ("/w").
    expect(cleared).toEqual(unread.map((cwd) => cwd.replace(/(\/home\/|\/Users\/|~)[^/]*(?=\/w)/, (_m, root: string) => `${root}user`)));
    const again = clearJson(["substitute", out, "--out", path.join(tempDir(), "again")]);
    expect(again.json.findings).toEqual([]);
    for (const word of [tail, "iacute", "rsquo"]) expect(JSON.stringify(r.json) + cleared.join(""), word).not.toContain(word);
  });
});

describe("an owner in quotes, or begun with what the readings leave as written, end to end", () => {
  // Fake names, built at run time; "llon" is the tail no written or printed byte may hold.
  const owner = ["qu", "illon"].join("");
  const spaced = ["Qu", " ", "illon"].join("");
  const tail = owner.slice(3);
  const other = ["car", "los"].join("");
  const start = (cwd: string): object => ({ session_id: "s", hook_event_name: "SessionStart", cwd });
  const cases: [string, string][] = [
    // The quotes stay, the name between them goes, spaces and all.
    [`/home/'${spaced}'/w`, "/home/'user'/w"],
    [`/home/"${owner}"/w`, '/home/"user"/w'],
    [`/Users/\`${owner}\`/w`, "/Users/\`user\`/w"],
    [`cd ~'${spaced}'/w`, "cd ~'user'/w"],
    [`~\\"${owner}\\"/w`, '~\\"user\\"/w'],
    [`cd /home/\\"${owner}\\"/w`, 'cd /home/\\"user\\"/w'],
    [`C:\\Users\\'${spaced}'\\w`, "C:\\Users\\'user'\\w"],
    // A quote doubled, spaces after the opening quote, a reference inside: between the quotes is the owner still.
    [`/home/''${owner}''/w`, "/home/''user''/w"],
    [`/home/' ${owner}'/w`, "/home/'user'/w"],
    [`/home/'&eacute;${owner}'/w`, "/home/'user'/w"],
    // What a shell joins to a quoted name: an apostrophe it spelt, letters right after the closing quote.
    // A word that ends otherwise than it opened goes whole, its quotes too, so that none is left open.
    [`/home/'O''${spaced}'/w`, "/home/'user'/w"],
    [`/home/'O'\\''${spaced}'/w`, "/home/'user'/w"],
    [`/home/'O'\\\\''${spaced}'/w`, "/home/'user'/w"],
    [`/home/'O'"'"'${owner}'/w`, "/home/'user'/w"],
    [`/home/'O'\\''${owner}/w`, "/home/user/w"],
    [`/home/'${spaced}'${other}/w`, "/home/user/w"],
    // Another quoted part in either quote, an empty one, a space or a quote escaped between parts, bash's ANSI-C quotes, the other quote inside.
    [`/home/'${spaced}'"${other}"/w`, "/home/user/w"],
    [`/home/"${spaced} ""${other}"/w`, '/home/"user"/w'],
    [`/home/'${spaced}'' ${other}'/w`, "/home/'user'/w"],
    [`/home/"${owner}"'${other}'/w`, "/home/user/w"],
    [`/home/'${other}'\\ '${spaced}'/w`, "/home/'user'/w"],
    [`/home/'${other}'$'\\x20''${spaced}'/w`, "/home/'user'/w"],
    [`/home/\\"${other}\\"\\"${spaced}\\"/w`, '/home/\\"user\\"/w'],
    [`/home/'${spaced}"x'/w`, "/home/'user'/w"],
    // Read again after it is cleared, no quote is left open for a later one to close, and what follows the word is read too.
    [`x ~"${owner}"\\Zx_\u2028y~"b~\t/w`, `x ~user\u2028y~"b~\t/w`],
    [`x ~${owner}~-Z"_a\\0a\tw`, "x ~user\tw"],
    // Quotes that join nothing before the name, a folder in the other quote, a quote that opens inside the name, a tab between quotes.
    [`ssh h 'cd /home/'"'"'${spaced}'"'"'/w && ls'`, `ssh h 'cd /home/'"'"'user'"'"'/w && ls'`],
    [`/home/''${spaced}/w`, "/home/''user/w"],
    [`/home/""${owner}/w`, '/home/""user/w'],
    [`/home/"'"${spaced}"'"/w`, `/home/"'"user"'"/w`],
    [`/home/${other}' ${spaced}'/w`, "/home/user/w"],
    [`/home/'${other}\t${spaced}'/w`, "/home/'user'/w"],
    // A character or a line end a shell's backslash escapes between the parts.
    [`/home/'${other}'\\D'${spaced}'/w`, "/home/'user'/w"],
    [`/home/'${other}'\\\n${owner}/w`, "/home/user/w"],
    // A quote that closes after the folder: the owner is read after it as any owner is.
    [`cat "/home/'${owner}/w"`, `cat "/home/'user/w"`],
    // A letter HTML names begins the owner, its ";" left out as HTML allows too; a shell's backslash before a letter beyond ASCII goes on with it.
    [`/home/&eacute;${owner}/w`, "/home/user/w"],
    [`/home/&eacute${owner}/w`, "/home/user/w"],
    [`~&eacute;${owner}/w`, "~user/w"],
    [`/home/&amp;Eacute;${owner}/w`, "/home/user/w"],
    [`/home/qu\\\u00ec${tail}/w`, "/home/user/w"],
    // Terminal styling before the name, as itself or escaped, spells nothing: it goes with the owner.
    [`/home/\u001b[1m${owner}\u001b[0m/w`, "/home/user\u001b[0m/w"],
    // Written out as text, the whole sequence goes with it, the backslash that writes its ESC too.
    [`/home/\\x1b[1;32m${owner}\\x1b[0m/w`, "/home/user\\x1b[0m/w"],
    // A Windows owner spelt like an escape after its separator is the owner, not a character.
    [`C:\\Users\\u0123${tail}\\w`, "C:\\Users\\user\\w"],
    [`C:\\Users\\x30${tail}\\w`, "C:\\Users\\user\\w"],
    [`C:\\Users\\123${tail}\\w`, "C:\\Users\\user\\w"],
    [`\\\\srv\\home$\\U0001F600${tail}\\w`, "\\\\srv\\home$\\user\\w"],
    // Also where those escapes would spell a space, a quote or a separator: Windows reads none of them (an id as the account).
    [`C:\\Users\\040${tail}\\w`, "C:\\Users\\user\\w"],
    [`C:\\Users\\047${tail}\\w`, "C:\\Users\\user\\w"],
    [`C:\\Users\\134${tail}\\w`, "C:\\Users\\user\\w"],
    [`C:\\Users\\057${tail}\\w`, "C:\\Users\\user\\w"],
    [`C:\\\\Users\\\\x20${tail}\\\\w`, "C:\\\\Users\\\\user\\\\w"],
    [`C:\\\\Users\\\\u00a0${tail}\\\\w`, "C:\\\\Users\\\\user\\\\w"],
    [`C:\\\\Users\\\\x2f${tail}\\\\w`, "C:\\\\Users\\\\user\\\\w"],
    // A Windows folder whose whole name an escape would read as a separator: Windows reads it as the owner's folder, the escape reading finds the folder after it.
    [`C:\\Users\\134\\${owner}\\w`, "C:\\Users\\user\\user\\w"],
    [`C:\\Users\\\\u005c\\${owner}`, "C:\\Users\\\\user\\user"],
    [`\\\\srv\\home$\\057\\${owner}\\w`, "\\\\srv\\home$\\user\\user\\w"],
    [`C:\\Users\\x5c`, "C:\\Users\\user"],
    [`C:\\Users\\x2f ${spaced}`, "C:\\Users\\user"],
    // Climbing back to the homes with "..", however many folders down: the folder it reaches is another owner's.
    [`/home/${owner}/x/../../${other}/w`, "/home/user/x/../../user/w"],
    [`/home/${owner}/.././${other}/w`, "/home/user/.././user/w"],
    [`C:\\Users\\${owner}\\x\\..\\..\\${other}\\w`, "C:\\Users\\user\\x\\..\\..\\user\\w"],
    [`~${owner}/../${other}/w`, "~user/../user/w"],
    [`/home/${owner}/a/../b/w`, "/home/user/a/../b/w"],
    [`/home/${owner}/x/../../../etc/w`, "/home/user/x/../../../etc/w"],
    // Onto an owner in quotes, joined parts and all; from one.
    [`/home/${other}/x/../../'${spaced}'"${other}"/w`, "/home/user/x/../../user/w"],
    [`/home/"${other}"/x/../../'${spaced}'/w`, `/home/"user"/x/../../'user'/w`],
    [`/home/${other}/x/../../${owner}" "${spaced}/w`, "/home/user/x/../../user/w"],
    [`C:\\Users\\${other}\\..\\'O'\\''${spaced}'\\w`, "C:\\Users\\user\\..\\'user'\\w"],
    [`C:\\Users\\'O'\\''${spaced}'\\w`, "C:\\Users\\'user'\\w"],
    // Through folders that hold spaces or punctuation; a space after ".." ends the path there.
    [`/home/${owner}/My Documents/../../${other}/w`, "/home/user/My Documents/../../user/w"],
    [`C:\\Users\\${owner}\\Program Files (x86)\\..\\..\\${other}\\w`, "C:\\Users\\user\\Program Files (x86)\\..\\..\\user\\w"],
    [`/home/${owner}/R&D/../../${other}/w`, "/home/user/R&D/../../user/w"],
    [`C:\\Users\\${owner}\\C# Projects\\..\\..\\${other}\\w`, "C:\\Users\\user\\C# Projects\\..\\..\\user\\w"],
    [`/home/${owner}/Bob's Stuff/../../${other}/w`, "/home/user/Bob's Stuff/../../user/w"],
    [`/home/${owner}/a;b/../../${other}/w`, "/home/user/a;b/../../user/w"],
    // Onto a Windows owner whose first characters an escape would read as a space or a separator.
    [`C:\\Users\\${owner}\\..\\x20${tail}\\w`, "C:\\Users\\user\\..\\user\\w"],
    [`C:\\Users\\${owner}\\..\\040${tail}\\w`, "C:\\Users\\user\\..\\user\\w"],
    [`cd /home/${owner}/x/.. ../srv/w`, "cd /home/user/x/.. ../srv/w"],
    // A quote before no name is no owner.
    ["ls '/home/' x", "ls '/home/' x"],
    ['echo "/home/"$USER', 'echo "/home/"$USER'],
  ];

  it("a part in quotes joined inside an owner goes with it where the text the path stood in ends, read alone in its sitting", () => {
    const alone: [string, string][] = [
      [`cd "/home/${other}' ${spaced}'"`, 'cd "/home/user"'],
      [`echo '/home/${owner}' and 'more'`, "echo '/home/user' and 'more'"],
    ];
    for (const [cwd, want] of alone) {
      const { r, cleared } = substituteCwds([cwd]);
      expect(r.json.findings, cwd).toEqual([]);
      expect(cleared, cwd).toEqual([want]);
    }
  });

  it("clear substitute replaces the name in each, a second pass finds none, and nothing written or printed holds its tail", () => {
    const { r, cleared, again } = substitutedTwice(cases.map(([cwd]) => cwd));
    expect(r.json.findings).toEqual([]);
    expect(r.code).toBe(0);
    expect(cleared).toEqual(cases.map(([, want]) => want));
    expect(again.json.findings).toEqual([]);
    expect(again.code).toBe(0);
    expect(JSON.stringify(r.json) + cleared.join("")).not.toContain(tail);
    expect(JSON.stringify(r.json) + cleared.join("")).not.toContain(other);
    // Two substitutions of a sitting that teaches dozens of names in quotes: the scan's name pattern
    // is long, and this takes tens of seconds on two busy cores; no speed is measured here.
  }, 180_000);

  it("a taught name spread by a backslash, an escape or a control outside any home refuses the file, naming file and pointer", () => {
    const spread = [`/srv/qu\\i${tail}`, `/srv/qu\\\\i${tail}`, `/srv/qu\\ti${tail}`, `/srv/qu\u0001i${tail}`, `/srv/Qu\\I${tail.toUpperCase()}`];
    const dir = tempDir();
    writeFileSync(path.join(dir, "codex_session_start_0_171_0.1.json"), JSON.stringify(start(`/home/${owner}/w`)));
    spread.forEach((cwd, i) => writeFileSync(path.join(dir, `codex_session_start_0_171_0.${i + 2}.json`), JSON.stringify(start(cwd))));
    // A backslash that spreads no name refuses nothing: a Windows path holding a word that begins like one.
    writeFileSync(path.join(dir, "codex_session_start_0_171_0.9.json"), JSON.stringify(start(`D:\\data\\qu\\${tail}s`)));
    const out = path.join(tempDir(), "out");
    const r = clearJson(["substitute", dir, "--out", out]);
    expect(r.code).toBe(1);
    const left = findingsOf(r, "user-name-left").map((f) => [f.file, f.pointer]);
    expect(left.sort()).toEqual(spread.map((_, i) => [`codex_session_start_0_171_0.${i + 2}.json`, "/cwd"]));
    expect(readdirSync(out).sort()).toEqual(["codex_session_start_0_171_0.1.json", "codex_session_start_0_171_0.9.json"]);
    expect(JSON.stringify(r.json)).not.toContain(tail);
  });

  it("a taught name written in another Unicode form, styled, or with an invisible character in it refuses the file, naming where it was learned", () => {
    const composed = ["zo", "\u00eb", "lla"].join("");
    const decomposed = composed.normalize("NFD");
    const forms = [decomposed, composed.replace("\u00eb", "e"), "ＺＯＥＬＬＡ", `zo\u200bella`, `zoe\u00adlla`];
    const dir = tempDir();
    writeFileSync(path.join(dir, "codex_session_start_0_171_0.1.json"), JSON.stringify(start(`/Users/${composed}/w`)));
    forms.forEach((form, i) => writeFileSync(path.join(dir, `codex_session_start_0_171_0.${i + 2}.json`), JSON.stringify(start(`/srv/${form}`))));
    const out = path.join(tempDir(), "out");
    const r = clearJson(["substitute", dir, "--out", out]);
    expect(r.code).toBe(1);
    const left = findingsOf(r, "user-name-left");
    expect(left.map((f) => [f.file, f.pointer]).sort()).toEqual(forms.map((_, i) => [`codex_session_start_0_171_0.${i + 2}.json`, "/cwd"]));
    for (const f of left) expect(f.message).toContain("a name learned from codex_session_start_0_171_0.1.json at /cwd");
    expect(readdirSync(out)).toEqual(["codex_session_start_0_171_0.1.json"]);
  });

  it("so does one whose UTF-8 was read as Latin-1 or Windows-1252, once or twice (zo\u00c3\u00ablla for zo\u00eblla)", () => {
    const names = [["zo", "\u00eb", "lla"].join(""), ["wojt", "\u0119", "k"].join("")];
    // Each byte of the UTF-8 as the character Latin-1 or Windows-1252 gives it.
    const latin1 = (text: string): string => String.fromCharCode(...Buffer.from(text, "utf8"));
    const cp1252 = (text: string): string => new TextDecoder("windows-1252").decode(Buffer.from(text, "utf8"));
    const forms = [latin1(names[0]!), cp1252(names[0]!), cp1252(cp1252(names[0]!)), latin1(names[0]!).toUpperCase(), latin1(names[1]!), cp1252(names[1]!)];
    const dir = tempDir();
    names.forEach((name, i) => writeFileSync(path.join(dir, `codex_session_start_0_171_0.${i + 1}.json`), JSON.stringify(start(`/Users/${name}/w`))));
    forms.forEach((form, i) => writeFileSync(path.join(dir, `codex_session_start_0_171_0.${i + 3}.json`), JSON.stringify(start(`/srv/${form}`))));
    const out = path.join(tempDir(), "out");
    const r = clearJson(["substitute", dir, "--out", out]);
    expect(r.code).toBe(1);
    const left = findingsOf(r, "user-name-left");
    expect(left.map((f) => [f.file, f.pointer]).sort()).toEqual(forms.map((_, i) => [`codex_session_start_0_171_0.${i + 3}.json`, "/cwd"]).sort());
    expect(readdirSync(out).sort()).toEqual(["codex_session_start_0_171_0.1.json", "codex_session_start_0_171_0.2.json"]);
  });

  it("so does one with what shows nothing spelt inside it: an escaped control or invisible character, URL- or HTML-encoded or by name, a terminal's sequence, a look-alike letter or a letter spelt", () => {
    const name = ["zo", "\u00eb", "lla"].join("");
    const inside = ["\\x7f", "\\u{0}", "\\cA", "%00", "&#0;", "&#8203;", "&amp;#8203;", "&#x200B;", "&zwnj;", "&shy;", "%E2%80%8B", "\\x1b[1m", "\u001b[1;31m", "\\e[31m", "\\033[0m"];
    // Spelt in the other ways a text writes a character: a bidirectional mark or isolate, a variation
    // selector, a grapheme joiner, by HTML's name or number without its ";", by Python's name or Perl's
    // U+ number, as \U, \x{}, %u or UTF-8 bytes; a terminal's other sequences (a character set, a
    // title to BEL or ST, a CSI by its one C1 control).
    const more = ["&lrm;", "&rlm;", "&#x2066;", "&#x180E;", "&#xFE0F;", "&#847;", "%EF%B8%8F", "\\U0000200B", "\\x{200b}", "%u200B", "\\N{ZERO WIDTH SPACE}", "\\N{U+200B}", "&#8203", "&shy", "\\xc2\\xad", "\u001b(B", "\\e(B", "\u001b]0;t\u0007", "\\x1b]8;;\\x1b\\\\", "\\x9b", "\\x9b1m", "\u009b1m", "&#155;1m", "%C2%9B1m",
      // ESC by name or %u, a long CSI, a long OSC, a DCS or APC string, a character written over.
      "\\N{LEFT-TO-RIGHT MARK}", "\\N{ESCAPE}[31m", "%u001b[31m", `\\x1b[${"1;".repeat(20)}31m`, `\u001b]0;${"x".repeat(600)}\u0007`, "\u001bPxx\u001b\\", "\u001b_xx\u001b\\", "x\b", "Q\\e[D"];
    // A letter spelt as an escape (with zeros, braces, echo's octal), a UTF-16 pair, by Python's name in any style or script, by HTML's name with its mark or style, URL-encoded twice.
    const letters = ["zo\\x65lla", "zo\\N{LATIN SMALL LETTER E}lla", "zo&euml;lla", "zo&eumllla", "zo\\0145lla", "zo\\x0065lla", "zo\\u{0000000065}lla", "zo\\o{145}lla", "zo%uD835%uDC1Ella", "zo\\N{CYRILLIC SMALL LETTER IE}lla", "zo\\N{MATHEMATICAL BOLD SMALL E}lla", "zo&#000000000101;lla", "zo&escr;lla", "zo%2565lla"];
    const forms = [...[...inside, ...more].map((x) => `zoe${x}lla`), ...letters, "zoełla", "ZOE\u0141LA", "z\u043eella", "ZO\u0395LLA", "zoe\u026bla", "z\u0275ella", "zo\u0454lla", "\ua4dc\ua4f3\ua4f0\ua4e1\ua4e1\ua4ee"];
    const dir = tempDir();
    writeFileSync(path.join(dir, "codex_session_start_0_171_0.1.json"), JSON.stringify(start(`/Users/${name}/w`)));
    forms.forEach((form, i) => writeFileSync(path.join(dir, `codex_session_start_0_171_0.${i + 2}.json`), JSON.stringify(start(`/srv/${form}`))));
    // A letter escaped is a letter: no reading takes it out.
    writeFileSync(path.join(dir, "codex_session_start_0_171_0.99.json"), JSON.stringify(start("/srv/zoe\\x41lla")));
    const out = path.join(tempDir(), "out");
    const r = clearJson(["substitute", dir, "--out", out]);
    expect(r.code).toBe(1);
    const left = findingsOf(r, "user-name-left");
    expect(left.map((f) => f.file).sort()).toEqual(forms.map((_, i) => `codex_session_start_0_171_0.${i + 2}.json`).sort());
    expect(readdirSync(out).sort()).toEqual(["codex_session_start_0_171_0.1.json", "codex_session_start_0_171_0.99.json"]);
  });

  it("so does one in letters Unicode keeps apart (small capitals, in parentheses, black circles or squares, regional indicators, Cherokee capitals and small letters), with a character that shows nothing in it, or spelt letter by letter", () => {
    const plain = ["zo", "ella"].join("");
    const shaped = (first: number, a: number): string => [...plain].map((c) => String.fromCodePoint(first + c.charCodeAt(0) - a)).join("");
    const small: Record<string, string> = { z: "\u1d22", o: "\u1d0f", e: "\u1d07", l: "\u029f", a: "\u1d00" };
    const shapes = [[...plain].map((c) => small[c]).join(""), shaped(0x249c, 97), shaped(0x1f150, 97), shaped(0x1f170, 97), shaped(0x1f1e6, 97), `\u13c3${plain.slice(1)}`, `zoe\u2800lla`];
    // Cherokee's small letters and its other letters drawn as Latin ones; format characters, which show nothing.
    shapes.push(`z\u13ebella`, `zoell\uab7a`, `zoe\u{13430}lla`, `zoe\ufff9lla`);
    const spelt = [" ", ".", "-", "_", "\u200a", " . "].map((between) => [...plain].join(between));
    const forms = [...shapes, ...spelt, [...plain.toUpperCase()].join(" "), [..."\uff5a\uff4f\uff45\uff4c\uff4c\uff41"].join(" ")];
    const dir = tempDir();
    writeFileSync(path.join(dir, "codex_session_start_0_171_0.1.json"), JSON.stringify(start(`/Users/${plain}/w`)));
    forms.forEach((form, i) => writeFileSync(path.join(dir, `codex_session_start_0_171_0.${i + 2}.json`), JSON.stringify(start(`/srv/${form}-tools`))));
    // Letters standing alone that spell no name, and a name's letters with different separators between them, refuse nothing.
    writeFileSync(path.join(dir, "codex_session_start_0_171_0.98.json"), JSON.stringify(start("/srv/z o e/docs/l.l.a.m.a")));
    writeFileSync(path.join(dir, "codex_session_start_0_171_0.99.json"), JSON.stringify(start("/srv/z o-e.l l_a")));
    const out = path.join(tempDir(), "out");
    const r = clearJson(["substitute", dir, "--out", out]);
    expect(r.code).toBe(1);
    const left = findingsOf(r, "user-name-left");
    expect(left.map((f) => [f.file, f.pointer]).sort()).toEqual(forms.map((_, i) => [`codex_session_start_0_171_0.${i + 2}.json`, "/cwd"]).sort());
    expect(readdirSync(out).sort()).toEqual(["codex_session_start_0_171_0.1.json", "codex_session_start_0_171_0.98.json", "codex_session_start_0_171_0.99.json"]);
  });
});

/** Captures whose folder writes a form of the name /Users/<plain> teaches: each is refused as user-name-left at /cwd; `kept`, a folder written too, is not. */
function expectEachFormRefused(plain: string, forms: string[], kept: string): void {
  const start = (cwd: string): object => ({ session_id: "s", hook_event_name: "SessionStart", cwd });
  const dir = tempDir();
  writeFileSync(path.join(dir, "codex_session_start_0_171_0.1.json"), JSON.stringify(start(`/Users/${plain}/w`)));
  forms.forEach((form, i) => writeFileSync(path.join(dir, `codex_session_start_0_171_0.${i + 2}.json`), JSON.stringify(start(`/srv/${form}/docs`))));
  writeFileSync(path.join(dir, "codex_session_start_0_171_0.99.json"), JSON.stringify(start(`/srv/${kept}/docs`)));
  const out = path.join(tempDir(), "out");
  const r = clearJson(["substitute", dir, "--out", out]);
  expect(r.code).toBe(1);
  expect(findingsOf(r, "user-name-left").map((f) => [f.file, f.pointer]).sort()).toEqual(forms.map((_, i) => [`codex_session_start_0_171_0.${i + 2}.json`, "/cwd"]).sort());
  expect(readdirSync(out).sort()).toEqual(["codex_session_start_0_171_0.1.json", "codex_session_start_0_171_0.99.json"]);
}

describe("a taught name hidden from the eye or parted by a shell", () => {
  it("refuses one spelt in tag characters (as themselves or escaped), or parted by a shell's quotes or an empty substitution; quotes around words apart refuse nothing", () => {
    const plain = ["zo", "ella"].join("");
    const tags = (word: string): string => [...word].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join("");
    const escapedTags = [...plain].map((c) => `\\u{E00${c.charCodeAt(0).toString(16)}}`).join("");
    const forms = [`by-${tags(plain)}`, `by-${escapedTags}`, "zo''ella", 'zo""ella', 'zoe"lla', "zo'\\''ella", "zo$()ella", "zo${}ella", "zo$''ella", "zo${x:+}ella", "zo`echo -n`ella".replace("echo -n", "")];
    expectEachFormRefused(plain, forms, "'zo' 'ella'");
  });
});

describe("a taught name in letters that look like its own", () => {
  it("refuses one written with letters Unicode lists as confusable with Latin ones, or with a hook, a tail or a stroke added", () => {
    // Listed as confusable: the estimated sign, the divides sign, Greek's sigma and Cyrillic's e with descender inside a Latin word; added a hook, a stroke: not listed.
    const forms = ["zo\u212ella", "zoe\u2223la", "z\u03c3ella", "zo\u04bdlla", "\u0290oella", "zoe\ua749la", "zo\u1d92lla", "zoell\u1d8f"];
    // A word all in Greek is Greek's, though its letters look Latin.
    expectEachFormRefused(["zo", "ella"].join(""), forms, "\u03c3\u03bf\u03c6\u03af\u03b1");
  });
});

describe("a word all in another script", () => {
  it("is that script's: a taught name its letters look like is not read in it, and is in a word that mixes scripts", () => {
    const name = ["ka", "i"].join("");
    const dir = tempDir();
    const start = (cwd: string): object => ({ session_id: "s", hook_event_name: "SessionStart", cwd });
    writeFileSync(path.join(dir, "codex_session_start_0_171_0.1.json"), JSON.stringify(start(`/home/${name}/w`)));
    writeFileSync(path.join(dir, "codex_session_start_0_171_0.2.json"), JSON.stringify(start("/srv/docs/\u0391\u03b8\u03ae\u03bd\u03b1 \u03ba\u03b1\u03b9 \u0398\u03b5\u03c3\u03c3\u03b1\u03bb\u03bf\u03bd\u03af\u03ba\u03b7")));
    writeFileSync(path.join(dir, "codex_session_start_0_171_0.3.json"), JSON.stringify(start("/srv/docs/\u043a\u0430\u0439 k\u0430i")));
    const r = clearJson(["substitute", dir, "--out", path.join(tempDir(), "out")]);
    expect(findingsOf(r, "user-name-left").map((f) => f.file)).toEqual(["codex_session_start_0_171_0.3.json"]);
  });
});

describe("an owner longer than any account's", () => {
  it("stops substitute, scan and run with exit 2, a message that names its file and member but no part of it, and nothing written", () => {
    // Written plainly and through escapes: either way, the name is thousands of characters long.
    const plain = ["qu", "illon"].join("").repeat(3000);
    const escaped = "\\x71".repeat(9000);
    for (const cwd of [`/home/${plain}/w`, `/home/${escaped}/w`]) {
      const dir = tempDir();
      writeFileSync(path.join(dir, "codex_session_start_0_171_0.1.json"), JSON.stringify({ session_id: "s", hook_event_name: "SessionStart", cwd }));
      const out = path.join(tempDir(), "out");
      const root = tempDir();
      execFileSync("git", ["init", "-q"], { cwd: root });
      for (const args of [["substitute", dir, "--out", out], ["scan", dir], ["run", dir, "--root", root]]) {
        const r = clear(args);
        expect(r.code, args[0]).toBe(2);
        expect(r.stderr, args[0]).toMatch(/the home in \S*codex_session_start_0_171_0\.1\.json (?:at \/cwd )?names an owner of \d+ characters, more than the 2000 the tool can look for; nothing written/);
        if (args[0] !== "scan") expect(r.stderr, args[0]).toContain(" at /cwd names");
        expect(r.stderr + r.stdout, args[0]).not.toMatch(/internal error|quillonqu|qqqq|x71\\x71/i);
      }
      expect(() => readdirSync(out)).toThrow();
      expect(readdirSync(root)).toEqual([".git"]);
    }
  });

  it("given with --user, is refused as a usage error before any capture is read", () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "codex_session_start_0_171_0.1.json"), JSON.stringify({ session_id: "s", hook_event_name: "SessionStart", cwd: "/home/ann/w" }));
    const out = path.join(tempDir(), "out");
    const r = clear(["substitute", dir, "--out", out, "--user", "q".repeat(2100)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/a name given \(--user, clear\.config\.json "users" or the runner's own\) is 2100 characters long, more than the 2000/);
    expect(r.stderr).not.toMatch(/qqqq/);
    expect(() => readdirSync(out)).toThrow();
  });
});

describe("a run of backslashes (JSON held in strings five levels down)", () => {
  it("after a taught name whose letters are also escape letters is read once too, where each way of reading the run was tried", () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "codex_session_start_0_171_0.1.json"), JSON.stringify({ session_id: "s", hook_event_name: "SessionStart", cwd: "/home/anna/p", transcript_path: `/home/a${"\\n".repeat(600)}x/` }));
    // Not a speed target: a bound on ending at all (before, this took minutes).
    const r = spawnSync(process.execPath, [CLI, "substitute", dir, "--out", path.join(tempDir(), "out"), "--json", "--user", "anna"], { encoding: "utf8", timeout: 60_000 });
    expect(r.signal).toBeNull();
    expect([0, 1, 2]).toContain(r.status);
    expect(r.stdout + r.stderr).not.toMatch(/anna/i);
  });

  it("is read once: substitute and scan end, the home beside it cleared, where each way of cutting the run was tried", () => {
    const dir = tempDir();
    const run = "\\".repeat(40);
    writeFileSync(path.join(dir, "codex_session_start_0_171_0.1.json"), JSON.stringify({ session_id: "s", hook_event_name: "SessionStart", cwd: `/home/${["qu", "illon"].join("")}/p`, note: `see /home/user/p and ${run}"done` }));
    writeFileSync(path.join(dir, "codex_session_start_0_171_0.2.json"), JSON.stringify({ session_id: "s", hook_event_name: "SessionStart", cwd: `/home/a${run}x` }));
    const out = path.join(tempDir(), "out");
    // Not a speed target: a bound on ending at all (before, a run of 40 took longer than an hour).
    for (const args of [["substitute", dir, "--out", out, "--json"], ["scan", dir]]) {
      const r = spawnSync(process.execPath, [CLI, ...args], { encoding: "utf8", timeout: 60_000 });
      expect(r.signal, args[0]).toBeNull();
      expect([0, 1], args[0]).toContain(r.status);
    }
    expect(JSON.parse(readFileSync(path.join(out, "codex_session_start_0_171_0.1.json"), "utf8")).cwd).toBe("/home/user/p");
  });
});

const homeLines = (owner: string, n: number): string => Array.from({ length: n }, (_, i) => `/home/${owner}/project/src/file_${i}.ts`).join("\n");

describe("a text no two ways of reading can share", () => {
  // Not a speed target: a bound on ending at all. Before, 30 "amp;" took minutes (each read as
  // "amp" and as "AMP" by the pattern that ignores case) and 300 spelt separators over a minute (a name
  // between two of them could hold the rest).
  it.each([
    ["an owner begun by a reference escaped again and again", `/home/&${"amp;".repeat(40)}eacute;ric/p`, "/home/user/p"],
    ["a home after a run of spelt separators that no root follows", `${"&#x2F;".repeat(300)}x /home/ann/p`, `${"&#x2F;".repeat(300)}x /home/user/p`],
    // Each separator of a run began a reading of the rest of it: 4,000 took seconds, these 40,000 hours.
    ["a home after 40,000 spelt separators", `${"&#x2F;".repeat(40_000)}x /home/ann/p`, `${"&#x2F;".repeat(40_000)}x /home/user/p`],
    ["a home after 40,000 separators spelt as HTML escaped twice", `${"&amp;#47;".repeat(40_000)}x /home/ann/p`, `${"&amp;#47;".repeat(40_000)}x /home/user/p`],
    // A backslash before an escape of a separator was also read alone, and the escape's letters as a name.
    ["a home after 40,000 separators spelt as C escapes", `${"\\x2f".repeat(40_000)}x /home/ann/p`, `${"\\x2f".repeat(40_000)}x /home/user/p`],
    // Each root inside a home's path read the path back to the owner again: 4,000 took seconds.
    ["a path of 40,000 home folders", `${"/home/a".repeat(40_000)} /home/ann/p`, `/home/user${"/home/a".repeat(39_999)} /home/user/p`],
    // Each owner looked for a ".." through the rest of the text: 80,000 lines took half a minute, each pass.
    ["120,000 home paths, one a line", homeLines("ann", 120_000), homeLines("user", 120_000)],
    // Each root looked for the ends of its line again: a long line after a line break took a minute.
    ["80,000 homes on one long line after a line break", `x\n${"/home/ann ".repeat(80_000)}`, `x\n${"/home/user ".repeat(80_000)}`],
  ])("%s is read once and cleared", (_label, cwd, expected) => {
    const dir = tempDir();
    writeFileSync(path.join(dir, "codex_session_start_0_171_0.1.json"), JSON.stringify({ session_id: "s", hook_event_name: "SessionStart", cwd }));
    const out = path.join(tempDir(), "out");
    const r = spawnSync(process.execPath, [CLI, "substitute", dir, "--out", out, "--json"], { encoding: "utf8", timeout: 60_000 });
    expect(r.signal).toBeNull();
    expect(r.status).toBe(0);
    expect(JSON.parse(readFileSync(path.join(out, "codex_session_start_0_171_0.1.json"), "utf8")).cwd).toBe(expected);
  });
});

describe("a control of ASCII at an owner's end (the scan's reading without what shows nothing)", () => {
  // Learning and substitution end an owner at such a control; the scan's reading without it ran
  // the placeholder into what followed ("/home/user a"), an owner it then refused (a generated
  // property case, seed 1225552950). A backspace one level of escapes too far ("C:\Users\<owner>\bin"
  // read as "<owner><BS>in") is one.
  const name = ["an", "nika"].join("");
  const cases: [string, string][] = [
    [`/home/${name} \u0001a`, "/home/user \u0001a"],
    [`/home/${name}\u0001b`, "/home/user\u0001b"],
    [`/home/${name}\u007fb`, "/home/user\u007fb"],
    [`/home/${name} \u0000b`, "/home/user \u0000b"],
    [`C:\\Users\\${name}\\bin`, "C:\\Users\\user\\bin"],
    [`C:\\Users\\${name}\\foo`, "C:\\Users\\user\\foo"],
    [`see /home/${name}/a and then H:\\Users\\${name} \u2028\u0001\u00e9 \ud83d\ude00_\u4e2dZa\\a\u0001\u00df_\\`, `see /home/user/a and then H:\\Users\\user \u2028\u0001\u00e9 \ud83d\ude00_\u4e2dZa\\a\u0001\u00df_\\`],
  ];

  it("is where substitute ends it too: the file is cleared, and a second pass finds nothing in it", () => {
    const { r, cleared, again } = substitutedTwice(cases.map(([cwd]) => cwd));
    expect(r.json.findings).toEqual([]);
    expect(r.code).toBe(0);
    expect(cleared).toEqual(cases.map(([, want]) => want));
    expect(again.json.findings).toEqual([]);
  });

  it("hiding an owner, or standing in a root, still refuses the file: no reading ends an owner there", () => {
    for (const cwd of [`/home/\u0001${name}`, `/ho\u0001me/${name}`, `C:\\Users\\\u0001${name}`]) {
      const dir = tempDir();
      writeFileSync(path.join(dir, "codex_session_start_0_171_0.1.json"), JSON.stringify({ session_id: "s", hook_event_name: "SessionStart", cwd }));
      const r = clearJson(["substitute", dir, "--out", path.join(tempDir(), "out")]);
      expect(r.code, cwd).toBe(1);
      expect(findingsOf(r, "secret-found").map((f) => [f.pointer, f.message]), cwd).toEqual([["/cwd", expect.stringContaining("clear/home-owner")]]);
    }
  });
});
