// The funnel panel: stages (passed / rejected / in progress) for the selected batch or overall,
// rejection reasons per stage, and one row per recent batch.

import { renderFunnelChart } from "./charts.js";
import { $, esc, fmtInt } from "./dom.js";

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
    const rows = Object.entries(s.reasons).map(([reason, n]) => `
      <div class="reason" data-stage="${esc(s.stage)}" data-reason="${esc(reason)}">
        <span class="reason-name">${esc(reason)}</span>
        <span class="bar"><span style="width:${((100 * n) / max).toFixed(1)}%"></span></span>
        <span class="reason-n">${fmtInt(n)}</span>
      </div>`).join("");
    return `<div class="reason-stage"><h4>${esc(s.stage.replace("_", " "))} <span class="muted">${fmtInt(s.rejected)} rejected of ${fmtInt(s.total)}</span></h4>${rows}</div>`;
  });
  $("reasons").innerHTML = blocks.length ? blocks.join("") : `<p class="muted">no rejections</p>`;
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
    return `<tr data-batch="${b.batch_id}">
      <td>#${b.batch_id}</td><td><span class="pill status-${esc(b.status)}">${esc(b.status)}</span></td>
      <td>${fmtInt(calls.passed)} / ${fmtInt(calls.total)}</td>
      <td>${fmtInt(programs.passed)} / ${fmtInt(programs.total)}</td>
      <td>${fmtInt(samples.passed)} / ${fmtInt(samples.total)}</td>
      <td>${fmtInt(samples.rejected)}</td><td>${fmtInt(samples.in_progress)}</td>
      <td>${top ? `${esc(top[0])} (${fmtInt(top[1])})` : "–"}</td></tr>`;
  });
  $("funnel-batches").querySelector("tbody").innerHTML = rows.join("") || `<tr><td colspan="8" class="muted">no batches yet</td></tr>`;
}
