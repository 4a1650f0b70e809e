import { printable } from "../record/data.js";
import type { Acceptance, ExplainedFinding, PairMember, ReviewFixture, ReviewModel } from "./model.js";

// The review page as plain HTML, with a small script and a stylesheet served beside it. Nothing
// here loads from elsewhere, and nothing in it is a raw value. Every text goes through `text`
// (or `block` inside a <pre>), and every link points at an id the page itself writes.

const escape = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** Human text: unsafe characters as visible escapes, then HTML-escaped. */
const text = (s: string): string => escape(printable(s));
/** Text inside a <pre>: line breaks and tabs kept, every other unsafe character a visible escape. */
const block = (s: string): string => escape(s.split("\n").map((l) => l.split("\t").map(printable).join("\t")).join("\n"));
const code = (s: string): string => `<code>${text(s)}</code>`;
/** A repository path or a capture name, with a line-break opportunity after each slash. */
const pathCode = (s: string): string => `<code>${text(s).replace(/\//g, "/<wbr>")}</code>`;
const fixtureId = (index: number): string => `fixture-${index + 1}`;
const link = (index: number, label: string): string => `<a href="#${fixtureId(index)}">${pathCode(label)}</a>`;
const backToTop = '<p class="top"><a href="#top">Back to top</a></p>';

/** The title a fixture goes by: the repository path it will be committed at, else its capture's name. */
const titleOf = (f: ReviewFixture): string => f.path || f.file;

function fixtureIndex(m: ReviewModel, file: string | null): number {
  return file === null ? -1 : m.fixtures.findIndex((f) => f.file === file || (f.path !== "" && f.path === file));
}

/** A text percent-encoded, half a surrogate pair (which no file name holds) as U+FFFD. */
const uriOf = (s: string): string => encodeURIComponent(s.replace(/\p{Cs}/gu, "\ufffd"));

/** A rule's family, as the page colours it: a literal's rule without its name (literal-v1:hostname is literal-v1). */
const family = (rule: string): string => rule.replace(/:.*$/s, "");

function markHtml(f: ReviewFixture, s: ReviewFixture["spans"][number]): string {
  const rules = s.rules.join(", then ");
  // The name as the server knows it, percent-encoded (a name may hold a control that would stand raw in the page); as shown, in visible escapes.
  const data = `data-file="${escape(uriOf(f.file))}" data-shown="${text(f.file)}" data-span="${s.index}" data-rule="${text(rules)}"`;
  const title = `${text(rules)}: Enter or click reveals the raw value`;
  const classes = [...new Set(s.rules.map(family))].map(escape).join(" ");
  return `<mark class="span ${classes}" ${data} title="${title}" tabindex="0" role="button">${block(f.cleared.slice(s.start, s.end))}</mark>`;
}

function markedHtml(f: ReviewFixture): string {
  let html = "";
  let at = 0;
  for (const s of f.spans) {
    html += block(f.cleared.slice(at, s.start)) + markHtml(f, s);
    at = s.end;
  }
  return html + block(f.cleared.slice(at));
}

function sidecarHtml(f: ReviewFixture): string {
  if (f.sidecarPath === "") return "";
  const name = `Provenance sidecar ${pathCode(f.sidecarPath)}`;
  if (f.sidecar === null) return `<p class="sidecar">${name}: written only with a batch that nothing blocks.</p>`;
  return `<details class="sidecar"><summary>${name}</summary><pre>${block(f.sidecar)}</pre></details>`;
}

function fixtureHtml(f: ReviewFixture, index: number): string {
  const id = fixtureId(index);
  const from = f.path ? `from capture ${code(f.file)} · ` : "";
  const body = f.withheld === null ? `<pre class="payload">${markedHtml(f)}</pre>` : `<p class="withheld">${text(f.withheld)}</p>`;
  const meta = `<p class="meta">${from}${text(`${f.harness} ${f.version} ${f.event}`)} · ${f.spans.length} marked</p>`;
  const title = `<h3 id="${id}-title">${pathCode(titleOf(f))}</h3>`;
  return `<section class="fixture" id="${id}" aria-labelledby="${id}-title">${title}${meta}${body}${sidecarHtml(f)}${backToTop}</section>`;
}

function gridHtml(m: ReviewModel): string {
  const cell = (e: ReviewModel["grid"][number]["events"][number]): string => `<span class="cell ${e.state}" title="${e.state}">${text(e.event)}</span>`;
  const rows = m.grid.map((h) => `<tr><th>${text(h.harness)}</th><td>${h.events.map(cell).join(" ")}</td></tr>`);
  return `<table class="grid" id="coverage"><caption>Coverage: selected, captured, missing, refused</caption>${rows.join("")}</table>`;
}

