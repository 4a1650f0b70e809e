import { promises as fs } from "node:fs";
import path from "node:path";

// Writes land whole or not at all: a temporary file in the same folder, flushed, then renamed.

let written = 0;

export async function writeAtomic(file: string, bytes: Uint8Array): Promise<void> {
  const dir = path.dirname(file);
  // Unique within this process; "wx" refuses a name that exists rather than overwrite it.
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${++written}.tmp`);
  const handle = await fs.open(temp, "wx", 0o644);
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await fs.rename(temp, file);
  } catch (err) {
    await fs.rm(temp, { force: true });
    throw err;
  }
}

/** True when `inner` is `outer` or lies inside it, comparing real paths. */
export async function isInside(inner: string, outer: string): Promise<boolean> {
  const real = async (p: string): Promise<string> => {
    // Resolve the nearest existing ancestor, so a folder yet to be made is placed correctly.
    let cur = path.resolve(p);
    const rest: string[] = [];
    for (;;) {
      try {
        return path.join(await fs.realpath(cur), ...rest.reverse());
      } catch {
        const parent = path.dirname(cur);
        if (parent === cur) return path.resolve(p);
        rest.push(path.basename(cur));
        cur = parent;
      }
    }
  };
  const a = await real(inner);
  const b = await real(outer);
  const rel = path.relative(b, a);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}
