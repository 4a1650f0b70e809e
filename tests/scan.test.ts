import { execFileSync, spawnSync } from "node:child_process";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { rules as presetRules } from "@secretlint/secretlint-rule-preset-recommend";
import { makeDisplay, maskFound, NAME_MASK } from "../src/display.js";
import { homeGrammar } from "../src/homes.js";
import { loadRules } from "../src/io/load-rules.js";
import { join, scanEngine, scanPass } from "../src/passes/scan.js";
import { clear, clearJson, CLI, PROJECT_ROOT, tempDir } from "./helpers.js";

const rules = loadRules();
const engine = scanEngine(rules.secrets, homeGrammar(rules.homes), null);
const display = makeDisplay(rules, [], null);
const scanText = async (text: string) => (await scanPass([{ file: "x.json", text }], engine, display)).findings;

describe("this project's secret rules prove themselves", () => {
  for (const rule of rules.secrets.rules) {
    it(`${rule.id}: fires on each value it must match and on none it must not`, async () => {
      for (const parts of rule.match) {
        const text = rule.target === "raw" ? join(parts) : JSON.stringify({ value: join(parts) });
        expect((await scanText(text)).map((f) => f.rule), join(parts).slice(0, 12)).toContain(rule.id);
      }
      for (const parts of rule.noMatch) {
        const text = rule.target === "raw" ? join(parts) : JSON.stringify({ value: join(parts) });
        expect((await scanText(text)).map((f) => f.rule)).not.toContain(rule.id);
      }
    });
  }

  it("every rule of secretlint's preset but its comment filter has a description and examples, and fires on each", async () => {
    const scanners = presetRules.filter((r) => r.meta.type === "scanner" && r.meta.id !== "@secretlint/secretlint-rule-filter-comments").map((r) => r.meta.id);
    expect(Object.keys(rules.secrets.preset).sort()).toEqual(scanners.sort());
    for (const [id, p] of Object.entries(rules.secrets.preset)) {
      expect(p.description.length, id).toBeGreaterThan(0);
      for (const parts of p.match) {
        const text = id.endsWith("/secretlint-rule-gcp") ? join(parts) : JSON.stringify({ value: join(parts) });
        expect((await scanText(text)).length, id).toBeGreaterThan(0);
      }
    }
    expect(engine.expected).toEqual(expect.arrayContaining(scanners));
  });

  // A key written into a longer name (`deploy_<key>_old`, `ci-<key>`): a separator before or after it
  // hides no rule's shape. Left out: the rules read from a member's name (nothing to join), and a URL's
  // user and password (a host name with an underscore after it is not a URL), and key material read
  // by its lines' width (a line glued to a name is no longer a key's line).
  const joinedBy = [["x_", ""], ["", "_x"], ["x_", "_x"], ["x-", ""], ["", "-x"], ["x.", ""], ["", ".x"]];
  const byMember = new Set(["clear/aws-secret", "clear/sensitive-member", "@secretlint/secretlint-rule-gcp", "@secretlint/secretlint-rule-basicauth", "clear/key-material"]);
  it("finds every rule's value joined to the text around it by an underscore, a hyphen or a dot", async () => {
    const missed: string[] = [];
    for (const p of engine.control.planted.filter((x) => !byMember.has(x.rule))) {
      for (const value of Object.values(p.members)) {
        for (const [before, after] of joinedBy) {
          const found = await scanText(JSON.stringify({ value: `${before}${value}${after}` }));
          if (found.length === 0) missed.push(`${p.rule} ${JSON.stringify([before, after])}`);
        }
      }
    }
    expect(missed).toEqual([]);
  });

  it("the sensitive-member rule takes a high-entropy password, not a word or a placeholder", async () => {
    const high = ["Zq8", "rT2v", "Lm9x", "Wp4k", "Ny7b"].join("");
    expect((await scanText(JSON.stringify({ password: high }))).map((f) => f.rule)).toContain("clear/sensitive-member");
    expect(await scanText(JSON.stringify({ password: "x".repeat(20), token: "correct horse" }))).toEqual([]);
  });
});

