// The batches panel: live progress, rate, ETA, tokens and cost of the most recent batches,
// one /v1/batches/{id} read each (the list endpoint carries no progress).

import { getJson } from "./api.js";
import { $, fill, fmtDuration, fmtInt, fmtUsd, h, messageRow } from "./dom.js";
import { parseTime } from "./aggregate.js";

export const BATCHES_SHOWN = 20;

export async function loadBatches() {
  const page = await getJson("/v1/batches", { limit: 100 });
  const recent = page.items.slice(0, BATCHES_SHOWN);
  const details = await Promise.all(recent.map((b) => getJson(`/v1/batches/${b.id}`)));
  return { list: page.items, details };
}

export function renderBatches(details) {
  const rows = details.map((b) => {
    const share = b.programs_requested ? Math.min(1, b.programs_done / b.programs_requested) : 0;
    const tokens = b.prompt_tokens + b.completion_tokens;
    return h("tr", { dataset: { batch: b.id } },
      h("td", {}, `#${b.id}`),
      h("td", {}, h("span", { class: `pill status-${b.status}` }, b.status)),
      h("td", {}, b.teacher),
      h("td", { class: "progress-col" },
        h("div", { class: "progress", title: `${b.programs_done} of ${b.programs_requested} programs` },
          h("span", { style: { width: `${(100 * share).toFixed(1)}%` } })),
        h("span", { class: "progress-text" }, `${fmtInt(b.programs_done)} / ${fmtInt(b.programs_requested)}`)),
      h("td", { class: "num", dataset: { field: "accepted" } }, fmtInt(b.samples_accepted)),
      h("td", { class: "num", dataset: { field: "rate" } }, b.accepted_per_minute === null ? "–" : `${b.accepted_per_minute.toFixed(1)}/min`),
      h("td", { class: "num", dataset: { field: "eta" } }, fmtDuration(b.eta_seconds)),
      h("td", { class: "num", dataset: { field: "tokens" }, title: `prompt ${fmtInt(b.prompt_tokens)} + completion ${fmtInt(b.completion_tokens)}` }, fmtInt(tokens)),
      h("td", { class: "num", dataset: { field: "cost" } }, fmtUsd(b.cost_usd)),
      h("td", { class: "num", dataset: { field: "cost-per-accepted" } }, fmtUsd(b.cost_per_accepted_usd)),
      h("td", {}, parseTime(b.created_at).toISOString().slice(0, 16).replace("T", " ")));
  });
  fill($("batches").querySelector("tbody"), rows.length ? rows : messageRow(11, "no batches yet: run ", "execsynth synth --programs 50"));
}
