// Small DOM helpers shared by the panels: building elements, number formats, notices.
// Nothing is ever rendered through innerHTML: every value (a trace step, a program line, a
// reject reason) becomes a text node or an attribute, so data shows as text whatever it holds.

/**
 * An element built without parsing HTML. `props`: "class", "dataset" (object), "style"
 * (object of CSS properties), anything else becomes an attribute (never a DOM property, so no
 * `innerHTML`; `true` gives a boolean attribute such as `checked`, `false` leaves it out). `children`: text (any
 * value, shown as text), nodes, arrays of them; null, undefined and false are skipped.
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (/^on/i.test(key)) throw new Error(`h: no inline handlers (${key}); use addEventListener`);
    if (key === "class") el.className = String(value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "style") Object.assign(el.style, value);
    else el.setAttribute(key, String(value));
  }
  appendAll(el, children);
  return el;
}

function appendAll(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
}

/** Replaces the children of `el` (text or nodes, as in `h`). */
export function fill(el, ...children) {
  el.replaceChildren();
  appendAll(el, children);
}

/** Replaces the rows of a table body; `empty` is the text of a single row when there are none. */
export function fillRows(tbody, rows, empty, columns) {
  tbody.replaceChildren(...(rows.length ? rows : [messageRow(columns, empty)]));
}

/** A table row spanning `columns` with a muted message (optionally with a code part). */
export function messageRow(columns, text, code = null) {
  return h("tr", {}, h("td", { colspan: columns, class: "muted" }, text, code && h("code", {}, code)));
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
