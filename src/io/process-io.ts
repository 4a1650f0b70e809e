import type { Io } from "../types.js";

/** The process's own streams and folder, as the commands write to and start from them. */
export const processIo: Io = {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  cwd: process.cwd(),
  tty: process.stderr.isTTY === true,
};
