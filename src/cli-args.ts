import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "./errors.js";

export { UsageError };

// Flags with node:util parseArgs in strict mode: an unknown flag, a missing value or a stray
// positional is a usage error, never ignored.


type Options = NonNullable<ParseArgsConfig["options"]>;

export interface Parsed<O extends Options> {
  values: { [K in keyof O]?: O[K] extends { multiple: true } ? (O[K] extends { type: "boolean" } ? boolean[] : string[]) : O[K] extends { type: "boolean" } ? boolean : string };
  positionals: string[];
}

export function parseFlags<O extends Options>(argv: string[], options: O, maxPositionals: number, command: string): Parsed<O> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { ...options, help: { type: "boolean" } }, strict: true, allowPositionals: true });
  } catch (err) {
    // node's message goes on to explain "--" at length; its first sentence names the flag.
    const first = ((err as Error).message.split("\n")[0] ?? "").split(/\.\s/)[0];
    throw new UsageError(`clear ${command}: ${first}; clear ${command} --help lists what it takes`);
  }
  for (const [flag, value] of Object.entries(parsed.values)) {
    const values = Array.isArray(value) ? value : [value];
    if (values.some((v) => v === "")) throw new UsageError(`clear ${command}: --${flag} needs a value`);
  }
  if (parsed.positionals.length > maxPositionals) throw new UsageError(`clear ${command}: takes at most ${maxPositionals} folder or file argument${maxPositionals === 1 ? "" : "s"}`);
  return parsed as unknown as Parsed<O>;
}

export function wantsHelp(argv: string[]): boolean {
  return argv.includes("--help") || argv.includes("-h");
}

export function requireDir(dir: string | undefined, command: string): string {
  if (dir === undefined) throw new UsageError(`clear ${command} needs a capture directory`);
  return dir;
}
