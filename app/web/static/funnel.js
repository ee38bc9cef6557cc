// The funnel panel: stages (passed / rejected / in progress) for the selected batch or overall,
// rejection reasons per stage, and one row per recent batch.

import { renderFunnelChart } from "./charts.js";
import { $, fill, fmtInt, h, messageRow } from "./dom.js";

export function renderFunnel(funnelStats, batchId) {
  const chosen = batchId ? funnelStats.batches.find((b) => String(b.batch_id) === String(batchId)) : null;
  const stages = chosen ? chosen.funnel : funnelStats.overall;
  $("funnel-scope").textContent = chosen ? `batch ${chosen.batch_id}` : batchId ? `batch ${batchId} (not in the recent list)` : "overall";
  renderFunnelChart(stages);
  renderReasons(stages);
  renderBatchRows(funnelStats.batches);
  return stages;
}

function renderReasons(stages) {
  const blocks = stages.filter((s) => Object.keys(s.reasons).length).map((s) => {
    const max = Math.max(...Object.values(s.reasons));
    const rows = Object.entries(s.reasons).map(([reason, n]) =>
      h("div", { class: "reason", dataset: { stage: s.stage, reason } },
        h("span", { class: "reason-name" }, reason),
        h("span", { class: "bar" }, h("span", { style: { width: `${((100 * n) / max).toFixed(1)}%` } })),
        h("span", { class: "reason-n" }, fmtInt(n))));
    return h("div", { class: "reason-stage" },
      h("h4", {}, s.stage.replace("_", " "), " ", h("span", { class: "muted" }, `${fmtInt(s.rejected)} rejected of ${fmtInt(s.total)}`)),
      rows);
  });
  fill($("reasons"), blocks.length ? blocks : h("p", { class: "muted" }, "no rejections"));
}

function stageOf(funnel, name) {
  return funnel.find((s) => s.stage === name) || { total: 0, passed: 0, rejected: 0, in_progress: 0, reasons: {} };
}

function renderBatchRows(batches) {
  const rows = batches.map((b) => {
    const calls = stageOf(b.funnel, "teacher_calls");
    const programs = stageOf(b.funnel, "programs");
    const samples = stageOf(b.funnel, "samples");
    const top = Object.entries(samples.reasons)[0] || Object.entries(programs.reasons)[0];
    return h("tr", { dataset: { batch: b.batch_id } },
      h("td", {}, `#${b.batch_id}`), h("td", {}, h("span", { class: `pill status-${b.status}` }, b.status)),
      h("td", {}, `${fmtInt(calls.passed)} / ${fmtInt(calls.total)}`),
      h("td", {}, `${fmtInt(programs.passed)} / ${fmtInt(programs.total)}`),
      h("td", {}, `${fmtInt(samples.passed)} / ${fmtInt(samples.total)}`),
      h("td", {}, fmtInt(samples.rejected)), h("td", {}, fmtInt(samples.in_progress)),
      h("td", {}, top ? `${top[0]} (${fmtInt(top[1])})` : "–"));
  });
  fill($("funnel-batches").querySelector("tbody"), rows.length ? rows : messageRow(8, "no batches yet"));
}
