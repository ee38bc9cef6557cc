// The "New batch" form: a POST /v1/batches over the constraint grid (levels, types, methods),
// the configured teachers (/v1/teachers) and the input count. The API's error detail is shown
// next to the button; nothing is sent without a key.

import { getJson, sendJson } from "./api.js";
import { $, fmtInt, h } from "./dom.js";

const form = { catalog: null };

function selected(select) {
  return [...select.selectedOptions].map((o) => o.value);
}

function fillMethods() {
  const types = new Set(selected($("bf-types")));
  const keep = new Set(selected($("bf-methods")));
  const entries = form.catalog.entries.filter((e) => types.size === 0 || types.has(e.type));
  const methods = [...new Set(entries.map((e) => e.method))].sort();
  $("bf-methods").replaceChildren(...methods.map((m) => h("option", { value: m, selected: keep.has(m) }, m)));
}

async function loadTeachers() {
  const list = await getJson("/v1/teachers");
  $("bf-teacher").replaceChildren(...list.items.map((t) => h("option", {
    value: t.name, selected: t.default, disabled: Boolean(t.error), title: t.error || "",
  }, `${t.name} (${t.kind}${t.model ? ", " + t.model : ""})${t.error ? " – invalid" : ""}`)));
}

function show(text, kind) {
  const out = $("bf-result");
  out.textContent = text;
  out.className = `form-result ${kind}`;
  out.dataset.state = kind;
}

function spec() {
  const body = {
    programs: Number($("bf-programs").value),
    inputs_per_program: Number($("bf-inputs").value),
    levels: [...$("bf-levels").querySelectorAll("input:checked")].map((box) => box.value),
    types: selected($("bf-types")),
    methods: selected($("bf-methods")),
  };
  if ($("bf-teacher").value) body.teacher = $("bf-teacher").value;
  if ($("bf-seed").value !== "") body.seed = Number($("bf-seed").value);
  return body;
}

export async function setupBatchForm(catalog, onCreated) {
  form.catalog = catalog;
  $("bf-levels").replaceChildren(h("legend", {}, "Levels"), ...catalog.levels.map((l) => h("label", { class: "check" },
    h("input", { type: "checkbox", value: l.name, checked: true }), l.name)));
  $("bf-types").replaceChildren(...catalog.types.map((t) => h("option", { value: t }, t)));
  fillMethods();
  $("bf-types").addEventListener("change", fillMethods);
  $("batch-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("bf-submit").disabled = true;
    show("sending…", "info");
    try {
      const batch = await sendJson("POST", "/v1/batches", spec());
      show(`batch #${batch.id} queued: ${fmtInt(batch.programs_requested)} programs, seed ${batch.seed}`, "ok");
      await onCreated(batch);
    } catch (err) {
      show(err.body && err.body.detail ? `${err.body.error}: ${err.body.detail}` : err.message, "error");
    } finally {
      $("bf-submit").disabled = false;
    }
  });
  await loadTeachers();
}
