import os from "node:os";
import { offsetOf } from "./json/reader.js";
import type { Display } from "./display.js";
import type { Rules } from "./types.js";

// What a one-line error says back of the command line (a path, a flag's name, a recipe, a --choose
// value, a git range) is checked as a fixture is before it is printed: a home's owner becomes the
// placeholder, a name given with --user or standing after a home root anywhere on the command line
// becomes the placeholder, a secret shape keeps its key prefix and is starred, and so is a mailbox
// or a phone number. The message still
// says what went wrong and where.

/** The values of `--user NAME` and `--user=NAME` on a command line. */
function usersOf(argv: string[]): string[] {
  const users: string[] = [];
  argv.forEach((a, i) => {
    if (a === "--user" && i + 1 < argv.length) users.push(argv[i + 1] as string);
    else if (a.startsWith("--user=")) users.push(a.slice("--user=".length));
  });
  return users.filter((u) => u.length > 0);
}

/** The names the repository's clear.config.json gives and the runner's own, where they can be read. */
async function givenElsewhere(argv: string[]): Promise<string[]> {
  const [{ runnerHome }, { loadConfig, repoRoot }] = await Promise.all([import("./io/setting.js"), import("./io/repo.js")]);
  const runner = runnerHome().user;
  const at = argv.findIndex((a) => a === "--root" || a.startsWith("--root="));
  const rootFlag = at < 0 ? undefined : argv[at] === "--root" ? argv[at + 1] : argv[at]?.slice("--root=".length);
  let config: string[] = [];
  try {
    config = loadConfig(repoRoot(rootFlag)).users ?? [];
  } catch {
    // A config that cannot be read gives no names; the message may be about that very file.
  }
  return [...config, ...(runner ? [runner] : [])];
}

/** Where nothing can be loaded: every long run of key characters is starred after its first four. */
function roughlyStarred(text: string): string {
  return text.replace(/[A-Za-z0-9_+/=-]{16,}/g, (run) => run.slice(0, 4) + "*".repeat(run.length - 4));
}

/**
 * `text` as an error may print it: no home owner, no name the command line teaches or gives, no
 * secret shape. `argv` is the command's own command line.
 */
export async function saidBack(text: string, argv: string[]): Promise<string> {
  try {
    const [{ loadRules }, { makeDisplay }, { homeGrammar, ownerNames }, { scanFindings, sittingEngine }, { contactRanges }] = await Promise.all([
      import("./io/load-rules.js"),
      import("./display.js"),
      import("./homes.js"),
      import("./passes/scan.js"),
      import("./passes/substitute/final-check.js"),
    ]);
    const rules = loadRules();
    // The owners of the homes the command line and the message name, as substitution learns them.
    const plain = homeGrammar(rules.homes, [], { anywhere: true });
    const learned = [...argv, text].flatMap((t) => (plain.mayHold(t) ? plain.realOwners(t).flatMap((o) => [o.owner, ...(o.alsoOwner === undefined ? [] : [o.alsoOwner])]) : []));
    const users = [...new Set([...usersOf(argv), ...(await givenElsewhere(argv)), ...learned].flatMap((u) => ownerNames(u)))].filter((u) => u.length >= 2);
    const display = makeDisplay(rules, users, os.homedir());
    const homeless = display.path(text);
    const grammar = homeGrammar(rules.homes, users);
    const findings = await scanFindings([{ file: "message", text: homeless }], sittingEngine(rules, { grammar, checked: users }), display);
    // From the last finding back, so that each earlier offset still stands.
    const spans = findings
      .map((f) => ({ start: offsetOf(homeless, f.line, f.column), end: offsetOf(homeless, f.endLine, f.endColumn), masked: f.masked }))
      .sort((a, b) => b.start - a.start);
    let out = homeless;
    let before = out.length;
    for (const s of spans) {
      if (s.end > before) continue;
      out = out.slice(0, s.start) + s.masked + out.slice(s.end);
      before = s.start;
    }
    // A mailbox or a phone number (a folder named for one, a --choose value) is a person's, as in a fixture.
    for (const r of contactRanges(out).sort((a, b) => b.start - a.start)) out = out.slice(0, r.start) + "*".repeat(r.end - r.start) + out.slice(r.end);
    return out;
  } catch {
    return roughlyStarred(text);
  }
}

/**
 * The first value of `given` (a flag's name and what the command line gave it) that holds a secret
 * shape, with that value as it may be printed; null where none does. A value the tool would write
 * or print back whole (a folder it names in a shell line, a driver it records) is refused with this.
 */
export async function secretShapeIn(given: [string, string | undefined][], rules: Rules, display: Display): Promise<{ flag: string; shown: string } | null> {
  const { homeGrammar } = await import("./homes.js");
  const { scanFindings, sittingEngine } = await import("./passes/scan.js");
  const engine = sittingEngine(rules, { grammar: homeGrammar(rules.homes), checked: [] });
  const secret = new Set(engine.catalogue.filter((r) => r.kind === "secret").map((r) => r.id));
  for (const [flag, value] of given) {
    if (value === undefined) continue;
    const found = (await scanFindings([{ file: flag, text: value }], engine, display)).filter((f) => secret.has(f.rule));
    if (found.length > 0) return { flag, shown: await saidBack(value, []) };
  }
  return null;
}
