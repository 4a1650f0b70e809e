// The dump reader's bytes and where it says each stands: a finding is placed by them, and the
// readings are worked out only when a finding asks, so both are checked here against the text.
import { describe, expect, it } from "vitest";
import { hexDumps } from "../src/hex-dumps.js";
import { dumped, hexdumpC, od, squeezed, xxd } from "./dumps.js";
import { prng } from "./seeded.mjs";

const payload = Buffer.from(JSON.stringify({ session_id: "s-1", hook_event_name: "PreToolUse", tool_input: { command: "ls -la" }, note: "the quick brown fox jumps over the lazy dog" }));

/** Each dumping tool's layout of the payload, and of the payload one byte short (od pads an odd count with a zero byte). */
function layouts(bytes: Buffer): Record<string, string> {
  return {
    xxd: xxd(bytes),
    "xxd -e": xxd(bytes, 4, true),
    "xxd -p": dumped(bytes, { perLine: 30, group: 30 }),
    "hexdump -C": hexdumpC(bytes),
    od: od(bytes),
    "od, squeezed": squeezed(od(Buffer.concat([bytes, Buffer.alloc(64, 0x20)]))),
    "xxd -g 8 behind a comment": dumped(bytes, { perLine: 16, group: 8, offset: (at) => `# ${at.toString(16).padStart(8, "0")}: ` }),
  };
}

describe("hex dumps read back", () => {
  const cases = Object.entries({ ...layouts(payload), ...Object.fromEntries(Object.entries(layouts(payload.subarray(1))).map(([k, v]) => [`${k}, odd`, v])) });

  it.each(cases)("%s: each reading's every byte is the one its two digits spell, and the dump ends after the last", (_name, text) => {
    const full = `before\n${text}after\n`;
    const dumps = hexDumps(full);
    expect(dumps.length).toBeGreaterThan(0);
    for (const dump of dumps) {
      for (const { bytes, sources } of dump.readings) {
        const at = sources();
        expect(at).toHaveLength(bytes.length);
        const spelt = at.map((s) => Number.parseInt(full.slice(s, s + 2), 16));
        expect(Buffer.from(spelt)).toEqual(bytes);
        expect(Math.max(...at) + 2).toBeLessThanOrEqual(dump.end);
      }
      const first = dump.readings[0]?.sources() ?? [];
      expect(dump.end).toBe((first.at(-1) as number) + 2);
    }
  });

  it("a dump's readings include its bytes as they were, whichever tool laid them out", () => {
    for (const [name, text] of cases) {
      const want = name.endsWith("odd") ? payload.subarray(1) : payload;
      const found = hexDumps(text).some((d) => d.readings.some((r) => r.bytes.includes(want)));
      expect(found, name).toBe(true);
    }
  });

  it("random text with hex in it: every reading's bytes stand where it says", () => {
    const random = prng(19);
    const pieces = ["\n", " ", "  ", "0x", "ff", "7b", "22", "|", "* \n", "0000010 ", "# ", "abcd", "12345678: ", "zz"];
    for (let n = 0; n < 400; n++) {
      let text = "";
      for (let k = 0; k < 200; k++) text += pieces[Math.floor(random() * pieces.length)];
      for (const dump of hexDumps(text)) {
        for (const { bytes, sources } of dump.readings) {
          expect(Buffer.from(sources().map((s) => Number.parseInt(text.slice(s, s + 2), 16)))).toEqual(bytes);
        }
      }
    }
  });
});
