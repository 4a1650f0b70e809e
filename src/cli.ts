#!/usr/bin/env node
import { processIo } from "./commands/common.js";
import { main } from "./main.js";

main(process.argv.slice(2), processIo).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`clear: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 2;
  },
);
