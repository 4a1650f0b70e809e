import v8 from "node:v8";
import type { Io } from "../types.js";

/** How far past what was live at the last full collection the heap may grow before the next one. */
export const HEAP_GROWING_PERCENT = 30;

/** How large (in MB, both halves) the young generation may grow while a command reads a sitting; V8's own ceiling is 32. */
export const YOUNG_GENERATION_MB = 16;

// Set by keepHeapNearLive in a command's process, and only there: the young generation may still be held.
let youngHeld = false;

/** Whether node was given a flag: on its command line, or in NODE_OPTIONS (which takes --max-semi-space-size, not the others here). */
const givenToNode = (flag: RegExp): boolean => process.execArgv.some((a) => flag.test(a)) || (process.env.NODE_OPTIONS ?? "").split(/\s+/).some((a) => flag.test(a));

/**
 * A clear process keeps its heap near what it holds live. V8 picks how far a heap may grow by how
 * fast it collects, up to four times what was live; a sitting read whole keeps much of its heap
 * live, so `clear run` at 10,000 captures peaked at 280 MB with 78 MB live, and at about 216 MB
 * held to 30% (bench/RESULTS.md); the collections it adds cost a few percent of cpu time at 2,000
 * captures.
 * V8 reads the flag each time it sets the next limit, so setting it once the process has started
 * takes effect (tests/heap.test.ts checks that it does); only a command's process sets it, never
 * a process that loads the library. A person who gave node one of these flags keeps their choice.
 */
export function keepHeapNearLive(): void {
  if (!givenToNode(/^--heap[-_]growing[-_]percent/)) v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  youngHeld = !givenToNode(/^--(max|min)[-_]semi[-_]space[-_]size|^--semi[-_]space[-_]growth[-_]factor/);
}

/**
 * Called for each file as a sitting is read, and with `reading` false once it is read: the young
 * generation stops growing at YOUNG_GENERATION_MB, and at the latest when the sitting is read.
 * V8 doubles it on a busy heap (2, 4, 8, 16, 32 MB), and a sitting read whole keeps it busy: at
 * 10,000 captures, held at 16 MB, `clear run` peaked at about 200 MB where it peaked at about
 * 225, with no time lost; held at 8, at about 185 MB, but writing 2,000 fixtures took 7% more cpu
 * (more of what is young outlives its collection and is collected again as old). Its ceiling is
 * fixed when the process starts; its growth factor is read at each collection, so a factor of 1
 * holds it where it stands. Outside a command's process it does nothing.
 */
export function holdYoungGeneration(reading: boolean): void {
  if (!youngHeld) return;
  const young = v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space");
  if (reading && young !== undefined && young.space_size < YOUNG_GENERATION_MB * 1024 * 1024) return;
  v8.setFlagsFromString("--semi-space-growth-factor=1");
  youngHeld = false;
}

/**
 * A stream whose reader may go away (`clear verify --json | head`): from then on what is written to
 * it goes nowhere, and the command still runs to its end and its exit code; no stack trace is printed.
 */
function writerOf(stream: NodeJS.WriteStream): (text: string) => void {
  let gone = false;
  stream.on("error", (err: NodeJS.ErrnoException) => {
    if (err.code !== "EPIPE") throw err;
    gone = true;
  });
  return (text) => {
    if (!gone) stream.write(text);
  };
}

/** The process's own streams and folder, as the commands write to and start from them. */
export const processIo: Io = {
  stdout: writerOf(process.stdout),
  stderr: writerOf(process.stderr),
  cwd: process.cwd(),
  tty: process.stderr.isTTY === true,
};

/** Back to the line's start, and the line wiped. */
export const WIPE_LINE = "\r\u001b[K";

/**
 * A one-line progress display on the terminal behind `io`'s stderr. The line in progress is wiped
 * before anything else `io` writes, on stdout or stderr, so no command has to remember to; an
 * empty line only wipes it.
 */
export function progressLine(io: Io): (line: string) => void {
  const { stdout, stderr } = io;
  let shown = false;
  const wipe = (): void => {
    if (!shown) return;
    shown = false;
    stderr(WIPE_LINE);
  };
  io.stdout = (text) => {
    wipe();
    stdout(text);
  };
  io.stderr = (text) => {
    wipe();
    stderr(text);
  };
  return (line) => {
    wipe();
    if (line === "") return;
    stderr(`${WIPE_LINE}${line}`);
    shown = true;
  };
}
