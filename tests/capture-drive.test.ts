import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { HARNESSES, HOST_PINS, pinnedBin, probeVersion, type Harness } from "../src/capture/hosts.js";
import type { DrivenRecipe } from "../src/capture/recipes.js";
import { loadRules } from "../src/io/load-rules.js";
import { clear, tempDir } from "./helpers.js";

// End to end with the real hosts: a sitting recorded by `clear capture drive` on each pinned host
// binary, cleared by `clear run`, accepted as a person would and committed through the gate that
// `clear hooks install` puts in place. One driven sitting per host.

const IN_CI = process.env.CI !== undefined && process.env.CI !== "" && process.env.CI !== "false";

/** The pinned host, installed into the cache where it is missing; in CI a host that cannot be had fails. */
function hostReady(harness: Harness): { ready: boolean; reason: string } {
  const bin = pinnedBin(harness);
  if (probeVersion(bin)?.version !== HOST_PINS[harness].version) clear(["capture", "install", harness]);
  const ok = probeVersion(bin)?.version === HOST_PINS[harness].version;
  if (!ok && IN_CI)
    throw new Error(
      `the pinned ${harness} ${HOST_PINS[harness].version} is not installed at ${bin}; .ci/run installs it with clear capture install`,
    );
  return {
    ready: ok,
    reason: ok ? "" : ` (skipped: the pinned ${harness} ${HOST_PINS[harness].version} could not be installed from npm here)`,
  };
}

const git = (cwd: string, ...args: string[]): string =>
  execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

function repository(): string {
  const root = tempDir("clear-drive-repo-");
  git(root, "init", "-q");
  git(root, "config", "user.email", "sitter@example.invalid");
  git(root, "config", "user.name", "Sitter");
  writeFileSync(path.join(root, "README.md"), "fixtures\n");
  git(root, "add", "README.md");
  git(root, "commit", "-q", "-m", "start");
  return root;
}

/** What a person does after reading the batch: ACCEPT alone on a line under its acceptance heading. */
function accept(root: string): void {
  const file = path.join(root, "CLEARANCE.md");
  const lines = readFileSync(file, "utf8").split("\n");
  const heading = lines.lastIndexOf("## User acceptance");
  const comment = lines.findIndex((l, i) => i > heading && l.startsWith("<!--") && l.endsWith("-->"));
  lines.splice((comment > heading ? comment : heading) + 1, 0, "", "ACCEPT");
  writeFileSync(file, lines.join("\n"));
}

const rules = loadRules();
for (const harness of HARNESSES) {
  const host = hostReady(harness);
  describe.skipIf(!host.ready)(`${harness}: a driven sitting through clear run, ACCEPT and the gate${host.reason}`, () => {
    const sitting = path.join(tempDir(`clear-drive-${harness}-`), "sitting");
    let drive: ReturnType<typeof clear>;
    beforeAll(() => {
      drive = clear(["capture", "drive", harness, "--into", sitting, "--json"]);
    }, 900_000);

    it("captures every event of the driven recipe with the real host, and says how in sitting.json", () => {
      const report = JSON.parse(drive.stdout) as { ok: boolean; missing: string[]; captured: string[]; requests: { route: string }[] };
      const recipe = rules.recipes.find((r) => r.name === `${harness}-driven`)!;
      expect(report.missing, drive.stderr).toEqual([]);
      expect(drive.code).toBe(0);
      for (const event of recipe.events) expect(report.captured).toContain(event);
      // An event the recipe calls unreachable that fired anyway would make its reason untrue.
      const unreachable = ((recipe as DrivenRecipe).unreachable ?? []).map((u) => u.event);
      expect(report.captured.filter((e) => unreachable.includes(e))).toEqual([]);
      const record = JSON.parse(readFileSync(path.join(sitting, "sitting.json"), "utf8")) as Record<string, unknown>;
      expect(record).toMatchObject({ driver: "clear capture drive", model: "scripted", harness, hostVersion: HOST_PINS[harness].version });
      expect(record.method).toMatch(/scripted model on 127\.0\.0\.1/);
      // As root with unshare and ip, the host ran where loopback was the only interface.
      const canIsolate =
        process.getuid?.() === 0 && spawnSync("unshare", ["-n", "true"]).status === 0 && spawnSync("ip", ["-V"]).status === 0;
      if (canIsolate) expect(record.method).toMatch(/network namespace with loopback only \(unshare -n; interfaces: lo\)/);
      expect(record.hostBinarySha256).toMatch(/^[0-9a-f]{64}$/);
      expect(report.requests.length).toBeGreaterThan(0);
      const kit = JSON.parse(readFileSync(path.join(sitting, "kit.json"), "utf8")) as { transports: { sha256: string }[] };
      expect(kit.transports).toHaveLength(1);
      // Every capture is named with the host's own version, never unknown.
      for (const name of readdirSync(sitting).filter((n) => n.startsWith(`${harness}_`)))
        expect(name).toContain(`_${HOST_PINS[harness].version}.`);
      // OpenCode's retry step is told by its payload: session.status says the turn is retried.
      if (harness === "opencode") {
        const statuses = readdirSync(sitting).filter((n) => n.startsWith("opencode_session_status_"));
        expect(statuses.some((n) => /"status":\{"type":"retry","attempt":1,/.test(readFileSync(path.join(sitting, n), "utf8")))).toBe(true);
      }
    });

    it(
      "is cleared by clear run, accepted, and committed through the installed gate; a raw capture is refused",
      () => {
        const root = repository();
        expect(clear(["hooks", "install"], { cwd: root }).code).toBe(0);
        const run = clear(["run", sitting], { cwd: root });
        expect(run.code, `${run.stdout}\n${readFileSync(path.join(root, "CLEARANCE.md"), "utf8").slice(0, 4000)}`).toBe(0);
        // The batch names the binary that ran and the scripted model, as sitting.json does, and the driven recipe.
        const told = JSON.parse(readFileSync(path.join(sitting, "sitting.json"), "utf8")) as { hostBinarySha256: string };
        const batch = readFileSync(path.join(root, "CLEARANCE.md"), "utf8");
        expect(batch).toMatch(new RegExp(`^- Host binary: \`[^\`]+\`, sha256 \`${told.hostBinarySha256}\`; model: \`scripted\`$`, "m"));
        expect(batch).toContain(`${harness}-driven`);
        git(root, "add", "-A");
        const refused = spawnSync("git", ["commit", "-q", "-m", "fixtures before ACCEPT"], { cwd: root, encoding: "utf8" });
        expect(refused.status).not.toBe(0);
        accept(root);
        git(root, "add", "-A");
        git(root, "commit", "-q", "-m", "fixtures, accepted");
        const committed = git(root, "ls-files", "fixtures").split("\n").filter(Boolean);
        expect(committed.some((f) => f.startsWith(`fixtures/${harness}/${HOST_PINS[harness].version}/`))).toBe(true);
        expect(clear(["verify"], { cwd: root }).code).toBe(0);
        const raw = readdirSync(sitting).find((n) => n.startsWith(`${harness}_`))!;
        mkdirSync(path.join(root, "captures-inbox"), { recursive: true });
        writeFileSync(path.join(root, "captures-inbox", raw), readFileSync(path.join(sitting, raw)));
        git(root, "add", "-f", `captures-inbox/${raw}`);
        expect(spawnSync("git", ["commit", "-q", "-m", "a raw capture"], { cwd: root, encoding: "utf8" }).status).not.toBe(0);
        expect(existsSync(path.join(sitting, raw))).toBe(true);
      },
    );
  });
}
