// The exports panel: manual and scheduled (nightly incremental / full) export runs, with
// their window, status, attempts, files as download links, and errors and warnings shown in
// the row. /v1/exports and its files need an API key, so a download is a fetch with the key.

import { downloadFile, getJson, getKey } from "./api.js";
import { $, fmtInt, notice } from "./dom.js";
import { el, fillRows } from "./el.js";
import { parseTime } from "./aggregate.js";

const when = (value) => (value ? parseTime(value).toISOString().slice(0, 16).replace("T", " ") : "–");

export async function loadExports() {
  if (!getKey()) return null;
  return getJson("/v1/exports", { limit: 20 }, { auth: true });
}

function fileLink(f) {
  const link = el("a", { href: f.url, className: "download", dataset: { file: f.path } }, f.path);
  link.addEventListener("click", async (ev) => {
    ev.preventDefault();
    try {
      await downloadFile(f.url, f.path);
      notice("download", null);
    } catch (err) {
      notice("download", `download ${f.path}: ${err.message}`, "error");
    }
  });
  return link;
}

function statusCell(e) {
  const cell = el("td", {}, el("span", { className: `pill status-${e.status}` }, e.status));
  if (e.error) cell.append(el("div", { className: "inline-error-text", dataset: { field: "error" } }, e.error));
  for (const warning of e.warnings || []) cell.append(el("div", { className: "warning-text", dataset: { field: "warning" } }, warning));
  return cell;
}

export function renderExports(page) {
  const body = $("exports").querySelector("tbody");
  if (page === null) return fillRows(body, [], "enter an API key to see export runs", 8);
  const rows = page.items.map((e) => {
    const window = e.window_start || e.window_end ? `${when(e.window_start)} → ${when(e.window_end)}` : "–";
    const files = el("td", { className: "files" });
    e.files.forEach((f, i) => files.append(...(i ? [", "] : []), fileLink(f)));
    if (!e.files.length) files.textContent = "–";
    return el("tr", { dataset: { export: String(e.id), status: e.status } },
      el("td", {}, `#${e.id}`), el("td", {}, e.kind), el("td", {}, e.format), statusCell(e),
      el("td", {}, window), el("td", { className: "num", dataset: { field: "samples" } }, fmtInt(e.sample_count)),
      el("td", { className: "num" }, fmtInt(e.attempts)), files);
  });
  fillRows(body, rows, "no exports yet: run execsynth export --format verl", 8);
}
