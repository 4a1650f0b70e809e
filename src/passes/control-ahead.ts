import { Worker } from "node:worker_threads";
import { userNamePattern } from "../homes.js";
import type { Rules } from "../types.js";
import { handVerdict, type HandedVerdict } from "./control-verdicts.js";
import type { SittingNames } from "./substitute/index.js";

/** What the control's thread is started with: the rules the line's engines are made from. */
export interface ControlRules {
  secrets: Rules["secrets"];
  homes: Rules["homes"];
  structure: ReadonlySet<string>;
}

/** What it is given once the sitting's names are known. */
export interface ControlNames {
  all: string[];
  checked: string[];
  /** Whether the guard's engine (no names pattern) differs from the sitting's, and needs a verdict of its own. */
  guard: boolean;
}

/** The rules each engine's control left silent. */
export interface ControlAnswer {
  withNames: string[];
  guard?: string[];
}

/** The control on its thread: told the names, it works out the verdicts the scan will ask for; dropped, it stops. */
export interface ControlAhead {
  named(names: Pick<SittingNames, "all" | "checked" | "grammar">): void;
  drop(): void;
}

const isRules = (x: unknown): x is string[] => Array.isArray(x) && x.every((r) => typeof r === "string");

function isAnswer(m: unknown): m is ControlAnswer {
  if (typeof m !== "object" || m === null) return false;
  const a = m as Record<string, unknown>;
  return isRules(a.withNames) && (a.guard === undefined || isRules(a.guard));
}

/**
 * Starts the scan's control on a thread of its own, for the two engines the cleared files, the
 * record and the sidecars are scanned with (the sitting's, and the guard's, without the names):
 * it runs beside the line's passes, not after them. Where the thread cannot start, or fails, the
 * control runs where its verdict is asked for, as it would without it.
 */
export function controlAhead(rules: Pick<Rules, "secrets" | "homes" | "knownMembers">): ControlAhead | null {
  // Run from its sources (under a test's transform) there is no compiled thread to start.
  if (!import.meta.url.endsWith(".js")) return null;
  const start: ControlRules = { secrets: rules.secrets, homes: rules.homes, structure: rules.knownMembers };
  let worker: Worker;
  try {
    worker = new Worker(new URL("./control-worker.js", import.meta.url), { workerData: start });
  } catch {
    return null;
  }
  const answer = new Promise<ControlAnswer | null>((resolve) => {
    worker.once("message", (m: unknown) => resolve(isAnswer(m) ? m : null));
    worker.once("error", () => resolve(null));
    worker.once("exit", () => resolve(null));
  });
  // Not waited on, the thread never holds the process open; waited on, it does until it answers.
  // After the listeners: one for its messages holds the process again.
  worker.unref();
  const handed = (pick: (a: ControlAnswer) => string[] | undefined): HandedVerdict => ({
    claim: () => {
      worker.ref();
      return answer.then((a) => (a === null ? null : (pick(a) ?? null)));
    },
  });
  return {
    named: (names) => {
      const pattern = userNamePattern(names.checked)?.source ?? "";
      const given: ControlNames = { all: names.all, checked: names.checked, guard: pattern !== "" };
      worker.postMessage(given);
      handVerdict([rules.secrets, names.grammar, rules.knownMembers, pattern], handed((a) => a.withNames));
      if (given.guard) handVerdict([rules.secrets, names.grammar, rules.knownMembers, ""], handed((a) => a.guard));
    },
    drop: () => void worker.terminate(),
  };
}
