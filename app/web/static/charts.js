// Chart.js rendering. Charts are created once per canvas and updated in place on refresh, so
// auto-refresh does not flicker; tests read the rendered data back with Chart.getChart(id).

import { fill, h } from "./dom.js";

export const COLORS = {
  accepted: "#2a9d8f",
  other: "#e76f51",
  progress: "#e9c46a",
  neutral: "#457b9d",
  grid: "rgba(120, 130, 150, 0.18)",
  text: "#c9d1e0",
};

export function chartsAvailable() {
  return typeof window.Chart === "function";
}

// the count axis: linear, or logarithmic so that small categories stay visible beside big ones
let countScale = "linear";
const COUNT_CHARTS = ["chart-level", "chart-type", "chart-passrate", "chart-funnel"];

function baseOptions({ stacked = false, horizontal = false, counts = true } = {}) {
  const axis = { stacked, grid: { color: COLORS.grid }, ticks: { color: COLORS.text } };
  const value = { ...axis, beginAtZero: true, type: counts ? countScale : "linear" };
  return {
    responsive: true,
    maintainAspectRatio: false,
    animation: false,
    indexAxis: horizontal ? "y" : "x",
    plugins: { legend: { labels: { color: COLORS.text, boxWidth: 12 } } },
    scales: horizontal ? { x: value, y: { ...axis } } : { x: { ...axis }, y: value },
  };
}

/** Switches the count axis of every count chart between linear and logarithmic. */
export function setLogAxis(on) {
  countScale = on ? "logarithmic" : "linear";
  if (!chartsAvailable()) return;
  for (const id of COUNT_CHARTS) {
    const chart = window.Chart.getChart(id);
    if (!chart) continue;
    const axis = chart.options.indexAxis === "y" ? "x" : "y";
    chart.options.scales[axis].type = countScale;
    chart.update("none");
  }
}

function upsert(id, type, data, options) {
  if (!chartsAvailable()) return null;
  const existing = window.Chart.getChart(id);
  if (existing) {
    existing.data = data;
    existing.update("none");
    return existing;
  }
  return new window.Chart(document.getElementById(id), { type, data, options });
}

function acceptedStack(buckets) {
  return {
    labels: buckets.map((b) => b.key),
    datasets: [
      { label: "accepted", data: buckets.map((b) => b.accepted), backgroundColor: COLORS.accepted },
      { label: "not accepted", data: buckets.map((b) => b.total - b.accepted), backgroundColor: COLORS.other },
    ],
  };
}

export function renderDifficulty(stats) {
  upsert("chart-level", "bar", acceptedStack(stats.by_level), baseOptions({ stacked: true }));
  upsert("chart-type", "bar", acceptedStack(stats.by_type), baseOptions({ stacked: true }));
  upsert("chart-passrate", "bar", {
    labels: stats.pass_rate.map((b) => b.pass_rate.toFixed(1)),
    datasets: [
      { label: "accepted", data: stats.pass_rate.map((b) => b.accepted), backgroundColor: COLORS.accepted },
      { label: "not accepted", data: stats.pass_rate.map((b) => b.total - b.accepted), backgroundColor: COLORS.other },
    ],
  }, baseOptions({ stacked: true }));
  renderHeatmap(stats.level_pass_rate);
}

export const PASS_RATE_COLUMNS = Array.from({ length: 11 }, (_, i) => (i / 10).toFixed(1));

/** The level x pass-rate table as a heatmap: cell shade is the count relative to the largest. */
export function renderHeatmap(table) {
  const el = document.getElementById("heatmap");
  const levels = Object.keys(table).sort();
  const max = Math.max(1, ...levels.flatMap((l) => Object.values(table[l])));
  if (!levels.length) {
    fill(el, h("tbody", {}, h("tr", {}, h("td", { class: "muted" }, "no solver pass rates yet"))));
    return;
  }
  const head = h("thead", {}, h("tr", {}, h("th", {}, "level \\ pass rate"), PASS_RATE_COLUMNS.map((c) => h("th", {}, c)), h("th", {}, "n")));
  const rows = levels.map((level) => {
    const cells = PASS_RATE_COLUMNS.map((c) => {
      const n = table[level][c] || 0;
      const alpha = n ? 0.15 + 0.85 * (n / max) : 0;
      return h("td", { dataset: { level, rate: c }, style: { background: `rgba(42, 157, 143, ${alpha.toFixed(3)})` } }, n || "");
    });
    const total = Object.values(table[level]).reduce((a, b) => a + b, 0);
    return h("tr", {}, h("th", {}, level), cells, h("td", { class: "total" }, total));
  });
  fill(el, head, h("tbody", {}, rows));
}

export function renderFeatures(means, label) {
  upsert("chart-features", "bar", {
    labels: means.map((m) => m.level),
    datasets: [{ label: `mean ${label}`, data: means.map((m) => m.mean), backgroundColor: COLORS.neutral }],
  }, baseOptions({ counts: false }));
}

export function renderFunnelChart(stages) {
  upsert("chart-funnel", "bar", {
    labels: stages.map((s) => s.stage.replace("_", " ")),
    datasets: [
      { label: "passed", data: stages.map((s) => s.passed), backgroundColor: COLORS.accepted },
      { label: "rejected", data: stages.map((s) => s.rejected), backgroundColor: COLORS.other },
      { label: "in progress", data: stages.map((s) => s.in_progress), backgroundColor: COLORS.progress },
    ],
  }, baseOptions({ stacked: true, horizontal: true }));
}
