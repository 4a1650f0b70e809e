import type { SecretLintRuleCreator } from "@secretlint/types";
import { readingsOf, type Reading } from "./readings.js";

// A private key's body shown from its middle (lines 10 to 30 of id_rsa, numbered as a tool shows
// them or not): no header, no footer, no opening the key's encoding begins with. PEM wraps a key
// at 64 characters and OpenSSH at 70, so four lines and more of exactly 64 (or 70) characters of
// base64 in a row, all of one width, are key material, unless a header above them, still open, says what they are: a certificate's,
// a public key's, parameters', a signature's (PGP's, SSH's) or a PGP message's (a private key's header is a
// finding of its own, clear/private-key). What they decode to is read too: text (openssl base64
// wraps at 64 as well) is read by every rule as text, and is no key. A certificate's body shown
// without its header is refused alike: it cannot be told from a key's.

export const KEY_MATERIAL_RULE = "clear/key-material";
export const KEY_MATERIAL_DESCRIPTION = "Key material with no header: four lines and more of exactly 64 (or OpenSSH's 70) characters of base64 in a row (a private key's body from its middle), under no certificate's or public key's header";

/** A line of key as a file holds it or a tool shows it: indented, or behind its number (`    12→`, cat -n's tab, grep -n's colon). */
const BODY_LINE = /^[ \t]{0,16}(?:[0-9]{1,7}(?:→|\t|:|\|)[ \t]{0,4})?([A-Za-z0-9+/]{64}(?:[A-Za-z0-9+/]{6})?)\r?$/;
/** A PEM or PGP armour header, or an SSH2 one. */
const HEADER = /-----BEGIN ([A-Z0-9 .]{1,40})-----|---- BEGIN ([A-Z0-9 ]{1,40}) ----/;
const FOOTER = /-----END [A-Z0-9 .]{1,40}-----|---- END [A-Z0-9 ]{1,40} ----/;
/** What a header names that is no private key's: its body is public, or a private key's header is found by its own rule. */
const NOT_KEY_MATERIAL = /CERTIFICATE|X509 CRL|PUBLIC KEY|PARAMETERS|PKCS7|CMS|PGP SIGNATURE|SSH SIGNATURE|PGP MESSAGE|PGP SIGNED MESSAGE|PRIVATE KEY/;
const LEAST_LINES = 4;

/** Bytes that read as text: UTF-8, no control character but a tab or a line end. */
function decodesToText(base64: string): boolean {
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(base64, "base64"));
    return !/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/.test(text);
  } catch {
    return false;
  }
}

/** Each run of key lines in a reading's text under no header that names it, as a range of the text. */
export function keyRuns(text: string): [number, number][] {
  const runs: [number, number][] = [];
  // A text shorter than the least run of lines holds none: most strings are read no further.
  if (text.length < LEAST_LINES * 64) return runs;
  let header: string | null = null;
  // The run of key lines read so far: its lines, where it starts and where it ends.
  let lines: string[] = [];
  let from = 0;
  let to = 0;
  const close = (): void => {
    if (lines.length >= LEAST_LINES && (header === null || !NOT_KEY_MATERIAL.test(header)) && !decodesToText(lines.join(""))) runs.push([from, to]);
    lines = [];
  };
  for (let at = 0; at <= text.length; ) {
    const next = text.indexOf("\n", at);
    const end = next === -1 ? text.length : next;
    const line = text.slice(at, end);
    const key = line.length <= 100 ? BODY_LINE.exec(line)?.[1] : undefined;
    // A run is of one width: a key's last, shorter line ends it, and so does a line of another width.
    if (key === undefined || key.length !== lines[0]?.length) close();
    if (key !== undefined) {
      to = at + line.lastIndexOf(key) + key.length;
      if (lines.length === 0) from = to - key.length;
      lines.push(key);
    } else {
      const opened = HEADER.exec(line);
      if (opened) header = opened[1] ?? opened[2] ?? null;
      else if (FOOTER.test(line)) header = null;
    }
    at = end + 1;
  }
  close();
  return runs;
}

const runsIn = (reading: Reading): [number, number][] => keyRuns(reading.text).map(([start, end]) => [reading.rawAt(start), reading.rawAt(end)]);

export const keyMaterialRule: SecretLintRuleCreator = {
  messages: { FOUND: { en: () => "four lines and more of 64 characters of base64 with no header: a private key's body" } },
  meta: { id: KEY_MATERIAL_RULE, type: "scanner", recommended: true, supportedContentTypes: ["text"] },
  create(context) {
    const t = context.createTranslator(keyMaterialRule.messages);
    return {
      file(source) {
        for (const s of readingsOf(source.content).strings) {
          if (s.keyShapesOnly) continue;
          for (const reading of s.readings) for (const range of runsIn(reading)) context.report({ message: t("FOUND"), range });
        }
      },
    };
  },
};

/** Key material the reach control plants: four lines of 64 characters that decode to no text, made at run time. */
export function keyMaterialExample(): string {
  const line = (i: number): string => Buffer.from(Array.from({ length: 48 }, (_, j) => (i * 97 + j * 131 + 7) % 256)).toString("base64");
  return [0, 1, 2, 3].map(line).join("\n");
}
