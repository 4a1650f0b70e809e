import { parseFlags, UsageError } from "../cli-args.js";
import { guarded, type Command } from "../command.js";
import { hookStatus, installHooks, uninstallHooks } from "../io/hooks.js";
import { repoRoot } from "../io/repo.js";
import type { Io } from "../io/setting.js";

const help = `clear hooks install | status | uninstall [--root DIR]

Installs the pre-commit and pre-push hooks that run clear gate, in the folder git names for hooks,
calling this installation of clear by absolute path. A hook that is not this tool's is never
overwritten: it is kept and run first, and its failure fails the commit or push. Where
core.hooksPath points at a hook manager's folder (husky, lefthook, pre-commit), nothing is written
there: status and install print the exact lines to add to it instead.
`;

async function run(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseFlags(argv, { root: { type: "string" } }, 1, "hooks");
  const action = positionals[0];
  const root = repoRoot(values.root, io.cwd);
  if (root === null) throw new UsageError("clear hooks works inside a git repository (or give --root DIR)");
  if (action === "install") {
    const r = installHooks(root);
    io.stdout(`${r.lines.join("\n")}\n`);
    return r.ok ? 0 : 1;
  }
  if (action === "uninstall") {
    io.stdout(`${uninstallHooks(root).join("\n")}\n`);
    return 0;
  }
  if (action === "status") {
    const s = hookStatus(root);
    io.stdout(`${s.lines.join("\n")}\n`);
    return s.ok ? 0 : 1;
  }
  throw new UsageError("clear hooks takes install, status or uninstall");
}

export const hooksCommand: Command = { help, run: (argv, io) => guarded(io, argv, () => run(argv, io)) };
