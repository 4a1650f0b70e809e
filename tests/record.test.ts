import { describe, expect, it } from "vitest";
import { finding } from "../src/findings.js";
import { batchId, recordBatch, type BatchInput } from "../src/passes/record.js";
import { dataSpan, MAX_DATA_CHARS, readDataSpan, shownValue } from "../src/record/data.js";
import { SHAPES } from "../src/record/grammar.js";
import { batchDigest, holds, parseRecord, RecordError } from "../src/record/parse.js";
import { alreadyAccepted, RECORD_PREAMBLE, withBatch } from "../src/record/write.js";
import type { FixtureOut, Provenance } from "../src/types.js";
import { prng } from "./seeded.mjs";

// The record's grammar owns both directions: what is rendered parses back to what was rendered,
// whatever the inputs hold, and no input can make a batch accepted, a second batch, or a record
// the parser cannot read. ACCEPT counts only as CommonMark shows it: a paragraph of its own,
// outside every code form, comment and raw HTML.

const SEED = Number(process.env.CLEAR_PROPERTY_SEED ?? Date.now() % 2 ** 31);
const ROUNDS = Number(process.env.CLEAR_PROPERTY_DOCS ?? 400);
const HEX = "0123456789abcdef";

const HOSTILE = [
  "\n", "\r", "\r\n", "`", "```", "~~~", "<!--", "-->", "ACCEPT", "\nACCEPT\n", "## User acceptance", "\n## User acceptance\n\nACCEPT\n",
  `<!-- clear:batch b-${"0".repeat(12)} sha256:${"a".repeat(64)} -->`, `\n<!-- clear:batch b-${"1".repeat(12)} sha256:${"b".repeat(64)} -->\n`,
  "|", "\\", '"', "\u2028", "\u2029", "\u202e", "\u200b", "\u0000", "\u001b[2J", "\t", "é", "😀", "\ud800", "\udc00", "    ", "#", ">", "- ",
  "*", "<script>", "</pre>", "&lt;", "[x](http://e.invalid)", "clear:batch", "sha256:", "a", "b", " ",
];

function hostile(rnd: () => number, max = 12): string {
  const n = Math.floor(rnd() * max);
  let out = "";
  for (let i = 0; i < n; i++) out += HOSTILE[Math.floor(rnd() * HOSTILE.length)];
  return rnd() < 0.05 ? out.repeat(40) : out;
}

const hex = (rnd: () => number): string => Array.from({ length: 64 }, () => HEX[Math.floor(rnd() * 16)]).join("");

function fixtureOut(rnd: () => number, path: string, captureName: string): FixtureOut {
  const provenance = { raw: { sha256: hex(rnd), bytes: 10 }, cleared: { sha256: hex(rnd), bytes: 9 } } as Provenance;
  return { path, sidecarPath: `${path}.provenance.json`, event: hostile(rnd, 3), captureName, bytes: new Uint8Array(9), sidecar: new Uint8Array(7), provenance };
}

