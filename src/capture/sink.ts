import {
  closeSync,
  constants,
  fstatSync,
  linkSync,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  realpathSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";

// The capture sink: what a host's hook runs. It writes the payload's bytes unchanged into the
// sitting and never changes what the host does: nothing on stdout, exit 0 whatever happens. It
// loads nothing but Node's own modules, since it starts on every tool call.

export const CAPTURE_DIR_VARIABLE = "CLEAR_CAPTURE_DIR";
export const HOST_VERSION_VARIABLE = "CLEAR_HOST_VERSION";
export const VERSION_PATTERN = "[0-9]+\\.[0-9]+\\.[0-9]+(?:-[0-9A-Za-z]+(?:\\.[0-9A-Za-z]+)*)?";

const HARNESS = /^[a-z][a-z0-9-]{0,63}$/;
const STEM = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;
/** A host's event name: words joined by single dots, hyphens or underscores; no blank, slash or control character. */
const EVENT = /^[A-Za-z0-9]+(?:[._-][A-Za-z0-9]+)*$/;
const MAX_COUNTER = 1_000_000;
// A capture's name stays within the 255 bytes a file name may take: harness 64, stem 96, version 64.
const MAX_STEM = 96;
const MAX_VERSION = 64;
/**
 * The most bytes one payload may hold. Real payloads are kilobytes, a long transcript a few
 * megabytes; a host that sends more is broken or hostile, and the sink keeps none of it.
 */
export const MAX_PAYLOAD_BYTES = 64 * 1024 * 1024;
/** What the sink leaves in the sitting for a payload past the cap: an empty entry that holds its counter. */
export const OVERSIZE_SUFFIX = ".oversize";
/** A payload being written; linked to its capture's name when whole, so a stopped sink leaves this, never a capture. */
export const PARTIAL_SUFFIX = ".partial";

export interface HookArgs {
  harness: string;
  stem: string;
  version: string;
  /** Said once on stderr when the version given could not be read as one. */
  versionNote: string | null;
}

/** `PreToolUse` -> `pre_tool_use`, `tool.execute.before` -> `tool_execute_before`. */
export function snakeEvent(event: string): string {
  return event
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .replace(/[.\-\s/]+/g, "_")
    .toLowerCase();
}

/** The one version a value names: `2.1.328`, or the version inside `codex-cli 0.169.0`. */
export function hostVersionOf(given: string | undefined): { version: string; note: string | null } {
  if (given === undefined || given.trim() === "" || given === "unknown") return { version: "unknown", note: null };
  const whole = new RegExp(`^(?:${VERSION_PATTERN}|${VERSION_PATTERN.replace(/\\\./g, "_")})$`);
  if (whole.test(given) && given.length <= MAX_VERSION) return { version: given, note: null };
  const found = given.match(new RegExp(`(?<![0-9A-Za-z.])${VERSION_PATTERN}(?![0-9A-Za-z])`, "g")) ?? [];
  if (found.length === 1 && (found[0] as string).length <= MAX_VERSION) return { version: found[0] as string, note: null };
  return { version: "unknown", note: "the host version given is not a version; the capture is named unknown" };
}

/** `hook <harness> <Event> [--host-version V]`, or the reason the arguments cannot name a capture. */
export function parseHookArgs(argv: string[], env: NodeJS.ProcessEnv): HookArgs | string {
  const positionals: string[] = [];
  let given: string | undefined = env[HOST_VERSION_VARIABLE];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--host-version" || arg.startsWith("--host-version=")) {
      given = arg === "--host-version" ? argv[++i] : arg.slice("--host-version=".length);
      if (given === undefined || given === "" || given.startsWith("-")) return "--host-version takes a version";
    }
    else if (arg.startsWith("-")) return `unknown option ${JSON.stringify(arg.slice(0, 40))}`;
    else positionals.push(arg);
  }
  if (positionals.length !== 2) return "takes <harness> <Event> [--host-version V]";
  const [harness, event] = positionals as [string, string];
  if (!HARNESS.test(harness)) return "the harness is not a harness name";
  const stem = snakeEvent(event);
  if (!EVENT.test(event) || !STEM.test(stem) || stem.length > MAX_STEM) return "the event is not an event name";
  const { version, note } = hostVersionOf(given);
  return { harness, stem, version, versionNote: note };
}

