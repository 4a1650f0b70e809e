import type { FindingCode } from "./findings.js";

// What a person does about each kind of finding, in a few words. Where the case matters (a
// commit, a push, a run), the advice names the step that fits it: a push cannot unstage.

export type AdviceCase = "sitting" | "run" | "commit" | "push" | "verify";

type Advice = string | Partial<Record<AdviceCase | "else", string>>;

const ADVICE: Partial<Record<FindingCode, Advice>> = {
  "recipe-unmatched": "name the recipe of the host the sitting recorded (--recipe, or sitting.json's recipe), or capture that host",
  "extra-capture": "nothing, unless a repeat should stand for its event: clear select says which was chosen, and --choose FILE overrides it",
  "counter-gap": "make sure no capture was taken out of the sitting; a sink numbers each event's captures without a gap",
  "unknown-field": "where the guess is wrong, add a field rule for the member in the repository's rules/fields (a member name no rule spells is shown as [masked]; the line and column place it in the capture)",
  "review-free-text": "read the cleared value; where the member is not free text, add a field rule for it in rules/fields",
  "undocumented-value": "where the host documents the value, add it to its rule in rules/fields (an enum's values, a shape)",
  "pair-split": "choose the capture of that operation with --choose where its fixture should stand with the others, or leave it to stand for its own operation",
  "pair-not-kept": "capture the operation again so that both of its events can be cleared, or choose one operation's captures with --choose",
  "missing-event": "capture the event again (clear capture status DIR lists what a recipe still lacks), or name the recipe that fits with --recipe",
  "unknown-version": "export the host version in the capture shell and capture again",
  "version-mismatch": "capture again with the host sitting.json names, or correct sitting.json's --version line",
  "unknown-harness": "move the file out of the sitting, or add the harness's catalogue to the repository's rules/harnesses",
  "unknown-event": "move the file out of the sitting, or add the event to the harness's catalogue in rules/harnesses",
  "not-a-capture": "move the file out of the sitting",
  "not-a-file": "move it out of the sitting; a sitting holds regular files",
  symlink: "copy the real file into the sitting in place of the link",
  oversize: "capture the event again; a payload this large is not a hook's",
  "not-utf8": "capture again; a host writes UTF-8",
  "invalid-json": "capture again; the file is not whole JSON",
  "not-an-object": "capture again; a hook payload is a JSON object",
  "duplicate-key": "capture again; a host never sends a member name twice",
  "too-deep": "capture again, or raise limits.maxDepth in clear.config.json if the host really nests this deep",
  "refused-class": "leave the capture out (it holds a class the tool never clears): for tool output, capture a smaller trigger; an environment dump is admitted only where clear.config.json opts into the env-dump-v1 policy",
  "event-mismatch": "rename the file to the event its payload names, or capture again",
  "invalid-sitting": "correct sitting.json (its schema is rules/schemas/sitting.schema.json), or remove it",
  "invalid-kit": "record the kit again with clear kit record",
  "no-captures": "give the folder a sitting writes its captures into",
  "home-in-key": "leave the capture out: a member name is structure and is never rewritten",
  "home-owner-unclear": "give the owner's name with --user or in clear.config.json's users, then run again",
  "home-left": "add a field rule that classes the member as a path or free text (rules/fields), then run again",
  "contact-in-key": "leave the capture out: a member name is structure and is never rewritten",
  "contact-in-number": "leave the capture out, or capture the sitting again without the number: a number is never rewritten",
  "contact-left": "class the field as free text in rules/fields, or add a literal rule in clear.config.json that covers the value",
  "user-name-left": "add a field rule, or a literal rule in clear.config.json, that covers where the name stands",
  "unsubstituted-free-text": "correct the member's class in rules/fields",
  "substitution-broke-json": "report it: the tool's substitution broke a document; nothing was written",
  "substitution-changed-shape": "report it: the tool's substitution changed a document's shape; nothing was written",
  "secret-found": "leave the capture out and capture again without the secret, or waive the finding in clear.config.json by fixture, pointer, rule and value digest if it is not a secret",
  "control-silent": "the scan's rules do not reach the files; correct rules/secrets before running again",
  "no-clearable-capture": "where a field rule of the repository's rules/fields classes the member the refusal names, correct that rule; else capture the event again",
  "record-unreadable": "restore CLEARANCE.md to the shape the tool wrote (git diff shows the edit)",
  "accept-not-counted": "write ACCEPT in capitals, alone on a line of its own, under the batch's User acceptance heading, with no comment, code, link or raw HTML above it in that section",
  "batch-edited": "restore the batch as the tool wrote it (git diff shows the edit; git restore --source=HEAD -- <record> where the last commit holds it); a batch that carries ACCEPT is never replaced, so a new clear run does not undo the edit",
  "accepted-batch-rewritten": "restore the batch as it was accepted (git diff shows the change); to accept other bytes, clear them with clear run into a new batch and write ACCEPT under that one; to take fixtures out, take them out with their batch in a commit of its own",
  "fixture-not-accepted": {
    push: "read the batch that lists it in CLEARANCE.md and write ACCEPT under it, commit that, then push again",
    verify: "read the batch that lists it in CLEARANCE.md (or run clear run to write one) and write ACCEPT under it, then commit that",
    else: "read the batch in CLEARANCE.md that lists it (run clear run where none does) and write ACCEPT under it, then commit again",
  },
  "fixture-changed": {
    push: "restore the accepted bytes in a new commit (git checkout <accepted commit> -- <file>), or clear the sitting again and accept the new batch, then push again",
    verify: "restore the accepted bytes in a new commit (git checkout <accepted commit> -- <file>), or clear the sitting again and accept the new batch",
    else: "restore the accepted bytes (clear run over the accepted sitting writes them back; git restore --source=HEAD --staged --worktree -- <file> where the last commit holds them), or clear the sitting again and accept the new batch",
  },
  "fixture-missing": "restore the fixture, or clear again and accept a batch that no longer lists it",
  "fixture-checkout-changed": "keep fixtures byte for byte: give them -text and no encoding or ident (a line `<fixtures folder>/** -text -working-tree-encoding -ident` in the repository's root .gitattributes, after the lines that set them), and take the attribute out of info/attributes or the user's attributes file where it is set there",
  "record-shown-otherwise": "take the attribute off this file: a line naming it with the attribute left unspecified (`CLEARANCE.md !diff !text !eol !filter`, and so on) in the root .gitattributes after the lines that set it, or in the folder's .gitattributes above it, and take it out of info/attributes or the user's attributes file where it is set there",
  "raw-capture-committed": {
    commit: "take it out of the commit (git rm --cached -- <file>); raw sittings stay in the git-ignored inbox or outside the repository, and a cleared fixture is read from the fixtures folder (loadFixture), never copied out of it",
    push: "remove it from the commits you push (git rebase -i, or git rm --cached -- <file> and amend), so no commit carries it; raw sittings stay outside what is pushed",
    else: "remove it from the repository's history; raw captures are never committed",
  },
  "pushed-not-a-commit": "push commits only; delete the ref that names a blob or a tree (git tag -d <tag>), or make it name a commit",
  "symlink-in-repo": "replace the link with the real folder or file",
  "place-in-other-spelling": "rename it, or move what it holds into the place spelled as the layout spells it (fixtures only through clear run and ACCEPT)",
  "transport-differs": "commit the kit's own transport bytes, or record the kit again from the committed ones",
  "transport-missing": "commit the kit's transport, or record the kit again",
  "transport-extra": "record the kit again with this transport, or remove it",
  "kit-link": "replace the link in the kit with the file itself",
  "kit-not-a-file": "keep only regular files in the kit",
  "binary-differs": "point --binary at the very binary the captures were made with",
  "transport-not-a-file": "commit the transport itself, as a regular file, where the rules place it",
  "transport-checkout-changed": "take the attribute off the transport's path (.gitattributes, info/attributes), so every clone checks out the kit's bytes",
  "transport-mode-differs": "commit the transport with the kit's mode (git update-index --chmod=+x or -x), or record the kit again",
  "transport-mode-unchecked": "record the kit again (kit record writes each transport's mode into kit.json), or keep the kit's transports beside kit.json",
  "kit-copy-absent": "keep the kit's transports beside kit.json, as kit record found them, so they can be compared",
  "kit-copy-differs": "put the very transports the kit was recorded from beside kit.json, or record the kit again",
  "kit-not-quoted": "run clear run again so the batch quotes the committed transports",
  "kit-not-from-head": "record the kit again from its head's transports",
};

/** What to do about a finding of this code in this case, or null where the message says it all. */
export function adviceFor(code: FindingCode, where: AdviceCase = "run"): string | null {
  const a = ADVICE[code];
  if (a === undefined) return null;
  if (typeof a === "string") return a;
  return a[where] ?? a.else ?? null;
}
