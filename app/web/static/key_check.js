// Whether the saved API key is accepted: asked of the API (a 1-row read of a keyed route), so a
// mistyped or revoked key shows as refused instead of as a saved key.

import { getJson, getKey } from "./api.js";

/** "none" | "valid" | "invalid" | "unknown" (the API could not be asked), and the reason. */
export async function checkKey() {
  if (!getKey()) return { state: "none", detail: "" };
  try {
    await getJson("/v1/exports", { limit: 1 }, { auth: true });
    return { state: "valid", detail: "" };
  } catch (err) {
    const detail = err.body && err.body.detail ? err.body.detail : err.message;
    return { state: err.status === 401 || err.status === 403 ? "invalid" : "unknown", detail };
  }
}
