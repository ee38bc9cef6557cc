// The exports panel: manual and scheduled (nightly incremental / full) export runs, with
// their window, status, attempts and files. /v1/exports needs an API key.

import { getJson, getKey } from "./api.js";
import { $, fill, fmtInt, h, messageRow } from "./dom.js";
import { parseTime } from "./aggregate.js";

const when = (value) => (value ? parseTime(value).toISOString().slice(0, 16).replace("T", " ") : "–");

export async function loadExports() {
  if (!getKey()) return null;
  return getJson("/v1/exports", { limit: 20 }, { auth: true });
}

export function renderExports(page) {
  const body = $("exports").querySelector("tbody");
  if (page === null) {
    fill(body, messageRow(8, "enter an API key to see export runs"));
    return;
  }
  const rows = page.items.map((e) => {
    const window = e.window_start || e.window_end ? `${when(e.window_start)} → ${when(e.window_end)}` : "–";
    const files = e.files.map((f) => f.path).join(", ");
    return h("tr", { dataset: { export: e.id } },
      h("td", {}, `#${e.id}`), h("td", {}, e.kind), h("td", {}, e.format),
      h("td", {}, h("span", { class: `pill status-${e.status}`, title: e.error || "" }, e.status)),
      h("td", {}, window), h("td", { class: "num", dataset: { field: "samples" } }, fmtInt(e.sample_count)),
      h("td", { class: "num" }, fmtInt(e.attempts)), h("td", {}, files || "–"));
  });
  fill(body, rows.length ? rows : messageRow(8, "no exports yet: run ", "execsynth export --format verl"));
}