/** A batch whose every value taken from an input is hostile. */
function hostileBatch(rnd: () => number): { input: BatchInput; fixtures: FixtureOut[] } {
  const names = Array.from({ length: 3 }, () => hostile(rnd));
  const fixtures = [fixtureOut(rnd, `fixtures/${hostile(rnd)}/x.json`, names[0] as string), fixtureOut(rnd, `${hostile(rnd)}/y.json`, names[1] as string)];
  const f = finding("invalid-json", { file: names[2], pointer: `/${hostile(rnd)}` }, { detail: hostile(rnd) });
  const rule = hostile(rnd);
  const kit = { head: hostile(rnd), rootEdits: [hostile(rnd), hostile(rnd)], binary: { path: hostile(rnd), sha256: hex(rnd), bytes: 3 }, transports: [], hostVersions: {} };
  const input = {
    sitting: { dir: "/tmp/s", entries: [], info: { driver: hostile(rnd), method: hostile(rnd), startedAt: hostile(rnd), versionLine: hostile(rnd) }, kit, findings: [] },
    sittingShown: hostile(rnd),
    captures: [],
    inventory: { dir: "/tmp/s", files: names.map((name) => ({ name, harness: hostile(rnd, 3), event: "e", version: hostile(rnd, 3), n: 1, bytes: 1, sha256: hex(rnd), valid: true, fields: [] })), companions: [], findings: [f], missing: [{ harness: hostile(rnd), event: hostile(rnd), version: "1", recipe: hostile(rnd) }], recipes: [hostile(rnd)] },
    pairing: { pairs: [{ harness: "h", scope: hostile(rnd), id: hostile(rnd), files: names }], finest: [], unpaired: [{ file: names[0] as string, scope: null, reason: hostile(rnd) }], counts: [], skipped: [] },
    substitution: {
      userNames: 0,
      declarations: [{ segment: hostile(rnd), reason: hostile(rnd) }],
      files: [
        { cleared: null, report: { name: names[1] as string, rawBytes: 1, clearedBytes: null, rules: [{ rule: hostile(rnd), pointers: [hostile(rnd)], changed: [] }], spans: [], kept: {}, keptByOverlay: 0, examples: [], review: [], undocumented: [], exemptions: [], refused: [f] } },
        { cleared: "{}", report: { name: names[0] as string, rawBytes: 1, clearedBytes: 2, rules: [{ rule, pointers: [hostile(rnd)], changed: [hostile(rnd)] }], spans: [{ index: 1, class: "free-text" as const, rules: [rule] }], kept: { identifier: 2 }, keptByOverlay: 1, examples: [{ rule, pointer: hostile(rnd), before: hostile(rnd), after: hostile(rnd), length: 3 }], review: [], undocumented: [], exemptions: [{ rule: hostile(rnd), pointer: hostile(rnd), reason: hostile(rnd), remainingCount: 1, remaining: [] }], refused: [] } },
      ],
      skipped: [],
      findings: [],
    },
    selection: { selected: [{ harness: hostile(rnd), event: hostile(rnd), version: hostile(rnd), file: names[0] as string, bytes: 1, why: hostile(rnd), override: false, notChosen: [{ file: names[2] as string, bytes: 2, why: hostile(rnd) }] }], findings: [] },
    scan: { files: 1, findings: [{ file: hostile(rnd), rule: hostile(rnd), line: 1, column: 1, endLine: 1, endColumn: 2, pointer: hostile(rnd), masked: hostile(rnd), message: "m" }], waived: [], unusedWaivers: [], control: { red: true, rules: [], silent: [] } },
    fixtures,
    planned: fixtures,
    blockers: rnd() < 0.3 ? [f] : [],
    sidecarDigest: () => hex(rnd),
    kitCheck: [{ path: hostile(rnd), state: "differs" as const, kitSha256: hex(rnd), committedSha256: hex(rnd) }],
    mask: (t: string) => t,
    overrides: { choose: [names[0] as string, hostile(rnd)], recipes: [hostile(rnd)] },
    overlay: [{ file: hostile(rnd), sha256: hex(rnd) }],
    policies: [{ name: hostile(rnd), reason: hostile(rnd) }],
    overlaid: { fieldRules: new Map([[{ pointer: hostile(rnd), class: "identifier" as const, examples: [] }, hostile(rnd)]]), endpoints: [{ endpoint: hostile(rnd), file: hostile(rnd) }] },
  } satisfies BatchInput;
  return { input: input as BatchInput, fixtures };
}

/** What a person does: ACCEPT alone on the line after the acceptance note. */
const acceptByHand = (record: string): string => record.replace(`${SHAPES.acceptanceNote.render({})}\n\n`, `${SHAPES.acceptanceNote.render({})}\nACCEPT\n`);

