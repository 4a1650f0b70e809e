import { lstatSync, type Stats } from "node:fs";
import path from "node:path";
import { sha256Hex } from "../digest.js";
import { FixtureError, fixFor, shownPath } from "./errors.js";
import { CONFIG_FILE, layoutOf, type FixtureLayout } from "./layout.js";
import { readBelow, wayBelow, type Refusal } from "./no-link.js";
import { indexRecord, type Listing, type RecordIndex } from "./record-index.js";

// A repository as the library sees it: its layout, read once, and its record, read once and
// again only when the file changed on disk (a watch mode that outlives an edit of CLEARANCE.md
// never judges by the old text). Every fixture's bytes are checked against the listing in force.

/** A record larger than this is not read (a record of 2,000 fixtures is under 1 MB). */
const MAX_RECORD_BYTES = 256 * 1024 * 1024;
const RUN = "npx fixture-clear run";
/**
 * A file system keeps times to its own resolution (a clock tick, a second, two on FAT): an edit
 * of the same size within it leaves the stamp as it was. A record read this soon after it was
 * written is compared byte for byte at each load until it is older, as git does with an index
 * it calls racily clean.
 */
const RACY_MS = 3000;

interface RecordRead {
  stamp: string;
  index: RecordIndex;
  bytes: Buffer;
  /** Read so soon after it was written that its stamp cannot vouch for its bytes. */
  racy: boolean;
}

interface Stamp {
  stamp: string;
  /** Written so soon before it was looked at that its stamp cannot vouch for its bytes. */
  racy: boolean;
}

export interface Repository {
  root: string;
  layout: FixtureLayout;
  /** clear.config.json's stamp when the layout was read from it. */
  config: Stamp;
  record: RecordRead | null;
}

const repositories = new Map<string, Repository>();

/** A file's identity, size and times ("none" where nothing is there), taken before it is read. */
function stampOf(file: string): Stamp {
  const stat = lstatOrNull(file);
  if (stat === null) return { stamp: "none", racy: false };
  // A time ahead of this clock (another machine's, on a shared disk) is racy too, until this clock passes it.
  return { stamp: `${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`, racy: Date.now() - Math.max(stat.mtimeMs, stat.ctimeMs) < RACY_MS };
}

/**
 * The repository at `root`, its layout read again when clear.config.json changed on disk (or
 * cannot tell yet), as the record is: a config that moves the record or the fixtures mid-process
 * is followed, never the places an older config named.
 */
export function repositoryAt(root: string): Repository {
  const config = stampOf(path.join(root, CONFIG_FILE));
  const repo = repositories.get(root);
  if (repo && repo.config.stamp === config.stamp && !repo.config.racy) return repo;
  const layout = layoutOf(root);
  if (repo && repo.layout.fixtures === layout.fixtures && repo.layout.record === layout.record) {
    repo.config = config;
    return repo;
  }
  const fresh: Repository = { root, layout, config, record: null };
  repositories.set(root, fresh);
  return fresh;
}

/** Why the record could not be read as it stands: a link, a file this user may not read, no regular file. */
function recordRefused(read: { refused: Refusal; at: string; detail: string }, fixture: string | null): FixtureError {
  const code = read.refused === "link" ? "link" : read.refused === "unreadable" ? "unreadable" : "record";
  return new FixtureError(code, fixture, `${read.at} ${read.detail}; ${fixFor(read.refused, "the record is read only from a regular file")}`);
}

