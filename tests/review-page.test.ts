import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { adviceFor } from "../src/advice.js";
import { parseRecord } from "../src/record/parse.js";
import { acceptanceOf } from "../src/review/model.js";
import type { FindingCode } from "../src/findings.js";
import { acceptPending, clearVersion, gitRepo, writeSitting, type Payload } from "./fixture-repo.js";
import { clearJson, PROJECT_ROOT } from "./helpers.js";

// The review page explains: what blocks a batch and what to do, whether CLEARANCE.md already
// holds it, each fixture under its committed path with its sidecar, links that resolve, the
// keyboard, and a narrow screen. Screenshots land in test-results/review/ for a person to look at.

const CHROMIUM = process.env.CLEAR_CHROMIUM ?? "/usr/bin/chromium";
const HAVE_BROWSER = existsSync(CHROMIUM);
const SHOTS = path.join(PROJECT_ROOT, "test-results", "review");
const VERSION = "2.1.261";
// Built at run time: the repository never holds a key or a home literally.
const KEY = ["sk-", "ant-", "api03-", "abcdefghij".repeat(9), "AA"].join("");
const OWNER = ["capt", "urer"].join("");
const HOME_KEY = ["/ho", "me/", OWNER, "/notes"].join("");

interface Review {
  url: string;
  stop(): Promise<number | null>;
}

