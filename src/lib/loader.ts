import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Provenance } from "../types.js";
import { acceptedBytes, listingInForce, recordOf, repositoryAt, type Repository } from "./accepted.js";
import { FixtureError } from "./errors.js";
import { compareHostVersions, isHostVersion } from "./host-version.js";
import type { Listing, RecordIndex } from "./record-index.js";
import { findRepository } from "./repository.js";

// loadFixture and listFixtures: a fixture is handed to a test only when its bytes and its
// provenance sidecar are the ones an accepted batch of the record lists.

/** A fixture by its place in the layout: fixtures/<harness>/<version>/<event>.json. */
export interface FixtureQuery {
  /** `claude-code`, `codex`, `opencode`. */
  harness: string;
  /** The dotted host version (`2.1.261`), or `latest` for the newest accepted version of the event. */
  version: string;
  /** The event's snake-case stem, as in the file name (`pre_tool_use`, `tool_execute_before`). */
  event: string;
}

export interface Where {
  /** The repository's top folder; by default the one holding the calling file, else the current directory's. */
  root?: string;
}

/** A fixture an accepted batch lists, as listFixtures gives it (loadFixture takes it as it is). */
export interface AcceptedFixture extends FixtureQuery {
  /** From the repository's root, as the record lists it. */
  path: string;
  sha256: string;
  bytes: number;
  /** The accepted batch whose listing is in force. */
  batch: string;
}

export interface LoadedFixture<Payload = unknown> extends AcceptedFixture {
  /** The fixture's absolute path on disk. */
  file: string;
  payload: Payload;
  /** The raw bytes, exactly as accepted (what a host sent, cleared): hand these to a hook's stdin. */
  raw: Buffer;
  provenance: Provenance;
}

// One folder or file name: no separator, no dot folder, nothing a terminal would hide or turn (a control, format or line-separator character), no lone surrogate (written to disk as U+FFFD, another name).
const SAFE_SEGMENT = /^(?!\.\.?$)[^/\\\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]+$/u;
const SNAKE = /^[a-z0-9]+(?:_[a-z0-9]+)*$/;
const RUN = "npx fixture-clear run";
const LATEST = "latest";
type Layout = Repository["layout"];

function fixturePathOf(layout: Layout, q: FixtureQuery): string {
  return `${layout.fixtures}/${q.harness}/${q.version}/${q.event}.json`;
}

/**
 * The harness, version and event of a path from the repository's root, when it names a fixture of
 * the layout. A folder named `latest` holds none: a query's `latest` is the newest version, so a
 * fixture there could be listed under one path and loaded from another. An event is a snake-case
 * stem, as a query asks for it, so that each fixture listed can be asked for as it is listed.
 */
function fixtureOfPath(rel: string, layout: Layout): FixtureQuery | null {
  const prefix = `${layout.fixtures}/`;
  const parts = rel.startsWith(prefix) ? rel.slice(prefix.length).split("/") : [];
  const [harness, version, file] = parts;
  if (parts.length !== 3 || !file?.endsWith(".json") || file.endsWith(".provenance.json") || version === LATEST) return null;
  const fixture = { harness: harness as string, version: version as string, event: file.slice(0, -".json".length) };
  return [fixture.harness, fixture.version].every((p) => SAFE_SEGMENT.test(p)) && SNAKE.test(fixture.event) ? fixture : null;
}

/** A query's part as a message shows it, without calling any code of the caller's (an object's toString may throw, or be missing). */
function shownPart(part: unknown): string {
  if (typeof part === "string") return part;
  if (typeof part === "function" || (typeof part === "object" && part !== null)) return Array.isArray(part) ? "<array>" : `<${typeof part}>`;
  return String(part);
}