/** Why a folder cannot hold a sitting, or null when it can. */
export function refusalOf(dir: string): string | null {
  if (!path.isAbsolute(dir)) return "is not an absolute path";
  // A trailing slash or a "." part would have the system follow a link the check below is asked
  // about ("/tmp/link/" is the folder it points to); ".." goes up from where a link led.
  const trimmed = dir.length > 1 ? dir.replace(/\/+$/, "") : dir;
  if (path.resolve(trimmed) !== trimmed) return 'is not a plain absolute path (it holds a "." or ".." part, or a doubled slash)';
  let st;
  try {
    st = lstatSync(trimmed);
  } catch {
    return "does not exist (the sink never creates it)";
  }
  if (st.isSymbolicLink()) return "is a symbolic link";
  if (!st.isDirectory()) return "is not a directory";
  const repo = repositoryAround(dir);
  return repo === null ? null : `is inside a git repository (${shown(repo)}); raw captures stay outside every repository`;
}

function exists(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

function isDir(p: string): boolean {
  try {
    return lstatSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** A `.git` file (a linked work tree or submodule) or a `.git` folder with a HEAD; an empty one is not. */
function isWorkTree(at: string): boolean {
  const dotGit = path.join(at, ".git");
  try {
    const st = lstatSync(dotGit);
    return !st.isDirectory() || exists(path.join(dotGit, "HEAD"));
  } catch {
    return false;
  }
}

/** The nearest folder at or above `dir` that is a work tree, a git directory or a bare repository. */
export function repositoryAround(dir: string): string | null {
  let real: string;
  try {
    real = realpathSync(dir);
  } catch {
    return dir;
  }
  for (let at = real; ; at = path.dirname(at)) {
    if (path.basename(at) === ".git" || isWorkTree(at)) return at;
    const bare = exists(path.join(at, "HEAD")) && isDir(path.join(at, "objects")) && isDir(path.join(at, "refs"));
    if (bare) return at;
    if (path.dirname(at) === at) return null;
  }
}

/** The counters already taken for one capture base in a listing: by a capture, or by a payload kept out for its size. */
export function takenCounters(names: string[], base: string): Set<number> {
  const taken = new Set<number>();
  for (const name of names) {
    const suffix = name.endsWith(".json") ? ".json" : name.endsWith(`.json${OVERSIZE_SUFFIX}`) ? `.json${OVERSIZE_SUFFIX}` : null;
    if (!name.startsWith(base) || suffix === null) continue;
    const n = name.slice(base.length, -suffix.length);
    if (/^[1-9][0-9]*$/.test(n)) taken.add(Number(n));
  }
  return taken;
}

const EXCLUSIVE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/**
 * Gives `take` the lowest free `<base><n><suffix>` until one is taken; a name that stands already
 * (a capture, a link, a FIFO) says EEXIST and is passed over, so two sinks at once never share one.
 */
function claimName(dir: string, base: string, suffix: string, take: (file: string) => void): string {
  const taken = takenCounters(readdirSync(dir), base);
  for (let n = 1; n <= MAX_COUNTER; n++) {
    if (taken.has(n)) continue;
    const name = `${base}${n}${suffix}`;
    try {
      take(path.join(dir, name));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "EEXIST") continue;
      throw err;
    }
    return name;
  }
  throw new Error(`every counter up to ${MAX_COUNTER} is taken`);
}

/** Writes every byte to a new file; a write cut short (a full disk) removes the file and throws. */
function writeNew(file: string, payload: Buffer): void {
  const fd = openSync(file, EXCLUSIVE, 0o600);
  try {
    for (let off = 0; off < payload.length; ) off += writeSync(fd, payload, off, payload.length - off);
    closeSync(fd);
  } catch (err) {
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
    unlinkSync(file);
    throw err;
  }
}

/** A file system without hard links: the capture is written in place, still by exclusive create. */
const NO_LINKS = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EMLINK", "EXDEV"]);

/**
 * Writes the bytes under the lowest free counter; returns the name. The bytes go first to a
 * `.partial` file beside the captures and are linked to their name only when whole: a capture
 * never stands half written, and a link never replaces a name that stands (a rename would).
 */
export function writeCapture(dir: string, args: HookArgs, payload: Buffer): string {
  const base = `${args.harness}_${args.stem}_${args.version}.`;
  // Short of the version and counter, the name fits in 255 bytes however long the capture's is.
  const unique = `${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
  const temp = path.join(dir, `${args.harness}_${args.stem}.writing-${unique}${PARTIAL_SUFFIX}`);
  writeNew(temp, payload);
  try {
    return claimName(dir, base, ".json", (file) => linkSync(temp, file));
  } catch (err) {
    if (!NO_LINKS.has((err as NodeJS.ErrnoException).code ?? "")) throw err;
    return claimName(dir, base, ".json", (file) => writeNew(file, payload));
  } finally {
    try {
      unlinkSync(temp);
    } catch {
      // left standing: a .partial entry status and inventory name, never a capture
    }
  }
}

/** Leaves an empty `<base><n>.json.oversize` for a payload past the cap; returns its name. */
export function markOversize(dir: string, args: HookArgs): string {
  const base = `${args.harness}_${args.stem}_${args.version}.`;
  return claimName(dir, base, `.json${OVERSIZE_SUFFIX}`, (file) => closeSync(openSync(file, EXCLUSIVE, 0o600)));
}

/** Past the cap, standing input is read and dropped up to this many bytes, then left: a source that never ends (a device, a runaway host) never holds the hook. */
export const MAX_DRAINED_BYTES = 4 * MAX_PAYLOAD_BYTES;

/** A payload past the cap: how many bytes were read, and whether the sink stopped reading before its end. */
export type TooLarge = { tooLarge: number; unread: boolean };
export type Payload = { bytes: Buffer } | TooLarge | { problem: string };

/**
 * Every byte of a descriptor up to its end, or past `max` the count alone: the rest is read and
 * dropped, so the host's write completes and memory holds no more than `max`, up to `drain`
 * bytes in all, where reading stops (a source that never ends). A descriptor the
 * host left non-blocking says EAGAIN while the payload is still on its way: the read waits a
 * moment and goes on, never ending early.
 */
export function readToEnd(fd: number, max = MAX_PAYLOAD_BYTES, drain = MAX_DRAINED_BYTES): { bytes: Buffer } | TooLarge {
  const chunks: Buffer[] = [];
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const chunk = Buffer.allocUnsafe(1 << 20);
  let total = 0;
  for (;;) {
    let n: number;
    try {
      n = readSync(fd, chunk, 0, chunk.length, null);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EAGAIN") throw err;
      Atomics.wait(pause, 0, 0, 5);
      continue;
    }
    if (n === 0) return total > max ? { tooLarge: total, unread: false } : { bytes: Buffer.concat(chunks) };
    total += n;
    if (total > drain) return { tooLarge: total, unread: true };
    if (total <= max) chunks.push(Buffer.from(chunk.subarray(0, n)));
    else chunks.length = 0;
  }
}

/** The whole of standard input, or why there is none to keep (a terminal, unreadable, past the cap). */
export function readPayload(): Payload {
  try {
    if (fstatSync(0).isCharacterDevice() && process.stdin.isTTY) return { problem: "standard input is a terminal, not a payload" };
    return readToEnd(0);
  } catch (err) {
    return { problem: `standard input could not be read (${(err as NodeJS.ErrnoException).code ?? "error"})` };
  }
}

/** Controls, format characters (bidirectional overrides among them), lone surrogates, line and paragraph separators. */
const UNSAFE_IN_WARNING = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/gu;

/** A folder as it may be printed: the runner's home as `~`, and a character that could move the terminal or start a line as a visible \uXXXX escape. */
function shown(dir: string): string {
  const home = os.homedir();
  const homed = home && home !== "/" && (dir === home || dir.startsWith(`${home}/`)) ? `~${dir.slice(home.length)}` : dir;
  return homed.replace(UNSAFE_IN_WARNING, (ch) => `\\u${(ch.codePointAt(0) as number).toString(16).padStart(4, "0")}`);
}

/**
 * Whether this is the sitting's first notice: an exclusive create of a marker named after the
 * folder's identity, so concurrent hooks say it once. Each hook is a process of its own, so the
 * marker outlives every one of them; it stands beside the system's temporary files, not in the
 * sitting, which holds captures, sitting.json and kit.json only (any other entry is a finding).
 * The tool's own sittings (a dry run, a driven one) give their hooks a TMPDIR they remove.
 */
function firstNotice(dir: string): boolean {
  try {
    const st = lstatSync(dir, { bigint: true });
    const uid = typeof process.getuid === "function" ? process.getuid() : 0;
    const marker = path.join(os.tmpdir(), `clear-capture-notice-${uid}-${st.dev}-${st.ino}-${st.birthtimeNs}`);
    closeSync(openSync(marker, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600));
    return true;
  } catch (err) {
    // A marker that cannot be made at all (no temporary folder) still leaves the notice said.
    return (err as NodeJS.ErrnoException).code !== "EEXIST";
  }
}

export interface SinkIo {
  argv: string[];
  env: NodeJS.ProcessEnv;
  warn: (line: string) => void;
  payload: () => Payload;
}

/**
 * A payload past the cap: none of it is kept (half a payload is worse than none), and an empty
 * `.json.oversize` entry takes its counter, so status and inventory show the sitting lost one.
 */
function refuseOversize(dir: string, args: HookArgs, payload: TooLarge, warn: (line: string) => void): void {
  let marked: string;
  try {
    marked = `; ${markOversize(dir, args)} marks it in ${shown(dir)}`;
  } catch (err) {
    marked = `; no mark could be left in ${shown(dir)} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`;
  }
  const size = payload.unread ? `more than ${payload.tooLarge} bytes (the rest was left unread)` : `${payload.tooLarge} bytes`;
  warn(`clear capture hook: the payload of ${size} is above the sink's cap of ${MAX_PAYLOAD_BYTES} bytes; nothing of it was kept${marked}`);
}

/** The sink from arguments to a written capture; every failure is one warning, never an exit code. */
export function runSink(io: SinkIo): void {
  const dir = io.env[CAPTURE_DIR_VARIABLE];
  // Unset: a configured project outside a sitting; the payload is drained and nothing else happens.
  if (dir === undefined || dir === "") {
    io.payload();
    return;
  }
  const payload = io.payload();
  const args = parseHookArgs(io.argv, io.env);
  if (typeof args === "string") return io.warn(`clear capture hook: ${args}; nothing was written`);
  const refusal = refusalOf(dir);
  if (refusal !== null) return io.warn(`clear capture hook: ${CAPTURE_DIR_VARIABLE} ${shown(dir)} ${refusal}; nothing was written`);
  if ("problem" in payload) return io.warn(`clear capture hook: ${payload.problem}; nothing was written`);
  if ("tooLarge" in payload) return refuseOversize(dir, args, payload, io.warn);
  // A host always hands a hook its payload: nothing at all on standard input is not a capture.
  if (payload.bytes.every((b) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d)) return io.warn("clear capture hook: standard input held no payload; nothing was written");
  let name: string;
  try {
    name = writeCapture(dir, args, payload.bytes);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return io.warn(
      `clear capture hook: the capture could not be written to ${shown(dir)} (${code ?? (err as Error).message}); nothing was kept`,
    );
  }
  if (args.versionNote !== null) io.warn(`clear capture hook: ${args.versionNote} (${name})`);
  if (firstNotice(dir)) io.warn(`clear: capture mode is recording this sitting to ${shown(dir)}`);
}

/**
 * The process around the sink: whatever happens, stdout stays empty and the exit code is 0. The
 * warnings go straight to file descriptor 2: opening Node's stdio streams costs more than the sink.
 */
export function sinkProcess(argv: string[]): void {
  const warn = (line: string): void => {
    try {
      writeSync(2, `${line}\n`);
    } catch {
      // stderr closed or full: the host reads nothing from it anyway
    }
  };
  process.on("uncaughtException", () => {
    process.exitCode = 0;
  });
  try {
    runSink({ argv, env: process.env, warn, payload: readPayload });
  } catch {
    warn("clear capture hook: an unexpected failure; nothing was written");
  }
  process.exitCode = 0;
}
