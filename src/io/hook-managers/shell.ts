// The gate's hook scripts, as text. One POSIX sh script per hook: it runs the repository's own
// installed fixture-clear, and where that is missing it still refuses anything that could hold a
// capture. Pure: nothing here reads the disk.

export const HOOKS = ["pre-commit", "pre-push"] as const;
export type HookName = (typeof HOOKS)[number];

/** The first line after the shebang of every file this tool owns whole. */
export const MARK = "# clear: managed hook (clear hooks install)";

/** Where the committed scripts live, relative to the repository root. */
export const WRAPPER_DIR = ".clear/hooks";

/** The installation that wrote a hook into .git/hooks: a last resort there, never committed. */
export interface Installed {
  node: string;
  cli: string;
}

/** A value for sh in single quotes, so that no part of it is expanded or run. */
export function shQuote(value: string): string {
  return `'${value.split("'").join(`'\\''`)}'`;
}

// Names a capture could hide under when the tool cannot look inside: the layout's folders and
// files, and any JSON, JSON Lines or NDJSON file (a trailing .bak, .gz or ~ included).
const COULD_HOLD_CAPTURE = "^(fixtures|captures-inbox)/|^(CLEARANCE[.]md|clear[.]config[.]json)$|[.](json|jsonl|ndjson)([.~][^/]*)?$";

function header(hook: HookName, committed: boolean): string {
  const where = committed ? "Committed: it holds no path of this machine." : "Not committed: it lives in git's hooks folder.";
  return `#!/bin/sh
${MARK}
# The gate at ${hook}. ${where}
# It runs this repository's own fixture-clear (node_modules/.bin). Where that is missing, a ${hook === "pre-push" ? "push" : "commit"}
# touching no file named as a capture or the tool's own files are goes through with its content unread,
# and any other is refused.
clear_hook=${hook}
clear_zero=0000000000000000000000000000000000000000
clear_top=$(git rev-parse --show-toplevel && echo .) || exit 1
clear_top=\${clear_top%?.}
`;
}

function resolver(installed: Installed | undefined): string {
  const lastResort = installed
    ? `[ -f "$clear_cli" ] || clear_cli=${shQuote(installed.cli)}
[ -n "$clear_node" ] || clear_node=${shQuote(installed.node)}
`
    : "";
  return `clear_cli="$clear_top/node_modules/.bin/fixture-clear"
clear_node=$(command -v node 2>/dev/null) || clear_node=
${lastResort}clear_missing=
if [ ! -f "$clear_cli" ]; then
  clear_missing="fixture-clear is not installed in this repository"
elif [ -z "$clear_node" ] || [ ! -x "$clear_node" ]; then
  clear_missing="node is not on PATH"
fi
clear_refuse() {
  clear_what="fixtures/, captures-inbox/, CLEARANCE.md, clear.config.json or a .json, .jsonl or .ndjson file"
  echo "clear gate: $clear_missing, and this $1 touches $clear_what; install it (npm install --save-dev fixture-clear, or npm ci) and try again" >&2
  exit 1
}
clear_could_hold_capture() {
  tr '\\000' '\\n' | grep -Eiq '${COULD_HOLD_CAPTURE}'
}
`;
}

const PRE_COMMIT_RUN = `if [ -n "$clear_missing" ]; then
  if git diff --cached --name-only -z --no-renames | clear_could_hold_capture; then clear_refuse commit; fi
  echo "clear gate: $clear_missing; no staged name is a capture's or the tool's, so this commit goes through with its files' content unread (install it to have that read)" >&2
  exit 0
fi
exec "$clear_node" "$clear_cli" gate pre-commit
`;

// pre-push: the ref lines come on stdin from git, husky and lefthook (use_stdin). The pre-commit
// framework keeps stdin and names only one ref, and a hook before this one may have read stdin:
// then every local branch and tag is checked, so that nothing unchecked leaves. Only git's own
// lines go on to the gate, which reckons that case itself: a line made up here would claim the
// destination lacks each branch, and so have every commit of the history checked at each push.
const PRE_PUSH_REFS = `clear_every_ref() {
  [ -z "\${PRE_COMMIT_TO_REF-}" ] || printf '%s %s %s %s\\n' "\${PRE_COMMIT_LOCAL_BRANCH:-HEAD}" "$PRE_COMMIT_TO_REF" \\
    "\${PRE_COMMIT_REMOTE_BRANCH:-HEAD}" "\${PRE_COMMIT_FROM_REF:-$clear_zero}"
  git for-each-ref --format="%(refname) %(objectname) %(refname) $clear_zero" refs/heads refs/tags
  clear_head=$(git rev-parse -q --verify HEAD) && printf 'HEAD %s HEAD %s\\n' "$clear_head" "$clear_zero"
  return 0
}
clear_input=
if [ -z "\${PRE_COMMIT-}" ] && [ ! -t 0 ]; then clear_input=$(cat); fi
clear_feed() {
  [ -z "$clear_input" ] || printf '%s\\n' "$clear_input"
}
clear_refs() {
  if [ -n "$clear_input" ]; then clear_feed; else clear_every_ref; fi
}
`;

// What the remote pushed to is known to have, where the tool is missing and names alone are read
// (the whole gate asks the destination itself): the remote-tracking
// refs its own fetch refspecs write and no other remote's could, never what any remote has (a
// fork's upstream/*). With no remote named (a push to a URL), or one that pushes elsewhere than
// it fetches from (a pushurl, a pushInsteadOf), none: every commit is checked.
const PRE_PUSH_KNOWN = `clear_remote=\${1-}
[ -n "$clear_remote" ] || clear_remote=\${PRE_COMMIT_REMOTE_NAME-}
clear_fetch_into() {
  git config --get-all "remote.$1.fetch" | sed -n -e 's/^+//' -e 's/^[^:^]*://p'
}
clear_writes() {
  case "$1" in
    *'*'*) clear_star_head=\${1%%'*'*} clear_star_tail=\${1#*'*'} ;;
    *) [ "$1" = "$2" ]; return ;;
  esac
  case "$2" in "$clear_star_head"*"$clear_star_tail") return 0 ;; esac
  return 1
}
clear_any_writes() {
  printf '%s\\n' "$1" | { while IFS= read -r clear_dest; do [ -z "$clear_dest" ] || ! clear_writes "$clear_dest" "$2" || exit 0; done; exit 1; }
}
clear_remote_has() {
  [ -n "$clear_remote" ] && git config --get "remote.$clear_remote.url" >/dev/null 2>&1 || return 0
  clear_fetch_urls=$(git remote get-url --all -- "$clear_remote" 2>/dev/null) || return 0
  [ "$(git remote get-url --push --all -- "$clear_remote" 2>/dev/null)" = "$clear_fetch_urls" ] || return 0
  clear_own=$(clear_fetch_into "$clear_remote")
  clear_others=$(git remote | while IFS= read -r clear_name; do [ "$clear_name" = "$clear_remote" ] || clear_fetch_into "$clear_name"; done)
  git for-each-ref --format='%(refname)' refs/remotes/ | while IFS= read -r clear_ref; do
    if clear_any_writes "$clear_own" "$clear_ref" && ! clear_any_writes "$clear_others" "$clear_ref"; then printf '%s\\n' "$clear_ref"; fi
  done
}
`;

// A ref line's objects are hex, as git writes them; anything else is refused, never handed to git.
const PRE_PUSH_RUN = `clear_push_could_hold_capture() {
  clear_known=$(clear_remote_has)
  while read -r clear_lref clear_lsha clear_rref clear_rsha; do
    case "$clear_lsha" in *[!0]*) ;; *) continue ;; esac
    case "$clear_lsha$clear_rsha" in *[!0-9a-f]*) return 0 ;; esac
    git rev-parse -q --verify "$clear_lsha^{commit}" >/dev/null || return 0
    clear_base=
    case "$clear_rsha" in
      *[!0]*) git rev-parse -q --verify "$clear_rsha^{commit}" >/dev/null || return 0
        clear_base=$clear_rsha ;;
    esac
    if { printf '%s\\n' "$clear_lsha"; if [ -n "$clear_base" ]; then printf '^%s\\n' "$clear_base"; elif [ -n "$clear_known" ]; then printf '%s\\n' "$clear_known" | sed 's/^/^/'; fi; } |
      GIT_NO_REPLACE_OBJECTS=1 git log --stdin -m --root --no-renames --format= --name-only -z | clear_could_hold_capture; then return 0; fi
  done
  return 1
}
if [ -n "$clear_missing" ]; then
  if clear_refs | clear_push_could_hold_capture; then clear_refuse push; fi
  echo "clear gate: $clear_missing; no pushed name is a capture's or the tool's, so this push goes through with its files' content unread (install it to have that read)" >&2
  exit 0