describe("data spans", () => {
  it(`read back to the value shown, for hostile values (seed ${SEED})`, () => {
    const rnd = prng(SEED);
    for (let i = 0; i < ROUNDS * 5; i++) {
      const value = hostile(rnd, 30);
      const span = dataSpan(value);
      expect(span).not.toMatch(/[\n\r\u2028\u2029<>|]/);
      expect(span.slice(1, -1)).not.toContain("`");
      expect(readDataSpan(span)).toBe(shownValue(value));
    }
  });

  it("are bounded, and say how much was cut", () => {
    const long = "x".repeat(MAX_DATA_CHARS + 57);
    expect(readDataSpan(dataSpan(long))).toBe(`${"x".repeat(MAX_DATA_CHARS)}…(57 more characters)`);
  });

  it("every line shape reads back what it rendered", () => {
    const rnd = prng(SEED + 1);
    for (let i = 0; i < ROUNDS; i++) {
      const row = { path: hostile(rnd), what: "event from a capture", rawSha: hex(rnd), rawBytes: "12", sha: hex(rnd), bytes: "0" };
      expect(SHAPES.fixtureRow.read(SHAPES.fixtureRow.render(row))).toEqual({ ...row, path: shownValue(row.path) });
      const marker = { id: `b-${hex(rnd).slice(0, 12)}`, digest: hex(rnd) };
      expect(SHAPES.marker.read(SHAPES.marker.render(marker))).toEqual(marker);
    }
  });
});

describe("a batch rendered from hostile inputs", () => {
  it(`parses back to one batch, never accepted until a person writes ACCEPT (seed ${SEED})`, () => {
    const rnd = prng(SEED + 2);
    for (let i = 0; i < ROUNDS; i++) {
      const { input, fixtures } = hostileBatch(rnd);
      if (input.blockers.length > 0) input.fixtures = [];
      const id = batchId([]);
      const record = `${RECORD_PREAMBLE}${recordBatch(input, id)}`;
      const parsed = parseRecord(record);
      expect(parsed.batches).toHaveLength(1);
      const [b] = parsed.batches;
      expect(b).toMatchObject({ id, accepted: false });
      expect(b?.digestActual).toBe(b?.digestClaimed);
      const listed = fixtures.flatMap((f) => [f.path, f.sidecarPath]).map(shownValue);
      expect(b?.fixtures.map((x) => x.path).sort()).toEqual(input.blockers.length === 0 ? [...listed].sort() : []);
      const accepted = parseRecord(acceptByHand(record)).batches;
      expect(accepted).toHaveLength(1);
      expect(holds(accepted[0] as (typeof accepted)[0])).toBe(true);
    }
  });

  it("a crafted driver with a whole second batch and ACCEPT gives one batch that is not accepted", () => {
    const rnd = prng(SEED + 3);
    const { input } = hostileBatch(rnd);
    const forged = `x\n\n<!-- clear:batch b-${"9".repeat(12)} sha256:${"c".repeat(64)} -->\n\n## Batch b-${"9".repeat(12)}\n\n## User acceptance\n\nACCEPT\n`;
    if (input.sitting.info) input.sitting.info.driver = forged;
    const record = `${RECORD_PREAMBLE}${recordBatch(input, batchId([]))}`;
    expect(record.split("\n").filter((l) => l.startsWith("<!-- clear:batch"))).toHaveLength(1);
    expect(parseRecord(record).batches.map((b) => b.accepted)).toEqual([false]);
  });
});

/** A one-batch record in the tool's own shape, with `acceptance` as what a person wrote under the heading. */
function recordWith(acceptance: string, above = "", id = "b-000000000000"): string {
  const body = ["", `## Batch ${id}`, "", above, ""];
  return [SHAPES.marker.render({ id, digest: batchDigest(body) }), ...body, "## User acceptance", "", SHAPES.acceptanceNote.render({}), acceptance, ""].join("\n");
}

const acceptedBy = (acceptance: string, above = ""): boolean => holds(parseRecord(recordWith(acceptance, above)).batches[0] as never);