function memberHtml(m: ReviewModel, member: PairMember): string {
  if (member.fixture !== null) return link(member.fixture, titleOf(m.fixtures[member.fixture] as ReviewFixture));
  return `${code(member.file)} <em>(${text(member.why ?? "not selected")})</em>`;
}

function pairsHtml(m: ReviewModel): string {
  if (m.pairs.length === 0) return "<p>No pairs.</p>";
  const item = (p: ReviewModel["pairs"][number]): string => `<li>${text(p.scope)} ${code(p.id)}: ${p.members.map((x) => memberHtml(m, x)).join(" ↔ ")}</li>`;
  const how = "<p>A link leads to the fixture that member is; a member without one is named with why it is not a fixture.</p>";
  return `${how}<ul class="pairs">${m.pairs.map(item).join("")}</ul>`;
}

function scanHtml(m: ReviewModel): string {
  const control = m.scan.control.red ? "red as expected" : `SILENT for ${m.scan.control.silent.join(", ")}`;
  const findings = m.scan.findings.map((f) => `<li>${text(f.rule)} ${code(f.file)} ${code(f.pointer ?? "")}: ${code(f.masked)}</li>`).join("");
  const summary = `<p>${m.scan.files} files scanned, ${m.scan.findings.length} findings; reach control: ${text(control)}</p>`;
  return findings ? `${summary}<ul>${findings}</ul>` : summary;
}

const whatToDo = (advice: string | null): string => `<p class="advice"><strong>What to do:</strong> ${text(advice ?? "the message says what to change")}</p>`;

/** One finding: its code, where it stands (a link when that is a fixture on this page), its message and what to do. */
function findingHtml(m: ReviewModel, f: ExplainedFinding): string {
  const target = fixtureIndex(m, f.file);
  const file = f.file === null ? "the sitting as a whole" : target >= 0 ? link(target, f.file) : pathCode(f.file);
  const pointer = f.pointer === null ? "" : ` at ${code(f.pointer)}`;
  const position = f.line === null ? "" : ` (line ${f.line}${f.column === null ? "" : `, column ${f.column}`})`;
  return `<li class="finding"><p>${code(f.code)} in ${file}${pointer}${position}</p><p>${text(f.message)}</p>${whatToDo(f.advice)}</li>`;
}

const ACCEPT_HOW = (record: string): string =>
  `read the batch in ${code(record)}, then write ${code("ACCEPT")} alone on the line under its ${code("## User acceptance")} heading, ` +
  "outside any comment or code block. This page never writes ACCEPT.";

const CHANGED = "a run now would write it differently: the sitting (its folder, sitting.json or kit.json) or the rules changed since";
const LATER = "a later accepted batch lists some of the same fixture paths, and the later listing is the one that counts";
const OUTSIDE = "This page was opened outside a git repository, so no record was read. In the repository that will hold the fixtures,";

function blockedBody(m: ReviewModel): string {
  const count = `${m.blockers.length} ${m.blockers.length === 1 ? "finding blocks" : "findings block"} batch ${code(m.batchId)}`;
  const list = `<ol class="blockers">${m.blockers.map((f) => findingHtml(m, f)).join("")}</ol>`;
  return `<p>${count}. No fixture is written while one does; resolve each as it says, then look again.</p>${list}`;
}

type Status = { title: string; body: string };
const p = (...sentences: string[]): string => `<p>${sentences.join(" ")}</p>`;

/** Where a batch stands when the person has something to run or write. */
function toAccept(m: ReviewModel, a: Acceptance & { state: "pending" | "not-run" | "outside" | "changed" }, at: string): Status {
  const id = code(m.batchId);
  const run = code(m.runCommand);
  const accept = ACCEPT_HOW(m.recordPath);
  switch (a.state) {
    case "pending":
      return { title: "Awaiting ACCEPT", body: p(`${at} is written as a run writes it now. To accept it, ${accept}`) };
    case "not-run":
      return {
        title: "Not written yet",
        body: p(`No batch of this sitting is in ${code(m.recordPath)}.`, `Run ${run} to write the fixtures, their sidecars and batch ${id}; then ${accept}`),
      };
    case "outside":
      return { title: "Outside a repository", body: p(OUTSIDE, `run ${run} (or give --root DIR) to write batch ${id}; then ${accept}`) };
    case "changed":
      if (a.accepted) {
        return {
          title: "Changed since it was accepted",
          body: p(
            `${at} was accepted, but ${CHANGED}.`,
            "The accepted batch still stands for what it lists.",
            `To commit what this sitting gives now, run ${run} and accept the new batch it writes.`,
          ),
        };
      }
      return {
        title: "Changed since it was written",
        body: p(
          `${at} awaits acceptance, but ${CHANGED} it was written.`,
          `Do not accept it as it stands: run ${run} again (it replaces the pending batch), then ${accept}`,
        ),
      };
  }
}

