import { dataSpan, proseText, readDataSpan } from "./data.js";

// The line shapes of CLEARANCE.md that carry facts, each described once: the same description
// renders a line and reads it back, so what the tool writes and what it reads cannot drift. A
// shape is a template of literal text and typed fields; a field's type says how its value is
// written and what the reader accepts there.

type FieldType = "data" | "sha" | "hex" | "int" | "batch" | "prose";

const FIELD_PATTERNS: Record<FieldType, string> = {
  data: "(`[^`]*`)",
  sha: "`([0-9a-f]{64})`",
  hex: "([0-9a-f]{64})",
  int: "(0|[1-9][0-9]*)",
  batch: "(b-[0-9a-f]{12})",
  prose: "([^`<>|]*?)",
};

export type Fields = Record<string, string>;

export interface LineShape {
  template: string;
  /** The literal text every line of this shape starts with: a line that does not is not one. */
  prefix: string;
  render(fields: Fields): string;
  /** The fields of a line of this shape, or null when the line is not one. */
  read(line: string): Fields | null;
}

const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

function writeField(type: FieldType, value: string, template: string): string {
  switch (type) {
    case "data":
      return dataSpan(value);
    case "prose":
      return proseText(value);
    case "sha":
    case "hex":
      if (!/^[0-9a-f]{64}$/.test(value)) throw new Error(`${template}: not a SHA-256 in hex`);
      return type === "sha" ? `\`${value}\`` : value;
    case "int":
      if (!/^(0|[1-9][0-9]*)$/.test(value)) throw new Error(`${template}: not a whole number`);
      return value;
    case "batch":
      if (!/^b-[0-9a-f]{12}$/.test(value)) throw new Error(`${template}: not a batch id`);
      return value;
  }
}

/** A shape from a template such as "| {path:data} | {bytes:int} |". */
export function shape(template: string): LineShape {
  const parts = template.split(/(\{[a-zA-Z]+:[a-z]+\})/).filter((p) => p !== "");
  const fields = parts.flatMap((p) => (/^\{.*\}$/.test(p) ? [{ name: p.slice(1, p.indexOf(":")), type: p.slice(p.indexOf(":") + 1, -1) as FieldType }] : []));
  for (const f of fields) if (!(f.type in FIELD_PATTERNS)) throw new Error(`${template}: unknown field type ${f.type}`);
  const pattern = new RegExp(`^${parts.map((p) => (/^\{.*\}$/.test(p) ? FIELD_PATTERNS[p.slice(p.indexOf(":") + 1, -1) as FieldType] : escapeRegex(p))).join("")}$`);
  return {
    template,
    prefix: /^\{.*\}$/.test(parts[0] ?? "") ? "" : (parts[0] ?? ""),
    render(values) {
      let k = 0;
      return parts.map((p) => (/^\{.*\}$/.test(p) ? writeField((fields[k] as { type: FieldType }).type, values[(fields[k++] as { name: string }).name] ?? "", template) : p)).join("");
    },
    read(line) {
      const m = pattern.exec(line);
      if (!m) return null;
      const out: Fields = {};
      for (const [i, f] of fields.entries()) {
        const raw = m[i + 1] as string;
        const value = f.type === "data" ? readDataSpan(raw) : raw;
        if (value === null) return null;
        out[f.name] = value;
      }
      return out;
    },
  };
}

export const ACCEPT_WORD = "ACCEPT";

/** The line shapes the record's reader relies on. */
export const SHAPES = {
  marker: shape("<!-- clear:batch {id:batch} sha256:{digest:hex} -->"),
  batchHeading: shape("## Batch {id:batch}"),
  acceptanceHeading: shape("## User acceptance"),
  acceptanceNote: shape("<!-- A person writes ACCEPT alone on the line below this comment after reading this batch. The tool never does. -->"),
  fixtureRow: shape("| {path:data} | {what:prose} | {rawSha:sha} | {rawBytes:int} | {sha:sha} | {bytes:int} |"),
  kitHead: shape("- Kit head: {head:data}"),
  rootEdit: shape("- Root edit: {edit:data}"),
  transportQuote: shape("- Transport {path:data}: kit sha256 {kit:data}; committed: {committed:prose}"),
} as const;

/** The start every marker line has: a line that starts so and is not a marker is refused. */
export const MARKER_START = "<!-- clear:batch";