describe("clear scan", () => {
  it("finds every secret shape planted in a folder (one file each, inside JSON strings), prints no value, and proves its reach", () => {
    const dir = tempDir();
    const shapes: Record<string, string> = {};
    for (const rule of rules.secrets.rules) shapes[rule.id] = rule.target === "raw" ? join(rule.match[0]!) : JSON.stringify({ session_id: "s", tool_response: join(rule.match[0]!) });
    for (const [id, examples] of Object.entries(rules.secrets.preset)) shapes[id] = id.endsWith("gcp") ? join(examples.match[0]!) : JSON.stringify({ output: join(examples.match[0]!) });
    shapes.home = JSON.stringify({ cwd: ["/home/", "someone", "/p"].join("") });
    const names = Object.keys(shapes).map((id, i) => {
      const name = `f${i}.json`;
      writeFileSync(path.join(dir, name), shapes[id]!);
      return name;
    });
    const sarif = path.join(tempDir(), "out.sarif");
    const r = clear(["scan", dir, "--json", "--sarif", sarif]);
    expect(r.code).toBe(1);
    const json = JSON.parse(r.stdout) as { findings: { file: string; rule: string; pointer?: string; masked: string; line: number }[]; control: { red: boolean } };
    expect(json.control.red).toBe(true);
    for (const name of names) expect(json.findings.some((f) => f.file.endsWith(name)), name).toBe(true);
    const secrets = [
      ...rules.secrets.rules.map((rule) => (rule.target === "raw" ? (new RegExp(rule.pattern, rule.flags).exec(join(rule.match[0]!))?.[1] ?? "") : join(rule.match[0]!))),
      ...Object.values(rules.secrets.preset).map((examples) => join(examples.match[0]!)),
    ];
    // A masked value keeps its first four characters; nothing after them is printed.
    for (const secret of secrets) expect(r.stdout + r.stderr, secret.slice(0, 8)).not.toContain(secret.slice(4, 20));
    for (const f of json.findings) expect(f.masked).toMatch(f.rule === "clear/home-owner" ? /^\[name\]$/ : /^.{0,4}\**$/u);
    const jsonFinding = json.findings.find((f) => f.rule === "clear/jwt");
    expect(jsonFinding?.pointer).toBe("/tool_response");
    // SARIF 2.1.0 with what GitHub code scanning reads (no package on the registry lists ships the schema to validate against).
    const log = JSON.parse(readFileSync(sarif, "utf8"));
    expect(log.version).toBe("2.1.0");
    expect(log.$schema).toMatch(/sarif.*2\.1\.0/);
    const run = log.runs[0];
    expect(run.tool.driver.rules.map((x: { id: string }) => x.id)).toContain("clear/jwt");
    for (const x of run.tool.driver.rules) expect(x.shortDescription.text.length).toBeGreaterThan(0);
    for (const res of run.results) {
      const loc = res.locations[0].physicalLocation;
      expect(path.isAbsolute(loc.artifactLocation.uri)).toBe(false);
      expect(loc.region.startLine).toBeGreaterThanOrEqual(1);
      expect(loc.region.startColumn).toBeGreaterThanOrEqual(1);
    }
    expect(readFileSync(sarif, "utf8")).not.toContain(join(rules.secrets.rules[0]!.match[0]!).slice(0, 30));
  });

  it("never says clean what it did not read: a FIFO or a device, named or in a folder, is not scanned, and the scan exits 1", () => {
    const dir = tempDir();
    execFileSync("mkfifo", [path.join(dir, "x.json")]);
    writeFileSync(path.join(dir, "ok.json"), "{}");
    for (const args of [[path.join(dir, "x.json")], [dir], ["/dev/null"]]) {
      const r = clear(["scan", ...args, "--json"]);
      expect(r.code, args[0]).toBe(1);
      const out = JSON.parse(r.stdout) as { ok: boolean; skipped: { file: string; reason: string }[] };
      expect(out.ok, args[0]).toBe(false);
      expect(out.skipped.map((k) => k.reason), args[0]).toEqual(["not a regular file (a FIFO, a socket or a device); never read"]);
    }
  });

  // The tests run as root, which lists any folder: the scan runs as nobody, where setpriv can start it so.
  const asNobody = process.getuid?.() === 0 && spawnSync("setpriv", ["--version"]).status === 0;
  it.skipIf(!asNobody)(`a path given that cannot be read at all (a folder it cannot list, a file it cannot open) is exit 2, naming it, with nothing scanned; one under a folder given is not scanned, exit 1${asNobody ? "" : " (skipped: needs root and setpriv to run as another user)"}`, () => {
    const dir = tempDir("clear-scan-locked-");
    mkdirSync(path.join(dir, "locked"));
    mkdirSync(path.join(dir, "open"));
    writeFileSync(path.join(dir, "open", "a.json"), "{}");
    writeFileSync(path.join(dir, "shut.json"), "{}");
    spawnSync("chmod", ["a+rx", dir]);
    spawnSync("chmod", ["000", path.join(dir, "locked"), path.join(dir, "shut.json")]);
    const scan = (...args: string[]): { code: number | null; stdout: string; stderr: string } => {
      const r = spawnSync("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", process.execPath, CLI, "scan", ...args], { cwd: dir, encoding: "utf8" });
      return { code: r.status, stdout: r.stdout, stderr: r.stderr };
    };
    for (const [given, reason] of [["locked", "a folder that could not be listed (EACCES)"], ["shut.json", "a file that could not be opened (EACCES)"]] as const) {
      for (const args of [[given], ["open", given], [given, "--json"]]) {
        const r = scan(...args);
        expect(r.code, args.join(" ")).toBe(2);
        expect(r.stderr, args.join(" ")).toContain(`${path.join(dir, given)}: ${reason}`);
        if (args.includes("--json")) expect(JSON.parse(r.stdout), args.join(" ")).toMatchObject({ ok: false, error: expect.stringContaining(`${given}: ${reason}`) });
        else expect(r.stdout, args.join(" ")).toBe("");
      }
    }
    // Inside a folder given, a folder it cannot list is a file the scan did not reach: named, exit 1.
    const inside = scan(".", "--json");
    expect(inside.code).toBe(1);
    expect((JSON.parse(inside.stdout) as { skipped: { file: string; reason: string }[] }).skipped).toEqual(
      expect.arrayContaining([{ file: expect.stringMatching(/locked$/), reason: "a folder that could not be listed (EACCES)" }]),
    );
  });

  it("never says clean a file named in bytes that are not UTF-8, though a file stands under the name it is shown by (U+FFFD)", () => {
    const dir = tempDir();
    const token = ["gh", "p_", "wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx"].join("");
    // The name read as UTF-8 is the other file's: read by it, the secret would go unread.
    writeFileSync(Buffer.concat([Buffer.from(`${dir}/a`), Buffer.from([0xff]), Buffer.from(".txt")]), `token = "${token}"\n`);
    writeFileSync(path.join(dir, "a\ufffd.txt"), "hello\n");
    const r = clearJson(["scan", dir, "--json"]);
    expect(r.code, JSON.stringify(r.json)).toBe(1);
    expect(r.json).toMatchObject({ ok: false, files: 1, findings: [] });
    expect(r.json["skipped"]).toEqual([{ file: expect.stringMatching(/a\ufffd\.txt$/), reason: expect.stringContaining("its name is not UTF-8") }]);
  });

  it("prints no secret a file's name carries: the name is starred in the human output, --json and SARIF alike", () => {
    const dir = tempDir();
    const token = ["gh", "p_", "wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx"].join("");
    writeFileSync(path.join(dir, `${token}.json`), JSON.stringify({ k: ["AK", "IA", "Q3EGRZ7XK2M4PW5B"].join("") }));
    symlinkSync("/nonexistent", path.join(dir, `${token}.link`));
    const sarif = path.join(tempDir(), "out.sarif");
    const human = clear(["scan", dir, "--verbose"]);
    const json = clear(["scan", dir, "--json", "--sarif", sarif]);
    expect(human.code).toBe(1);
    const printed = [human.stdout, human.stderr, json.stdout, json.stderr, readFileSync(sarif, "utf8")].join("\n");
    expect(printed).not.toContain(token.slice(4, 20));
    const findings = (JSON.parse(json.stdout) as { findings: { file: string }[]; skipped: { file: string }[] });
    expect(findings.findings[0]?.file).toMatch(/\*{8,}\.json$/);
    expect(findings.skipped[0]?.file).toMatch(/\*{8,}\.link$/);
  });

  it("reads a file whose name holds a backslash, a newline or a glob's character by that name, and prints no secret or name the name spells through an escape", () => {
    const dir = tempDir();
    const body = "wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx";
    const name = ["zorb", "alina"].join("");
    const home = JSON.stringify({ cwd: `/home/${name}/proj` });
    const files = [`tok\\u0067hp_${body}.json`, `x_\\u007a${name.slice(1)}.json`, `y_\\x7a${name.slice(1)}.json`, `z_\\172${name.slice(1)}.json`, "a\\b.json", "line\nbreak.json", "star*[x].json"];
    for (const f of files) writeFileSync(path.join(dir, f), home);
    const sarif = path.join(tempDir(), "out.sarif");
    const human = clear(["scan", dir, "--verbose"]);
    const json = clear(["scan", dir, "--json", "--sarif", sarif]);
    const printed = [human.stdout, human.stderr, json.stdout, json.stderr, readFileSync(sarif, "utf8")].join("\n");
    expect(printed).not.toContain(body.slice(0, 16));
    expect(printed.toLowerCase()).not.toContain(name.slice(1));
    const result = JSON.parse(json.stdout) as { findings: { file: string }[]; skipped: unknown[] };
    expect(result.skipped).toEqual([]);
    // Each file was read: its home is a finding (two names starred whole may print alike).
    expect(result.findings.length).toBe(files.length);
  });

  it("scans the cleared example sitting clean, and reports a link it does not follow", () => {
    const out = path.join(tempDir(), "cleared");
    expect(clear(["substitute", path.join(PROJECT_ROOT, "examples", "sitting"), "--out", out]).code).toBe(0);
    const clean = clearJson(["scan", out]);
    expect(clean.json.findings).toEqual([]);
    expect(clean.code).toBe(0);
    const linked = tempDir();
    writeFileSync(path.join(linked, "a.json"), "{}");
    mkdirSync(path.join(linked, "sub"));
    symlinkSync("/etc/passwd", path.join(linked, "sub", "link.json"));
    const r = clearJson(["scan", linked]);
    expect(r.code).toBe(1);
    expect(r.json.skipped).toEqual([{ file: expect.stringContaining("link.json"), reason: expect.stringContaining("never followed") }]);
  });
});

