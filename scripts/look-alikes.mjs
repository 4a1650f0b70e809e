// The letters Unicode's confusables data reads as plain Latin ones, as a table the name checks
// read text with (src/look-alike-table.ts). `node scripts/look-alikes.mjs <confusables>` writes it,
// where <confusables> is Unicode's security data file confusables.txt ("0578 ; 006E ; MA ..." on
// each line), or the same data as one JSON object of source character to target text. Kept: a
// source of one character beyond Latin-1, neither a mark nor one NFKD already reads as ASCII, whose
// target is one or two ASCII letters. Latin and common characters are read anywhere; those of other
// scripts only in a word that holds a Latin letter (src/home-shown.ts).
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const out = path.join(root, "src", "look-alike-table.ts");
const source = process.argv[2];
if (source === undefined) {
  process.stderr.write("usage: node scripts/look-alikes.mjs <confusables.txt or its JSON>\n");
  process.exit(2);
}

const fromHex = (field) => field.trim().split(/\s+/).map((h) => String.fromCodePoint(parseInt(h, 16))).join("");

/** Source character to target text, from either form of the data. */
function pairsOf(text) {
  if (text.trimStart().startsWith("{")) return Object.entries(JSON.parse(text));
  return text
    .split("\n")
    .map((line) => line.replace(/#.*$/, "").trim())
    .filter((line) => line !== "")
    .map((line) => line.split(";"))
    .map(([from, to]) => [fromHex(from), fromHex(to)]);
}

const latin = {};
const other = {};
for (const [from, to] of pairsOf(readFileSync(source, "utf8").replace(/^\uFEFF/, ""))) {
  // Latin-1's characters are what any bytes read as Latin-1 give (a decoded hash, a binary file):
  // its letters decompose or src/home-shown.ts lists them, and its signs (the multiplication sign's
  // "x") read as letters would make every such text a reading to search.
  if ([...from].length !== 1 || from.codePointAt(0) < 0x100 || /\p{M}/u.test(from) || !/^[A-Za-z]{1,2}$/.test(to)) continue;
  if (/^[\x00-\x7f]*$/.test(from.normalize("NFKD").replace(/\p{M}/gu, ""))) continue;
  (/\p{Script=Latin}|\p{Script=Common}/u.test(from) ? latin : other)[from] = to;
}

/** An object literal of the table, a few entries to a line, each character escaped. */
function literal(table) {
  const escape = (c) => [...c].map((ch) => `\\u{${ch.codePointAt(0).toString(16)}}`).join("");
  const entries = Object.keys(table)
    .sort((a, b) => a.codePointAt(0) - b.codePointAt(0))
    .map((c) => `"${escape(c)}": "${table[c]}"`);
  const lines = [];
  for (let i = 0; i < entries.length; i += 6) lines.push(`  ${entries.slice(i, i + 6).join(", ")},`);
  return `{\n${lines.join("\n")}\n}`;
}

writeFileSync(
  out,
  [
    "// Written by scripts/look-alikes.mjs from Unicode's confusables data; do not edit by hand.",
    "// Characters beyond ASCII that read as one or two plain Latin letters, NFKD aside.",
    "",
    "/** Latin and common characters: read as their letters wherever they stand. */",
    `export const CONFUSABLE_LATIN: Readonly<Record<string, string>> = ${literal(latin)};`,
    "",
    "/** Letters of other scripts: read as Latin ones only in a word that holds a Latin letter. */",
    `export const CONFUSABLE_OTHER_SCRIPTS: Readonly<Record<string, string>> = ${literal(other)};`,
    "",
  ].join("\n"),
);
process.stdout.write(`${path.relative(root, out)}: ${Object.keys(latin).length} Latin and common, ${Object.keys(other).length} of other scripts\n`);