/** The query's parts, each read once (a getter or a proxy answers once), checked, and copied. */
function checkedQuery(given: FixtureQuery, layout: Layout): FixtureQuery {
  const query: Record<keyof FixtureQuery, unknown> = { harness: given.harness, version: given.version, event: given.event };
  const shown = fixturePathOf(layout, { harness: shownPart(query.harness), version: shownPart(query.version), event: shownPart(query.event) });
  for (const key of ["harness", "version", "event"] as const) {
    const part = query[key];
    if (typeof part !== "string" || !SAFE_SEGMENT.test(part)) {
      const pattern = fixturePathOf(layout, { harness: "<harness>", version: "<version>", event: "<event>" });
      throw new FixtureError("query", shown, `${key} must be one folder or file name of the layout ${pattern}`);
    }
  }
  const checked = query as FixtureQuery;
  if (!SNAKE.test(checked.event)) {
    const stem = checked.event.replace(/([a-z0-9])([A-Z])/g, "$1_$2").replace(/[^A-Za-z0-9]+/g, "_").toLowerCase();
    throw new FixtureError("query", shown, `event is the snake-case stem of the fixture's file name (such as ${stem}), not the host's own spelling`);
  }
  return checked;
}

/** A file: URL as a path of this machine; one with a host, or an encoded slash, is a wrong query. */
function pathOfUrl(url: string): string {
  try {
    return fileURLToPath(url);
  } catch (err) {
    throw new FixtureError("query", null, `${JSON.stringify(url.slice(0, 200))} is not a file: URL of a path on this machine (${(err as NodeJS.ErrnoException).code ?? "not a URL"}); give the fixture's path from the repository's root`);
  }
}

/** A fixture given by its path: from the repository's root as the record lists it, absolute, or a file: URL. */
function queryOfPath(given: string | URL, repo: Repository): FixtureQuery {
  const asText = given instanceof URL ? given.href : given;
  // Read as text, "." and ".." would name what the file system may not ("<fixture>.json/." is no folder): a path is given as the record lists it.
  if (!asText.startsWith("file:") && asText.split(/[\\/]/).some((part) => part === "." || part === "..")) {
    throw new FixtureError("query", null, `a path with a "." or ".." part names a fixture only as text; give the fixture's path as the record lists it, from the repository's root`);
  }
  const absolute = asText.startsWith("file:") ? pathOfUrl(asText) : path.isAbsolute(asText) ? asText : null;
  // A separator at the end names a folder ("<fixture>.json/", a file: URL's "<fixture>.json/."), which a fixture is not.
  if (/[\\/]$/.test(absolute ?? asText)) {
    throw new FixtureError("query", null, `a path that ends with a separator names a folder, not a fixture; give the fixture's path as the record lists it, from the repository's root`);
  }
  const rel = absolute === null ? path.posix.normalize(asText) : path.relative(repo.root, absolute).split(path.sep).join("/");
  const found = fixtureOfPath(rel, repo.layout);
  if (found) return found;
  const where = rel.startsWith("../") || path.isAbsolute(rel) ? "a path outside the repository" : rel;
  if (rel.startsWith(`${repo.layout.fixtures}/`) && rel.split("/").at(-2) === LATEST) {
    const ask = `ask { harness, version: "${LATEST}", event } for the newest accepted version`;
    throw new FixtureError("query", where, `a path names one fixture, and no fixture stands in a folder named ${LATEST}; ${ask}`);
  }
  const layout = fixturePathOf(repo.layout, { harness: "<harness>", version: "<version>", event: "<snake_event>" });
  throw new FixtureError("query", where, `not a fixture of this repository: fixtures are ${layout}, given from the repository's root`);
}

const byRelease = (a: AcceptedFixture, b: AcceptedFixture): number =>
  a.harness !== b.harness ? (a.harness < b.harness ? -1 : 1) : compareHostVersions(a.version, b.version) || (a.event < b.event ? -1 : 1);

// Worked out once per reading of the record: `latest` costs a lookup, not a sort, per load.
const acceptedByIndex = new WeakMap<RecordIndex, readonly AcceptedFixture[]>();

/** Every fixture with a listing in force, in release order. */
function acceptedOf(index: RecordIndex, layout: Layout): readonly AcceptedFixture[] {
  const known = acceptedByIndex.get(index);
  if (known) return known;
  const out: AcceptedFixture[] = [];
  for (const [p, listing] of index.inForce) {
    const fixture = fixtureOfPath(p, layout);
    if (fixture) out.push(Object.freeze({ ...fixture, path: p, sha256: listing.sha256, bytes: listing.bytes, batch: listing.batch }));
  }
  out.sort(byRelease);
  acceptedByIndex.set(index, out);
  return out;
}

