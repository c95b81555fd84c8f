import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import express, { type Router } from "express";

const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <title>Agent Platform API reference</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css" />
</head>
<body>
  <div id="reference" data-spec="/v1/openapi.json"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>`;

/** A file, not an inline script: the page's Content-Security-Policy allows scripts of this origin only. */
const DOCS_INIT = `const spec = document.getElementById("reference").dataset.spec;
window.ui = SwaggerUIBundle({
  url: spec,
  dom_id: "#reference",
  deepLinking: true,
  persistAuthorization: true,
  displayOperationId: true,
  filter: true,
  docExpansion: "list",
  defaultModelsExpandDepth: 0,
});
`;

/** `GET /v1/openapi.json` and an interactive reference at `/docs` whose assets are served locally (works offline). */
export function docsRouter(): Router {
  const router = express.Router();
  const require = createRequire(import.meta.url);
  // The committed document, which the contract's build proves equal to the contract: generating it costs ~0.5 s of
  // CPU. Read on the first request, not at start: most processes never serve it.
  let document: string | undefined;
  const assets = dirname(require.resolve("swagger-ui-dist/package.json"));
  router.get("/v1/openapi.json", (_req, res) => {
    document ??= readFileSync(require.resolve("@agent-platform/contract/openapi.json"), "utf8");
    res.type("application/json").send(document);
  });
  router.get(["/docs", "/docs/"], (_req, res) => {
    res.type("html").send(DOCS_HTML);
  });
  router.get("/docs/init.js", (_req, res) => {
    res.type("text/javascript").send(DOCS_INIT);
  });
  router.use("/docs/assets", express.static(assets, { index: false, maxAge: "1h" }));
  return router;
}
