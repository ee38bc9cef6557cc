// The exports panel: manual and scheduled (nightly incremental / full) export runs, with
// their window, status, attempts and files. /v1/exports needs an API key.

import { getJson, getKey } from "./api.js";
import { $, esc, fmtInt } from "./dom.js";
import { parseTime } from "./aggregate.js";

const when = (value) => (value ? parseTime(value).toISOString().slice(0, 16).replace("T", " ") : "–");

export async function loadExports() {
  if (!getKey()) return null;
  return getJson("/v1/exports", { limit: 20 }, { auth: true });
}

export function renderExports(page) {
  const body = $("exports").querySelector("tbody");
  if (page === null) {
    body.innerHTML = `<tr><td colspan="8" class="muted">enter an API key to see export runs</td></tr>`;
    return;
  }
  const rows = page.items.map((e) => {
    const window = e.window_start || e.window_end ? `${when(e.window_start)} → ${when(e.window_end)}` : "–";
    const files = e.files.map((f) => esc(f.path)).join(", ");
    return `<tr data-export="${e.id}">
      <td>#${e.id}</td><td>${esc(e.kind)}</td><td>${esc(e.format)}</td>
      <td><span class="pill status-${esc(e.status)}" title="${esc(e.error || "")}">${esc(e.status)}</span></td>
      <td>${window}</td><td class="num" data-field="samples">${fmtInt(e.sample_count)}</td>
      <td class="num">${fmtInt(e.attempts)}</td><td>${files || "–"}</td></tr>`;
  });
  body.innerHTML = rows.join("") || `<tr><td colspan="8" class="muted">no exports yet: run <code>execsynth export --format verl</code></td></tr>`;
}