/** The newest accepted version of each harness and event among `fixtures`; a folder that is not a version (`unknown`) is never the newest. */
function newestOf(fixtures: readonly AcceptedFixture[]): AcceptedFixture[] {
  const newest = new Map<string, AcceptedFixture>();
  for (const f of fixtures) {
    if (!isHostVersion(f.version)) continue;
    const key = `${f.harness}\u0000${f.event}`;
    const known = newest.get(key);
    if (!known || compareHostVersions(f.version, known.version) > 0) newest.set(key, f);
  }
  return fixtures.filter((f) => newest.get(`${f.harness}\u0000${f.event}`) === f);
}

const versionsByIndex = new WeakMap<RecordIndex, Map<string, string[]>>();

/** The accepted versions of the query's harness and event, oldest first. */
function versionsOf(index: RecordIndex, layout: Layout, q: FixtureQuery): string[] {
  let byEvent = versionsByIndex.get(index);
  if (!byEvent) {
    byEvent = new Map();
    for (const f of acceptedOf(index, layout)) {
      const key = `${f.harness}\u0000${f.event}`;
      const versions = byEvent.get(key);
      if (versions) versions.push(f.version);
      else byEvent.set(key, [f.version]);
    }
    versionsByIndex.set(index, byEvent);
  }
  return byEvent.get(`${q.harness}\u0000${q.event}`) ?? [];
}

function latestVersion(repo: Repository, index: RecordIndex, q: FixtureQuery): string {
  const accepted = versionsOf(index, repo.layout, q);
  const newest = accepted.filter(isHostVersion).at(-1);
  if (newest !== undefined) return newest;
  const shown = fixturePathOf(repo.layout, { ...q, version: "<latest>" });
  const todo = `capture it, clear it with ${RUN} and write ACCEPT under the batch`;
  const others = accepted.length === 0 ? "" : ` (only folders that are not host versions: ${accepted.join(", ")}; ask for one by name)`;
  throw new FixtureError("not-found", shown, `no version of ${q.harness} ${q.event} is accepted${others}; ${todo}`);
}

/** The listing in force; where there is no such fixture, the error says which versions of the event are accepted. */
function inForce(repo: Repository, index: RecordIndex, q: FixtureQuery, rel: string): Listing {
  try {
    return listingInForce(repo, index, rel);
  } catch (err) {
    if (!(err instanceof FixtureError) || err.code !== "not-found") throw err;
    const versions = versionsOf(index, repo.layout, q);
    const what = `${q.harness} ${q.event}`;
    const known = versions.length > 0 ? `accepted versions of ${what}: ${versions.join(", ")}` : `no version of ${what} is accepted`;
    throw new FixtureError("not-found", rel, `no such fixture, and no accepted batch lists one (${known})`);
  }
}

