import { isMap, isScalar, isSeq, parseDocument, type Document, type Node } from "yaml";
import { findBlocks, insertBlock, removeBlock } from "./blocks.js";
import { HOOKS as HOOK_NAMES, WRAPPER_DIR, type HookName } from "./shell.js";

// The gate's entries in lefthook.yml and .pre-commit-config.yaml, put in and taken out as marked
// blocks of lines, so every other byte of the file stays as the user wrote it. Each edit is
// proved by parsing the result: the file must mean what it meant before, plus the entry.
// Pure: text in, text out.

export const LEFTHOOK_SCRIPT = "clear-gate.sh";
export const PRE_COMMIT_ID: Record<HookName, string> = { "pre-commit": "clear-gate-pre-commit", "pre-push": "clear-gate-pre-push" };

/** An edit made, or the reason it cannot be made safely and the lines to add by hand. */
export type YamlEdit = { ok: true; text: string } | { ok: false; reason: string; lines: string[] };

type Json = Record<string, unknown>;

function parsed(text: string): { doc: Document; js: Json } | null {
  // lefthook and the pre-commit framework read a merge key (<<: *anchor) as the keys it brings in: so does this tool.
  const doc = parseDocument(text, { merge: true });
  if (doc.errors.length > 0) return null;
  const js = doc.toJS() as unknown;
  return { doc, js: js !== null && typeof js === "object" && !Array.isArray(js) ? (js as Json) : {} };
}

/** Where a new line goes after a node: the start of the line after the node's last character. */
function afterNode(text: string, node: Node): number {
  const end = node.range![1];
  if (end > 0 && text[end - 1] === "\n") return end;
  const nl = text.indexOf("\n", Math.max(0, end - 1));
  return nl === -1 ? text.length : nl + 1;
}

function columnOf(text: string, offset: number): number {
  return offset - (text.lastIndexOf("\n", offset - 1) + 1);
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf("\n", offset - 1) + 1;
}

function obj(value: unknown): Json | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Json) : undefined;
}

// ---- lefthook ----

export function lefthookEntry(js: Json, hook: HookName): Json | undefined {
  return obj(obj(obj(js[hook])?.scripts)?.[LEFTHOOK_SCRIPT]);
}

function lefthookLines(hook: HookName): string[] {
  return [`${LEFTHOOK_SCRIPT}:`, "  runner: sh", ...(hook === "pre-push" ? ["  use_stdin: true"] : [])];
}

function withoutLefthook(js: Json): string {
  const copy = structuredClone(js);
  for (const hook of HOOK_NAMES) {
    const section = obj(copy[hook]);
    const scripts = obj(section?.scripts);
    if (!section || !scripts || !(LEFTHOOK_SCRIPT in scripts)) continue;
    delete scripts[LEFTHOOK_SCRIPT];
    if (Object.keys(scripts).length === 0) delete section.scripts;
    if (Object.keys(section).length === 0) delete copy[hook];
  }
  return JSON.stringify(copy);
}

function lefthookInsert(text: string, doc: Document, hook: HookName): string | null {
  const lines = lefthookLines(hook);
  const whole = [`${hook}:`, "  scripts:", ...lines.map((l) => `    ${l}`)];
  const top = doc.contents;
  if (top === null || (isScalar(top) && top.value === null)) return insertBlock(text, text.length, 0, whole);
  if (!isMap(top) || top.flow) return null;
  const section = top.get(hook, true) as Node | undefined;
  if (section === undefined) return insertBlock(text, text.length, 0, whole);
  if (!isMap(section) || section.flow || section.items.length === 0) return null;
  const scripts = section.get("scripts", true) as Node | undefined;
  if (scripts === undefined) {
    const indent = columnOf(text, (section.items[0]!.key as Node).range![0]);
    return insertBlock(text, afterNode(text, section), indent, ["scripts:", ...lines.map((l) => `  ${l}`)]);
  }
  if (!isMap(scripts) || scripts.flow || scripts.items.length === 0) return null;
  const indent = columnOf(text, (scripts.items[0]!.key as Node).range![0]);
  return insertBlock(text, afterNode(text, scripts), indent, lines);
}

/** The language a lefthook config is written in, by its name: lefthook reads TOML and JSON as well as YAML. */
export type LefthookLanguage = "yaml" | "toml" | "json";

export function lefthookLanguage(file: string): LefthookLanguage {
  return /\.toml$/.test(file) ? "toml" : /\.jsonc?$/.test(file) ? "json" : "yaml";
}

/** The lines of the gate's whole entry for `hook`, as they are to be added by hand, in the config's own language. */
export function lefthookHandLines(hook: HookName, language: LefthookLanguage = "yaml"): string[] {
  const stdin = hook === "pre-push";
  if (language === "toml") return [`[${hook}.scripts."${LEFTHOOK_SCRIPT}"]`, 'runner = "sh"', ...(stdin ? ["use_stdin = true"] : [])];
  if (language === "json") return [`"${hook}": { "scripts": { "${LEFTHOOK_SCRIPT}": { "runner": "sh"${stdin ? ', "use_stdin": true' : ""} } } }${stdin ? "" : ","}`];
  return [`${hook}:`, "  scripts:", ...lefthookLines(hook).map((l) => `    ${l}`)];
}

