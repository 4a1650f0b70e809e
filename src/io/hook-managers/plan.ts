import { chmodSync, mkdirSync, readdirSync, renameSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { UsageError } from "../../errors.js";
import { lstatOrNull } from "../repo.js";
import { showChange } from "./blocks.js";

// What install and uninstall will do, as a list of steps that can be shown before anything is
// written. Files this tool owns whole are written freely; a file the user owns is changed only
// with --yes, and where it cannot be changed safely the exact lines to add are printed instead.

export type Step =
  | { kind: "write"; file: string; text: string; executable: boolean }
  | { kind: "remove"; file: string; prune?: string }
  | { kind: "rename"; from: string; to: string }
  | { kind: "edit"; file: string; before: string | null; after: string | null; executable?: boolean }
  | { kind: "manual"; file: string; reason: string; lines: string[] };

export interface Plan {
  steps: Step[];
  notes: string[];
}

export function emptyPlan(): Plan {
  return { steps: [], notes: [] };
}

function rel(root: string, file: string): string {
  const r = path.relative(root, file);
  return r.startsWith("..") || path.isAbsolute(r) ? file : r;
}

function describe(root: string, step: Step, done: boolean): string[] {
  const is = done ? "" : "to be ";
  switch (step.kind) {
    case "write":
      return [`${rel(root, step.file)}: ${is}written (this tool's own file)`];
    case "remove":
      return [`${rel(root, step.file)}: ${is}removed (this tool's own file)`];
    case "rename":
      return [`${rel(root, step.from)}: ${is}moved to ${rel(root, step.to)}`];
    case "edit": {
      const what = is + (step.after === null ? "removed" : step.before === null ? "created" : "changed");
      return [`${rel(root, step.file)}: ${what}`, ...showChange(step.before ?? "", step.after ?? "").map((l) => `    ${l}`)];
    }
    case "manual":
      return [`${rel(root, step.file)}: not changed, since ${step.reason}; add these lines by hand:`, ...step.lines.map((l) => `    ${l}`)];
  }
}

export function pendingEdits(plan: Plan): boolean {
  return plan.steps.some((s) => s.kind === "edit");
}

export function needsHand(plan: Plan): boolean {
  return plan.steps.some((s) => s.kind === "manual");
}

/** The plan in words, as install and uninstall print it, before (`done` false) or after. */
export function describePlan(root: string, plan: Plan, done: boolean): string[] {
  return [...plan.steps.flatMap((s) => describe(root, s, done)), ...plan.notes];
}

function removeEmptyParents(file: string, stopAt: string): void {
  for (let dir = path.dirname(file); dir.startsWith(`${stopAt}${path.sep}`); dir = path.dirname(dir)) {
    if (readdirSync(dir).length > 0) return;
    rmdirSync(dir);
  }
}

/** The first link on the way from the repository root down to a file (the file itself included), or null. */
function linkOnTheWay(root: string, file: string): string | null {
  const rel = path.relative(root, file);
  if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel)) return null;
  let at = root;
  for (const part of rel.split(path.sep)) {
    at = path.join(at, part);
    if (lstatOrNull(at)?.isSymbolicLink()) return at;
  }
  return null;
}

/** A move onto a file that is there (and no earlier step moves or removes), or onto one an earlier step moved there, would lose it: nothing is done. */
function refuseLosingMoves(plan: Plan, root: string): void {
  const gone = new Set<string>();
  const arrived = new Set<string>();
  for (const step of plan.steps) {
    if (step.kind === "remove") gone.add(step.file);
    if (step.kind !== "rename") continue;
    if (arrived.has(step.to) || (lstatOrNull(step.to) !== null && !gone.has(step.to))) {
      throw new UsageError(`${rel(root, step.to)} is there already, and moving ${rel(root, step.from)} onto it would lose it; nothing was done`);
    }
    gone.add(step.from);
    gone.delete(step.to);
    arrived.add(step.to);
  }
}

/**
 * Carries the plan out, in order. Folders this tool made and emptied go too. Nothing is written
 * through a link inside the repository (a committed .clear, a hook linked elsewhere): where one
 * stands on the way to a file to write, and no earlier step moves it, nothing is done;
 * nor is anything where a move would lose a file (refuseLosingMoves).
 */
export function applyPlan(plan: Plan, root: string): void {
  const moved = new Set(plan.steps.flatMap((s) => (s.kind === "rename" ? [s.from] : s.kind === "remove" ? [s.file] : [])));
  for (const step of plan.steps) {
    const file = step.kind === "write" || (step.kind === "edit" && step.after !== null) ? step.file : null;
    const link = file === null ? null : linkOnTheWay(root, file);
    if (link !== null && !moved.has(link)) throw new UsageError(`${path.relative(root, link)} is a symbolic link on the way to ${path.relative(root, file as string)}; this tool never writes through one: replace it with the real folder or file, then run clear hooks install again`);
  }
  refuseLosingMoves(plan, root);
  for (const step of plan.steps) {
    if (step.kind === "write") {
      mkdirSync(path.dirname(step.file), { recursive: true });
      writeFileSync(step.file, step.text);
      if (step.executable) chmodSync(step.file, 0o755);
    } else if (step.kind === "remove") {
      rmSync(step.file, { force: true });
      if (step.prune !== undefined) removeEmptyParents(step.file, step.prune);
    } else if (step.kind === "rename") {
      renameSync(step.from, step.to);
    } else if (step.kind === "edit") {
      if (step.after === null) rmSync(step.file, { force: true });
      else {
        mkdirSync(path.dirname(step.file), { recursive: true });
        writeFileSync(step.file, step.after);
        if (step.executable) chmodSync(step.file, 0o755);
      }
    }
  }
}