// Bytes that are not UTF-8 are refused, never parsed with U+FFFD in place of what the host sent; a byte order mark is kept, so JSON.parse refuses it.
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function parsedJson(raw: Buffer, rel: string, fixture: string): unknown {
  const whose = rel === fixture ? "its" : `its sidecar ${rel}:`;
  let text: string;
  try {
    text = UTF8.decode(raw);
  } catch {
    throw new FixtureError("not-json", fixture, `${whose} accepted bytes are not UTF-8, so they are not JSON as a host sends it; clear the capture again with ${RUN}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new FixtureError("not-json", fixture, `${whose} accepted bytes do not parse as JSON; clear the capture again with ${RUN}`);
  }
}

/** The sidecar, when it describes the fixture whose bytes were accepted: its harness, version, event, digest and batch. */
function checkedProvenance(value: unknown, fixture: AcceptedFixture, sidecar: string): Provenance {
  const p = (typeof value === "object" && value !== null ? value : {}) as Partial<Provenance>;
  const wrong = [
    p.origin === "authentic-capture" ? null : "origin",
    p.harness === fixture.harness ? null : "harness",
    p.hostVersion === fixture.version ? null : "hostVersion",
    p.event === fixture.event ? null : "event",
    p.cleared?.sha256 === fixture.sha256 && p.cleared.bytes === fixture.bytes ? null : "cleared",
    p.batch === fixture.batch ? null : "batch",
  ].filter((w) => w !== null);
  if (wrong.length === 0) return p as Provenance;
  const why = `its sidecar ${sidecar} does not describe this fixture (${wrong.join(", ")} differ)`;
  throw new FixtureError("provenance", fixture.path, `${why}; clear the capture again with ${RUN} and accept the new batch`);
}

/** The repository's top folder a caller named, read once; a wrong one is an error, never the current directory. */
function rootOf(where: unknown): string | undefined {
  const root = typeof where === "object" && where !== null ? (where as Where).root : where === undefined ? undefined : null;
  if (root === undefined || (typeof root === "string" && root !== "")) return root;
  throw new FixtureError("repository", null, "the last argument is { root: <the repository's top folder> }, or nothing to find the repository from the calling file");
}

/** listFixtures' filter, each part read once: a string, or left out. */
function checkedFilter(filter: unknown): Partial<FixtureQuery> {
  if (filter === undefined) return {};
  const given = typeof filter === "object" && filter !== null ? (filter as Partial<FixtureQuery>) : null;
  const out: Partial<FixtureQuery> = given === null ? {} : { harness: given.harness, version: given.version, event: given.event };
  if (given !== null && Object.values(out).every((part) => part === undefined || typeof part === "string")) return out;
  throw new FixtureError("query", null, "listFixtures takes { harness?, version?, event? }, each a string");
}

/**
 * The fixture, parsed, with its raw bytes and its provenance, when both its bytes and its
 * sidecar's are the ones an accepted batch lists; otherwise a FixtureError naming the fixture.
 */
export function loadFixture<Payload = unknown>(fixture: FixtureQuery | string | URL, where: Where = {}): LoadedFixture<Payload> {
  if (fixture === null || (typeof fixture !== "string" && typeof fixture !== "object")) {
    throw new FixtureError("query", null, "loadFixture takes { harness, version, event } or a fixture's path");
  }
  const repo = repositoryAt(findRepository(rootOf(where)));
  const asked = typeof fixture === "string" || fixture instanceof URL ? queryOfPath(fixture, repo) : checkedQuery(fixture, repo.layout);
  const index = recordOf(repo, fixturePathOf(repo.layout, asked.version === LATEST ? { ...asked, version: "<latest>" } : asked));
  const q = asked.version === LATEST ? { ...asked, version: latestVersion(repo, index, asked) } : asked;
  const rel = fixturePathOf(repo.layout, q);
  const listing = inForce(repo, index, q, rel);
  const { bytes: raw, sha256 } = acceptedBytes(repo, index, rel, listing, rel);
  const accepted: AcceptedFixture = { ...q, path: rel, sha256, bytes: raw.length, batch: listing.batch };
  const sidecar = `${rel.slice(0, -".json".length)}.provenance.json`;
  const sidecarBytes = acceptedBytes(repo, index, sidecar, listingInForce(repo, index, sidecar, rel), rel).bytes;
  const payload = parsedJson(raw, rel, rel) as Payload;
  const provenance = checkedProvenance(parsedJson(sidecarBytes, sidecar, rel), accepted, sidecar);
  return { ...accepted, file: path.join(repo.root, rel), payload, raw, provenance };
}

/**
 * The fixtures accepted batches list (the listing in force for each path), sorted by harness,
 * version and event; `version: "latest"` keeps the newest accepted version of each event. Only
 * the record is read: loadFixture checks each one's bytes.
 */
export function listFixtures(given: Partial<FixtureQuery> = {}, where: Where = {}): AcceptedFixture[] {
  const filter = checkedFilter(given);
  const repo = repositoryAt(findRepository(rootOf(where)));
  const wanted = (f: AcceptedFixture): boolean => (filter.harness ?? f.harness) === f.harness && (filter.event ?? f.event) === f.event;
  let fixtures = acceptedOf(recordOf(repo, null), repo.layout).filter(wanted);
  if (filter.version === LATEST) fixtures = newestOf(fixtures);
  else if (filter.version !== undefined) fixtures = fixtures.filter((f) => f.version === filter.version);
  return fixtures.map((f) => ({ ...f }));
}
