import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { git, gitLater, later, readBlobs } from "./git.js";

// A path whose attributes name a filter is stored as what the filter's clean side wrote (git-crypt's
// ciphertext, say): bytes the payload check cannot read as what they are. Git LFS is the one filter
// read through (its pointer, with the object it stands for). Which paths name another one, as git
// reckons it: from the .gitattributes of the index, of a commit or of the working tree, and from
// the repository's info/attributes and the user's attributes file.

const READ_THROUGH = new Set(["lfs"]);

/** Where the .gitattributes files are read from. */
export type AttributeSource = { index: true } | { worktree: true } | { commit: string };

/** `git check-attr filter` for many paths at once: each path that names a filter the gate cannot read through, with its name. */
function checkAttr(root: string, paths: AskedPath[], args: string[], env?: Record<string, string>): Map<string, string> {
  if (paths.length === 0) return new Map();
  const asked = Buffer.concat(paths.flatMap((p) => [typeof p === "string" ? Buffer.from(p) : p, NUL]));
  return filtersNamed(git(["check-attr", "-z", "--stdin", ...args, "filter"], root, asked, env));
}

/** A path as git is asked about it: its name, or its bytes where they are not UTF-8 (git answers with them, read as the name shows). */
export type AskedPath = string | Buffer;
const NUL = Buffer.from([0]);
const shownName = (p: AskedPath): string => (typeof p === "string" ? p : p.toString("utf8"));

/** `filteredPaths` of the working tree, from a git started now and read later. */
export function filteredPathsLater(root: string, paths: string[]): Promise<Map<string, string>> {
  if (paths.length === 0) return Promise.resolve(new Map());
  return later(gitLater(["check-attr", "-z", "--stdin", "filter"], root, `${paths.join("\0")}\0`).then(filtersNamed));
}

/** check-attr's "path NUL attribute NUL value NUL" records: each path whose filter the gate cannot read through, with its name. */
function filtersNamed(answer: Buffer): Map<string, string> {
  const out = new Map<string, string>();
  const fields = answer.toString("utf8").split("\0");
  for (let i = 0; i + 2 < fields.length; i += 3) {
    const [file, value] = [fields[i] as string, fields[i + 2] as string];
    if (!["unspecified", "unset", "set", ""].includes(value) && !READ_THROUGH.has(value)) out.set(file, value);
  }
  return out;
}

/** Every folder a path lies in, from the root down, as the prefix of its .gitattributes ("" for the root's). */
function foldersOf(paths: string[]): string[] {
  const folders = new Set<string>([""]);
  for (const p of paths) for (let at = p.indexOf("/"); at !== -1; at = p.indexOf("/", at + 1)) folders.add(`${p.slice(0, at)}/`);
  return [...folders];
}

/**
 * Asks git of a commit's attributes: its .gitattributes files, on the way to these paths, are read
 * first; where none names a word of `words`, only the repository's and the user's attributes apply
 * (an empty index), else the commit's tree is read into a scratch index.
 */
