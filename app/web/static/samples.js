// The sample browser: a filtered, cursor-paged list; one sample's program with line numbers,
// input, result, its interpreter trace stepped through with prev/next, and its questions.

import { getJson } from "./api.js";
import { inDateRange } from "./aggregate.js";
import { $, esc, fmtInt } from "./dom.js";

const state = { filters: null, cursor: null, rows: [], sample: null, step: 0 };

export async function loadSampleList(filters, { append = false } = {}) {
  const status = $("s-status").value;
  if (!append) {
    state.filters = filters;
    state.cursor = null;
    state.rows = [];
  }
  const query = { ...apiFilters(state.filters), status, limit: 50, cursor: state.cursor };
  const page = await getJson("/v1/samples", query, { auth: true });
  state.rows.push(...inDateRange(page.items, state.filters.from, state.filters.to));
  state.cursor = page.next_cursor;
  renderList();
  return state.rows;
}

export function apiFilters(f) {
  return { batch_id: f.batch_id, type: f.type, method: f.method, level: f.level };
}

function renderList() {
  const body = $("samples").querySelector("tbody");
  body.innerHTML = state.rows.map((s) => `
    <tr data-sample="${s.id}" class="${state.sample && state.sample.id === s.id ? "selected" : ""}">
      <td>${s.id}</td><td>${esc(s.constraint_type)}.${esc(s.constraint_method)}</td><td>${esc(s.level)}</td>
      <td><span class="pill status-${esc(s.status)}">${esc(s.status)}</span></td>
      <td>${s.solver_passes === null ? "–" : `${s.solver_passes}/${s.solver_k}`}</td></tr>`).join("")
    || `<tr><td colspan="5" class="muted">no samples match</td></tr>`;
  $("samples-more").hidden = !state.cursor;
  $("samples-count").textContent = `${fmtInt(state.rows.length)} shown${state.cursor ? " (more)" : ""}`;
}

export function clearSamples(message) {
  state.rows = [];
  state.cursor = null;
  $("samples").querySelector("tbody").innerHTML = `<tr><td colspan="5" class="muted">${esc(message)}</td></tr>`;
  $("samples-more").hidden = true;
  $("samples-count").textContent = "";
}

export async function openSample(id) {
  const sample = await getJson(`/v1/samples/${id}`, {}, { auth: true });
  state.sample = sample;
  state.step = 0;
  renderSample();
  renderList();
  return sample;
}

function steps() {
  const trace = state.sample && state.sample.execution && state.sample.execution.trace;
  return (trace && trace.steps) || [];
}

function renderSample() {
  const s = state.sample;
  $("sample-empty").hidden = true;
  $("sample-body").hidden = false;
  $("sample-title").textContent = `#${s.id}  ${s.constraint_type}.${s.constraint_method}  ${s.level}`;
  $("sample-status").textContent = s.reject_reason ? `${s.status}: ${s.reject_reason}` : s.status;
  $("sample-status").className = `pill status-${s.status}`;
  const entry = s.program.entry_point || "f";
  $("sample-input").textContent = `${entry}(${s.args_source})`;
  const ex = s.execution;
  $("sample-result").textContent = !ex ? "not executed"
    : ex.result ? `${ex.result.repr}   (${ex.result.type})`
    : ex.exception ? `${ex.exception.type}: ${ex.exception.message}` : ex.status;
  const lines = (s.program.source || "").replace(/\n$/, "").split("\n");
  const hit = new Set(steps().map((st) => st.line));
  $("sample-code").innerHTML = lines.map((text, i) => `<span class="ln${hit.has(i + 1) ? " hit" : ""}" data-line="${i + 1}"><span class="no">${i + 1}</span>${esc(text) || " "}</span>`).join("");
  $("questions").querySelector("tbody").innerHTML = s.questions.map((q) => `
    <tr data-kind="${esc(q.kind)}"><td>${q.position}</td><td><span class="pill">${esc(q.kind)}</span></td>
      <td class="q">${esc(q.prompt)}</td><td class="gold"><code>${esc(q.gold_answer)}</code></td></tr>`).join("")
    || `<tr><td colspan="4" class="muted">no questions (the sample was not accepted)</td></tr>`;
  $("sample-provenance").textContent = JSON.stringify({ ...s.provenance, features: s.features }, null, 2);
  renderStep();
}

function renderStep() {
  const all = steps();
  const code = $("sample-code");
  code.querySelectorAll(".ln.current").forEach((el) => el.classList.remove("current"));
  if (!all.length) {
    $("trace-pos").textContent = "no trace";
    $("trace-event").textContent = "";
    $("trace-locals").querySelector("tbody").innerHTML = "";
    $("trace-prev").disabled = $("trace-next").disabled = true;
    return;
  }
  const step = all[state.step];
  $("trace-pos").textContent = `step ${state.step + 1} / ${all.length}`;
  $("trace-pos").dataset.line = step.line;
  $("trace-event").innerHTML = `<span class="pill event-${esc(step.event)}">${esc(step.event)}</span> in <code>${esc(step.func)}</code> at line <b>${step.line}</b>${step.depth ? ` <span class="muted">depth ${step.depth}</span>` : ""}`;
  const current = code.querySelector(`.ln[data-line="${step.line}"]`);
  if (current) current.classList.add("current");
  const locals = Object.entries(step.locals || {});
  $("trace-locals").querySelector("tbody").innerHTML = locals.map(([name, v]) => `
    <tr><td><code>${esc(name)}</code></td><td>${esc(v.type)}</td><td><code>${esc(v.repr)}</code></td></tr>`).join("")
    || `<tr><td colspan="3" class="muted">no locals yet</td></tr>`;
  $("trace-prev").disabled = state.step === 0;
  $("trace-next").disabled = state.step >= all.length - 1;
}

export function stepBy(delta) {
  const all = steps();
  if (!all.length) return;
  state.step = Math.max(0, Math.min(all.length - 1, state.step + delta));
  renderStep();
}
