// The sample browser: a filtered, cursor-paged list; one sample's program with line numbers,
// input, result, its interpreter trace stepped through with prev/next, and its questions.

import { getJson } from "./api.js";
import { inDateRange } from "./aggregate.js";
import { $, fill, fmtInt, h, messageRow } from "./dom.js";

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
  const rows = state.rows.map((s) =>
    h("tr", { dataset: { sample: s.id }, class: state.sample && state.sample.id === s.id ? "selected" : "" },
      h("td", {}, s.id), h("td", {}, `${s.constraint_type}.${s.constraint_method}`), h("td", {}, s.level),
      h("td", {}, h("span", { class: `pill status-${s.status}` }, s.status)),
      h("td", {}, s.solver_passes === null ? "–" : `${s.solver_passes}/${s.solver_k}`)));
  fill($("samples").querySelector("tbody"), rows.length ? rows : messageRow(5, "no samples match"));
  $("samples-more").hidden = !state.cursor;
  $("samples-count").textContent = `${fmtInt(state.rows.length)} shown${state.cursor ? " (more)" : ""}`;
}

export function clearSamples(message) {
  state.rows = [];
  state.cursor = null;
  fill($("samples").querySelector("tbody"), messageRow(5, message));
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
  fill($("sample-code"), lines.map((text, i) =>
    h("span", { class: `ln${hit.has(i + 1) ? " hit" : ""}`, dataset: { line: i + 1 } }, h("span", { class: "no" }, i + 1), text || " ")));
  const questions = s.questions.map((q) =>
    h("tr", { dataset: { kind: q.kind } }, h("td", {}, q.position), h("td", {}, h("span", { class: "pill" }, q.kind)),
      h("td", { class: "q" }, q.prompt), h("td", { class: "gold" }, h("code", {}, q.gold_answer))));
  fill($("questions").querySelector("tbody"), questions.length ? questions : messageRow(4, "no questions (the sample was not accepted)"));
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
    fill($("trace-locals").querySelector("tbody"));
    $("trace-prev").disabled = $("trace-next").disabled = true;
    return;
  }
  const step = all[state.step];
  $("trace-pos").textContent = `step ${state.step + 1} / ${all.length}`;
  $("trace-pos").dataset.line = step.line;
  fill($("trace-event"), h("span", { class: `pill event-${step.event}` }, step.event), " in ", h("code", {}, step.func),
    " at line ", h("b", {}, step.line), step.depth ? [" ", h("span", { class: "muted" }, `depth ${step.depth}`)] : null);
  const current = [...code.querySelectorAll(".ln")].find((el) => el.dataset.line === String(step.line));
  if (current) current.classList.add("current");
  const locals = Object.entries(step.locals || {});
  const rows = locals.map(([name, v]) => h("tr", {}, h("td", {}, h("code", {}, name)), h("td", {}, v.type), h("td", {}, h("code", {}, v.repr))));
  fill($("trace-locals").querySelector("tbody"), rows.length ? rows : messageRow(3, "no locals yet"));
  $("trace-prev").disabled = state.step === 0;
  $("trace-next").disabled = state.step >= all.length - 1;
}

export function stepBy(delta) {
  const all = steps();
  if (!all.length) return;
  state.step = Math.max(0, Math.min(all.length - 1, state.step + delta));
  renderStep();
}
