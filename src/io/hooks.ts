import { chmodSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { git } from "./git.js";

// The git hooks that run the gate: written where git looks for hooks, calling this installation
// by absolute path; a foreign hook is kept beside ours and run first.

const HOOKS = ["pre-commit", "pre-push"] as const;
const MARK = "# clear: managed hook (clear hooks install)";
const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "cli.js");

function hooksDir(root: string): string {
  return path.resolve(root, git(["rev-parse", "--git-path", "hooks"], root).toString("utf8").trim());
}

function managedBy(root: string): string | null {
  try {
    return git(["config", "core.hooksPath"], root).toString("utf8").trim() || null;
  } catch {
    return null;
  }
}

function script(hook: string): string {
  const chained = `"$(dirname "$0")/${hook}.pre-clear"`;
  const head = `#!/bin/sh
${MARK}
CLEAR_CLI="${CLI}"
if [ ! -f "$CLEAR_CLI" ]; then
  echo "clear: the gate is no longer at $CLEAR_CLI; run 'npx clear hooks install' again from its new place" >&2
  exit 1
fi
`;
  const gate = `"${process.execPath}" "$CLEAR_CLI" gate ${hook}`;
  // pre-push reads the refs on stdin, which both the kept hook and the gate need.
  if (hook === "pre-push") return `${head}input=$(cat)\nif [ -x ${chained} ]; then\n  printf '%s\\n' "$input" | ${chained} "$@" || exit $?\nfi\nprintf '%s\\n' "$input" | ${gate} "$@"\n`;
  return `${head}if [ -x ${chained} ]; then\n  ${chained} "$@" || exit $?\nfi\nexec ${gate}\n`;
}

function linesForManager(): string[] {
  return HOOKS.map((h) => `  ${h}: "${process.execPath}" "${CLI}" gate ${h}`);
}

export function installHooks(root: string): { ok: boolean; lines: string[] } {
  const manager = managedBy(root);
  if (manager) return { ok: false, lines: [`core.hooksPath is ${manager}: a hook manager owns that folder, so nothing was written. Add these lines to its hooks:`, ...linesForManager()] };
  const dir = hooksDir(root);
  const lines: string[] = [];
  for (const hook of HOOKS) {
    const file = path.join(dir, hook);
    if (existsSync(file) && !readFileSync(file, "utf8").includes(MARK)) {
      renameSync(file, `${file}.pre-clear`);
      lines.push(`${hook}: a hook that is not this tool's was kept as ${hook}.pre-clear and runs first`);
    }
    writeFileSync(file, script(hook));
    chmodSync(file, 0o755);
    lines.push(`${hook}: installed in ${dir}`);
  }
  return { ok: true, lines };
}

export function uninstallHooks(root: string): string[] {
  const dir = hooksDir(root);
  const lines: string[] = [];
  for (const hook of HOOKS) {
    const file = path.join(dir, hook);
    if (existsSync(file) && readFileSync(file, "utf8").includes(MARK)) {
      rmSync(file);
      lines.push(`${hook}: removed`);
    }
    if (existsSync(`${file}.pre-clear`) && !existsSync(file)) {
      renameSync(`${file}.pre-clear`, file);
      lines.push(`${hook}: the hook that was there before is back`);
    }
  }
  return lines.length > 0 ? lines : ["no hook of this tool was installed"];
}

export function hookStatus(root: string): { ok: boolean; lines: string[] } {
  const manager = managedBy(root);
  if (manager) return { ok: false, lines: [`core.hooksPath is ${manager}: git runs the hooks there. Add these lines to them:`, ...linesForManager()] };
  const dir = hooksDir(root);
  const lines: string[] = [];
  let ok = true;
  for (const hook of HOOKS) {
    const file = path.join(dir, hook);
    const text = existsSync(file) ? readFileSync(file, "utf8") : null;
    const state = text === null ? "not installed" : !text.includes(MARK) ? "a hook that is not this tool's" : text === script(hook) ? "installed, current and used by git" : "installed but out of date (run clear hooks install)";
    if (state !== "installed, current and used by git") ok = false;
    lines.push(`${hook}: ${state}`);
  }
  return { ok, lines };
}
