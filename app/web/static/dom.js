// Small DOM helpers shared by the panels: escaping, number formats, notices.

export function esc(value) {
  return String(value ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

export const $ = (id) => document.getElementById(id);

export function fmtInt(n) {
  return n === null || n === undefined ? "–" : Number(n).toLocaleString("en-US");
}

export function fmtPct(x) {
  return x === null || x === undefined || Number.isNaN(x) ? "–" : `${(100 * x).toFixed(1)}%`;
}

export function fmtUsd(x) {
  if (x === null || x === undefined) return "–";
  return x >= 1 ? `$${x.toFixed(2)}` : `$${x.toFixed(4)}`;
}

export function fmtDuration(seconds) {
  if (seconds === null || seconds === undefined) return "–";
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

/** Shows (or clears, with text null) one named notice; kinds: info, warn, error. */
export function notice(name, text, kind = "warn") {
  const box = $("notices");
  let el = box.querySelector(`[data-notice="${name}"]`);
  if (!text) {
    if (el) el.remove();
    return;
  }
  if (!el) {
    el = document.createElement("div");
    el.dataset.notice = name;
    box.appendChild(el);
  }
  el.className = `notice ${kind}`;
  el.textContent = text;
}