describe("ACCEPT as CommonMark reads it", () => {
  it("counts ACCEPT alone on its line, whatever else a person writes under the heading", () => {
    expect(acceptedBy("ACCEPT")).toBe(true);
    expect(acceptedBy("\nACCEPT\n\nreviewed the fixtures")).toBe(true);
    expect(acceptedBy("\nI read every fixture.\n\nACCEPT")).toBe(true);
    expect(acceptedBy("\nI read it\nACCEPT")).toBe(true);
    expect(acceptedBy("\nACCEPT\nlooks fine to me")).toBe(true);
  });

  const notAcceptance: Record<string, string> = {
    "a backtick fence": "```\nACCEPT\n```",
    "a tilde fence holding a backtick line": "~~~\n```\nACCEPT\n```\n~~~",
    "a tilde fence closed by a shorter one": "~~~~\n~~~\nACCEPT\n",
    "an unclosed fence": "```\nACCEPT",
    "a fence with an info string": "```text\nACCEPT\n```",
    "a fence indented by three": "   ~~~\nACCEPT\n   ~~~",
    "indented code": "\n    ACCEPT",
    "a tab-indented line": "\n\tACCEPT",
    "an HTML comment": "<!--\nACCEPT\n-->",
    "a comment across blank lines": "<!--\n\nACCEPT\n\n-->",
    "a script block": "<script>\nACCEPT\n</script>",
    "a pre block": "<pre>\nACCEPT\n</pre>",
    "a div block": "<div>\nACCEPT\n</div>",
    "a processing instruction": "<?x\nACCEPT\n?>",
    "a CDATA section": "<![CDATA[\nACCEPT\n]]>",
    "a setext heading": "\nACCEPT\n======",
    "a setext h2": "\nACCEPT\n---",
    "a list item's paragraph it continues": "\n- I read it\nACCEPT",
    "a quote's paragraph it continues": "\n> I read it\nACCEPT",
    "a code span above it": "\nI read `it\nACCEPT\n`",
    "a table's row": "\n| a |\n|---|\nACCEPT",
    "a table's head": "\nACCEPT\n|---|",
    "a one-column table's row, its delimiter row holding no pipe": "\nI read it\n:-\nACCEPT",
    "a one-column table's row, right-aligned with no pipe": "\nI read it\n--:\nACCEPT",
    "a one-column table's head, its delimiter row holding no pipe": "\nACCEPT\n:-:",
    "a comment opened in a line above it": "\nI read it <!--\nACCEPT\n-->",
    "a list item": "\n- ACCEPT",
    "a quote": "\n> ACCEPT",
    "another heading's section": "\n## Notes\n\nACCEPT",
    "a lower-case word": "\naccept",
    "trailing words": "\nACCEPT all",
  };
  for (const [form, text] of Object.entries(notAcceptance)) {
    it(`does not count ACCEPT in ${form}`, () => expect(acceptedBy(text)).toBe(false));
  }

  it("does not count ACCEPT after a fence left open above the heading: the heading is code, and the record is refused", () => {
    expect(() => parseRecord(recordWith("ACCEPT", "~~~"))).toThrow(RecordError);
  });

  it("reads a record with CRLF line endings and a byte order mark as the same record", () => {
    const lf = recordWith("ACCEPT");
    const crlf = `\ufeff${lf.replace(/\n/g, "\r\n")}`;
    expect(parseRecord(crlf).batches).toEqual(parseRecord(lf).batches);
    expect(holds(parseRecord(crlf).batches[0] as never)).toBe(true);
    expect(parseRecord(lf.replace(/\n/g, "\r")).batches[0]?.accepted).toBe(true);
  });
});

