// Wires the dashboard together: filters, API key, the refresh loop, and the panels.
// Each refresh sets <body data-refreshed="n"> when every panel has been redrawn, which is
// what the browser tests (and anyone scripting the page) wait on.

import { allSamples, getJson, getKey, setKey } from "./api.js";
import { acceptanceRate, foldDifficulty, inDateRange } from "./aggregate.js";
import { loadBatches, renderBatches } from "./batches.js";
import { loadExports, renderExports } from "./exports.js";
import { chartsAvailable, renderDifficulty, renderFeatures, setLogAxis } from "./charts.js";
import { setupBatchForm } from "./batch_form.js";
import { renderBatchPanel, wireBatchPanel } from "./batch_panel.js";
import { checkKey } from "./key_check.js";
import { $, fill, fmtInt, fmtPct, h, notice } from "./dom.js";
import { renderFunnel } from "./funnel.js";
import { apiFilters, clearSamples, loadSampleList, openSample, stepBy } from "./samples.js";

const view = { catalog: null, timer: null, busy: false, pending: null, refreshed: 0, difficulty: null, rows: null };

function readFilters() {
  return {
    batch_id: $("f-batch").value, type: $("f-type").value, method: $("f-method").value,
    level: $("f-level").value, from: $("f-from").value, to: $("f-to").value,
  };
}

const needsSampleRows = (f) => Boolean(f.type || f.method || f.level || f.from || f.to);

function fillSelect(el, options, keep = true) {
  const current = el.value;
  const first = el.options[0];
  fill(el, first, options.map(([value, label]) => h("option", { value }, label)));
  if (keep && [...el.options].some((o) => o.value === current)) el.value = current;
}

/** Methods of the chosen type; a type change resets the method (methods belong to a type). */
function fillMethods(keep = true) {
  const type = $("f-type").value;
  const entries = view.catalog ? view.catalog.entries.filter((e) => !type || e.type === type) : [];
  const methods = [...new Set(entries.map((e) => e.method))].sort();
  fillSelect($("f-method"), methods.map((m) => [m, m]), keep);
}

async function loadCatalog() {
  view.catalog = await getJson("/v1/constraints");
  fillSelect($("f-type"), view.catalog.types.map((t) => [t, t]));
  fillSelect($("f-level"), view.catalog.levels.map((l) => [l.name, l.name]));
  fillMethods();
}

async function showKey() {
  const key = getKey();
  $("key-state").textContent = key ? "checking key…" : "no key";
  $("key-state").className = "pill";
  $("key-state").dataset.state = key ? "checking" : "none";
  if (!key) return notice("key", "Sample reads need an API key: create one with `execsynth apikey create --name me` and paste it above.", "info");
  const { state, detail } = await checkKey();
  if (getKey() !== key) return; // changed while asking
  $("key-state").dataset.state = state;
  $("key-state").textContent = state === "valid" ? `key ${key.slice(0, 8)}…` : state === "invalid" ? "key refused" : "key not checked";
  $("key-state").className = state === "valid" ? "pill ok" : state === "invalid" ? "pill bad" : "pill";
  notice("key", state === "valid" ? null : `API key: ${detail}`, state === "invalid" ? "error" : "warn");
}

async function difficultyFor(filters) {
  if (!needsSampleRows(filters)) {
    view.rows = null;
    return { stats: await getJson("/v1/stats/difficulty", { batch_id: filters.batch_id }), note: "" };
  }
  if (!getKey()) throw new Error("filtering by type, method, level or date needs an API key");
  const { items, truncated } = await allSamples(apiFilters(filters));
  view.rows = inDateRange(items, filters.from, filters.to);
  const note = truncated ? `computed from the first ${fmtInt(items.length)} matching samples` : "";
  return { stats: foldDifficulty(view.rows), note };
}

function renderKpis(stats) {
  const solved = stats.by_level.reduce((a, b) => a + b.solved_samples, 0);
  const rateSum = stats.by_level.reduce((a, b) => a + (b.mean_pass_rate || 0) * b.solved_samples, 0);
  $("kpi-total").textContent = fmtInt(stats.total);
  $("kpi-accepted").textContent = fmtInt(stats.accepted);
  $("kpi-rate").textContent = fmtPct(acceptanceRate(stats.accepted, stats.rejected));
  $("kpi-pass").textContent = solved ? fmtPct(rateSum / solved) : "–";
}

/** The dashboard's date filter (whole UTC days) as the API's created_from / created_to. */
function dateBounds(filters) {
  const day = (d, plus) => new Date(Date.parse(d + "T00:00:00Z") + plus * 86400000).toISOString();
  return { created_from: filters.from ? day(filters.from, 0) : null, created_to: filters.to ? day(filters.to, 1) : null };
}

