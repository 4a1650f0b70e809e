// A small, strict flag parser: unknown flags are usage errors, never ignored.

export class UsageError extends Error {}

export interface FlagSpec {
  [flag: string]: "bool" | "string" | "strings";
}

export interface ParsedArgs {
  positionals: string[];
  bools: Set<string>;
  strings: Map<string, string[]>;
}

export function parseArgs(argv: string[], spec: FlagSpec): ParsedArgs {
  const out: ParsedArgs = { positionals: [], bools: new Set(), strings: new Map() };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--") {
      out.positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith("--") || arg === "-") {
      if (arg.startsWith("-") && arg !== "-") throw new UsageError(`unknown option ${arg}`);
      out.positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const flag = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    const kind = spec[flag];
    if (!kind) throw new UsageError(`unknown option --${flag}`);
    if (kind === "bool") {
      if (eq !== -1) throw new UsageError(`--${flag} takes no value`);
      out.bools.add(flag);
      continue;
    }
    let value: string | undefined;
    if (eq !== -1) value = arg.slice(eq + 1);
    else {
      value = argv[i + 1];
      i++;
    }
    if (value === undefined || value === "") throw new UsageError(`--${flag} needs a value`);
    const list = out.strings.get(flag) ?? [];
    if (kind === "string" && list.length > 0) throw new UsageError(`--${flag} given twice`);
    list.push(value);
    out.strings.set(flag, list);
  }
  return out;
}

export function one(args: ParsedArgs, flag: string): string | undefined {
  return args.strings.get(flag)?.[0];
}

export function many(args: ParsedArgs, flag: string): string[] {
  return args.strings.get(flag) ?? [];
}
