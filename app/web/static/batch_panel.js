// The "Batch detail" panel: one batch's teacher calls (prompt, raw completion, latency, tokens,
// cost, error), its rejected programs with the reason and detail, and a cancel button.
// Calls and programs hold the teacher's raw text, so they need the API key.

import { getJson, getKey, sendJson } from "./api.js";
import { $, fillRows, fmtInt, fmtUsd, h } from "./dom.js";

const CANCELLABLE = new Set(["pending", "running"]);
const panel = { batches: [], calls: new Map() };

function showError(text) {
  $("bp-error").textContent = text || "";
  $("bp-error").hidden = !text;
}

function chosen() {
  return panel.batches.find((b) => String(b.id) === $("bp-batch").value) || null;
}

function callRow(c) {
  return h("tr", { dataset: { call: String(c.id), status: c.status }, class: c.status === "error" ? "row-error" : "" },
    h("td", {}, `#${c.id}`), h("td", {}, c.purpose),
    h("td", {}, h("span", { class: `pill status-${c.status}` }, c.status)),
    h("td", { class: "num" }, `${Math.round(c.latency_ms)} ms`),
    h("td", { class: "num" }, `${fmtInt(c.prompt_tokens)} + ${fmtInt(c.completion_tokens)}`),
    h("td", { class: "num" }, fmtUsd(c.cost_usd)),
    h("td", { class: "inline-error-text" }, c.error || ""));
}

function programRow(p) {
  return h("tr", { dataset: { program: String(p.id) } },
    h("td", {}, `#${p.id}`), h("td", { class: "num" }, String(p.slot)),
    h("td", {}, `${p.constraint_type}.${p.constraint_method}`), h("td", {}, p.level),
    h("td", {}, p.reject_reason || ""), h("td", { class: "detail-text" }, p.reject_detail || ""));
}

function showCall(id) {
  const call = panel.calls.get(id);
  if (!call) return;
  $("bp-call-detail").hidden = false;
  $("bp-call-title").textContent = `call #${call.id} (${call.model}, ${call.attempts} attempt(s))`;
  $("bp-prompt").textContent = (call.prompt || []).map((m) => `[${m.role}]\n${m.content}`).join("\n\n");
  $("bp-completion").textContent = call.raw_completion ? call.raw_completion.join("\n---\n") : "(no completion)";
}

async function loadRecords(batch) {
  const calls = $("bp-calls").querySelector("tbody");
  const programs = $("bp-programs").querySelector("tbody");
  if (!getKey()) {
    fillRows(calls, [], "enter an API key to see teacher calls", 7);
    fillRows(programs, [], "enter an API key to see rejected programs", 6);
    return;
  }
  const status = $("bp-call-status").value;
  const [callPage, programPage] = await Promise.all([
    getJson(`/v1/batches/${batch.id}/teacher-calls`, { limit: 100, status }, { auth: true }),
    getJson(`/v1/batches/${batch.id}/programs`, { limit: 100, status: "rejected" }, { auth: true }),
  ]);
  panel.calls = new Map(callPage.items.map((c) => [String(c.id), c]));
  fillRows(calls, callPage.items.map(callRow), "no teacher calls", 7);
  fillRows(programs, programPage.items.map(programRow), "no rejected programs", 6);
  $("bp-more-note").textContent = callPage.next_cursor || programPage.next_cursor ? "showing the first 100 of each" : "";
}

/** Redraws the panel for the batches of this refresh (details of /v1/batches/{id}). */
export async function renderBatchPanel(details) {
  panel.batches = details;
  const select = $("bp-batch");
  const current = select.value;
  select.replaceChildren(...details.map((b) => h("option", { value: String(b.id) }, `#${b.id} ${b.status}`)));
  if (details.some((b) => String(b.id) === current)) select.value = current;
  const batch = chosen();
  $("bp-cancel").disabled = !batch || !CANCELLABLE.has(batch.status);
  $("bp-status").textContent = batch ? batch.status : "no batch";
  $("bp-status").className = `pill ${batch ? "status-" + batch.status : ""}`;
  $("bp-batch-error").textContent = batch && batch.error ? batch.error : "";
  $("bp-batch-error").hidden = !(batch && batch.error);
  if (!batch) return;
  try {
    await loadRecords(batch);
    showError(null);
  } catch (err) {
    showError(err.body && err.body.detail ? err.body.detail : err.message);
  }
}

export function wireBatchPanel(refresh) {
  $("bp-batch").addEventListener("change", () => renderBatchPanel(panel.batches));
  $("bp-call-status").addEventListener("change", () => renderBatchPanel(panel.batches));
  $("bp-calls").addEventListener("click", (ev) => {
    const row = ev.target.closest("tr[data-call]");
    if (row) showCall(row.dataset.call);
  });
  $("bp-cancel").addEventListener("click", async () => {
    const batch = chosen();
    if (!batch) return;
    $("bp-cancel").disabled = true;
    try {
      await sendJson("POST", `/v1/batches/${batch.id}/cancel`);
      showError(null);
      await refresh();
    } catch (err) {
      showError(err.body && err.body.detail ? `cancel #${batch.id}: ${err.body.detail}` : err.message);
      $("bp-cancel").disabled = false;
    }
  });
}