fi
clear_feed | "$clear_node" "$clear_cli" gate pre-push "$@"
`;

/** Runs each hook kept from before, in the order kept; its failure fails the commit or push. */
function keptHooks(hook: HookName, kept: string[]): string {
  if (kept.length === 0) return "";
  const feed = hook === "pre-push" ? `clear_feed | ` : "";
  const runs = kept.map((name) => `if [ -x "$clear_dir/"${shQuote(name)} ]; then\n  ${feed}"$clear_dir/"${shQuote(name)} "$@" || exit $?\nfi\n`);
  return runs.join("");
}

/** The installation a hook in .git/hooks names as its last resort, read back from its text. */
export function recordedInstall(script: string): Installed | undefined {
  const quoted = "'((?:[^']|'\\\\'')*)'";
  const cli = new RegExp(`^\\[ -f "\\$clear_cli" \\] \\|\\| clear_cli=${quoted}$`, "m").exec(script);
  const node = new RegExp(`^\\[ -n "\\$clear_node" \\] \\|\\| clear_node=${quoted}$`, "m").exec(script);
  const unquote = (s: string): string => s.split(`'\\''`).join("'");
  return cli && node ? { cli: unquote(cli[1]!), node: unquote(node[1]!) } : undefined;
}

/**
 * The script for one hook. `installed` is given only for .git/hooks, where a path of this machine
 * may stand; `kept` names the hooks that were there before, run first.
 */
export function gateScript(hook: HookName, options: { installed?: Installed; kept?: string[] } = {}): string {
  const committed = options.installed === undefined;
  const parts = [header(hook, committed)];
  if (hook === "pre-push") parts.push(PRE_PUSH_REFS, PRE_PUSH_KNOWN);
  // The hook's own folder is read before cd, which would break a relative $0.
  if (!committed) parts.push(`clear_dir=$(dirname "$0")\ncase "$clear_dir" in /*) ;; *) clear_dir="$PWD/$clear_dir" ;; esac\n`);
  parts.push(`cd "$clear_top" || exit 1\n`, keptHooks(hook, options.kept ?? []), resolver(options.installed));
  parts.push(hook === "pre-push" ? PRE_PUSH_RUN : PRE_COMMIT_RUN);
  return parts.join("");
}
