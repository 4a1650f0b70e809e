import { HARNESSES, HOST_PINS } from "../capture/hosts.js";

// Every command's help, in one small module: `clear <command> --help` prints it without loading
// the command, its passes or its dependencies (the scanner, the schemas).

export const HELP = {
  "capture": `clear capture: record a sitting from the real hosts

  clear capture hook <harness> <Event> [--host-version V]
      What a host's hook runs. Writes the payload on stdin, byte for byte, to
      $CLEAR_CAPTURE_DIR/<harness>_<snake_event>_<version>.<n>.json. Prints nothing on stdout and
      exits 0 whatever happens; does nothing when CLEAR_CAPTURE_DIR is unset.
  clear capture setup <harness> --project DIR [--into SITTING] [--host-version V] [--host-bin BIN]
      The host's hook configuration in a throwaway project folder, and kit.json with the SHA-256
      of every file written (in SITTING, else in DIR).
  clear capture start <harness> --into DIR [--driver TEXT] [--method TEXT] [--recipe NAME] [--host-bin BIN]
      Probes <host> --version, writes DIR/sitting.json and prints the recipe's steps as a checklist.
  clear capture status DIR [--recipe NAME] [--host-bin BIN] [--json] [--verbose]
      Which of the recipe's events are captured, missing or repeated; a host version that moved
      since start is a stop. Names the first few entries that are not captures or carry another
      version; --verbose names every one. Exit 1 while anything is missing or the version moved.
  clear capture dry-run <harness> [--host-version V] [--host-bin BIN]
      One synthetic payload through the transport's exact hook command into a temporary folder,
      checked and removed.
  clear capture drive <harness> --into DIR [--recipe NAME] [--host-bin BIN] [--isolate auto|always|never] [--step NAME]... [--keep]
      A sitting without a person or a network: the real host against a scripted model on 127.0.0.1.
  clear capture install [<harness>...]
      Installs the pinned hosts (${HARNESSES.map((h) => `${HOST_PINS[h].npmPackage}@${HOST_PINS[h].version}`).join(", ")})
      into the hosts cache ($CLEAR_HOSTS_CACHE, else ~/.cache/clear/hosts).

Harnesses: ${HARNESSES.join(", ")}.
`,
  "compare": `clear compare <dir-a> <dir-b> [--json] [--verbose]
clear compare <harness> <version-a> <version-b> [--root DIR] [--json] [--verbose]

What changed in the payloads between two host versions: two fixture folders, or two versions of
one harness in the repository's fixtures folder (fixtures/<harness>/<version>/). Per event: the
events present in one side only; members added and removed, by JSON pointer (every item of an
array as one shape, written *); members whose class changed (string to object, enum to free
text); enum values new or gone. Reads the fixtures only, never through a link, and prints member
names the rules do not spell as [masked]. Findings (a fixture not read) are grouped by code with
their first files and what to do; --verbose lists every one. Exit 0 when both sides were read
whole, 1 when a fixture could not be read (named), 2 on usage errors and a folder that cannot be
read at all.
`,
  "demo": `clear demo [--keep]

The whole flow on the bundled example sitting (examples/sitting: synthetic, labelled as an
example), in a temporary git repository: install the hooks, clear the sitting into fixtures and a
CLEARANCE.md batch, show the gate refusing the commit, write ACCEPT as a person would, show the
commit going through. The project's own files are not touched. --keep leaves the repository.
`,
  "gate": `clear gate pre-commit | pre-push [<remote> <url>] [--verbose]

What the installed git hooks run. pre-commit checks what is staged (the index, not the working
tree). pre-push checks every commit the destination does not have yet (by the ref lines git gives
on standard input and, for a ref new to it, what the destination says it has, asked of it with git
ls-remote; with no ref lines, the pre-commit framework's PRE_COMMIT_FROM_REF/TO_REF, and every
local ref the destination lacks), so a commit made
with --no-verify still cannot leave the machine. Refused: a fixture no accepted batch lists with
its digest, a link where the tool's own files stand, and a raw capture anywhere in the tree, by
its name or by its content. A refusal says each kind of finding once: how many, the first files
and what to do; --verbose lists every finding of every commit.
`,
  "hooks": `clear hooks install | status | uninstall [--yes] [--manager NAME] [--root DIR]

install wires the pre-commit and pre-push gate through the hook manager the repository uses,
so that the manager's own reinstall keeps it:
  husky            a line in .husky/pre-commit and .husky/pre-push
  lefthook         a script entry in lefthook.yml (pre-push with use_stdin: true)
  pre-commit       a repo: local hook in .pre-commit-config.yaml, for both stages
  hooks-path       a line in each hook of a hand-set core.hooksPath folder
  plain            git's own hooks folder, where no manager is used
The committed files hold no path of this machine: they run .clear/hooks/<hook> (lefthook: its
scripts folder), which runs the repository's own node_modules/.bin/fixture-clear. Where that is
missing, a commit touching no file named as a capture or the tool's own files are goes through with
its files' content unread, and any other is refused.
A file you own is changed only with --yes; without it the change is shown and nothing is written.
--manager names the manager where more than one is configured. A hook that was in git's hooks
folder is kept, run first, and comes back on uninstall.

status follows, for each hook, what git will actually run down to the gate; exit 1 when the gate
would not run. uninstall takes out only what install added (also with --yes for files you own).
`,
  "inventory": `clear inventory <capture-dir> [--recipe NAME]... [--json] [--verbose] [--fields] [--root DIR] [--max-file-bytes N]

Lists what a capture sitting holds: every capture's name parts, size and SHA-256, and every
finding: missing recipe events, unknown versions, version mismatches against sitting.json,
refused classes and every bad file. A summary by default: captures counted by harness, version
and event, and findings grouped by code with their first files and what to do; --verbose lists
every capture and every finding, and --fields adds every JSON pointer with its class.
Never writes. Exit 0 when nothing blocks, 1 when a finding blocks, 2 when the folder cannot be read.
`,
  "kit": `clear kit record <kit-dir> --head <sha> [--binary PATH] [--out FILE] [--root-edit TEXT]... [--host-version HARNESS=VERSION]... [--verbose]

Hashes a sitting's kit: the hook binary (by default the one executable file under <kit-dir>/bin/)
and every generated transport found in the kit folder (rules/transports.json: Claude
hooks/hooks.json; Codex .codex/hooks.json and .codex/hooks/events/*.sh; OpenCode every .ts and
.js file in .opencode/plugin/ and .opencode/plugins/), and writes kit.json (default
<kit-dir>/kit.json) with the head commit, the version edits and the host versions it was built
for. A link, a device, a FIFO or anything under /proc in the kit is never read: it is a finding,
and no kit.json is written (exit 1).
Findings are grouped by code with their first files and what to do; --verbose lists every one.
`,
  "pair": `clear pair <capture-dir> [--json] [--verbose] [--root DIR]

States which captures belong to one host operation, by the host's own per-operation identifiers
(tool call, sub-agent, turn or prompt, session), finest first. A file pairs only at its finest
identifier; a session id every file shares, and a placeholder id, pair nothing. Files that pair
with nothing are listed with the scope and the reason. A file it cannot read as a capture (a link,
a pipe, a folder, a stray file, one not whole JSON) is skipped and named with its finding and place.
Pairs and files not paired are counted by scope with their first few; --verbose lists each one.
Never writes. Exit 0, 1 when a file was skipped (its pairs are not known), 2 when the folder cannot
be read or is named by going up ("..") out of a symbolic link.
`,
  "review": `clear review [<capture-dir>] [--root DIR] [--port N]

Serves a page on 127.0.0.1 (a random free port unless given, a one-time token in the printed URL)
to look at a batch before ACCEPT: where the batch stands (each finding that blocks it, with its
code, file, pointer and what to do; or whether CLEARANCE.md already holds it, accepted or awaiting
ACCEPT, or written before the sitting or the rules changed), the coverage grid, each fixture under
the path it will be committed at with its provenance sidecar and its substituted spans marked (the
raw value of one span is sent only when you reveal it), the pairs, the scan and its reach control.
Nothing raw is written to disk or cached. Ctrl-C ends it.
`,
  "run": `clear run [<capture-dir>] [--root DIR] [--choose FILE]... [--recipe NAME]... [--json] [--verbose]

Every pass in order on a sitting (default: captures-inbox/ of the repository): inventory, pair,
substitute, select, scan, digest. Then the selected fixtures and their provenance sidecars are
written under fixtures/<harness>/<version>/ and a batch is appended to CLEARANCE.md (replacing the
batch still awaiting acceptance; a batch that carries ACCEPT is never touched). When an accepted
batch already holds this sitting's very fixtures, nothing is written. When anything blocks, no
fixture is written, the batch says why (the verdict counts the findings by code; --verbose lists
every one), and the exit code is 1. The tool never writes ACCEPT. One run at a time per
repository: a second one exits 2 and changes nothing. A link where fixtures/,
CLEARANCE.md, captures-inbox/ or clear.config.json stand is refused before anything is read.

--choose FILE takes that capture (by its name, or its path in the sitting) for its event instead of
the smallest; --recipe NAME says which events the sitting was to produce (default: each harness's
default recipe), so that an event the recipe does not name is not missing. Both are recorded in the
batch as overrides. A name that is no valid capture of the sitting, or no recipe, is exit 2.
Nothing comes from a file's time: the same captures give the same fixtures and sidecars.
`,
  "scan": `clear scan <path>... [--json] [--verbose] [--sarif FILE] [--user NAME]... [--root DIR]

Scans files (folders are walked; links are reported, never followed) for secret shapes with the
rules of secretlint's recommended preset and this project's rules (rules/secrets/), and for a
home directory's owner or a known user name: in the raw bytes and in every string as a JSON
parser decodes it (escapes, JSON held in strings, at any depth). Findings give the file, rule,
line, column, JSON pointer and what may be shown of the value (a key's fixed prefix, never any of
a name). Waivers in clear.config.json are applied and listed. Every scan also scans a planted
control, plain and escaped, and fails unless every rule fires on it. Findings are grouped by
rule with their first files and what to do; --verbose lists every one. Exit 0 when clean, 1 on a
finding, a file not scanned, or a silent control; 2 on usage errors and on a path given that
cannot be read at all (a folder it cannot list, a file it cannot open), named; nothing is scanned.
`,
  "select": `clear select <capture-dir> [--choose FILE]... [--json] [--verbose] [--root DIR]

Chooses one capture for each harness, version and event among those that can be cleared: the
smallest by raw bytes (ties to the lowest .n), except that pairs the rules keep (pre_tool_use with
post_tool_use, pre_compact with post_compact, ...) are chosen as one operation at their finest
scope whenever one exists. Every capture not chosen is counted, and with --verbose listed with its
size and why. --choose overrides a choice, and is recorded as an override. Findings are grouped
by code with their first files and what to do. Never writes. Exit 0, or 1 when an event has no
clearable capture.
`,
  "substitute": `clear substitute <capture-dir> --out <dir> [--user NAME]... [--json] [--verbose] [--root DIR]

Clears every capture in the folder into --out under its own name: home-path-v1 first (the owner of
every home directory, whatever its root or spelling, becomes the user placeholder), then any
literal-v1 rules and the opt-in env-dump-v1 policy from clear.config.json, then url-v1 (a URL's
user information, query values and fragment) and free-text-v1 (free text becomes x of the same raw
length). Only string values change; every other byte is kept. A final check reads every cleared
string fully, nested JSON included, and refuses the file if a home owner or a user name is left.
--out must be a new or empty folder outside the capture folder; it appears whole or not at all.
What each rule changed is counted over every file, refusals grouped by code; --verbose lists
every file.
Exit 0 when every capture was cleared, 1 when one was refused or unreadable, 2 on usage errors.
`,
  "verify-kit": `clear verify-kit --kit <kit.json> [--root DIR] [--working-tree] [--json] [--verbose]

Proves the committed transports (at HEAD, or in the working tree with --working-tree) are the
kit's bytes: each is equal, differs (with the lines, and whether in version strings only, where
the kit's own copy is beside kit.json), missing, or extra. Where the kit's head is a commit of the
repository, checks that the kit's transports differ from that head's only in version strings.
Checks the binary's digest where the binary is present. Findings are grouped by code with their
first files and what to do; --verbose lists every one. Exit 0 when all are equal, 1 otherwise,
2 when kit.json breaks its schema (naming the pointer).
`,
  "verify": `clear verify [--root DIR] [--rev REV | --range BASE..HEAD] [--json] [--verbose]

For CI. Every file under fixtures/ is listed, with a matching SHA-256, in an accepted batch of
CLEARANCE.md whose digest still holds (a later accepted listing of a path supersedes an earlier
one); every fixture a batch lists is present; no link stands where the tool's own files do
(fixtures/, captures-inbox/, CLEARANCE.md, clear.config.json); no raw capture is committed,
under the inbox or anywhere else, by its name or its content. Without flags the working tree is
checked; --rev checks one commit's whole tree; --range checks every commit of the range the way
the pre-push hook does. Findings are grouped by code with their first files and what to do;
--verbose lists every one. Exit 0 when all holds, 1 with findings naming the file, 2 on usage errors
and on a record this tool cannot read.
`,
} satisfies Record<string, string>;