async function updateFeatures(filters) {
  const pick = $("feature-pick");
  const label = pick.options[pick.selectedIndex].text;
  const stats = await getJson("/v1/stats/features", { ...apiFilters(filters), ...dateBounds(filters) });
  const means = stats.levels
    .filter((l) => l.means[pick.value] !== null && l.means[pick.value] !== undefined)
    .map((l) => ({ level: l.level, mean: l.means[pick.value], n: pick.value === "difficulty_score" ? l.samples : l.with_features }));
  renderFeatures(means, label);
  $("features-caption").textContent = `mean over every matching sample that has it (n per level: ${means.map((m) => `${m.level} ${fmtInt(m.n)}`).join(", ") || "none"})`;
}

async function section(name, work) {
  try {
    await work();
    notice(name, null);
  } catch (err) {
    const refused = err.status === 401 || err.status === 403;
    notice(name, `${name}: ${err.message}`, refused ? "warn" : "error");
    if (refused && getKey()) { // a key the API refuses never stays shown as a good one
      $("key-state").textContent = "key refused";
      $("key-state").className = "pill bad";
      $("key-state").dataset.state = "invalid";
    }
  }
}

export async function refresh({ samples = true } = {}) {
  if (view.busy) {
    view.pending = { samples: samples || Boolean(view.pending && view.pending.samples) };
    return;
  }
  view.busy = true;
  document.body.dataset.busy = "1";
  const filters = readFilters();
  $("scope").textContent = filters.batch_id ? `batch ${filters.batch_id}` : "all batches";
  try {
    await section("batches", async () => {
      const { list, details } = await loadBatches();
      fillSelect($("f-batch"), list.map((b) => [String(b.id), `#${b.id} ${b.status}`]));
      renderBatches(details);
      await renderBatchPanel(details);
    });
    await section("funnel", async () => renderFunnel(await getJson("/v1/stats/funnel", {
      type: filters.type, method: filters.method, level: filters.level, ...dateBounds(filters),
    }), filters.batch_id));
    await section("difficulty", async () => {
      const { stats, note } = await difficultyFor(filters);
      view.difficulty = stats;
      renderDifficulty(stats);
      renderKpis(stats);
      notice("difficulty-note", note || null, "info");
    });
    await section("features", () => updateFeatures(filters));
    await section("exports", async () => renderExports(await loadExports()));
    if (samples) {
      await section("samples", async () => {
        if (!getKey()) return clearSamples("enter an API key to browse samples");
        await loadSampleList(filters);
      });
    }
    $("updated").textContent = `updated ${new Date().toLocaleTimeString()}`;
  } finally {
    view.busy = false;
    document.body.dataset.busy = "";
    view.refreshed += 1;
    document.body.dataset.refreshed = String(view.refreshed);
  }
  if (view.pending) {
    const again = view.pending;
    view.pending = null;
    await refresh(again);
  }
}

function schedule() {
  clearInterval(view.timer);
  view.timer = null;
  if ($("auto-refresh").checked) {
    view.timer = setInterval(() => refresh({ samples: false }), Number($("refresh-every").value) * 1000);
  }
}

function wire() {
  $("key-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    setKey($("api-key").value);
    $("api-key").value = "";
    showKey().then(() => refresh());
  });
  $("key-clear").addEventListener("click", () => {
    setKey("");
    showKey();
    refresh();
  });
  for (const id of ["f-batch", "f-method", "f-level", "f-from", "f-to", "s-status"]) {
    $(id).addEventListener("change", () => refresh());
  }
  $("f-type").addEventListener("change", () => {
    fillMethods(false);
    refresh();
  });
  $("filters").addEventListener("reset", () => setTimeout(() => {
    fillMethods();
    refresh();
  }));
  $("log-axis").addEventListener("change", () => setLogAxis($("log-axis").checked));
  wireBatchPanel(() => refresh({ samples: false }));
  $("feature-pick").addEventListener("change", () => section("features", () => updateFeatures(readFilters())));
  $("auto-refresh").addEventListener("change", schedule);
  $("refresh-every").addEventListener("change", schedule);
  $("refresh-now").addEventListener("click", () => refresh());
  $("samples-more").addEventListener("click", () => section("samples", () => loadSampleList(readFilters(), { append: true })));
  $("samples").addEventListener("click", (ev) => {
    const row = ev.target.closest("tr[data-sample]");
    if (row) section("sample", () => openSample(row.dataset.sample));
  });
  $("trace-prev").addEventListener("click", () => stepBy(-1));
  $("trace-next").addEventListener("click", () => stepBy(1));
  document.addEventListener("keydown", (ev) => {
    if (ev.target.matches("input, select, textarea")) return;
    if (ev.key === "ArrowLeft") stepBy(-1);
    if (ev.key === "ArrowRight") stepBy(1);
  });
}

async function main() {
  if (!chartsAvailable()) {
    notice("charts", "Charts are unavailable: the charting library is not installed. Run scripts/install_web_assets.sh on the server, then reload.", "error");
  }
  wire();
  await showKey();
  await section("constraints", loadCatalog);
  await section("new batch", () => setupBatchForm(view.catalog, () => refresh({ samples: false })));
  await refresh();
  schedule();
}

main();
