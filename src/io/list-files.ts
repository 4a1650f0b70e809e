import { pushAll } from "../collections.js";
import { promises as fs } from "node:fs";
import path from "node:path";

// Lists the files under the paths given to a command, never following a link. fast-glob's
// onlyFiles drops links silently, so they are found in a second pass and reported. fast-glob (73
// modules) loads only where a folder is given.

export interface Listed {
  files: string[];
  links: string[];
  missing: string[];
}

export async function listFiles(paths: string[], cwd: string, ignore: string[] = []): Promise<Listed> {
  const out: Listed = { files: [], links: [], missing: [] };
  for (const given of paths) {
    const abs = path.resolve(cwd, given);
    const stat = await fs.lstat(abs).catch(() => null);
    if (!stat) out.missing.push(given);
    else if (stat.isSymbolicLink()) out.links.push(abs);
    else if (stat.isFile()) out.files.push(abs);
    else if (stat.isDirectory()) {
      const fg = (await import("fast-glob")).default;
      const options = { cwd: abs, absolute: true, dot: true, followSymbolicLinks: false, ignore } as const;
      pushAll(out.files, (await fg("**/*", { ...options, onlyFiles: true })));
      const all = await fg("**/*", { ...options, onlyFiles: false, markDirectories: true, stats: true });
      pushAll(out.links, all.filter((e) => e.stats?.isSymbolicLink()).map((e) => e.path));
    }
  }
  out.files = [...new Set(out.files)].sort();
  out.links = [...new Set(out.links)].sort();
  return out;
}
