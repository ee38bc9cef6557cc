// The batches panel: live progress, rate, ETA, tokens and cost of the most recent batches,
// one /v1/batches/{id} read each (the list endpoint carries no progress).

import { getJson } from "./api.js";
import { $, esc, fmtDuration, fmtInt, fmtUsd } from "./dom.js";
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
    return `<tr data-batch="${b.id}">
      <td>#${b.id}</td>
      <td><span class="pill status-${esc(b.status)}">${esc(b.status)}</span></td>
      <td>${esc(b.teacher)}</td>
      <td class="progress-col"><div class="progress" title="${b.programs_done} of ${b.programs_requested} programs">
        <span style="width:${(100 * share).toFixed(1)}%"></span></div>
        <span class="progress-text">${fmtInt(b.programs_done)} / ${fmtInt(b.programs_requested)}</span></td>
      <td class="num" data-field="accepted">${fmtInt(b.samples_accepted)}</td>
      <td class="num" data-field="rate">${b.accepted_per_minute === null ? "–" : `${b.accepted_per_minute.toFixed(1)}/min`}</td>
      <td class="num" data-field="eta">${fmtDuration(b.eta_seconds)}</td>
      <td class="num" data-field="tokens" title="prompt ${fmtInt(b.prompt_tokens)} + completion ${fmtInt(b.completion_tokens)}">${fmtInt(tokens)}</td>
      <td class="num" data-field="cost">${fmtUsd(b.cost_usd)}</td>
      <td class="num" data-field="cost-per-accepted">${fmtUsd(b.cost_per_accepted_usd)}</td>
      <td>${parseTime(b.created_at).toISOString().slice(0, 16).replace("T", " ")}</td></tr>`;
  });
  $("batches").querySelector("tbody").innerHTML = rows.join("") || `<tr><td colspan="11" class="muted">no batches yet: run <code>execsynth synth --programs 50</code></td></tr>`;
}
