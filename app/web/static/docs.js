// Starts Swagger UI over the API's own OpenAPI document, from files this server serves:
// /docs works without the internet. With the bundle not installed, says how to install it.
(function () {
  "use strict";
  if (typeof window.SwaggerUIBundle !== "function") {
    const note = document.getElementById("docs-missing");
    note.textContent = "Swagger UI is not installed: run scripts/install_web_assets.sh (the OpenAPI document is at /openapi.json).";
    note.hidden = false;
    return;
  }
  window.SwaggerUIBundle({ url: "openapi.json", dom_id: "#swagger-ui", deepLinking: true });
})();