/** The status's heading and its explanation, for each place a batch can stand. */
function statusBody(m: ReviewModel, a: Acceptance): Status {
  const at = "line" in a ? `Batch ${code(m.batchId)} at ${code(m.recordPath)} line ${a.line}` : "";
  switch (a.state) {
    case "blocked":
      return { title: "Blocked: this batch cannot be accepted", body: blockedBody(m) };
    case "accepted":
      return {
        title: "Accepted",
        body: p(`${at} stands accepted: its ACCEPT stands, its digest holds, and it lists these very fixtures and sidecars.`, "Nothing here awaits acceptance."),
      };
    case "superseded":
      return {
        title: "Accepted, then listed again",
        body: p(`${at} is accepted and holds, but ${LATER}.`, `To make this sitting's fixtures the accepted ones, run ${code(m.runCommand)} and accept a new batch.`),
      };
    case "edited":
      return {
        title: "Edited after ACCEPT",
        body: p(`${at} carries ACCEPT, but its text changed after it was written; its acceptance no longer counts.`) + whatToDo(a.advice),
      };
    case "unreadable":
      return { title: "The record cannot be read", body: p(text(a.detail)) + whatToDo(a.advice) };
    default:
      return toAccept(m, a, at);
  }
}

function statusHtml(m: ReviewModel): string {
  const { title, body } = statusBody(m, m.acceptance);
  const refused = m.refusals.map((f) => findingHtml(m, f)).join("");
  const refusals = refused === "" ? "" : `<h3>Captures refused (left out of the batch)</h3><ol class="refusals">${refused}</ol>`;
  return `<section id="status" class="status ${m.acceptance.state}"><h2>${text(title)}</h2>${body}${refusals}</section>`;
}

function contentsHtml(m: ReviewModel): string {
  const fixtures = m.fixtures.map((f, i) => `<li>${link(i, titleOf(f))}</li>`).join("");
  const list = fixtures ? `<ol class="fixture-list">${fixtures}</ol>` : "";
  const sections: [string, string][] = [
    ["status", "Status"],
    ["coverage-section", "Coverage"],
    ["fixtures", `Fixtures (${m.fixtures.length})`],
    ["pairs", "Pairs"],
    ["scan", "Secret scan"],
  ];
  const items = sections.map(([id, label]) => `<li><a href="#${id}">${label}</a>${id === "fixtures" ? list : ""}</li>`);
  return `<nav id="contents" aria-label="Contents"><h2>Contents</h2><ul>${items.join("")}</ul></nav>`;
}

const LEGEND = ["home-path-v1", "literal-v1", "free-text-v1", "url-v1", "env-dump-v1"].map((r) => `<mark class="span ${r}">${r}</mark>`).join(" ");
const HOW_TO_READ =
  "Each fixture is titled by the path it will be committed at, its provenance sidecar under it. A marked span (click it, or Tab to it and " +
  "press Enter or Space) reveals the raw value it replaced, read from the capture folder and kept in this page only; Escape closes it.";
const REVEAL_PANEL =
  '<aside id="reveal" hidden role="dialog" aria-labelledby="reveal-title"><div class="reveal-head"><strong id="reveal-title">Raw value</strong> ' +
  '<span id="reveal-where"></span> <button type="button" id="reveal-close">Close (Esc)</button></div><pre id="reveal-value"></pre></aside>';

export function pageHtml(m: ReviewModel, token: string): string {
  const q = `?token=${encodeURIComponent(token)}`;
  const fixtures = m.fixtures.length === 0 ? "<p>No fixture is selected.</p>" : m.fixtures.map(fixtureHtml).join("\n");
  const digest = m.batch ? `, digest ${code(`sha256:${m.batch.digest}`)}` : "";
  const batch = m.batchId ? `<p>Batch ${code(m.batchId)}${digest}: ${m.fixtures.length} ${m.fixtures.length === 1 ? "fixture" : "fixtures"}.</p>` : "";
  const head = `<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>clear review</title>`;
  return `<!doctype html><html lang="en"><head>${head}<link rel="stylesheet" href="/style.css${q}"></head><body>
<header id="top"><h1>clear review</h1>${batch}</header>
${contentsHtml(m)}
<main>
${statusHtml(m)}
<section id="coverage-section"><h2>Coverage</h2>${gridHtml(m)}${backToTop}</section>
<section id="fixtures"><h2>Fixtures as they will be committed</h2><p class="legend">Legend: ${LEGEND}. ${HOW_TO_READ}</p>
${fixtures}</section>
<section id="pairs"><h2>Pairs</h2>${pairsHtml(m)}${backToTop}</section>
<section id="scan"><h2>Secret scan</h2>${scanHtml(m)}${backToTop}</section>
</main>
${REVEAL_PANEL}
<script src="/app.js${q}"></script></body></html>`;
}