async function startReview(root: string, dir: string): Promise<Review> {
  const child = spawn(process.execPath, [path.join(PROJECT_ROOT, "dist", "cli.js"), "review", dir], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("\n")) resolve(out.split("\n")[0] as string);
    });
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("exit", (code) => reject(new Error(`review exited ${code}: ${err}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  return { url, stop: () => (child.kill("SIGINT"), exited) };
}

/** The page's HTML, fetched the way a browser would. */
async function pageText(url: string): Promise<string> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return res.text();
}

/** Text as a reader sees it: tags gone, character references decoded, spaces folded. */
function readable(html: string): string {
  const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"' };
  return html
    .replace(/<\/?(?:code|a|em|strong|mark|wbr)\b[^>]*>/g, "")
    .replace(/<[^>]*>/g, " ")
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)))
    .replace(/&(amp|lt|gt|quot);/g, (_, n: string) => named[n] as string)
    .replace(/\s+/g, " ");
}

/** A sitting that blocks: a key kept in a path, a member name holding a home, a capture that is not JSON. */
function blockedSitting(root: string): string {
  const dir = path.join(root, "sittings", "blocked");
  writeSitting(dir, VERSION, (event: string, payload: Payload) => {
    if (event === "session_start") return { ...payload, transcript_path: `${String(payload.transcript_path).replace(".jsonl", "")}-${KEY}.jsonl` };
    if (event === "pre_compact") return { ...payload, [HOME_KEY]: "x" };
    return payload;
  });
  writeFileSync(path.join(dir, `claude-code_stop_${VERSION}.1.json`), '{"session_id": ');
  return dir;
}

let blocked: { root: string; dir: string; review: Review; html: string; blockers: { code: FindingCode; file?: string; pointer?: string }[] };
let accepted: { root: string; dir: string; review: Review; html: string; pendingHtml: string };

beforeAll(async () => {
  const root = gitRepo();
  const dir = blockedSitting(root);
  const run = clearJson(["run", dir], { cwd: root });
  expect(run.code).toBe(1);
  const review = await startReview(root, dir);
  blocked = { root, dir, review, html: await pageText(review.url), blockers: run.json.findings as typeof blocked.blockers };

  const aRoot = gitRepo();
  clearVersion(aRoot, VERSION);
  const aDir = path.join(aRoot, "sittings", VERSION);
  const pending = await startReview(aRoot, aDir);
  const pendingHtml = await pageText(pending.url);
  expect(await pending.stop()).toBe(0);
  acceptPending(aRoot);
  const aReview = await startReview(aRoot, aDir);
  accepted = { root: aRoot, dir: aDir, review: aReview, html: await pageText(aReview.url), pendingHtml };
}, 120_000);

afterAll(async () => {
  expect(await blocked?.review.stop()).toBe(0);
  expect(await accepted?.review.stop()).toBe(0);
});

describe("clear review explains why a batch blocks", () => {
  it("names each blocking finding's code, file and pointer, with what to do", () => {
    const shown = readable(blocked.html);
    expect(shown).toContain("Blocked: this batch cannot be accepted");
    expect(shown).not.toContain("Something blocks this batch");
    const codes = new Set(blocked.blockers.map((b) => b.code));
    expect([...codes].sort()).toEqual(expect.arrayContaining(["invalid-json", "no-clearable-capture", "secret-found"]));
    const list = /<ol class="blockers">(.*?)<\/ol>/s.exec(blocked.html)?.[1] ?? "";
    const items = [...list.matchAll(/<li class="finding">(.*?)<\/li>/gs)].map((l) => readable(l[1] as string));
    expect(items).toHaveLength(blocked.blockers.length);
    for (const b of blocked.blockers) {
      const item = items.find((i) => i.includes(b.code) && (b.file === undefined || i.includes(b.file)) && (b.pointer === undefined || i.includes(b.pointer)));
      expect(item, `${b.code} ${b.file} ${b.pointer}`).toBeDefined();
      expect(item).toContain(`What to do: ${adviceFor(b.code, "run")}`);
    }
  });

  it("names the refused capture and why, and a pair member that is no fixture as plain text with why", () => {
    const shown = readable(blocked.html);
    expect(shown).toContain("Captures refused (left out of the batch)");
    expect(shown).toMatch(/home-in-key in claude-code_pre_compact_2\.1\.261\.1\.json at \/\[masked\]/);
    expect(shown).toContain("claude-code_pre_compact_2.1.261.1.json (refused (home-in-key))");
    expect(shown).toContain("claude-code_pre_tool_use_2.1.261.2.json (not selected: same size; the chosen one keeps its pair)");
  });

  it("shows no raw value: not the key, not the home's owner, and the fixture holding the key is withheld", () => {
    expect(blocked.html).not.toContain(KEY.slice(4, 24));
    expect(blocked.html).not.toContain(OWNER);
    expect(readable(blocked.html)).toMatch(/session_start\.json .*not shown: the scan found a secret shape in it/);
  });

  it("a withheld fixture's spans are not revealed either", async () => {
    const url = new URL(blocked.review.url);
    const file = `claude-code_session_start_${VERSION}.1.json`;
    for (let span = 0; span < 40; span++) {
      const r = await fetch(`${url.origin}/reveal?token=${url.searchParams.get("token")}&file=${file}&span=${span}`);
      expect(r.status, `span ${span}`).toBe(404);
    }
  });

  it("titles each fixture by the path it would be committed at, and says its sidecar is written only with a clean batch", () => {
    const shown = readable(blocked.html);
    expect(shown).toContain(`fixtures/claude-code/${VERSION}/post_compact.json from capture claude-code_post_compact_${VERSION}.1.json`);
    expect(shown).toContain(`Provenance sidecar fixtures/claude-code/${VERSION}/post_compact.provenance.json: written only with a batch that nothing blocks`);
  });
});

describe("clear review says where the batch stands in CLEARANCE.md", () => {
  it("a batch awaiting ACCEPT: the exact instruction, naming its line", () => {
    const shown = readable(accepted.pendingHtml);
    expect(shown).toContain("Awaiting ACCEPT");
    expect(shown).toMatch(/Batch b-[0-9a-f]{12} at CLEARANCE\.md line \d+ is written as a run writes it now\. To accept it, /);
    const marker = /<!-- clear:batch (b-[0-9a-f]{12}) (sha256:[0-9a-f]{64}) -->/.exec(readFileSync(path.join(accepted.root, "CLEARANCE.md"), "utf8"));
    expect(shown).toContain(`Batch ${marker?.[1]}, digest ${marker?.[2]}: 8 fixtures.`);
    expect(shown).toContain("To accept it, read the batch in CLEARANCE.md, then write ACCEPT alone on the line under its ## User acceptance heading");
  });

  it("an accepted batch: accepted, and no instruction to run clear run or write ACCEPT", () => {
    const shown = readable(accepted.html);
    expect(shown).toContain("Accepted");
    expect(shown).toMatch(/Batch b-[0-9a-f]{12} at CLEARANCE\.md line \d+ stands accepted/);
    expect(shown).not.toContain("clear run");
    expect(shown).not.toMatch(/write ACCEPT/);
  });

  it("each fixture under its committed path, its sidecar beside it as written", () => {
    const sidecar = readFileSync(path.join(accepted.root, "fixtures", "claude-code", VERSION, "session_end.provenance.json"), "utf8");
    const shown = readable(accepted.html);
    expect(shown).toContain(`fixtures/claude-code/${VERSION}/session_end.json from capture claude-code_session_end_${VERSION}.1.json`);
    expect(shown).toContain(`Provenance sidecar fixtures/claude-code/${VERSION}/session_end.provenance.json ${readable(sidecar).trim()}`);
  });

  it("a sitting changed after acceptance: the page says the sitting or the rules changed", async () => {
    const info = path.join(accepted.dir, "sitting.json");
    const before = readFileSync(info, "utf8");
    writeFileSync(info, before.replace(/"startedAt": "[^"]*"/, '"startedAt": "2026-11-30T09:00:00Z"'));
    const review = await startReview(accepted.root, accepted.dir);
    try {
      const shown = readable(await pageText(review.url));
      expect(shown).toContain("Changed since it was accepted");
      expect(shown).toContain("a run now would write it differently: the sitting (its folder, sitting.json or kit.json) or the rules changed since");
    } finally {
      expect(await review.stop()).toBe(0);
      writeFileSync(info, before);
    }
  });

  it("a batch edited after ACCEPT: its acceptance no longer counts, and what to do", async () => {
    const record = path.join(accepted.root, "CLEARANCE.md");
    const before = readFileSync(record, "utf8");
    writeFileSync(record, before.replace("### Inventory", "### Inventory, edited"));
    const review = await startReview(accepted.root, accepted.dir);
    try {
      const shown = readable(await pageText(review.url));
      expect(shown).toContain("Edited after ACCEPT");
      expect(shown).toContain(`What to do: ${adviceFor("batch-edited", "run")}`);
    } finally {
      expect(await review.stop()).toBe(0);
      writeFileSync(record, before);
    }
  });
});

describe("where a batch stands, read from a record", () => {
  const record = (): string => readFileSync(path.join(accepted.root, "CLEARANCE.md"), "utf8");
  const verdict = (text: string | null, digest?: string): string => {
    const b = parseRecord(record()).batches[0] as ReturnType<typeof parseRecord>["batches"][number];
    return acceptanceOf(text === null ? null : { text }, { id: b.id, digest: digest ?? b.digestClaimed, blocked: false }, b.fixtures, "CLEARANCE.md").state;
  };

  it("accepted, pending, changed, edited, not written, unreadable, as the record says", () => {
    const pending = record().replace(/^ACCEPT$/m, "");
    expect(verdict(record())).toBe("accepted");
    expect(verdict(pending)).toBe("pending");
    expect(verdict(pending, "0".repeat(64))).toBe("changed");
    expect(verdict(record().replace("### Inventory", "### Inventory, edited"))).toBe("edited");
    expect(verdict(null)).toBe("not-run");
    expect(verdict(record().replace("<!-- clear:batch b-", "<!-- clear:batch x-"))).toBe("unreadable");
  });

  it("a later accepted batch listing the same fixture paths supersedes this one", () => {
    const text = record();
    const start = text.indexOf("<!-- clear:batch ");
    const later = text.slice(start).replace(/<!-- clear:batch b-[0-9a-f]{12} /, "<!-- clear:batch b-000000000000 ");
    const b = parseRecord(later).batches[0] as ReturnType<typeof parseRecord>["batches"][number];
    const digest = later.replace(/sha256:[0-9a-f]{64}/, `sha256:${b.digestActual}`);
    expect(parseRecord(`${text}\n${digest}`).batches.map((x) => x.digestClaimed === x.digestActual && x.accepted)).toEqual([true, true]);
    expect(verdict(`${text}\n${digest}`)).toBe("superseded");
  });

  it("a blocked batch is blocked whatever the record holds", () => {
    expect(acceptanceOf({ text: record() }, { id: "b-000000000000", digest: "", blocked: true }, [], "CLEARANCE.md").state).toBe("blocked");
  });
});

async function withBrowser(use: (browser: Browser) => Promise<void>): Promise<void> {
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] });
  try {
    await use(browser);
  } finally {
    await browser.close();
  }
}

/** Every in-page link's target, and whether an element with that id exists. */
const unresolvedLinks = (page: Page): Promise<string[]> =>
  page.evaluate(() =>
    [...document.querySelectorAll("a[href]")].map((a) => a.getAttribute("href") ?? "").filter((h) => !h.startsWith("#") || document.getElementById(h.slice(1)) === null),
  );

const overflow = (page: Page): Promise<number> => page.evaluate(() => document.documentElement.scrollWidth);

const BROWSER_SUITE = `clear review in headless Chromium${HAVE_BROWSER ? "" : ` (skipped: no browser at ${CHROMIUM}; apt-get install chromium)`}`;

describe.skipIf(!HAVE_BROWSER)(BROWSER_SUITE, () => {
  beforeAll(() => mkdirSync(SHOTS, { recursive: true }));
  afterAll(() => console.log(`review screenshots: ${SHOTS}`));

  for (const which of ["blocked", "accepted"] as const) {
    it(`the ${which} page: every link resolves, and at 390 px nothing scrolls sideways`, async () => {
      const url = which === "blocked" ? blocked.review.url : accepted.review.url;
      await withBrowser(async (browser) => {
        const desktop = await browser.newPage({ viewport: { width: 1280, height: 900 } });
        await desktop.goto(url);
        await expect(desktop.locator("a[href^='#']").count()).resolves.toBeGreaterThan(10);
        await expect(unresolvedLinks(desktop)).resolves.toEqual([]);
        await desktop.screenshot({ path: path.join(SHOTS, `${which}-desktop.png`), fullPage: true });
        const phone = await browser.newPage({ viewport: { width: 390, height: 844 } });
        await phone.goto(url);
        await phone.locator("details.sidecar").evaluateAll((all) => all.forEach((d) => ((d as HTMLDetailsElement).open = true)));
        await expect(overflow(phone)).resolves.toBeLessThanOrEqual(392);
        await phone.screenshot({ path: path.join(SHOTS, `${which}-390.png`), fullPage: true });
      });
    });
  }

  it("a pair's link leads to the fixture it names", async () => {
    await withBrowser(async (browser) => {
      const page = await browser.newPage();
      await page.goto(accepted.review.url);
      const link = page.locator("ul.pairs a").first();
      const target = (await link.getAttribute("href")) as string;
      await expect(page.locator(`${target} h3`).textContent()).resolves.toBe(await link.textContent());
    });
  });

  it("Tab reaches the marks; Enter and Space reveal; Escape and Close hide the panel and give focus back to the mark", async () => {
    await withBrowser(async (browser) => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(accepted.review.url);
      const focusedMark = (): Promise<string | null> =>
        page.evaluate(() => {
          const at = document.activeElement as HTMLElement | null;
          return at?.matches("mark.span[data-span]") ? `${at.dataset.file}#${at.dataset.span}` : null;
        });
      let mark: string | null = null;
      for (let tabs = 0; tabs < 200 && mark === null; tabs++) {
        await page.keyboard.press("Tab");
        mark = await focusedMark();
      }
      expect(mark).not.toBeNull();
      const panel = page.locator("#reveal");
      await page.keyboard.press("Enter");
      await panel.waitFor({ state: "visible" });
      await expect(page.locator("#reveal-value").textContent()).resolves.toContain(OWNER);
      await page.keyboard.press("Escape");
      await panel.waitFor({ state: "hidden" });
      await expect(focusedMark()).resolves.toBe(mark);
      await expect(page.locator("#reveal-value").textContent()).resolves.toBe("");
      await page.keyboard.press(" ");
      await panel.waitFor({ state: "visible" });
      await page.screenshot({ path: path.join(SHOTS, "accepted-reveal.png") });
      await page.locator("#reveal-close").click();
      await panel.waitFor({ state: "hidden" });
      await expect(focusedMark()).resolves.toBe(mark);
    });
  });
});
