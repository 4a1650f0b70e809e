import { isUtf8 } from "node:buffer";
import { constants, promises as fs } from "node:fs";
import path from "node:path";

// Lists the files under the paths given to a command, never following a link: a link is
// reported, never read. The walk takes each name as the file system holds it (a backslash, a
// newline or a glob's character in a name is that character), so every file listed can be
// opened by the name listed.

export interface Listed {
  files: string[];
  links: string[];
  missing: string[];
  /** Folders under a path given that could not be listed (no permission), with why. */
  unlisted: { folder: string; reason: string }[];
  /** Paths given that could not be read at all: a folder that could not be listed, a file that could not be opened. */
  unreadable: { given: string; reason: string }[];
  /** What is neither a file, a folder nor a link (a FIFO, a socket, a device): never read, so never said clean. */
  others: string[];
  /**
   * What is named in bytes that are not UTF-8, as shown (with U+FFFD): a name no file has, or
   * another file's, so never read by it and never said clean.
   */
  notUtf8: string[];
}

/** Lists what stands at and under each path; folders named in `skipFolders` (node_modules, .git) are not entered. */
export async function listFiles(paths: string[], cwd: string, skipFolders: ReadonlySet<string> = new Set()): Promise<Listed> {
  const out: Listed = { files: [], links: [], missing: [], unlisted: [], unreadable: [], others: [], notUtf8: [] };
  for (const given of paths) {
    const abs = path.resolve(cwd, given);
    const stat = await fs.lstat(abs).catch(() => null);
    if (!stat) out.missing.push(given);
    else if (stat.isSymbolicLink()) out.links.push(abs);
    else if (stat.isFile()) {
      const denied = await fs.access(abs, constants.R_OK).then(() => null, (err: NodeJS.ErrnoException) => err.code ?? "error");
      if (denied === null) out.files.push(abs);
      else out.unreadable.push({ given, reason: `a file that could not be opened (${denied})` });
    } else if (stat.isDirectory()) await walk(abs, skipFolders, out, given);
    else out.others.push(abs);
  }
  out.files = [...new Set(out.files)].sort();
  out.links = [...new Set(out.links)].sort();
  out.others = [...new Set(out.others)].sort();
  out.notUtf8 = [...new Set(out.notUtf8)].sort();
  return out;
}

/** Every file and link under a folder, without recursion: a tree thousands of folders deep is listed too. `given`, the folder as the command line names it. */
async function walk(root: string, skipFolders: ReadonlySet<string>, out: Listed, given: string): Promise<void> {
  const folders = [root];
  for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
    // Names are listed as bytes: one that is not UTF-8 would read as a name with U+FFFD, which names no file or another one.
    const entries = await fs.readdir(folder, { withFileTypes: true, encoding: "buffer" }).catch((err: NodeJS.ErrnoException) => {
      const reason = `a folder that could not be listed (${err.code ?? "error"})`;
      // The folder given itself is an input not read at all; one under it, a file the scan did not reach.
      if (folder === root) out.unreadable.push({ given, reason });
      else out.unlisted.push({ folder, reason });
      return [];
    });
    for (const entry of entries) {
      const name = entry.name.toString("utf8");
      const at = path.join(folder, name);
      if (!isUtf8(entry.name)) out.notUtf8.push(at);
      else if (entry.isSymbolicLink()) out.links.push(at);
      else if (entry.isFile()) out.files.push(at);
      else if (entry.isDirectory()) {
        if (!skipFolders.has(name)) folders.push(at);
      } else out.others.push(at);
    }
  }
}