describe("a value a text assigns to a credential's name", () => {
  // Built at run time: a value of no known key shape, and the pieces of a capture that keeps strings as they stand.
  const value = ["R9SPofbci", "Ox9gy1CJd", "ObOIRpFqaDZeV7"].join("");
  const aws = ["wJalrXUtnFEMI", "K7MDENGbPxRfiCY", "R9SPofbciO"].join("");
  const capture = (cwd: string, toolUseId: string): string =>
    JSON.stringify({ session_id: "5b0c7e9a-3f1d-4c2e-9a8b-1d2e3f4a5b6c", cwd, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: toolUseId });
  const assigned: Record<string, string> = {
    env: `p\nDB_PASSWORD=${value}\nAWS_SECRET_ACCESS_KEY=${aws}`,
    export: `export OPENAI_API_KEY=${value}`,
    flag: `--password=${value}`,
    "flag apart": `deploy --token ${value}`,
    yaml: `x\npassword: ${value}`,
    toml: `x\npassword = "${value}"`,
    "json in text": `cfg: {"client_secret": "${value}"}`,
    authorization: `Authorization: token ${value}`,
    "api key header": `X-Api-Key: ${value}`,
    cookie: `Cookie: theme=dark; session=${value}`,
    "url password": `redis://:${value}@cache:6379`,
    dsn: `app:${value}@tcp(127.0.0.1:3306)/prod`,
    "curl user": `curl -u admin:${value} https://example.com`,
    element: `<password>${value}</password>`,
    "bare colon": `x-api-key:${value}`,
    passphrase: `passphrase=${value}`,
    "mysql glued": `mysql -uroot -p${value} app`,
    "mysql quoted": `mysql -u bob -p'${value}'`,
    sshpass: `sshpass -p ${value} ssh host`,
    netrc: `machine h.example.invalid login bob password ${value}`,
    "signed url": `https://a.blob.core.windows.net/c?sv=2020-08-04&sig=${value}`,
    "yaml block": `db:\n  password: |\n    ${value}\n`,
    "yaml folded": `auth:\n  token: >-\n\n    ${value}`,
    "yaml below": `password:\n  "${value}"`,
    "setting list": `env:\n  - name: API_TOKEN\n    value: ${value}`,
    "setting in text": `task def: [{"Name": "/app/db_password", "Type": "SecureString", "Value": "${value}"}]`,
    "shell continuation": `export API_KEY=\\\n    ${value}`,
    "assignment below": `api_key = (\n  "${value}"\n)`,
    "flag continuation": `deploy --token \\\n  ${value}`,
    "docker login": `docker login -u bob -p ${value} ghcr.io`,
    "redis-cli": `redis-cli -h cache -p 6379 -a ${value} ping`,
    sqlcmd: `sqlcmd -S db -U sa -P ${value} -Q x`,
    ldapsearch: `ldapsearch -x -D cn=admin -w ${value} -b dc=x`,
    zip: `zip -P ${value} out.zip f`,
    "7z glued": `7z x a.7z -p${value}`,
    keytool: `keytool -list -keystore k.jks -storepass ${value}`,
    "samba user": `smbclient //srv/s -U bob%${value}`,
    setx: `setx API_KEY ${value}`,
    "npm config set": `npm config set //registry.example.com/:_authToken ${value}`,
    "git config": `git config --global github.token ${value}`,
    "gh secret set": `gh secret set DEPLOY --body "${value}"`,
    "name and value": `define( 'DB_PASSWORD', '${value}' );`,
    "header pair": `headers.set("X-Api-Key", "${value}")`,
    "url token user": `git clone https://${value}@github.com/o/r.git`,
    "short name": `pw=${value}`,
    "short name in capitals": `export DB_PW=${value}`,
    "pre-shared key": `WIFI_PSK="${value}"`,
    passcode: `passcode: ${value}`,
    "one-time password's seed": `otp_seed=${value}`,
    totp: `TOTP=${value}`,
    "keytool's other password": `keypass=${value}`,
    "camel case short": `dbPw: ${value}`,
    "php variable": `$password = '${value}';`,
    "ruby variable": `@token = "${value}"`,
    "r assignment": `password <- "${value}"`,
    "ruby class variable": `@@api_token = "${value}"`,
    "sshpass's variable": `export SSHPASS=${value}`,
    "short name glued": `dbpw=${value}`,
    "short name glued in capitals": `DBPW=${value}`,
    "short name in camel case, capitals": `userPW: ${value}`,
    "pre-shared key in camel case": `wifiPSK=${value}`,
    "pass in camel case": `sshPass: ${value}`,
  };
  const nothing: Record<string, string> = {
    reference: "password=${DB_PASSWORD} token=$GITHUB_TOKEN key: ${{ secrets.KEY }}",
    placeholder: "password=<your-password> api_key=[redacted] secret=******** token=xxxxxxxxxxxxxxxx",
    "the tool's own": "token=[env-dump-v1] password=[a secret shape, not written] secret=xxxxxxxxxxxx",
    code: "apiKey: process.env.OPENAI_API_KEY; token = get_token(user1); secret_name: my-secret-v2; max_tokens=4096",
    words: "password=changeme --token-file=/run/secrets/token postgres://user:password@localhost/db",
    colons: "redis key session:abc; ls -p /tmp; the password is here; https://example.com:8080/x; a::b; at 12:34:56; token:next_page_2",
    "yaml placeholders": "password: |\\n  ${{ secrets.DB_PASSWORD }}\\ntoken: >-\\n  <redacted>\\npassword:\\n  [redacted]",
    "yaml maps": "auth:\\n  client_id_2024: abc\\n  type: bearer\\ncredentials:\\n  api_key: ${API_KEY}\\nsecrets:\\n  - DB_PASSWORD2",
    "settings by reference": "- name: API_TOKEN\\n  valueFrom:\\n    secretKeyRef:\\n      name: app-secrets\\n      key: token\\n- name: LOG_LEVEL\\n  value: debug-level-v2x9\\n- name: DB_PASSWORD\\n  value: $(DB_PASS)",
    "continued lines": "export API_KEY=\\\\\\n  OTHER_VAR=abc123def\\ncurl --token \\\\\\n  --header=X-Req-9abc",
    "prose below": "Your token:\\n  see the docs for how to get one\\nmax_tokens:\\n  4096",
    "clients without a password": "docker login -u bob --password-stdin ghcr.io && docker run -p 8080:80 img; redis-cli -p 6379 -a $REDIS_PASSWORD; keytool -list -storepass changeit; git config --global user.email dev@example.com; npm config set registry https://registry.example.com/; gh secret set DEPLOY < deploy.key",
    "url users": "git@github.com:o/r.git ssh://git@host.example.com/r https://x-access-token@github.com/o/r https://first.last.name.2024@example.com/x",
    "names in a list": "t('password', 'Password'); headers.set('Authorization', 'Bearer ' + token); fields = ['user', 'password', 'token_type', 'secret_name']",
    "locked accounts": "root:!:19000:0:99999:7:::\\ndaemon:*:19000::::::\\nawk '{print $1$2}'",
    "words that end in pass": "bypass=allow_all_hosts_v2 compass: north-by-northwest overpass = under-construction-2024",
    "variables read, not assigned": "if [ $password = '$expected' ]; then echo $token; fi; @token = fetch_token(user_42)",
  };

  it("a password generated of letters alone, in both cases, is found however a text assigns it; a name in camel case is not", async () => {
    const letters = ["meoKDTvlp", "HhnABnhZY"].join("");
    const rulesOf = async (stdout: string): Promise<string[]> => (await scanText(JSON.stringify({ tool_response: { stdout } }))).map((f) => f.rule);
    for (const text of [`DB_PASSWORD=${letters}`, `db:\n  password: ${letters}`, `deploy --api-key ${letters}`, `<password>${letters}</password>`, `curl -u admin:${letters} x`]) {
      expect(await rulesOf(text), text.slice(0, 12)).toContain("clear/sensitive-assignment");
    }
    for (const text of ["password: getPasswordFromVault", "auth_token = readAccessTokenFromEnv", "secret: SecretsManagerClient", "api_key: isForInOrOfStatement", "token=XMLHttpRequest"]) {
      expect(await rulesOf(text), text).toEqual([]);
    }
  });

  it("a credential a tool printed beside its name in a table (markdown, columns, CSV), in JSON apart from its name, or in a .pgpass line is found; names and words so printed are not", async () => {
    const esc = "\u001b";
    const rulesOf = async (stdout: string): Promise<string[]> => (await scanText(JSON.stringify({ tool_response: { stdout } }))).map((f) => f.rule);
    const printed: Record<string, string> = {
      markdown: `| Name | Value |\n|---|---|\n| DB_PASSWORD | ${value} |\n`,
      box: `│ DB_PASSWORD │ ${value} │\n`,
      columns: `NAME           VALUE\nDB_PASSWORD    ${value}\n`,
      "columns in colour": `${esc}[1;32mDB_PASSWORD${esc}[0m    ${esc}[33m${value}${esc}[0m\n`,
      csv: `name,value\nDB_PASSWORD,${value}\n`,
      "json pair": JSON.stringify([["X-Api-Key", value]]),
      "json key and val": JSON.stringify({ key: "STRIPE_SECRET", val: value }),
      "json name and v": JSON.stringify([{ name: "API_TOKEN", v: value }]),
      pgpass: `db.example.com:5432:app:bob:${value}\n`,
    };
    for (const [name, text] of Object.entries(printed)) expect(await rulesOf(text), name).toContain("clear/sensitive-assignment");
    expect(await rulesOf(JSON.stringify({ name: "API_TOKEN", secret: value }))).toContain("clear/sensitive-member");
    // The capture's own JSON, not text a tool printed: the setting's members read where they stand.
    for (const setting of [{ key: "STRIPE_SECRET", val: value }, { name: "API_TOKEN", v: value }]) {
      expect((await scanText(JSON.stringify({ tool_input: { env: [setting] } }))).map((f) => f.rule)).toContain("clear/sensitive-member");
    }
    const ordinary = [
      "| Name | Type | Description |\n|---|---|---|\n| api_key | string | Your API key |\n| token | `ghp_xxxxxxxxxxxx` | a placeholder |",
      "NAME                  TYPE                                  DATA   AGE\ndb-password           Opaque                                1      5d\napi-token-x9k2f       kubernetes.io/service-account-token   3      10d",
      "DB_PASSWORD    changeme\nAPI_TOKEN      <your-token>\nSECRET_KEY     ${SECRET_KEY}",
      "name,type\napi_key,string\ntoken,required_for_v2",
      JSON.stringify([["access_token", "refresh_token_expires_in"], ["password", "Password"]]),
      JSON.stringify({ key: "api_key", val: "process.env.API_KEY" }),
      "localhost:5432:*:postgres:*\nsrc/app.ts:12:5: error TS2322: a1b2c3d4e5f6\n12:30:45 token refreshed",
    ];
    for (const text of ordinary) expect(await rulesOf(text), text.slice(0, 24)).toEqual([]);
  });

  it("a Discord bot token in a tool's output, with no name beside it, is found; three dotted parts of another shape are not", async () => {
    const rulesOf = async (stdout: string): Promise<string[]> => (await scanText(JSON.stringify({ tool_response: { stdout } }))).map((f) => f.rule);
    const id = Buffer.from(["8123456789", "01234567"].join("")).toString("base64url");
    const token = [id, "GhIjKl", ["mNoPqRsTuVwXyZ", "0123456789abcdefgh"].join("")].join(".");
    expect(await rulesOf(`logged in as bot with ${token}\n`)).toContain("clear/discord-bot-token");
    expect(await rulesOf(`client.login("${token}")`)).toContain("clear/discord-bot-token");
    const other = [["ABCDEFGHIJKLMNOPQRSTUVWX", "GhIjKl", "mNoPqRsTuVwXyZ0123456789abcd"].join("."), `com.example.${"a".repeat(24)}.b`];
    for (const text of other) expect(await rulesOf(text)).not.toContain("clear/discord-bot-token");
  });

  it("a key's body shown without its header, an AWS secret beside its key id, a hex key or a seed phrase beside their words is found; a certificate, a digest or prose is not", async () => {
    const rulesOf = async (stdout: string): Promise<string[]> => (await scanText(JSON.stringify({ tool_response: { stdout } }))).map((f) => f.rule);
    const lines = (opening: string): string[] => [opening + randomBytes(36).toString("base64").slice(0, 64 - opening.length), ...Array.from({ length: 6 }, () => randomBytes(48).toString("base64"))];
    const rsa = lines(["MII", "EpAIBAAKCAQEA"].join(""));
    const openssh = lines(["b3BlbnNzaC1r", "ZXktdjEAAAAABG5vbmU"].join(""));
    const id = ["AK", "IA", "Q3EGRZ7XK2M4PW5B"].join("");
    const secret = [aws, "Zq"].join("");
    const hex = randomBytes(32).toString("hex");
    const words = ["legal winner thank year", "wave sausage worth useful", "legal winner thank yellow"].join(" ");
    const found: Record<string, [string, string]> = {
      "key body": [`$ sed -n 2,8p id_rsa\n${rsa.join("\n")}\n`, "clear/private-key-body"],
      "key body, numbered": [rsa.map((l, i) => `${String(i + 2).padStart(6)}→${l}`).join("\n"), "clear/private-key-body"],
      "openssh body": [`${openssh.join("\n")}\n`, "clear/private-key-body"],
      "aws csv": [`Access key ID,Secret access key\n${id},${secret}\n`, "clear/aws-secret-beside-id"],
      "aws text": [`ACCESSKEY\t${id}\t2024-05-01T10:00:00Z\t${secret}\tActive`, "clear/aws-secret-beside-id"],
      "hex key": [`Private key: 0x${hex}`, "clear/hex-private-key"],
      "hex key, no colon": [`deployer key 0x${hex}`, "clear/hex-private-key"],
      mnemonic: [`mnemonic: ${words}`, "clear/seed-phrase"],
      "recovery phrase": [`Your secret recovery phrase is:\n${words}\n`, "clear/seed-phrase"],
      "seed env": [`SEED_PHRASE="${words}"`, "clear/seed-phrase"],
      "solana-keygen new": [`Save this seed phrase and your BIP39 passphrase to recover your new keypair:\n${words}\n`, "clear/seed-phrase"],
      "cast wallet new-mnemonic": [`Successfully generated a new mnemonic.\nPhrase:\n${words}\n\nAccounts:\n`, "clear/seed-phrase"],
      "Phrase:, CRLF": [`Phrase:\r\n${words}\r\n`, "clear/seed-phrase"],
      "two blanks between the words": [`mnemonic: ${words.split(" ").join("  ")}`, "clear/seed-phrase"],
      "tabs between the words": [`seed words:\t${words.split(" ").join("\t")}`, "clear/seed-phrase"],
    };
    // Keys of every curve a tool makes, their bodies as a PEM file's lines 2 and on: a sequence's length in one byte, in two (P-521), or short (Ed448).
    const bodies = {
      "P-521 pkcs8": generateKeyPairSync("ec", { namedCurve: "P-521" }).privateKey.export({ format: "der", type: "pkcs8" }),
      "P-521 sec1": generateKeyPairSync("ec", { namedCurve: "P-521" }).privateKey.export({ format: "der", type: "sec1" }),
      "P-256 sec1": generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({ format: "der", type: "sec1" }),
      ed448: generateKeyPairSync("ed448").privateKey.export({ format: "der", type: "pkcs8" }),
      x448: generateKeyPairSync("x448").privateKey.export({ format: "der", type: "pkcs8" }),
      ed25519: generateKeyPairSync("ed25519").privateKey.export({ format: "der", type: "pkcs8" }),
    };
    for (const [name, der] of Object.entries(bodies)) found[name] = [`${der.toString("base64").replace(/.{64}/g, "$&\n")}\n`, "clear/private-key-body"];
    // A body of four lines and more is also key material, the wider finding the one kept at its place.
    const sameKey = (rule: string, found: string): boolean => found === rule || (rule === "clear/private-key-body" && found === "clear/key-material");
    for (const [name, [text, rule]] of Object.entries(found)) expect((await rulesOf(text)).filter((r) => sameKey(rule, r)), name).not.toEqual([]);
    const cert = lines(["MII", "DdzCCAl+gAwIBAgIE"].join(""));
    const ordinary = [
      `-----BEGIN CERTIFICATE-----\n${cert.join("\n")}\n`,
      `${id} commit ${randomBytes(20).toString("hex")}`,
      `0x${hex}`,
      `tx hash 0x${hex} sha256 ${hex}`,
      `mnemonic: ${words} and more`,
      "seed phrase: never share your words with anyone because they give full access ever",
      `sha256 of signer key file: ${hex}`,
      `private key hash: 0x${hex}`,
      "a mnemonic is a device such as a pattern of letters ideas or associations that assists in remembering",
    ];
    const shapes = new Set(Object.values(found).map(([, rule]) => rule));
    for (const text of ordinary) expect((await rulesOf(text)).filter((r) => shapes.has(r)), text.slice(0, 24)).toEqual([]);
  });

  it("a key's body from its middle, an encrypted key's first line or its Proc-Type, and a seed phrase numbered or listed with no word beside it are found; a certificate, a public key, text wrapped at 64 or a short list are not", async () => {
    const rulesOf = async (stdout: string): Promise<string[]> => (await scanText(JSON.stringify({ tool_response: { stdout } }))).map((f) => f.rule);
    const body = (width: number, n: number): string[] => Array.from({ length: n }, () => randomBytes(width).toString("base64").slice(0, width === 48 ? 64 : 70));
    const middle = body(48, 12);
    const words = ["abandon", "ability", "able", "about", "above", "absent", "absorb", "abstract", "absurd", "abuse", "access", "accident"];
    const found: Record<string, string> = {
      "lines 10 to 21": `$ sed -n 10,21p id_rsa\n${middle.join("\n")}\n`,
      "numbered as Read shows them": middle.map((l, i) => `${String(i + 10).padStart(6)}→${l}`).join("\n"),
      "cat -n": middle.map((l, i) => `${String(i + 10).padStart(6)}\t${l}`).join("\n"),
      "openssh, 70 a line": body(53, 6).join("\n"),
      "after a certificate's footer": `${["-----BEGIN ", "CERTIFICATE-----"].join("")}\nMIIB\n${["-----END ", "CERTIFICATE-----"].join("")}\n${middle.join("\n")}`,
      "encrypted pkcs8's first line": [["MIIF", "LTBXBgkqhkiG9w0BBQ0w"].join(""), randomBytes(30).toString("base64")].join(""),
      "encrypted pkcs8, short": [["MIGb", "MFcGCSqGSIb3DQEFDTBK"].join(""), randomBytes(30).toString("base64")].join(""),
      "proc-type": `${["Proc-Type: 4,", "ENCRYPTED"].join("")}\nDEK-Info: AES-256-CBC,${randomBytes(16).toString("hex").toUpperCase()}\n`,
      "seed numbered": words.map((w, i) => `${i + 1}. ${w}`).join(" "),
      "seed one a line": words.map((w, i) => `${i + 1}) ${w}`).join("\n"),
      "seed json": JSON.stringify(words, null, 2),
      "seed file, cat -n": words.map((w, i) => `${String(i + 1).padStart(6)}\t${w}`).join("\n"),
      "seed file, as Read shows it": words.map((w, i) => `${String(i + 1).padStart(6)}\u2192${w}`).join("\r\n"),
    };
    for (const [name, text] of Object.entries(found)) expect(await rulesOf(text), name).not.toEqual([]);
    const array = await scanText(JSON.stringify({ tool_input: { words } }));
    expect(array.map((f) => f.rule)).toContain("clear/seed-list");
    const ordinary = [
      `${["-----BEGIN ", "CERTIFICATE-----"].join("")}\n${middle.join("\n")}\n${["-----END ", "CERTIFICATE-----"].join("")}`,
      `${["-----BEGIN PGP ", "PUBLIC KEY BLOCK-----"].join("")}\n\n${middle.join("\n")}\n=abcd\n`,
      `${["-----BEGIN ", "PUBLIC KEY-----"].join("")}\n${middle.join("\n")}\n`,
      // A commit signed with an SSH key, as git cat-file commit prints it: the signature's lines are 70 wide.
      `tree ${"0".repeat(40)}\ngpgsig ${["-----BEGIN SSH ", "SIGNATURE-----"].join("")}\n ${body(53, 5).join("\n ")}\n ${["-----END SSH ", "SIGNATURE-----"].join("")}\n\nmsg\n`,
      middle.slice(0, 3).join("\n"),
      Buffer.from("a text openssl base64 wraps at sixty-four characters, as PEM does. ".repeat(6)).toString("base64").replace(/.{64}/g, "$&\n"),
      JSON.stringify(words.slice(0, 11)),
      JSON.stringify([...words, "actor"]),
      words.map((w, i) => `${i + 2}. ${w}`).join(" "),
      `if (h.name === "Proc-Type" && !h.dekInfo) throw Error("DEK-Info missing")`,
    ];
    for (const text of ordinary) expect(await rulesOf(text), text.slice(0, 24)).toEqual([]);
    expect(await scanText(JSON.stringify({ keywords: words.slice(0, 11) }))).toEqual([]);
  });

  it("a credential in a table of three columns and more, wherever its name stands, given to htpasswd, or a program's fallback where its variable is unset is found; such tables of names are not", async () => {
    const rulesOf = async (stdout: string): Promise<string[]> => (await scanText(JSON.stringify({ tool_response: { stdout } }))).map((f) => f.rule);
    const printed: Record<string, string> = {
      "markdown, name in a row": `| Env | Name | Value |\n|---|---|---|\n| prod | DB_PASSWORD | ${value} |\n`,
      "markdown, name heads its column": `| Env | DB_PASSWORD | Region |\n|---|---|---|\n| prod | ${value} | eu |\n`,
      "box, name not first": `│ prod │ DB_PASSWORD │ ${value} │\n`,
      "csv, name heads its column": `env,DB_PASSWORD,region\nprod,${value},eu\n`,
      "columns, name not first": `prod    DB_PASSWORD    ${value}\n`,
      "htpasswd -b": `htpasswd -b /etc/nginx/.htpasswd admin ${value}`,
      "htpasswd -bc, quoted": `htpasswd -bcB -C 12 .htpasswd admin '${value}'`,
      "htpasswd -nb": `htpasswd -nb admin ${value}`,
      "ruby fetch or": `key = ENV.fetch('API_KEY') || '${value}'`,
      "ruby index or": `key = ENV["API_KEY"] || "${value}"`,
      "ruby fetch block": `key = ENV.fetch("API_KEY") { "${value}" }`,
      "node or": `const key = process.env.API_KEY || "${value}"`,
      "node nullish": `const key = process.env["API_KEY"] ?? '${value}'`,
      "python or": `key = os.environ.get("API_KEY") or "${value}"`,
      "php elvis": `$key = getenv('API_KEY') ?: '${value}';`,
      "aws configure set": `aws configure set aws_secret_access_key ${aws}`,
    };
    for (const [name, text] of Object.entries(printed)) expect(await rulesOf(text), name).toContain("clear/sensitive-assignment");
    const ordinary = [
      "| Env | DB_PASSWORD | Region |\n|---|---|---|\n| prod | ${DB_PASSWORD} | eu |\n| dev | <unset> | us |",
      "NAME                  TYPE                                  DATA   AGE\ndb-password           Opaque                                1      5d\napi-token-x9k2f       kubernetes.io/service-account-token   3      10d",
      "htpasswd -c .htpasswd admin\nhtpasswd -b .htpasswd admin changeme",
      "const key = process.env.API_KEY || 'dev'; token = os.getenv('TOKEN') or default_token_v2",
    ];
    for (const text of ordinary) expect(await rulesOf(text), text.slice(0, 24)).toEqual([]);
  });

  it("reads a text of many flags or colons with no password after them in linear time (600 KB each, well inside the test's minute)", () => {
    const dir = tempDir();
    const texts = {
      flags: "-u=".repeat(200_000),
      colons: `${"a:".repeat(300_000)}@`,
      urls: `x://${"a:".repeat(300_000)}@`,
      blocks: "password: |\n \n".repeat(40_000),
      below: "password:\n ".repeat(60_000),
      settings: `${"- name: API_TOKEN\n  ".repeat(30_000)}value:`,
      continued: "API_KEY=\\\n ".repeat(60_000),
      hashes: `${"$6$".repeat(100_000)}{SHA}${"$2y$10$".repeat(50_000)}`,
      // A key's last line is looked for only where a run of its alphabet starts: a long run, no line break after it.
      keyLines: `${"QUJD".repeat(150_000)} (no private key here)`,
      clients: `${"docker login redis-cli -a".repeat(25_000)}`,
      setters: `${"setx git config --global ".repeat(25_000)}`,
      quoted: `${"'DB_PASSWORD', ".repeat(40_000)}`,
      samba: `${"-U bob ".repeat(90_000)}%`,
      secrets: `${"gh secret set X ".repeat(40_000)}`,
      tokenUsers: `x://${"a".repeat(600_000)}@`,
      tables: `${"| DB_PASSWORD |".repeat(40_000)}\n${"DB_PASSWORD ,".repeat(40_000)}\n${"\u001b[0m".repeat(100_000)}`,
      pgpass: `${"h:5432:".repeat(80_000)}\n${"h:5432:d:u:".repeat(50_000)} x`,
      pairs: `${"[\"X-Api-Key\", ".repeat(40_000)}`,
      discord: `${"MTIz".repeat(150_000)}.${"MTIzNDU2.".repeat(50_000)}`,
      keyBodies: `${["MII", "EowIBA "].join("").repeat(60_000)}${["b3Blbn", "NzaC1rZXktdjE"].join("").repeat(40_000)}`,
      awsBeside: `${["AK", "IA", "Q3EGRZ7XK2M4PW5B"].join("")} ${"a1B/".repeat(150_000)} ${`${aws}Zq `.repeat(14_000)}`,
      hexKeys: `${"private key ".repeat(50_000)}${"a".repeat(600_000)}`,
      seeds: `${"mnemonic: ".repeat(60_000)}\nmnemonic ${"abc ".repeat(150_000)}`,
      htpasswd: `${"htpasswd -b ".repeat(50_000)}`,
      fallbacks: `${"API_KEY || ".repeat(50_000)}ENV['API_KEY'] || "${"a".repeat(600_000)}`,
      columns: `${"DB_PASSWORD,x\n".repeat(40_000)}${"a  ".repeat(200_000)}`,
      keyMaterial: `${`${"QUJD".repeat(16)}\n`.repeat(9_000)}${`${"    12→".repeat(30_000)}\n`}${" ".repeat(300_000)}`,
      seedLists: `${"1. abc ".repeat(40_000)}${"1) abc\n2) abc ".repeat(20_000)}[${"\"abc\", ".repeat(40_000)}`,
      seedTabs: `${"1\tabc\t".repeat(40_000)}${"\u2192abc ".repeat(40_000)}\nmnemonic: ${"abc \t ".repeat(100_000)}`,
      phraseLines: `${"Phrase:\n".repeat(60_000)}${"seed phrase ".repeat(40_000)}\n`,
      encryptedKeys: `${["MIIF", "LTBXBgkq "].join("").repeat(40_000)}${"DEK-Info: AES-256-CBC,".repeat(20_000)}`,
    };
    for (const [name, stdout] of Object.entries(texts)) {
      writeFileSync(path.join(dir, `${name}.json`), JSON.stringify({ hook_event_name: "PostToolUse", tool_response: { stdout } }));
    }
    const r = clearJson(["scan", dir], { timeout: 55_000 });
    expect(r.json.files).toBe(Object.keys(texts).length);
  });

  it("is found in an id, a path and their base64, and in a sitting's driver; the value is printed nowhere, JSON, SARIF or CLEARANCE.md", () => {
    const dir = tempDir();
    for (const [name, text] of Object.entries(assigned)) writeFileSync(path.join(dir, `${name}.json`), capture(`/srv/w/${text}`, "toolu_01"));
    writeFileSync(path.join(dir, "id.json"), capture("/srv/w", `password=${value}`));
    writeFileSync(path.join(dir, "base64.json"), capture("/srv/w", Buffer.from(JSON.stringify({ password: value })).toString("base64")));
    for (const [name, text] of Object.entries(nothing)) writeFileSync(path.join(dir, `none ${name}.json`), capture(JSON.parse(`"/srv/w/${text}"`) as string, "toolu_01"));
    const sarif = path.join(tempDir(), "out.sarif");
    const r = clear(["scan", dir, "--json", "--sarif", sarif]);
    const json = JSON.parse(r.stdout) as { findings: { file: string; rule: string; masked: string }[]; control: { red: boolean; rules: string[] } };
    expect(json.control.red).toBe(true);
    expect(json.control.rules).toContain("clear/sensitive-assignment");
    const found = (name: string): string[] => json.findings.filter((f) => path.basename(f.file) === `${name}.json`).map((f) => f.rule);
    for (const name of [...Object.keys(assigned), "id", "base64"]) expect(found(name), name).toContain("clear/sensitive-assignment");
    // Both values of the environment's lines are found: apart, or as one where a reading joins the lines.
    const env = json.findings.filter((f) => path.basename(f.file) === "env.json" && f.rule === "clear/sensitive-assignment");
    expect(env.reduce((n, f) => n + f.masked.length, 0)).toBeGreaterThanOrEqual(value.length + aws.length);
    for (const name of Object.keys(nothing)) expect(found(`none ${name}`), name).toEqual([]);
    for (const f of json.findings) expect(f.masked).toMatch(/^.{4}\*{4,}$/u);
    const printed = [r.stdout, r.stderr, readFileSync(sarif, "utf8")].join("\n");
    expect(printed).not.toContain(value.slice(0, 8));
    expect(printed).not.toContain(aws.slice(0, 8));

    const sitting = tempDir();
    const repo = tempDir();
    execFileSync("git", ["init", "-q", repo]);
    execFileSync("git", ["-C", repo, "commit", "-q", "--allow-empty", "-m", "i"]);
    writeFileSync(path.join(sitting, "sitting.json"), JSON.stringify({ driver: `ci with GITHUB_TOKEN=${value}`, method: "synthetic", versionLine: "2.1.261 (Claude Code)" }));
    writeFileSync(path.join(sitting, "claude-code_pre_tool_use_2.1.261.1.json"), capture("/srv/w", "toolu_01AbCdEfGhIjKlMnOpQrStUv"));
    const run = clear(["run", sitting, "--root", repo]);
    expect(run.code).toBe(1);
    const record = readFileSync(path.join(repo, "CLEARANCE.md"), "utf8");
    expect(record).toContain("sensitive-assignment");
    expect(record + run.stdout + run.stderr).not.toContain(value.slice(0, 8));
  });

  it("is found in a tool's output (a YAML block, a settings list, JSON of settings, a line below, a password file's line), named by file and pointer; and clear run refuses it in a kept path", () => {
    // Password files' hashes, built at run time: htpasswd's MD5 and SHA-1, bcrypt, and a shadow line's SHA-512.
    const salt = "Xk3bQ9zL";
    const hashes = {
      htpasswd: `admin:${["$ap", "r1$", salt, "$"].join("")}8Jk2pW5vNq7RtYz1mC4dE/`,
      "htpasswd sha": `admin:${["{SH", "A}"].join("")}W6ph5Mm5Pz8GgiULbPgzG37mj9g=`,
      bcrypt: `admin:${["$2", "y$10$"].join("")}abcdefghijklmnopqrstuu5Jk2pW5vNq7RtYz1mC4dEfGhIjKlMn.`,
      shadow: `root:${["$", "6$", salt, "$"].join("")}${value}${aws}${value}${aws}:19000:0:99999:7:::`,
    };
    const outputs: Record<string, [string, string]> = {
      "yaml block": [`spec:\n  password: |\n    ${value}\n`, "clear/sensitive-assignment"],
      "settings list": [`env:\n- name: "DB_PASSWORD"\n  value: "${value}"\n`, "clear/sensitive-assignment"],
      "settings json": [JSON.stringify([{ name: "API_TOKEN", value }]), "clear/sensitive-assignment"],
      "line below": [`export API_KEY=\\\n    ${value}\n`, "clear/sensitive-assignment"],
      ...Object.fromEntries(Object.entries(hashes).map(([name, line]) => [name, [`${line}\n`, "clear/password-hash"]])),
    };
    const dir = tempDir();
    const post = (where: Record<string, unknown>): string =>
      JSON.stringify({ session_id: "5b0c7e9a-3f1d-4c2e-9a8b-1d2e3f4a5b6c", cwd: "/srv/w", hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "cat x" }, tool_response: { stdout: "", stderr: "" }, tool_use_id: "toolu_01", ...where });
    for (const [name, [stdout]] of Object.entries(outputs)) writeFileSync(path.join(dir, `${name}.json`), post({ tool_response: { stdout, stderr: "" } }));
    const r = clear(["scan", dir, "--json"]);
    expect(r.code).toBe(1);
    const findings = (JSON.parse(r.stdout) as { findings: { file: string; rule: string; pointer?: string }[] }).findings;
    for (const [name, [, rule]] of Object.entries(outputs)) {
      expect(findings.filter((f) => path.basename(f.file) === `${name}.json`).map((f) => [f.rule, f.pointer]), name).toContainEqual([rule, "/tool_response/stdout"]);
    }
    const printed = r.stdout + r.stderr;
    for (const secret of [value, salt, "8Jk2pW5vNq7RtYz1", "W6ph5Mm5Pz8Ggi"]) expect(printed).not.toContain(secret);

    // clear run writes free text over, but keeps a path as it stands: a password file's line or a YAML block there is refused.
    for (const cwd of [`/srv/w/${hashes.shadow}`, `/srv/w/token: >-\n    ${value}`]) {
      const sitting = tempDir();
      const repo = tempDir();
      execFileSync("git", ["init", "-q", repo]);
      execFileSync("git", ["-C", repo, "commit", "-q", "--allow-empty", "-m", "i"]);
      writeFileSync(path.join(sitting, "claude-code_post_tool_use_2.1.261.1.json"), post({ cwd, tool_use_id: "toolu_01AbCdEfGhIjKlMnOpQrStUv" }));
      const run = clearJson(["run", sitting, "--root", repo]);
      expect(run.code).toBe(1);
      const refused = run.json.findings as { code: string; pointer?: string; file?: string }[];
      expect(refused.map((f) => [f.code, f.pointer])).toContainEqual(["secret-found", "/cwd"]);
      expect(JSON.stringify(run.json)).not.toContain(value.slice(0, 8));
    }
  });
});

