// Builds DOM nodes from data with textContent only (never HTML strings), so nothing the API
// returns is ever parsed as markup.

/** el("td", {className: "num", dataset: {field: "x"}}, "text", childNode, ...) */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === null) continue;
    if (name === "dataset") Object.assign(node.dataset, value);
    else if (name in node) node[name] = value;
    else node.setAttribute(name, value);
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

/** Replaces the rows of a table body; `empty` is the text of a single row when there are none. */
export function fillRows(tbody, rows, empty, columns) {
  tbody.replaceChildren(...(rows.length ? rows : [el("tr", {}, el("td", { colSpan: columns, className: "muted" }, empty))]));
}
