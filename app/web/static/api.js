// Talks to the /v1 JSON API. The API key lives in localStorage and is sent as a Bearer token;
// endpoints that need no key are called without one so a missing key never hides public data.

const KEY_STORAGE = "execsynth.apiKey";
export const API_ROOT = new URL("../../", import.meta.url); // the page is served at <root>/dashboard

export class ApiError extends Error {
  constructor(status, body, path) {
    const detail = body && body.detail ? (typeof body.detail === "string" ? body.detail : JSON.stringify(body.detail)) : "";
    super(`${path}: HTTP ${status}${detail ? " – " + detail : ""}`);
    this.status = status;
    this.body = body;
  }
}

export function getKey() {
  return localStorage.getItem(KEY_STORAGE) || "";
}

export function setKey(value) {
  const key = (value || "").trim();
  if (key) localStorage.setItem(KEY_STORAGE, key);
  else localStorage.removeItem(KEY_STORAGE);
  return key;
}

export async function getJson(path, params = {}, { auth = false } = {}) {
  const url = new URL(path.replace(/^\//, ""), API_ROOT);
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== "") url.searchParams.set(name, value);
  }
  const headers = { Accept: "application/json" };
  if (auth) {
    const key = getKey();
    if (!key) throw new ApiError(401, { detail: "enter an API key to read samples" }, path);
    headers.Authorization = `Bearer ${key}`;
  }
  const response = await fetch(url, { headers });
  const body = await readBody(response);
  if (!response.ok) throw new ApiError(response.status, body, path);
  return body;
}

/** The JSON body of a response, or null when it has none. */
async function readBody(response) {
  try {
    return await response.json();
  } catch (_) {
    return null;
  }
}

/** Every page of /v1/samples for the filters, up to `cap` items (the API pages by cursor). */
export async function allSamples(filters, cap = 10000) {
  const items = [];
  let cursor = null;
  do {
    const page = await getJson("/v1/samples", { ...filters, limit: 500, cursor }, { auth: true });
    items.push(...page.items);
    cursor = page.next_cursor;
  } while (cursor && items.length < cap);
  return { items: items.slice(0, cap), truncated: Boolean(cursor) || items.length > cap };
}

/** A JSON request with the API key (POST a batch, cancel one); errors raise ApiError with the
 * API's `{error, detail}` body, so callers can show the detail next to the form. */
export async function sendJson(method, path, body = undefined) {
  const key = getKey();
  if (!key) throw new ApiError(401, { detail: "enter an API key first (execsynth apikey create --name me)" }, path);
  const headers = { Accept: "application/json", Authorization: `Bearer ${key}` };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(new URL(path.replace(/^\//, ""), API_ROOT), {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const parsed = await readBody(response);
  if (!response.ok) throw new ApiError(response.status, parsed, path);
  return parsed;
}

/** Fetches a file that needs the key and hands it to the browser as a download. */
export async function downloadFile(path, name) {
  const response = await fetch(new URL(path.replace(/^\//, ""), API_ROOT), { headers: { Authorization: `Bearer ${getKey()}` } });
  if (!response.ok) throw new ApiError(response.status, await readBody(response), path);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60000);
}