/** The record's index, read again when the file's identity, size or times moved, or when they cannot tell yet; `fixture` is named in errors. */
export function recordOf(repo: Repository, fixture: string | null): RecordIndex {
  const name = repo.layout.record;
  let stat;
  try {
    stat = lstatSync(path.join(repo.root, name));
  } catch (err) {
    // A folder on the way this user may not look into (EACCES) hides the record: it is not said to be missing.
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") throw recordRefused({ refused: "unreadable", at: name, detail: `could not be looked at (${code ?? "unknown error"})` }, fixture);
    const why = `no fixture counts as accepted until ${RUN} writes a batch and a person writes ACCEPT under it`;
    const other = "(or pass { root } to read another repository)";
    throw new FixtureError("record", fixture, `${name} is not there in the repository ${shownPath(repo.root)}: ${why} ${other}`);
  }
  const stamp = `${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`;
  const known = repo.record;
  // A folder on the way swapped for a link leaves the record's own stamp as it was: the way is checked at each load.
  if (known?.stamp === stamp && !known.racy && wayBelow(repo.root, name) === null) return known.index;
  const readAt = Date.now();
  const read = readBelow(repo.root, name, MAX_RECORD_BYTES);
  if ("refused" in read) throw recordRefused(read, fixture);
  const index = known?.bytes.equals(read.bytes) ? known.index : indexRecord(read.bytes, name, fixture);
  // A time ahead of this clock (another machine's, on a shared disk) is racy too, until this clock passes it.
  repo.record = { stamp, index, bytes: read.bytes, racy: readAt - Math.max(stat.mtimeMs, stat.ctimeMs) < RACY_MS };
  return index;
}

/** Why `rel` has no listing in force; `fixture` is what was asked for, named first when `rel` is its sidecar. */
function notInForce(index: RecordIndex, rel: string, onDisk: boolean, fixture: string): FixtureError {
  const listings = index.listings.get(rel) ?? [];
  const last = listings.at(-1);
  const about = rel === fixture ? "" : `its sidecar ${rel}: `;
  const what = rel === fixture ? "fixture" : "sidecar";
  if (last === undefined) {
    if (!onDisk) return new FixtureError("not-found", fixture, `${about}no such ${what}, and no accepted batch lists one`);
    const why = `no batch of the record lists this ${what}, so nothing says a person accepted these bytes`;
    return new FixtureError("not-accepted", fixture, `${about}${why}; clear its capture with ${RUN} and write ACCEPT under the new batch`);
  }
  if (last.status === "edited") {
    const why = `batch ${last.batch} carries ACCEPT, but its text changed after it was written, so its acceptance no longer counts`;
    return new FixtureError("edited", fixture, `${about}${why}; restore the record or run ${RUN} again and accept the new batch`);
  }
  const todo = `read the batch in the record and write ACCEPT alone on the line under its "## User acceptance" heading`;
  return new FixtureError("pending", fixture, `${about}only batch ${last.batch} lists it, and that batch awaits ACCEPT; ${todo}`);
}

/** The listing in force for `rel`, or the error that says why there is none, naming `fixture` (the one asked for, when `rel` is its sidecar). */
export function listingInForce(repo: Repository, index: RecordIndex, rel: string, fixture = rel): Listing {
  const listing = index.inForce.get(rel);
  if (listing) return listing;
  throw notInForce(index, rel, lstatOrNull(path.join(repo.root, rel)) !== null, fixture);
}

function lstatOrNull(p: string): Stats | null {
  try {
    return lstatSync(p);
  } catch {
    return null;
  }
}

const short = (sha: string): string => `${sha.slice(0, 12)}…`;

/** The bytes at `rel`, read without a link, when they are the ones `listing` accepted; `fixture` is what was asked for. */
export function acceptedBytes(repo: Repository, index: RecordIndex, rel: string, listing: Listing, fixture: string): { bytes: Buffer; sha256: string } {
  const read = readBelow(repo.root, rel, listing.bytes);
  const about = rel === fixture ? "" : `its sidecar ${rel}: `;
  if ("refused" in read && read.refused !== "oversize") {
    if (read.refused === "missing") {
      throw new FixtureError("missing", fixture, `${about}batch ${listing.batch} accepted it, and it is not there; restore it from git`);
    }
    const code = read.refused === "link" ? "link" : read.refused === "unreadable" ? "unreadable" : "not-a-file";
    throw new FixtureError(code, fixture, `${about}${read.at} ${read.detail}; ${fixFor(read.refused, "fixtures are read only from regular files inside the repository")}`);
  }
  const sha256 = "bytes" in read ? sha256Hex(read.bytes) : null;
  if ("bytes" in read && sha256 === listing.sha256) return { bytes: read.bytes, sha256 };
  throw changedError(repo, index, rel, listing, fixture, "bytes" in read ? read.bytes : null);
}