function inCommit<T>(root: string, paths: AskedPath[], commit: string, words: RegExp, ask: (env: Record<string, string>) => T): T {
  const names = foldersOf(paths.map(shownName)).map((f) => `${commit}:${f}.gitattributes`);
  const texts = [...readBlobs(names, root).values()];
  const scratch = mkdtempSync(path.join(os.tmpdir(), "clear-attributes-"));
  try {
    const env = { GIT_INDEX_FILE: path.join(scratch, "index") };
    // A folder named in bytes that are not UTF-8 cannot be named to read its .gitattributes: the whole tree is read then.
    const unnamed = paths.some((p) => typeof p !== "string");
    if (unnamed || texts.some((t) => words.test(t.toString("latin1")))) git(["read-tree", commit], root, undefined, env);
    return ask(env);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The paths (of those given) whose attributes name a filter the gate cannot read through, each with the filter's name. */
export function filteredPaths(root: string, paths: AskedPath[], source: AttributeSource): Map<string, string> {
  if (paths.length === 0) return new Map();
  if ("commit" in source) return inCommit(root, paths, source.commit, /filter/i, (env) => checkAttr(root, paths, ["--cached"], env));
  return checkAttr(root, paths, "index" in source ? ["--cached"] : []);
}

/** An attribute's value as it may be shown: a plain word, else masked. */
const shownValue = (value: string): string => (/^[A-Za-z0-9._-]{1,40}$/.test(value) ? value : "[masked]");
const isGiven = (value: string | undefined): value is string => value !== undefined && value !== "unspecified" && value !== "unset";

/**
 * What makes git itself write a path's checkout in other bytes than it stores, in every clone, from
 * the path's attributes: an encoding for the working tree (not UTF-8, git's own), $Id$ expanded, or
 * CRLF line ends where the file is text (eol=crlf, not undone by -text, nor by -crlf where text is given). Null where the checkout is the stored bytes. A
 * filter is not among them: its smudge is each clone's own configuration, and a clone without it
 * checks out the stored bytes.
 */
function checkoutChange(attributes: Map<string, string>): string | null {
  const encoding = attributes.get("working-tree-encoding");
  // UTF-8 is git's own encoding: git converts nothing to it.
  if (isGiven(encoding) && !/^utf-?8$/i.test(encoding)) return `working-tree-encoding=${shownValue(encoding)}`;
  if (attributes.get("ident") === "set") return "ident";
  // text, where it is given, decides; the older crlf attribute counts only where text is not given (-crlf is -text then).
  const text = attributes.get("text");
  const isText = isGiven(text) || (text !== "unset" && attributes.get("crlf") !== "unset");
  if (attributes.get("eol") === "crlf" && isText) return "eol=crlf";
  return null;
}

/** `git check-attr -a` for many paths at once: each path's attributes that are given, by name. */
function givenAttributes(root: string, paths: AskedPath[], args: string[], env?: Record<string, string>, options: string[] = []): Map<string, Map<string, string>> {
  const asked = Buffer.concat(paths.flatMap((p) => [typeof p === "string" ? Buffer.from(p) : p, NUL]));
  return attributesIn(git([...options, "check-attr", "-z", "--stdin", "-a", ...args], root, asked, env));
}

/** check-attr -a's "path NUL attribute NUL value NUL" records, by path and attribute. */
function attributesIn(answer: Buffer): Map<string, Map<string, string>> {
  const fields = answer.toString("utf8").split("\0");
  const out = new Map<string, Map<string, string>>();
  for (let i = 0; i + 2 < fields.length; i += 3) {
    const file = fields[i] as string;
    const given = out.get(file) ?? new Map<string, string>();
    given.set(fields[i + 1] as string, fields[i + 2] as string);
    out.set(file, given);
  }
  return out;
}

/**
 * The paths (of those given) whose attributes make a checkout write other bytes than git stores,
 * each with the attribute that does: a fixture so checked out is not the accepted bytes in any clone.
 */
export function checkoutChangedPaths(root: string, paths: string[], source: AttributeSource): Map<string, string> {
  if (paths.length === 0) return new Map();
  const given =
    "commit" in source
      ? inCommit(root, paths, source.commit, /encoding|ident|eol|crlf/i, (env) => givenAttributes(root, paths, ["--cached"], env))
      : givenAttributes(root, paths, "index" in source ? ["--cached"] : []);
  return changedBy(given);
}

/** Each path whose attributes change its checkout, with the attribute that does. */
function changedBy(given: Map<string, Map<string, string>>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [file, attributes] of given) {
    const change = checkoutChange(attributes);
    if (change !== null) out.set(file, change);
  }
  return out;
}

/** `checkoutChangedPaths` of the working tree, from a git started now and read later. */
export function checkoutChangedPathsLater(root: string, paths: string[]): Promise<Map<string, string>> {
  if (paths.length === 0) return Promise.resolve(new Map());
  return later(gitLater(["check-attr", "-z", "--stdin", "-a"], root, `${paths.join("\0")}\0`).then((answer) => changedBy(attributesIn(answer))));
}

/** Why a filtered path cannot be checked, said in a finding. */
export function filteredWhy(filter: string): string {
  const name = /^[A-Za-z0-9._-]{1,40}$/.test(filter) ? filter : "[masked]";
  return `its git attributes (.gitattributes, or info/attributes) give it filter=${name}, so git stores what that filter writes, which the check cannot read as what it is; take the filter off this path, or keep the file out of the repository`;
}

/** A GitHub attribute given true: set, or any value but false. */
const isTrue = (value: string | undefined): boolean => isGiven(value) && value !== "false";

/**
 * What shows a reviewer something else than the text git stores of the record (or of
 * clear.config.json, whose declarations a batch accepts), or makes a checkout of it other bytes;
 * null where nothing does. Refused: -diff and binary (no diff shown), diff=<driver> (a textconv of
 * the reviewer's configuration may show anything; built-in names too, which configuration may
 * override), linguist-generated and linguist-vendored (GitHub collapses the diff), a filter (LFS
 * too: the record would be a pointer), ident, working-tree-encoding (any, UTF-8 too), eol other
 * than lf, crlf set or given a value, and encoding (git gui's). Allowed: text and text=auto (git's
 * own reading of a text file), eol=lf, which never adds a byte on checkout, and -text (-crlf, its
 * older name): git checks the bytes out as it stores them and still shows their diff, and this
 * project's own advice gives fixtures/** -text. Where a value is not one of these, it is refused:
 * this file has no need of any other.
 */
function shownOtherwise(attributes: Map<string, string>): string | null {
  const diff = attributes.get("diff");
  if (attributes.get("binary") === "set") return "binary";
  if (diff === "unset") return "-diff";
  if (isGiven(diff) && diff !== "set") return `diff=${shownValue(diff)}`;
  for (const linguist of ["linguist-generated", "linguist-vendored"]) if (isTrue(attributes.get(linguist))) return linguist;
  const filter = attributes.get("filter");
  if (isGiven(filter)) return filter === "set" ? "filter" : `filter=${shownValue(filter)}`;
  if (attributes.get("ident") === "set") return "ident";
  for (const name of ["working-tree-encoding", "encoding", "crlf"]) {
    const value = attributes.get(name);
    if (value === "unset" && name !== "crlf") return `-${name}`;
    if (isGiven(value)) return value === "set" ? name : `${name}=${shownValue(value)}`;
  }
  const text = attributes.get("text");
  if (isGiven(text) && text !== "set" && text !== "auto") return `text=${shownValue(text)}`;
  const eol = attributes.get("eol");
  if (isGiven(eol) && eol !== "lf") return `eol=${shownValue(eol)}`;
  return null;
}

// On macOS and Windows git matches patterns in any letter case (core.ignorecase): "clearance.md -diff"
// hides the record from a reviewer there, wherever the check runs.
const CASE_FOLDED = ["-c", "core.ignorecase=true"];

/** Any word at all: a macro defined elsewhere (info/attributes) may be named in a .gitattributes by any name. */
const ANY_WORD = /\S/;

/**
 * The paths (of those given: the record, clear.config.json) whose attributes show a reviewer
 * other than the text git stores, or check them out in other bytes, each with the attribute that does.
 */
export function shownOtherwisePaths(root: string, paths: string[], source: AttributeSource): Map<string, string> {
  if (paths.length === 0) return new Map();
  const given =
    "commit" in source
      ? inCommit(root, paths, source.commit, ANY_WORD, (env) => givenAttributes(root, paths, ["--cached"], env, CASE_FOLDED))
      : givenAttributes(root, paths, "index" in source ? ["--cached"] : [], undefined, CASE_FOLDED);
  const out = new Map<string, string>();
  for (const [file, attributes] of given) {
    const shown = shownOtherwise(attributes);
    if (shown !== null) out.set(file, shown);
  }
  return out;
}
