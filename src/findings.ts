// The catalogue of finding codes: each with its severity and its message template. A template
// takes only what the tool itself knows or has masked, never a raw value from a capture.

export type Severity = "block" | "note";

type Template<P> = { severity: Severity; message: (p: P) => string };
const block = <P = void>(message: (p: P) => string): Template<P> => ({ severity: "block", message });
const note = <P = void>(message: (p: P) => string): Template<P> => ({ severity: "note", message });

const CATALOGUE = {
  // inventory: the sitting and its files
  "missing-event": block((p: { harness: string; version: string; event: string; recipe: string }) => `${p.harness} ${p.version}: the recipe ${p.recipe} expects ${p.event}, and no capture of it is here (clear run clears what is here and names it in the batch)`),
  "unknown-version": block(() => "the transport was not told the host version (export it in the capture shell and capture again)"),
  "version-mismatch": block((p: { harness: string; version: string; declared: string }) => `${p.harness} captures say ${p.version} but sitting.json's --version line says ${p.declared}`),
  "unknown-harness": block(() => "the harness in this name has no catalogue in rules/harnesses"),
  "unknown-event": block((p: { harness: string; stem: string }) => `event "${p.stem}" is not in the ${p.harness} catalogue (rules/harnesses/${p.harness}.json)`),
  "not-a-capture": block((p: { reason: string }) => `${p.reason}; move it out of the sitting`),
  "not-a-file": block((p: { what: string }) => p.what),
  symlink: block(() => "is a symbolic link; never followed (copy the real file into the sitting)"),
  oversize: block((p: { detail: string }) => p.detail),
  "not-utf8": block((p: { detail: string }) => p.detail),
  "invalid-json": block((p: { detail: string }) => p.detail),
  "not-an-object": block((p: { detail: string }) => p.detail),
  "duplicate-key": block(() => "a member name appears twice in one object; a host never sends that"),
  "too-deep": block((p: { detail: string }) => p.detail),
  "refused-class": block((p: { detail: string }) => p.detail),
  "event-mismatch": block((p: { named: string; payload: string }) => `the file name says ${p.named} but the payload names ${p.payload}`),
  "invalid-sitting": block((p: { detail: string }) => `sitting.json does not match its schema: ${p.detail}`),
  "invalid-kit": block((p: { detail: string }) => `kit.json does not match its schema: ${p.detail}`),
  "no-captures": block(() => "the folder holds no capture file"),
  "recipe-unmatched": note((p: { recipe: string; harness: string }) => `the recipe ${p.recipe} is ${p.harness}'s, and the sitting holds no capture of ${p.harness}: none of its events is here`),
  "extra-capture": note((p: { n: number; event: string }) => `repeat .${p.n} of ${p.event}; selection chooses among repeats`),
  "counter-gap": note((p: { detail: string }) => `${p.detail}; a sink never skips a number, so a file may have been removed`),
  "unknown-field": note((p: { guess: string }) => `no field rule for this pointer; guessed ${p.guess}${p.guess === "free-text" ? " (will be substituted)" : ""}`),
  // substitute: what cannot be cleared
  "home-in-key": block(() => "a member name carries a home directory or a user name; member names are structure and are never rewritten"),
  "home-left": block(() => "a home directory whose owner is not the placeholder is still here after substitution (perhaps spelled in escapes or nested JSON); nothing written"),
  "home-owner-unclear": block(() => "a Claude project slug names a home whose owner no home elsewhere in the sitting names whole, and the owner's name may go on past the dash where substitution stopped (a slug such as -home-first-last-proj); nothing written"),
  "contact-in-key": block(() => "a member name carries a mailbox or a phone number; member names are structure and are never rewritten"),
  "contact-in-number": block(() => "a number under a member that names a phone reads as a phone number; numbers are kept as the host wrote them and are never rewritten"),
  "contact-left": block(() => "a mailbox or a phone number is still here after substitution, where a rule kept the value; class the field as free text in rules/fields, or add a literal rule in clear.config.json"),
  "user-name-left": block((p: { learned: string }) => `a user name is still here outside any substituted span (${p.learned}); add a field rule or a literal rule in clear.config.json`),
  "unsubstituted-free-text": block((p: { event: string; cls: string }) => `reads as free text on a ${p.event} event but its field rule classes it ${p.cls}; fix the rule in rules/fields`),
  "substitution-broke-json": block(() => "the cleared text does not parse; nothing written"),
  "substitution-changed-shape": block(() => "the cleared payload does not have the capture's shape; nothing written"),
  "review-free-text": note(() => "no field rule; looked like free text and was substituted"),
  "undocumented-value": note(() => "a value outside what its field rule documents (an enum's values, a shape; rules/fields); it may be a person's own word, so it was substituted as free text"),
  // scan and run
  "secret-found": block((p: { rule: string; masked: string }) => `a secret shape (${p.rule}) is in the cleared output: ${p.masked}`),
  "control-silent": block((p: { rules: string }) => `the scan's planted control did not turn red for ${p.rules}; the scan cannot be trusted to reach the files`),
  // verify and gate: what may be committed and pushed
  "record-unreadable": block((p: { detail: string }) => p.detail),
  "batch-edited": block((p: { id: string }) => `batch ${p.id} carries ACCEPT, but its text changed after it was written; its acceptance no longer counts until its text is restored`),
  "accept-not-counted": note((p: { id: string; why: string }) => `batch ${p.id}: a line under its User acceptance heading reads like ACCEPT but does not count: ${p.why}`),
  "accepted-batch-rewritten": block((p: { id: string; how: string; since: string }) => `batch ${p.id} ${p.how} in ${p.since}; an accepted batch is never rewritten, so its ACCEPT does not carry over to this text`),
  "fixture-not-accepted": block(() => "no accepted batch lists this fixture"),
  "fixture-changed": block(() => "its bytes differ from the digest its accepted batch lists; restore it or clear it again in a new batch"),
  "fixture-missing": block(() => "an accepted batch lists this fixture, and it is not here"),
  "fixture-checkout-changed": block((p: { attribute: string }) => `its git attributes (.gitattributes, info/attributes or the user's) give it ${p.attribute}, so a checkout writes other bytes than the accepted ones and a clone's tests refuse them`),
  "record-shown-otherwise": block((p: { attribute: string }) => `its git attributes (.gitattributes, info/attributes or the user's) give it ${p.attribute}, so a reviewer of its change sees other than the text git stores (no diff, a driver's rendering, a collapsed diff) or a checkout writes other bytes; the record and clear.config.json are read as the text git stores, and nothing else`),
  "raw-capture-committed": block((p: { why: string }) => `a raw capture is committed: ${p.why}; raw captures never are (remove it from the commit, clear it with clear run, or keep it outside the repository)`),
  "pushed-not-a-commit": block((p: { type: string }) => `names a ${p.type}, not a commit: files pushed this way pass no commit's check, so the push is refused`),
  "place-in-other-spelling": block(() => "names one of the tool's own places (the fixtures, the inbox, the record, clear.config.json, a .gitattributes on the way to them) in another spelling (letter case, a character macOS ignores, dots or spaces at a name's end); a checkout on macOS or Windows puts it there unchecked"),
  "symlink-in-repo": block(() => "is a symbolic link where the tool's own files stand (the fixtures, the inbox, the record, clear.config.json); never followed (replace it with the real folder or file)"),
  // kit: the committed transports are the kit's bytes
  "transport-differs": block((p: { how: string }) => `the committed transport differs from the kit's: ${p.how}`),
  "transport-missing": block(() => "the kit has this transport, and it is not committed"),
  "transport-extra": block(() => "this transport is committed, and the kit does not have it"),
  "kit-link": block(() => "is a symbolic link inside the kit; never followed: a kit holds its own bytes"),
  "kit-not-a-file": block((p: { what: string }) => `${p.what}; never read: a kit holds regular files`),
  "binary-differs": block(() => "the kit's binary here does not have the digest kit.json records"),
  "transport-not-a-file": block((p: { what: string }) => `${p.what}; never read as a transport: a transport is committed as a regular file`),
  "transport-checkout-changed": block((p: { what: string }) => `${p.what}: a checkout writes other bytes than the committed ones, which are the kit's`),
  "transport-mode-differs": block((p: { how: string }) => `the bytes are the kit's, the mode is not: ${p.how}`),
  "transport-mode-unchecked": note(() => "neither a copy beside kit.json nor kit.json itself says the kit's mode (a kit.json recorded before modes were): whether the committed transport is executable as the kit's was is unchecked"),
  "kit-copy-absent": note(() => "the kit's own copy is not beside kit.json: the committed bytes were held against kit.json's digest alone, and against the kit's head as they are"),
  "kit-copy-differs": block(() => "the kit's own copy of this transport does not have the digest and size kit.json records; it is neither compared nor quoted"),
  "kit-not-quoted": block((p: { id: string }) => `batch ${p.id} names a kit but quotes no committed transport beside the kit's digests; run clear run again`),
  "kit-not-from-head": block((p: { how: string }) => `the kit's transport differs from its head's by more than version strings: ${p.how}`),
  // select: which capture stands for each event
  "no-clearable-capture": block((p: { harness: string; version: string; event: string; why: string }) => `${p.harness} ${p.version} ${p.event}: every capture of it was refused or unreadable (this one: ${p.why}); nothing can stand for it`),
  "pair-split": note((p: { scope: string; event: string }) => `chosen, but no other capture chosen is of its ${p.scope} operation (the ${p.event} chosen is another operation's): its fixture stands apart`),
  "pair-not-kept": note((p: { first: string; second: string }) => `no ${p.first} and ${p.second} of one operation can both be chosen; the chosen ones are not a pair`),
} as const;

