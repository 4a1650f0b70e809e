import path from "node:path";
import { existsSync } from "node:fs";
import { readText } from "./detect.js";
import { blockedWhy, gateLineReach } from "./reach.js";
import type { HookName } from "./shell.js";

// The switches a hook manager reads from the environment, or from a file of the user's it sources
// first, that keep it from running the gate: HUSKY=0 and husky's init.sh (or ~/.huskyrc), LEFTHOOK=0
// and the names LEFTHOOK_EXCLUDE skips, SKIP of the pre-commit framework, and PRE_COMMIT set outside
// it, which keeps the gate from git's refs. A commit or push run from
// the environment status runs in would go unchecked, so the gate is not in force there.

export type Env = Readonly<Record<string, string | undefined>>;

/** A line no file of the user's holds, put below a sourced file to ask whether its lines pass on to it. */
const PROBE = "# clear: the hook's own lines start here";

/** A file husky sources before the hook's own lines: every line of it must pass on, as a line above the gate's must. */
function sourcedInTheWay(file: string, shown: string, hook: HookName): string | null {
  if (!existsSync(file)) return null;
  const text = readText(file);
  const sourced = `${shown}, which husky sources before every hook's own lines`;
  if (text === null || text.split("\n").includes(PROBE)) return `${sourced}, could not be read here; move it away, or make it a file of plain lines`;
  const reach = gateLineReach(`${text}\n${PROBE}`, PROBE, false, hook === "pre-push");
  if (reach.kind !== "blocked") return null;
  return `${sourced}: its line ${reach.line} ${blockedWhy(reach, "the gate")}; take that line out of it`;
}

/**
 * What keeps husky from the hook's own lines: HUSKY=0, and a file it sources first whose lines may
 * end the hook or change what the gate runs. `helper`: husky 9's `_/h` sources init.sh under
 * $XDG_CONFIG_HOME (or ~/.config); the `_/husky.sh` of husky 5 to 8 sources ~/.huskyrc.
 */
export function huskyOff(env: Env, hook: HookName, helper: "h" | "husky.sh"): string | null {
  if (env.HUSKY === "0") return "HUSKY=0 is set in this environment, so husky ends every hook before its own lines and a commit or push run from here goes unchecked; unset it";
  if (/^(?:1|true)$/i.test(env.HUSKY_SKIP_HOOKS ?? "")) return "HUSKY_SKIP_HOOKS is set in this environment, so husky may skip every hook; unset it";
  const home = env.HOME ?? "";
  if (helper === "husky.sh") return sourcedInTheWay(path.join(home, ".huskyrc"), "~/.huskyrc", hook);
  const config = env.XDG_CONFIG_HOME ? env.XDG_CONFIG_HOME : path.join(home, ".config");
  const shown = env.XDG_CONFIG_HOME ? "$XDG_CONFIG_HOME/husky/init.sh" : "~/.config/husky/init.sh";
  return sourcedInTheWay(path.join(config, "husky", "init.sh"), shown, hook);
}

/** A list as lefthook and the pre-commit framework read one from the environment: words parted by commas or blanks. */
const listed = (value: string | undefined): string[] => (value ?? "").split(/[\s,]+/).filter(Boolean);

/** What in the environment keeps lefthook from running the gate's script, named by `names` (its own name and its tags). */
export function lefthookOff(env: Env, names: string[]): string | null {
  if (/^(?:0|false)$/i.test((env.LEFTHOOK ?? "").trim())) return `LEFTHOOK=${env.LEFTHOOK} is set in this environment, so lefthook runs no hook here; unset it`;
  for (const name of ["LEFTHOOK_EXCLUDE", "LEFTHOOK_SKIP"]) {
    const words = listed(env[name]);
    const skipped = words.filter((w) => names.includes(w) || names.includes(`${w}.sh`) || /[*?[]/.test(w));
    if (skipped.length > 0) return `${name} in this environment names ${skipped.join(", ")}, so lefthook skips clear-gate.sh here; take it out`;
  }
  if ((env.LEFTHOOK_BIN ?? "") !== "") return "LEFTHOOK_BIN is set in this environment, so the hooks run another program than the lefthook whose config was read here; unset it";
  if ((env.LEFTHOOK_CONFIG ?? "") !== "") return "LEFTHOOK_CONFIG is set in this environment, so lefthook reads another config than the one read here; unset it";
  return null;
}

/** The pre-commit framework skips each hook whose id SKIP lists. */
export function preCommitOff(env: Env, id: string): string | null {
  const skipped = (env.SKIP ?? "").split(",").map((w) => w.trim());
  return skipped.includes(id) ? `SKIP in this environment lists ${id}, so the pre-commit framework skips the gate here; take it out of SKIP` : null;
}

/**
 * PRE_COMMIT, which the pre-commit framework sets for the hooks it runs: set anywhere else, the
 * gate's pre-push script leaves git's standard input unread and checks the local refs, so a commit
 * pushed by its name alone (git push origin <commit>:refs/heads/x) goes unchecked.
 */
export function gateInputOff(env: Env, hook: HookName): string | null {
  if (hook !== "pre-push" || (env.PRE_COMMIT ?? "") === "") return null;
  return "PRE_COMMIT is set in this environment, where the pre-commit framework does not run the gate, so the gate reads none of the refs git hands it and a commit pushed by its name alone goes unchecked; unset it";
}