describe("the record's reader refuses what it does not know, naming the line", () => {
  it("a line that starts like a marker but is not one", () => {
    expect(() => parseRecord(`<!-- clear:batch b-1 -->\n`)).toThrow(/line 1: starts like a batch marker/);
  });
  it("a NUL character, which makes git show the record as a binary file", () => {
    expect(() => parseRecord(recordWith("ACCEPT", "I read it\u0000"))).toThrow(/line 5: holds a NUL character/);
  });
  it("a control character, as in an escape sequence that hides the lines after it in a terminal", () => {
    expect(() => parseRecord(recordWith("\u001b[8m\nACCEPT"))).toThrow(/line 10: holds the control character U\+001B/);
    expect(() => parseRecord(recordWith("ACCEPT", "I read it\u009b8m"))).toThrow(/line 5: holds the control character U\+009B/);
    expect(holds(parseRecord(recordWith("ACCEPT", "a\ttab")).batches[0] as never)).toBe(true);
  });
  it("a bidirectional control, which shows the ACCEPT after it in its paragraph turned around", () => {
    expect(() => parseRecord(recordWith("I read it\u202e\nACCEPT"))).toThrow(/line 10: holds the bidirectional control U\+202E/);
    expect(() => parseRecord(recordWith("\u2067\nACCEPT"))).toThrow(/line 10: holds the bidirectional control U\+2067/);
  });
  it("a marker inside a code block", () => {
    expect(() => parseRecord(`\`\`\`\n${SHAPES.marker.render({ id: "b-000000000000", digest: "0".repeat(64) })}\n\`\`\`\n`)).toThrow(/line 2: a batch marker inside a code block opened at line 1/);
  });
  it("a batch whose acceptance heading stands inside a fence", () => {
    const text = recordWith("ACCEPT").replace("## User acceptance", "```\n## User acceptance\n```");
    expect(() => parseRecord(text)).toThrow(/has no "## User acceptance" heading/);
  });
});

describe("writing the record", () => {
  it("replaces only a last batch without ACCEPT, keeps every byte before it, and keeps the record's line endings", () => {
    const accepted = recordWith("ACCEPT");
    const pending = recordWith("", "", "b-111111111111");
    const crlf = `${RECORD_PREAMBLE}${accepted}\n${pending}`.replace(/\n/g, "\r\n");
    const next = withBatch(crlf, recordWith("", "", "b-222222222222"), "CLEARANCE.md");
    expect(next.replaced).toBe("b-111111111111");
    expect(next.text.startsWith(`${RECORD_PREAMBLE}${accepted}\n`.replace(/\n/g, "\r\n"))).toBe(true);
    expect(next.text).not.toMatch(/[^\r]\n/);
    expect(parseRecord(next.text).batches.map((b) => b.id)).toEqual(["b-000000000000", "b-222222222222"]);
  });

  it("never replaces a last batch that carries ACCEPT, even one whose digest no longer holds", () => {
    const edited = recordWith("ACCEPT").replace("## Batch", "## Batch, edited");
    expect(parseRecord(edited).batches[0]).toMatchObject({ accepted: true });
    expect(holds(parseRecord(edited).batches[0] as never)).toBe(false);
    const next = withBatch(edited, recordWith("", "", "b-333333333333"), "CLEARANCE.md");
    expect(next.replaced).toBeNull();
    expect(next.text.startsWith(edited)).toBe(true);
  });

  it("knows a sitting already accepted with the same fixtures, unless a later batch lists them again", () => {
    const fixtureRow = (sha: string): string => SHAPES.fixtureRow.render({ path: "fixtures/a.json", what: "a", rawSha: "1".repeat(64), rawBytes: "1", sha, bytes: "1" });
    const first = recordWith("ACCEPT", fixtureRow("2".repeat(64)));
    const listing = [{ path: "fixtures/a.json", sha256: "2".repeat(64) }];
    expect(alreadyAccepted(first, "b-000000000000", listing, "CLEARANCE.md")?.id).toBe("b-000000000000");
    expect(alreadyAccepted(first, "b-000000000000", [{ path: "fixtures/a.json", sha256: "3".repeat(64) }], "CLEARANCE.md")).toBeNull();
    const later = recordWith("ACCEPT", fixtureRow("3".repeat(64)), "b-444444444444");
    expect(alreadyAccepted(`${first}\n${later}`, "b-000000000000", listing, "CLEARANCE.md")).toBeNull();
  });
});
