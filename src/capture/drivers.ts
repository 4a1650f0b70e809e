import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Harness } from "./hosts.js";
import type { StepRun } from "./recipes.js";

// What each host needs to run offline against the scripted model: its settings, its environment
// (a throwaway home; none of the runner's own variables, so no real key can leak in) and its own
// non-interactive command.

export interface DriveFolders {
  home: string;
  project: string;
  modelUrl: string;
  /** npm's store in the hosts cache, for hosts that install packages into a project. */
  npmStore: string;
}

export interface HostDriver {
  /** The model names the scripted server lists. */
  models: string[];
  prepare(f: DriveFolders): void;
  env(f: DriveFolders): Record<string, string>;
  /** The host's arguments for one step. */
  args(run: StepRun, prompt: string): string[];
  /** Seconds a step may take before it is stopped. */
  stepTimeout: number;
}

const SCRIPTED_KEY = "scripted-model-key-not-a-secret";

/** The few variables every host needs from the runner: where programs are, and a plain locale. */
function baseEnv(f: DriveFolders): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    HOME: f.home,
    LANG: "C.UTF-8",
    TERM: "dumb",
    TMPDIR: path.join(f.home, "tmp"),
  };
}

const claudeCode: HostDriver = {
  models: ["claude-sonnet-4-5", "claude-haiku-4-5", "claude-opus-4-1"],
  prepare(f) {
    mkdirSync(path.join(f.home, "tmp"), { recursive: true });
    writeFileSync(path.join(f.project, "CLAUDE.md"), "# A throwaway project\n\nThis folder exists for one capture sitting.\n");
  },
  env(f) {
    const env: Record<string, string> = {
      ...baseEnv(f),
      ANTHROPIC_API_KEY: SCRIPTED_KEY,
      ANTHROPIC_BASE_URL: f.modelUrl,
      DISABLE_TELEMETRY: "1",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_AUTOUPDATER: "1",
      DISABLE_ERROR_REPORTING: "1",
    };
    // As root the host refuses to bypass permissions outside a sandbox; this throwaway one is.
    if (typeof process.getuid === "function" && process.getuid() === 0) env.IS_SANDBOX = "1";
    return env;
  },
  args(run, prompt) {
    if (run.command) return run.command;
    return ["-p", prompt, "--max-turns", "8", ...(run.continue ? ["--continue"] : []), ...(run.args ?? [])];
  },
  stepTimeout: 120,
};

const codex: HostDriver = {
  models: ["gpt-5"],
  prepare(f) {
    const codexHome = path.join(f.home, ".codex");
    mkdirSync(codexHome, { recursive: true });
    mkdirSync(path.join(f.home, "tmp"), { recursive: true });
    const config = [
      'model = "gpt-5"',
      'model_provider = "scripted"',
      "check_for_update_on_startup = false",
      "",
      "[model_providers.scripted]",
      'name = "scripted"',
      `base_url = ${JSON.stringify(`${f.modelUrl}/v1`)}`,
      'wire_api = "responses"',
      'env_key = "SCRIPTED_MODEL_KEY"',
      "request_max_retries = 0",
      "stream_max_retries = 0",
      "",
      // The sandbox would make /tmp writable and mark a .git inside it read-only, leaving an empty
      // .git folder behind in the machine's temporary folder.
      "[sandbox_workspace_write]",
      "exclude_slash_tmp = true",
      "exclude_tmpdir_env_var = true",
      "",
      "[analytics]",
      "enabled = false",
      "",
      "[features]",
      "plugins = false",
      "",
    ];
    writeFileSync(path.join(codexHome, "config.toml"), config.join("\n"));
  },
  env(f) {
    return { ...baseEnv(f), CODEX_HOME: path.join(f.home, ".codex"), SCRIPTED_MODEL_KEY: SCRIPTED_KEY };
  },
  args(run, prompt) {
    if (run.command) return run.command;
    const trust = ["--trust", "--dangerously-bypass-hook-trust", "--skip-git-repo-check"];
    return run.continue
      ? ["exec", ...trust, ...(run.args ?? []), "resume", "--last", prompt]
      : ["exec", ...trust, ...(run.args ?? []), prompt];
  },
  stepTimeout: 120,
};

const opencode: HostDriver = {
  models: ["scripted"],
  prepare(f) {
    for (const d of ["tmp", ".config", ".local/share", ".local/state", ".cache"]) mkdirSync(path.join(f.home, d), { recursive: true });
    const model = { name: "Scripted", tool_call: true, limit: { context: 200000, output: 8000 } };
    const provider = {
      npm: "@ai-sdk/openai-compatible",
      name: "Scripted",
      options: { baseURL: `${f.modelUrl}/v1`, apiKey: SCRIPTED_KEY },
      models: { scripted: model },
    };
    // No small_model: OpenCode then asks its experimental.provider.small_model hook for one.
    const config = {
      autoupdate: false,
      share: "disabled",
      model: "scripted/scripted",
      provider: { scripted: provider },
      permission: { bash: "allow", edit: "allow" },
    };
    writeFileSync(path.join(f.project, "opencode.json"), `${JSON.stringify(config, null, 2)}\n`);
  },
  env(f) {
    return {
      ...baseEnv(f),
      XDG_CONFIG_HOME: path.join(f.home, ".config"),
      XDG_DATA_HOME: path.join(f.home, ".local", "share"),
      XDG_STATE_HOME: path.join(f.home, ".local", "state"),
      XDG_CACHE_HOME: path.join(f.home, ".cache"),
      OPENCODE_DISABLE_AUTOUPDATE: "1",
      OPENCODE_DISABLE_MODELS_FETCH: "1",
      OPENCODE_DISABLE_SHARE: "1",
      OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
      // The packages a fresh project asks for come from the cache's store, never the registry.
      npm_config_cache: f.npmStore,
      npm_config_offline: "true",
    };
  },
  args(run, prompt) {
    if (run.command) return run.command;
    return ["run", ...(run.continue ? ["--continue"] : []), ...(run.args ?? []), prompt];
  },
  stepTimeout: 300,
};

export const DRIVERS: Record<Harness, HostDriver> = { "claude-code": claudeCode, codex, opencode };