describe("what a finding shows of its value", () => {
  it("the value with all but its first four characters masked, as the contract has it; nothing of a value under eight characters, nor of a name", () => {
    expect(maskFound(join(["gh", "p_abcdefgh"]), false)).toEqual({ masked: "ghp_********", keyShape: true });
    expect(maskFound(join(["h", "f_abcdefgh"]), false)).toEqual({ masked: "hf_a*******", keyShape: true });
    expect(maskFound("Zq8rT2vLm9xW", false)).toEqual({ masked: "Zq8r********", keyShape: false });
    expect(maskFound("Zq8rT2v", false)).toEqual({ masked: "*******", keyShape: false });
    expect(maskFound(" \u0007q8rT2vLm", false)).toEqual({ masked: "**q8******", keyShape: false });
    expect(maskFound("Zq8r😀T2vLm9xW", false).masked).toBe("Zq8r*********");
    expect(maskFound(join(["gh", "p_abc"]), true)).toEqual({ masked: NAME_MASK, keyShape: false });
  });

  it("an identifier holding a user name is printed with the placeholder in its place, never a piece of the name", () => {
    const d = makeDisplay(rules, ["Wrzqxa"], null);
    expect(d.id("wrzqxa-session-1")).not.toMatch(/wrz/i);
    expect(d.id("toolu_01")).toBe("toolu_01");
  });
});

