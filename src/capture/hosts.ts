import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { writeBelow } from "../lib/no-link.js";
import { VERSION_PATTERN } from "./sink.js";

// The three hosts: the npm package and the version this project pins, where the pinned copy is
// installed (a cache folder, never this repository's node_modules), and `<host> --version`.

export type Harness = "claude-code" | "codex" | "opencode";

export interface HostPin {
  harness: Harness;
  displayName: string;
  npmPackage: string;
  version: string;
  bin: string;
  /** Packages the host installs into a fresh project, kept in the cache's npm store for offline runs. */
  projectPackages: string[];
}

export const HOST_PINS: Record<Harness, HostPin> = {
  "claude-code": {
    harness: "claude-code",
    displayName: "Claude Code",
    npmPackage: "@anthropic-ai/claude-code",
    version: "2.1.328",
    bin: "claude",
    projectPackages: [],
  },
  codex: { harness: "codex", displayName: "Codex CLI", npmPackage: "@openai/codex", version: "0.169.0", bin: "codex", projectPackages: [] },
  opencode: {
    harness: "opencode",
    displayName: "OpenCode",
    npmPackage: "opencode-ai",
    version: "1.18.33",
    bin: "opencode",
    projectPackages: ["@opencode-ai/plugin@1.18.33"],
  },
};

export const HARNESSES = Object.keys(HOST_PINS) as Harness[];

export function isHarness(name: string | undefined): name is Harness {
  return name !== undefined && Object.hasOwn(HOST_PINS, name);
}

/** `CLEAR_HOSTS_CACHE`, else `$XDG_CACHE_HOME/clear/hosts`, else `~/.cache/clear/hosts`. */
export function hostsCache(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CLEAR_HOSTS_CACHE) return path.resolve(env.CLEAR_HOSTS_CACHE);
  const base = env.XDG_CACHE_HOME ? path.resolve(env.XDG_CACHE_HOME) : path.join(os.homedir(), ".cache");
  return path.join(base, "clear", "hosts");
}

/** npm's own store inside the cache, so a host that installs packages into a project can run offline. */
export function npmStore(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(hostsCache(env), "npm-store");
}

export function pinnedBin(harness: Harness, env: NodeJS.ProcessEnv = process.env): string {
  const pin = HOST_PINS[harness];
  return path.join(hostsCache(env), `${harness}-${pin.version}`, "node_modules", ".bin", pin.bin);
}

export interface VersionProbe {
  /** The first line `<host> --version` printed. */
  line: string;
  version: string | null;
}

/** Runs `<bin> --version` in a throwaway home; null when the binary cannot be run. */
export function probeVersion(bin: string, env: NodeJS.ProcessEnv = process.env): VersionProbe | null {
  const r = spawnSync(bin, ["--version"], {
    encoding: "utf8",
    timeout: 60_000,
    env: { ...env, DISABLE_AUTOUPDATER: "1", OPENCODE_DISABLE_AUTOUPDATE: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  if (r.status !== 0 || typeof r.stdout !== "string") return null;
  const line =
    r.stdout
      .split("\n")
      .map((l) => l.trim())
      .find((l) => l !== "") ?? "";
  const found = line.match(new RegExp(`(?<![0-9A-Za-z.])${VERSION_PATTERN}(?![0-9A-Za-z])`));
  return { line, version: found ? found[0] : null };
}

export interface InstallResult {
  harness: Harness;
  bin: string;
  installed: boolean;
  probe: VersionProbe | null;
}

function npm(args: string[], cwd: string): void {
  const r = spawnSync("npm", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 900_000 });
  if (r.status !== 0)
    throw new Error(
      `npm ${args.join(" ")} failed (exit ${r.status ?? "none"}): ${(r.stderr ?? "").split("\n").filter(Boolean).slice(-3).join(" / ")}`,
    );
}

/** A file of the tool's own below the cache folder (where the cache itself is, links and all, is the user's choice), never written through a link. */
function writeInCache(cache: string, rel: string, text: string): void {
  const refused = writeBelow(cache, rel, Buffer.from(text), "replace");
  if (refused !== null) throw new Error(`${path.join(cache, refused.at)} ${refused.detail}; the hosts' cache is never written through a link`);
}

/** Installs the pinned host into the cache unless its binary already answers with the pinned version. */
export function installPinned(harness: Harness, env: NodeJS.ProcessEnv = process.env): InstallResult {
  const pin = HOST_PINS[harness];
  const bin = pinnedBin(harness, env);
  const cache = hostsCache(env);
  const folder = `${harness}-${pin.version}`;
  const dir = path.join(cache, folder);
  const stored = path.join(dir, ".project-packages-stored");
  const before = existsSync(bin) ? probeVersion(bin) : null;
  const ready = before?.version === pin.version;
  if (!ready) {
    mkdirSync(cache, { recursive: true });
    const manifest = { private: true, description: `the pinned ${pin.displayName} for clear capture drive` };
    writeInCache(cache, `${folder}/package.json`, `${JSON.stringify(manifest)}\n`);
    npm(["install", "--no-audit", "--no-fund", "--save-exact", `${pin.npmPackage}@${pin.version}`], dir);
  }
  if (!existsSync(stored)) {
    for (const p of pin.projectPackages) npm(["cache", "add", p, "--cache", npmStore(env)], dir);
    writeInCache(cache, `${folder}/.project-packages-stored`, `${pin.projectPackages.join("\n")}\n`);
  }
  return { harness, bin, installed: !ready, probe: ready ? before : probeVersion(bin) };
}