/** lefthook.yml with the gate's script entry for `hook` (pre-push reads the refs on stdin). */
export function lefthookAdd(text: string, hook: HookName): YamlEdit {
  const manual = { ok: false as const, lines: lefthookHandLines(hook) };
  const before = parsed(text);
  if (before === null) return { ...manual, reason: "it is not YAML this tool can read" };
  if (lefthookEntry(before.js, hook)) return { ok: true, text };
  const after = lefthookInsert(text, before.doc, hook);
  const check = after === null ? null : parsed(after);
  if (after === null || check === null || lefthookEntry(check.js, hook)?.runner !== "sh" || withoutLefthook(check.js) !== withoutLefthook(before.js)) {
    return { ...manual, reason: `its ${hook} section is not a block mapping this tool can add to` };
  }
  return { ok: true, text: after };
}

export function yamlObject(text: string): Json | null {
  return parsed(text)?.js ?? null;
}

// ---- pre-commit ----

export function preCommitHook(js: Json, hook: HookName): Json | undefined {
  const repos = Array.isArray(js.repos) ? (js.repos as unknown[]) : [];
  for (const repo of repos) {
    const hooks = obj(repo)?.hooks;
    if (obj(repo)?.repo !== "local" || !Array.isArray(hooks)) continue;
    const found = hooks.map(obj).find((h) => h?.id === PRE_COMMIT_ID[hook]);
    if (found) return found;
  }
  return undefined;
}

export function preCommitEntryLines(stage: Record<HookName, string>): string[] {
  const hookLines = (hook: HookName): string[] => [
    `  - id: ${PRE_COMMIT_ID[hook]}`,
    `    name: clear gate (${hook})`,
    `    entry: sh ${WRAPPER_DIR}/${hook}`,
    "    language: system",
    "    pass_filenames: false",
    "    always_run: true",
    `    stages: [${stage[hook]}]`,
  ];
  return ["- repo: local", "  hooks:", ...hookLines("pre-commit").map((l) => `  ${l}`), ...hookLines("pre-push").map((l) => `  ${l}`)];
}

function withoutPreCommit(js: Json): string {
  const copy = structuredClone(js);
  if (Array.isArray(copy.repos)) {
    copy.repos = (copy.repos as unknown[]).filter((repo) => {
      const hooks = obj(repo)?.hooks;
      return !(obj(repo)?.repo === "local" && Array.isArray(hooks) && hooks.length > 0 && hooks.every((h) => String(obj(h)?.id).startsWith("clear-gate-")));
    });
  }
  const types = copy.default_install_hook_types;
  if (Array.isArray(types) && types.join(",") === "pre-commit,pre-push") delete copy.default_install_hook_types;
  return JSON.stringify(copy);
}

function preCommitInsertRepo(text: string, doc: Document, stage: Record<HookName, string>): string | null {
  const top = doc.contents;
  if (!isMap(top) || top.flow) return null;
  const repos = top.get("repos", true) as Node | undefined;
  if (repos === undefined || !isSeq(repos) || repos.flow || repos.items.length === 0) return null;
  const first = (repos.items[0] as Node).range![0];
  const from = lineStart(text, first);
  const indent = text.slice(from).length - text.slice(from).trimStart().length;
  if (text[from + indent] !== "-") return null;
  return insertBlock(text, afterNode(text, repos), indent, preCommitEntryLines(stage));
}

function preCommitInsertTypes(text: string, doc: Document): string | null {
  const top = doc.contents;
  if (!isMap(top) || top.flow || top.has("default_install_hook_types")) return text;
  const first = top.items[0]?.key as Node | undefined;
  if (!first) return null;
  return insertBlock(text, lineStart(text, first.range![0]), columnOf(text, first.range![0]), ["default_install_hook_types: [pre-commit, pre-push]"]);
}

/**
 * .pre-commit-config.yaml with a `repo: local` entry for both stages, and, where the file does not
 * say which hook types `pre-commit install` installs, both of them.
 */
export function preCommitAdd(text: string, stage: Record<HookName, string>): YamlEdit {
  const manual = { ok: false as const, lines: ["repos:", ...preCommitEntryLines(stage).map((l) => `  ${l}`)] };
  const before = parsed(text);
  if (before === null) return { ...manual, reason: "it is not YAML this tool can read" };
  let after: string | null = text;
  if (!preCommitHook(before.js, "pre-commit") && !preCommitHook(before.js, "pre-push")) after = preCommitInsertRepo(text, before.doc, stage);
  const mid = after === null ? null : parsed(after);
  if (mid !== null) after = preCommitInsertTypes(after!, mid.doc);
  const check = after === null ? null : parsed(after);
  if (after === null || check === null || !preCommitHook(check.js, "pre-push") || withoutPreCommit(check.js) !== withoutPreCommit(before.js)) {
    return { ...manual, reason: "its repos list is not a block sequence this tool can add to" };
  }
  return { ok: true, text: after };
}

export function installTypes(js: Json): string[] | null {
  return Array.isArray(js.default_install_hook_types) ? (js.default_install_hook_types as unknown[]).map(String) : null;
}

/** The file without the blocks this tool added, proved to mean the same as before less them. */
export function removeMarked(text: string, kind: "lefthook" | "pre-commit"): YamlEdit {
  let after = text;
  for (const block of findBlocks(text).reverse()) after = removeBlock(after, block);
  if (after === text) return { ok: true, text };
  const before = parsed(text);
  const check = parsed(after);
  const without = kind === "lefthook" ? withoutLefthook : withoutPreCommit;
  const ours = (js: Json): boolean => HOOK_NAMES.some((h) => (kind === "lefthook" ? lefthookEntry(js, h) : preCommitHook(js, h)) !== undefined);
  if (before === null || check === null || ours(check.js) || without(check.js) !== without(before.js)) {
    return { ok: false, reason: "the lines this tool added were changed since", lines: [] };
  }
  return { ok: true, text: after };
}