describe("clear scan prints no user name, in whole or in part", () => {
  it("home owners, --user names and clear.config.json users: human, --json and SARIF hold none of their letters in a row", () => {
    const root = tempDir("clear-names-");
    execFileSync("git", ["init", "-q", "-b", "main"], { cwd: root });
    const names = { owner: "Pqlxvj", given: "Wrzqxa", configured: "Ćmyłkö" };
    writeFileSync(path.join(root, "clear.config.json"), JSON.stringify({ users: [names.configured] }));
    mkdirSync(path.join(root, `by ${names.given}`));
    const text = JSON.stringify({ cwd: `/Users/${names.owner}/p`, prompt: `ask ${names.given}`, note: JSON.stringify({ by: names.configured.toLowerCase() }) });
    writeFileSync(path.join(root, `by ${names.given}`, `${names.configured}.json`), text);
    const sarif = path.join(root, "out.sarif");
    const human = clear(["scan", ".", "--user", names.given, "--sarif", sarif], { cwd: root });
    const json = clear(["scan", ".", "--user", names.given, "--json"], { cwd: root });
    expect([human.code, json.code]).toEqual([1, 1]);
    // The three planted, and clear.config.json itself, which names a user.
    expect((JSON.parse(json.stdout) as { findings: unknown[] }).findings).toHaveLength(4);
    const printed = [human.stdout, human.stderr, json.stdout, json.stderr, readFileSync(sarif, "utf8")].join("\n").toLowerCase();
    for (const name of Object.values(names)) {
      for (let i = 0; i + 3 <= name.length; i++) expect(printed, name.slice(i, i + 3)).not.toContain(name.slice(i, i + 3).toLowerCase());
    }
  });

  it("a folder named after an owner the scanned files' home paths name is printed with that name starred", () => {
    const root = tempDir("clear-taught-");
    const owner = "Qvmtzrk";
    mkdirSync(path.join(root, `from-${owner}`));
    writeFileSync(path.join(root, `from-${owner}`, "a.json"), JSON.stringify({ cwd: `/home/${owner}/proj` }));
    writeFileSync(path.join(root, `from-${owner}`, "b.json"), JSON.stringify({ note: "nothing here" }));
    const sarif = path.join(root, "out.sarif");
    const human = clear(["scan", root, "--sarif", sarif, "--verbose"], { cwd: root });
    const json = clear(["scan", root, "--json"], { cwd: root });
    expect([human.code, json.code]).toEqual([1, 1]);
    const files = (JSON.parse(json.stdout) as { findings: { file: string }[] }).findings.map((f) => f.file);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/from-\*+\/a\.json$/);
    const printed = [human.stdout, human.stderr, json.stdout, json.stderr, readFileSync(sarif, "utf8")].join("\n").toLowerCase();
    expect(printed).not.toContain(owner.toLowerCase());
  });
  it("a name the files' homes teach, or --user gives, is found joined to other characters in every file", () => {
    const root = tempDir("clear-joined-");
    const owner = "Qvmtzrk";
    writeFileSync(path.join(root, "a.json"), JSON.stringify({ cwd: `/home/${owner}/proj` }));
    writeFileSync(path.join(root, "b.json"), JSON.stringify({ id: `call_${owner.toLowerCase()}2` }));
    writeFileSync(path.join(root, "c.json"), JSON.stringify({ id: `x${owner}_dev` }));
    const taught = clearJson(["scan", root], { cwd: root });
    expect(taught.code).toBe(1);
    const found = (taught.json.findings as { file: string; pointer: string; rule: string }[]).map((f) => `${f.file.split("/").pop()} ${f.pointer} ${f.rule}`);
    expect(found.sort()).toEqual(["a.json /cwd clear/home-owner", "b.json /id clear/home-owner", "c.json /id clear/home-owner"]);
    const given = clear(["scan", path.join(root, "c.json"), "--user", owner], { cwd: root });
    expect(given.code).toBe(1);
    expect(given.stdout + given.stderr + JSON.stringify(taught.json)).not.toMatch(new RegExp(owner, "i"));
    expect(clear(["scan", path.join(root, "c.json")], { cwd: root }).code).toBe(0);
  });

  it("a secret's first characters are never a name's: a password that starts with a taught or given name shows none of it, human, --json and SARIF", () => {
    const root = tempDir("clear-secret-named-");
    const owner = "Qvmtzrk";
    const given = "Bxo";
    const password = (name: string): string => [name, "Xk29Qz8LmW4pT7vR"].join("-");
    writeFileSync(path.join(root, "a.json"), JSON.stringify({ cwd: `/home/${owner}/proj`, password: password(owner) }));
    writeFileSync(path.join(root, "b.json"), JSON.stringify({ password: password(given) }));
    const sarif = path.join(root, "out.sarif");
    const human = clear(["scan", root, "--user", given, "--verbose", "--sarif", sarif], { cwd: root });
    const json = clearJson(["scan", root, "--user", given], { cwd: root });
    expect([human.code, json.code]).toEqual([1, 1]);
    const rules = (json.json.findings as { rule: string }[]).map((f) => f.rule);
    expect(rules.filter((r) => r === "clear/sensitive-member")).toHaveLength(2);
    const printed = [human.stdout, human.stderr, JSON.stringify(json.json), readFileSync(sarif, "utf8")].join("\n").toLowerCase();
    for (const name of [owner, given]) {
      for (let i = 0; i + 3 <= name.length; i++) expect(printed, name.slice(i, i + 3)).not.toContain(name.slice(i, i + 3).toLowerCase());
    }
  });

  it("a secret that holds a mailbox shows none of its characters", () => {
    const root = tempDir("clear-secret-mailbox-");
    const mailbox = ["wren", ".", "abernathy", "@", "example.com"].join("");
    writeFileSync(path.join(root, "a.json"), JSON.stringify({ password: mailbox }));
    writeFileSync(path.join(root, "b.json"), JSON.stringify({ note: `Authorization: Basic ${mailbox}:Xk29Qz8LmW4pT7vR` }));
    const json = clearJson(["scan", root], { cwd: root });
    const masked = (json.json.findings as { masked: string }[]).map((f) => f.masked);
    expect(masked).toHaveLength(2);
    for (const m of masked) expect(m).toMatch(/^\*+$/);
  });
});