export const STYLE = `*{box-sizing:border-box}[hidden]{display:none!important}
body{font:15px/1.45 system-ui,sans-serif;overflow-wrap:anywhere;margin:0 auto;padding:1rem;max-width:80em;color:#1b1b1b}
code{overflow-wrap:anywhere;word-break:break-word}h3 code{font-size:.95em}
pre{background:#f6f6f6;padding:.75em;margin:.5em 0;white-space:pre-wrap;overflow-wrap:anywhere;word-break:break-all;max-width:100%;overflow-x:auto}
.span{cursor:pointer;border-radius:3px;padding:0 1px}mark.span:focus{outline:3px solid #1a5fb4;outline-offset:1px}
.home-path-v1{background:#cde4ff}.literal-v1{background:#ffd6e7}.free-text-v1{background:#ffe3b3}.url-v1{background:#d8f5d0}.env-dump-v1{background:#eadcff}
.grid{border-collapse:collapse;max-width:100%}.grid th{text-align:left;vertical-align:top;padding:.3em;white-space:nowrap}.grid td{padding:.3em}
.cell{display:inline-block;margin:2px;padding:2px 6px;border-radius:3px}
.selected{background:#b9f0b9}.captured{background:#e8e8e8}.missing{background:#ffc9c9}.refused{background:#ffb347}
.status{border-left:6px solid #999;padding:.25em 1em;margin:1em 0;background:#fafafa}
.status.blocked,.status.unreadable,.status.edited{border-color:#c01c28}.status.accepted{border-color:#26a269}
.status.pending,.status.not-run,.status.outside{border-color:#1a5fb4}.status.changed,.status.superseded{border-color:#e5a50a}
.finding{margin-bottom:.75em}.finding p{margin:.2em 0}.advice{margin:.2em 0}
.fixture{border-top:1px solid #ddd;padding-top:.5em;margin-top:1em}.meta{color:#555;margin:.2em 0}.withheld{color:#a51d2d}
.sidecar{margin:.5em 0}.sidecar summary{cursor:pointer}.top{font-size:.9em;margin:.3em 0}
nav#contents ol,nav#contents ul{padding-left:1.25em;margin:.25em 0}
@media (min-width:64em){body{display:grid;grid-template-columns:20em minmax(0,1fr);column-gap:2em}header{grid-column:1/-1}
nav#contents{position:sticky;top:0;align-self:start;max-height:100vh;overflow-y:auto}main{min-width:0}}
@media (max-width:40em){body{padding:.5rem}}.grid caption{text-align:left;padding:.3em}
#reveal{position:fixed;left:0;right:0;bottom:0;max-height:45vh;overflow:auto;background:#fff8dc;border-top:2px solid #cc9;padding:.5em 1rem}
#reveal{box-shadow:0 -2px 8px rgba(0,0,0,.15)}.reveal-head{display:flex;flex-wrap:wrap;gap:.5em;align-items:baseline}#reveal-close{margin-left:auto}`;

export const SCRIPT = `(() => {
  const token = new URLSearchParams(location.search).get("token") || "";
  const panel = document.getElementById("reveal");
  const where = document.getElementById("reveal-where");
  const value = document.getElementById("reveal-value");
  const close = document.getElementById("reveal-close");
  let opener = null;
  const hide = () => {
    if (panel.hidden) return;
    panel.hidden = true;
    value.textContent = "";
    if (opener) opener.focus();
    opener = null;
  };
  const show = async (mark) => {
    opener = mark;
    const query = "token=" + encodeURIComponent(token) + "&file=" + mark.dataset.file;
    const url = "/reveal?" + query + "&span=" + encodeURIComponent(mark.dataset.span);
    let shown;
    try {
      const res = await fetch(url, { cache: "no-store" });
      const body = await res.json();
      shown = res.ok ? (typeof body.value === "string" ? body.value : "(no string value)") : "not revealed: " + body.error;
    } catch (err) {
      shown = "not revealed: the request failed";
    }
    if (opener !== mark) return;
    where.textContent = mark.dataset.shown + " (" + mark.dataset.rule + ")";
    value.textContent = shown;
    panel.hidden = false;
    close.focus();
  };
  for (const mark of document.querySelectorAll("mark.span[data-span]")) {
    mark.addEventListener("click", () => show(mark));
    mark.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        show(mark);
      }
    });
  }
  close.addEventListener("click", hide);
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") hide(); });
})();`;