/** Bytes larger than the accepted ones are read, to say why they differ, up to this much. */
const MAX_EXPLAINED_BYTES = 64 * 1024 * 1024;

/** Why the bytes at `rel` are not the ones `listing` accepted; `read` are they, when no larger than those. */
function changedError(repo: Repository, index: RecordIndex, rel: string, listing: Listing, fixture: string, read: Buffer | null): FixtureError {
  const listings = index.listings.get(rel) ?? [];
  // Larger bytes are read again (never handed on) to tell a line-ending conversion, or a pending batch's listing, from any change.
  const bound = Math.min(MAX_EXPLAINED_BYTES, listings.reduce((most, l) => Math.max(most, l.bytes), 2 * listing.bytes + 3));
  const again = read === null ? readBelow(repo.root, rel, bound) : { bytes: read };
  const bytes = "bytes" in again ? again.bytes : null;
  const sha256 = bytes === null ? null : sha256Hex(bytes);
  const about = rel === fixture ? "" : `its sidecar ${rel}: `;
  const accepted = `batch ${listing.batch} accepted (sha256 ${short(listing.sha256)})`;
  const converted = bytes === null ? null : conversionOf(bytes, listing.sha256, repo.layout.fixtures, rel);
  if (converted !== null) return new FixtureError("changed", fixture, `${about}its bytes differ from those ${accepted} only in that ${converted}`);
  const now = read === null || sha256 === null ? `are more than the ${listing.bytes}` : `(sha256 ${short(sha256)}) differ from those`;
  const waiting = listings.find((l) => l.status !== "accepted" && l.sha256 === sha256);
  const state = waiting?.status === "pending" ? "awaits ACCEPT" : "was edited after ACCEPT";
  const note = waiting ? `; batch ${waiting.batch} lists these bytes and ${state}` : "";
  const todo = `restore them from git or clear the capture again with ${RUN} and accept the new batch`;
  return new FixtureError("changed", fixture, `${about}its bytes ${now} ${accepted}; ${todo}${note}`);
}

const BOM = "\xef\xbb\xbf";

/**
 * What turned the accepted bytes into `bytes`, where only a byte order mark or the line endings
 * differ (git's core.autocrlf or a text/eol attribute, an editor), with what to do; else null.
 */
function conversionOf(bytes: Buffer, accepted: string, fixtures: string, rel: string): string | null {
  const text = bytes.toString("latin1");
  const bom = text.startsWith(BOM);
  const body = bom ? text.slice(BOM.length) : text;
  const endings: [string, string | null][] = [
    [body, null],
    [body.replace(/\r\n/g, "\n"), "their line endings are CRLF where the accepted ones are LF"],
    [body.replace(/\r?\n/g, "\r\n"), "their line endings are LF where the accepted ones are CRLF"],
  ];
  const found = endings.find(([candidate, eol]) => (bom || eol !== null) && candidate !== text && sha256Hex(Buffer.from(candidate, "latin1")) === accepted);
  if (found === undefined) return null;
  const what = [bom ? "a byte order mark stands at their start" : null, found[1]].filter((w) => w !== null).join(" and ");
  if (found[1] === null) return `${what} (an editor saved it so); restore it from git (git checkout -- ${rel}) and keep the editor from adding one`;
  const why = "git's core.autocrlf or a text or eol attribute in .gitattributes converted them on checkout, or an editor did";
  const todo = `keep fixtures byte for byte with the line "${fixtures}/** -text" at the end of .gitattributes, then check them out again (git rm -r -q --cached ${fixtures} && git checkout HEAD -- ${fixtures})`;
  return `${what}: ${why}; ${todo}`;
}
