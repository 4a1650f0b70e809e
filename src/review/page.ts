import type { ReviewFixture, ReviewModel } from "./model.js";

// The review page as plain HTML, with a small script and a stylesheet served beside it. Nothing
// here loads from elsewhere, and nothing in it is a raw value.

const escape = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const anchor = (file: string): string => `fixture-${file.replace(/[^A-Za-z0-9_.-]/g, "_")}`;

function fixtureHtml(f: ReviewFixture): string {
  let html = "";
  let at = 0;
  for (const s of f.spans) {
    html += escape(f.cleared.slice(at, s.start));
    html += `<mark class="span ${escape(s.rule)}" data-file="${escape(f.file)}" data-span="${s.index}" title="${escape(s.rule)}: click to reveal the raw value" tabindex="0">${escape(f.cleared.slice(s.start, s.end))}</mark>`;
    at = s.end;
  }
  html += escape(f.cleared.slice(at));
  return `<section class="fixture" id="${anchor(f.file)}"><h3>${escape(f.harness)} ${escape(f.version)} ${escape(f.event)} <small>${escape(f.file)}</small></h3><pre>${html}</pre></section>`;
}

function gridHtml(m: ReviewModel): string {
  const rows = m.grid.map((h) => `<tr><th>${escape(h.harness)}</th><td>${h.events.map((e) => `<span class="cell ${e.state}" title="${e.state}">${escape(e.event)}</span>`).join(" ")}</td></tr>`);
  return `<table class="grid" id="coverage"><caption>Coverage: selected, captured, missing, refused</caption>${rows.join("")}</table>`;
}

function pairsHtml(m: ReviewModel): string {
  if (m.pairs.length === 0) return "<p>No pairs.</p>";
  const item = (p: ReviewModel["pairs"][number]): string => `<li>${escape(p.scope)} <code>${escape(p.id)}</code>: ${p.files.map((f) => `<a href="#${anchor(f)}">${escape(f)}</a>`).join(" ↔ ")}</li>`;
  return `<ul class="pairs">${m.pairs.map(item).join("")}</ul>`;
}

function scanHtml(m: ReviewModel): string {
  const control = m.scan.control.red ? "red as expected" : `SILENT for ${m.scan.control.silent.join(", ")}`;
  const findings = m.scan.findings.map((f) => `<li>${escape(f.rule)} ${escape(f.file)} ${escape(f.pointer ?? "")}: <code>${escape(f.masked)}</code></li>`).join("");
  return `<p id="scan">${m.scan.files} files scanned, ${m.scan.findings.length} findings; reach control: ${escape(control)}</p>${findings ? `<ul>${findings}</ul>` : ""}`;
}

export function pageHtml(m: ReviewModel, token: string): string {
  const q = `?token=${encodeURIComponent(token)}`;
  const legend = ["home-path-v1", "free-text-v1", "url-v1", "env-dump-v1"].map((r) => `<mark class="span ${r}">${r}</mark>`).join(" ");
  const accept = m.batch
    ? `<p>Batch <code>${escape(m.batch.id)}</code>, digest <code>${escape(m.batch.digest)}</code>. To accept, run <code>clear run</code>, read the batch in CLEARANCE.md and write <code>ACCEPT</code> alone on the line under its <code>## User acceptance</code> heading. This page never writes ACCEPT.</p>`
    : "<p>Something blocks this batch; it cannot be accepted.</p>";
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>clear review</title><link rel="stylesheet" href="/style.css${q}"></head><body>
<h1>clear review</h1>
<h2>Coverage</h2>${gridHtml(m)}
<h2>Fixtures as they will be committed</h2><p class="legend">Legend: ${legend}. Click a marked span to reveal the raw value it replaced (read from the capture folder, kept in this page only).</p>
${m.fixtures.map(fixtureHtml).join("\n")}
<aside id="reveal" hidden><strong>Raw value</strong> <span id="reveal-where"></span><pre id="reveal-value"></pre></aside>
<h2>Pairs</h2>${pairsHtml(m)}
<h2>Secret scan</h2>${scanHtml(m)}
<h2>Acceptance</h2>${accept}
<script src="/app.js${q}"></script></body></html>`;
}

export const STYLE = `body{font:14px/1.4 system-ui,sans-serif;margin:2em;max-width:70em}pre{background:#f6f6f6;padding:1em;white-space:pre-wrap;word-break:break-all}
.span{cursor:pointer;border-radius:3px;padding:0 1px}.home-path-v1{background:#cde4ff}.free-text-v1{background:#ffe3b3}.url-v1{background:#d8f5d0}.env-dump-v1{background:#eadcff}
.grid td{padding:.3em}.cell{display:inline-block;margin:2px;padding:2px 6px;border-radius:3px}.selected{background:#b9f0b9}.captured{background:#e8e8e8}.missing{background:#ffc9c9}.refused{background:#ffb347}
#reveal{position:sticky;bottom:0;background:#fff8dc;border:1px solid #cc9;padding:.5em}`;

export const SCRIPT = `(() => {
  const token = new URLSearchParams(location.search).get("token") || "";
  const panel = document.getElementById("reveal");
  const show = async (mark) => {
    const url = "/reveal?token=" + encodeURIComponent(token) + "&file=" + encodeURIComponent(mark.dataset.file) + "&span=" + encodeURIComponent(mark.dataset.span);
    const res = await fetch(url, { cache: "no-store" });
    const body = await res.json();
    document.getElementById("reveal-where").textContent = mark.dataset.file + " (" + mark.title.split(":")[0] + ")";
    document.getElementById("reveal-value").textContent = res.ok ? body.value : "not revealed: " + body.error;
    panel.hidden = false;
  };
  for (const mark of document.querySelectorAll("mark.span[data-span]")) {
    mark.addEventListener("click", () => show(mark));
    mark.addEventListener("keydown", (e) => { if (e.key === "Enter") show(mark); });
  }
})();`;