export type FindingCode = keyof typeof CATALOGUE;
type Params<C extends FindingCode> = Parameters<(typeof CATALOGUE)[C]["message"]>[0];

export interface Finding {
  code: FindingCode;
  severity: Severity;
  file?: string;
  pointer?: string;
  line?: number;
  column?: number;
  message: string;
}

export interface Where {
  file?: string | undefined;
  pointer?: string | undefined;
  line?: number | undefined;
  column?: number | undefined;
}

/** Makes a finding from its code; the severity and message come from the catalogue. */
export function finding<C extends FindingCode>(code: C, where: Where, ...params: Params<C> extends void ? [] : [Params<C>]): Finding {
  const template = CATALOGUE[code] as Template<Params<C>>;
  const f: Finding = { code, severity: template.severity, message: template.message(params[0] as Params<C>) };
  if (where.file !== undefined) f.file = where.file;
  if (where.pointer !== undefined) f.pointer = where.pointer;
  if (where.line !== undefined) f.line = where.line;
  if (where.column !== undefined) f.column = where.column;
  return f;
}

export function blocks(findings: Finding[]): boolean {
  return findings.some((f) => f.severity === "block");
}

/** Findings of one code: how many, the first few, in the order found. */
export interface FindingGroup {
  code: FindingCode;
  severity: Severity;
  count: number;
  first: Finding[];
}

/** Findings grouped by code, blocking codes first, each group keeping its first `keep` findings. */
export function groupFindings(findings: Finding[], keep = 3): FindingGroup[] {
  const groups = new Map<FindingCode, FindingGroup>();
  for (const f of findings) {
    const g = groups.get(f.code) ?? { code: f.code, severity: f.severity, count: 0, first: [] };
    g.count++;
    if (g.first.length < keep) g.first.push(f);
    groups.set(f.code, g);
  }
  return [...groups.values()].sort((a, b) => (a.severity === b.severity ? 0 : a.severity === "block" ? -1 : 1));
}
