// The exports panel: manual and scheduled (nightly incremental / full) export runs, with
// their window, status, attempts, files as download links, and errors and warnings shown in
// the row. /v1/exports and its files need an API key, so a download is a fetch with the key.

import { downloadFile, getJson, getKey } from "./api.js";
import { $, fillRows, fmtInt, h, notice } from "./dom.js";
import { parseTime } from "./aggregate.js";

const when = (value) => (value ? parseTime(value).toISOString().slice(0, 16).replace("T", " ") : "–");

export async function loadExports() {
  if (!getKey()) return null;
  return getJson("/v1/exports", { limit: 20 }, { auth: true });
}

function fileLink(f) {
  const link = h("a", { href: f.url, class: "download", dataset: { file: f.path } }, f.path);
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
  const cell = h("td", {}, h("span", { class: `pill status-${e.status}` }, e.status));
  if (e.error) cell.append(h("div", { class: "inline-error-text", dataset: { field: "error" } }, e.error));
  for (const warning of e.warnings || []) cell.append(h("div", { class: "warning-text", dataset: { field: "warning" } }, warning));
  return cell;
}

export function renderExports(page) {
  const body = $("exports").querySelector("tbody");
  if (page === null) return fillRows(body, [], "enter an API key to see export runs", 8);
  const rows = page.items.map((e) => {
    const window = e.window_start || e.window_end ? `${when(e.window_start)} → ${when(e.window_end)}` : "–";
    const files = h("td", { class: "files" });
    e.files.forEach((f, i) => files.append(...(i ? [", "] : []), fileLink(f)));
    if (!e.files.length) files.textContent = "–";
    return h("tr", { dataset: { export: String(e.id), status: e.status } },
      h("td", {}, `#${e.id}`), h("td", {}, e.kind), h("td", {}, e.format), statusCell(e),
      h("td", {}, window), h("td", { class: "num", dataset: { field: "samples" } }, fmtInt(e.sample_count)),
      h("td", { class: "num" }, fmtInt(e.attempts)), files);
  });
  fillRows(body, rows, "no exports yet: run execsynth export --format verl", 8);
}
