import { existsSync, lstatSync, statSync, type Stats } from "node:fs";
import path from "node:path";
import { RulesError } from "../errors.js";
import { BUNDLED_RULES_DIR, holdsRules } from "./rules-dir.js";
import { checkWith, notJson, validatorFor } from "./schema-errors.js";
import { gitTopLevel } from "./top-level.js";

export { gitTopLevel };
import { readRegularFile } from "./read-capture-dir.js";
import type { ClearConfig, Rules } from "../types.js";

// The repository a command works in, and its clear.config.json.

export type { ClearConfig };

/** The repository root: --root when given, else git's top level for the current directory. */
export function repoRoot(rootFlag: string | undefined, cwd = process.cwd()): string | null {
  if (rootFlag !== undefined) {
    const abs = path.resolve(cwd, rootFlag);
    if (!existsSync(abs) || !statSync(abs).isDirectory()) throw new RulesError(`--root ${rootFlag}: not a directory`);
    return abs;
  }
  return gitTopLevel(cwd);
}

/** A config's text, parsed and checked against its schema; `shownAs` names it in errors. */
export function parseConfigText(text: string, shownAs: string): ClearConfig {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw notJson(shownAs, text);
  }
  checkWith(validatorFor("config"), "config", value, shownAs);
  return value as ClearConfig;
}

/** clear.config.json at the root, read without following a link; absent means the defaults. */
export function loadConfig(root: string | null): ClearConfig {
  if (root === null) return {};
  const file = path.join(root, "clear.config.json");
  const stat = lstatOrNull(file);
  if (stat === null) return {};
  if (stat.isSymbolicLink()) throw new RulesError(`${file}: is a symbolic link; the tool never reads its config through one (replace it with the file itself)`);
  const read = readRegularFile(file, { maxFileBytes: 1 << 20, maxDepth: 1 });
  if (!read.bytes) throw new RulesError(`${file}: ${read.problem?.message ?? "cannot be read"}`);
  return parseConfigText(Buffer.from(read.bytes).toString("utf8"), file);
}

/** What stands at a path, a link not followed; null when nothing does. */
export function lstatOrNull(file: string): Stats | null {
  try {
    return lstatSync(file);
  } catch {
    return null;
  }
}

/**
 * The rules folder laid over the bundled rules: the config's paths.rules, else the repository's own
 * rules/ when it holds rules files; else the bundled folder itself (nothing laid over).
 */
export function rulesDirFor(root: string | null, config: ClearConfig): string {
  if (root !== null && config.paths?.rules) return path.resolve(root, config.paths.rules);
  if (root !== null && holdsRules(path.join(root, "rules"))) return path.join(root, "rules");
  return BUNDLED_RULES_DIR;
}

/**
 * A sitting's folder as the record names it: from the repository's root when it lies inside (so a
 * clone anywhere gives the same batch), else as the display shows it.
 */
export function sittingShownFrom(root: string | null, dir: string, shownPath: (p: string) => string): string {
  const inside = root === null ? null : path.relative(root, dir);
  const within = inside !== null && inside !== "" && !inside.startsWith("..") && !path.isAbsolute(inside);
  return within ? shownPath(`${inside.split(path.sep).join("/")}/`) : shownPath(dir);
}

/** The rules with the config's declarations in force: every home grammar built from them (substitution, final check, scan, display) honours them. */
export function withDeclarations(rules: Rules, config: ClearConfig): Rules {
  const declared = config.declarations?.notPersons ?? [];
  return declared.length === 0 ? rules : { ...rules, homes: { ...rules.homes, declared } };
}
