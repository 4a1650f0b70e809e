// Bytes laid out as dumping tools print them (xxd, hexdump, od), for the tests of what reads
// dumps back: the payload check and the secret scan.

/** Bytes as a dumping tool lays them out: each line of `perLine` bytes, its words of `group` bytes (reversed where `littleEndian`), behind an offset and before the text beside them. */
export function dumped(bytes: Buffer, o: { perLine: number; group: number; offset?: (at: number) => string; littleEndian?: boolean; beside?: (line: Buffer) => string; width?: number; last?: (end: number) => string }): string {
  const lines: string[] = [];
  for (let at = 0; at < bytes.length; at += o.perLine) {
    const line = bytes.subarray(at, at + o.perLine);
    const words: string[] = [];
    for (let w = 0; w < line.length; w += o.group) {
      const word = Buffer.from(line.subarray(w, w + o.group));
      // A last word cut short stands to the right of its place, as xxd -e sets it.
      words.push(o.littleEndian ? word.reverse().toString("hex").padStart(2 * o.group) : word.toString("hex"));
    }
    const hex = words.join(" ");
    lines.push(`${o.offset ? o.offset(at) : ""}${o.beside ? hex.padEnd(o.width ?? 0) + o.beside(line) : hex}`);
  }
  if (o.last) lines.push(o.last(bytes.length));
  return `${lines.join("\n")}\n`;
}
/** A dump with each line that repeats the one before (its bytes, not its offset) left out as "*", as hexdump and od write it. */
export function squeezed(dump: string): string {
  const data = (line: string): string => line.replace(/^[0-9a-f]+\s+/, "");
  const out: string[] = [];
  const lines = dump.split("\n");
  lines.forEach((line, i) => {
    const same = i > 0 && data(line) === data(lines[i - 1] as string) && /\s/.test(line);
    if (!same) out.push(line);
    else if (out[out.length - 1] !== "*") out.push("*");
  });
  return out.join("\n");
}
export const shown = (line: Buffer): string => [...line].map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : ".")).join("");
export const xxd = (b: Buffer, group = 2, littleEndian = false): string => dumped(b, { perLine: 16, group, littleEndian, offset: (at) => `${at.toString(16).padStart(8, "0")}: `, width: 32 + 16 / group + 1, beside: shown });
export const od = (b: Buffer): string => {
  const even = b.length % 2 === 1 ? Buffer.concat([b, Buffer.alloc(1)]) : b;
  return dumped(even, { perLine: 16, group: 2, littleEndian: true, offset: (at) => `${at.toString(8).padStart(7, "0")} `, last: () => b.length.toString(8).padStart(7, "0") });
};
export const hexdumpC = (b: Buffer): string => {
  const lines: string[] = [];
  for (let at = 0; at < b.length; at += 16) {
    const line = b.subarray(at, at + 16);
    const half = (h: Buffer): string => [...h].map((x) => x.toString(16).padStart(2, "0")).join(" ");
    lines.push(`${at.toString(16).padStart(8, "0")}  ${`${half(line.subarray(0, 8))}  ${half(line.subarray(8))}`.padEnd(49)} |${shown(line)}|`);
  }
  return `${[...lines, b.length.toString(16).padStart(8, "0")].join("\n")}\n`;
};
