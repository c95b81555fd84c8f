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

/**
 * A file, not an inline script: the page's Content-Security-Policy allows scripts of this origin only. What it adds to
 * Swagger UI:
 * - every "Try it out" write gets a fresh `Idempotency-Key` unless you typed your own (the document's example key,
 *   which the UI pre-fills, would replay the first write for 24 hours);
 * - the filter matches operation ids, paths and summaries, not only tags (`events` finds `sessions.listEvents`);
 * - once authorized, `projectId` is pre-filled with the key's project (from `GET /v1/platform/context`);
 * - the key is kept in the tab's session storage (gone when the tab closes), never in local storage.
 */
const DOCS_INIT = `const spec = document.getElementById("reference").dataset.spec;
const KEY_ITEM = "agent-platform.docs.apiKey";
let documentedKey;
let projectId;

function matches(phrase, tag, op) {
  const operation = op.get("operation");
  const text = [tag, op.get("path"), op.get("method"), operation.get("operationId"), operation.get("summary")]
    .join(" ")
    .toLowerCase();
  return phrase.toLowerCase().split(/\\s+/).every((word) => text.includes(word));
}

const OperationFilter = () => ({
  fn: {
    opsFilter: (taggedOps, phrase) =>
      taggedOps
        .map((tagObj, tag) => tagObj.set("operations", tagObj.get("operations").filter((op) => matches(phrase, tag, op))))
        .filter((tagObj) => tagObj.get("operations").size > 0),
  },
});

const SessionKey = () => ({
  statePlugins: {
    auth: {
      wrapActions: {
        authorize: (action) => (payload) => {
          const value = payload && payload.bearerAuth && payload.bearerAuth.value;
          if (value) {
            sessionStorage.setItem(KEY_ITEM, value);
            fillProject(value);
          }
          return action(payload);
        },
        logout: (action) => (payload) => {
          sessionStorage.removeItem(KEY_ITEM);
          return action(payload);
        },
      },
    },
  },
});

/** The key's project becomes the example (so the pre-filled value) of every projectId path parameter. */
async function fillProject(key) {
  const res = await fetch("/v1/platform/context", { headers: { Authorization: "Bearer " + key } });
  if (!res.ok) return;
  projectId = (await res.json()).project.id;
  const json = window.ui.specSelectors.specJson().toJS();
  for (const item of Object.values(json.paths)) {
    for (const op of Object.values(item)) {
      for (const p of (op && op.parameters) || []) if (p.name === "projectId" && p.in === "path") p.example = projectId;
    }
  }
  window.ui.specActions.updateSpec(JSON.stringify(json));
}

/** crypto.randomUUID exists only in secure contexts (https, localhost): a page served over plain http needs this. */
function newKey() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}

window.ui = SwaggerUIBundle({
  url: spec,
  dom_id: "#reference",
  deepLinking: true,
  persistAuthorization: false,
  displayOperationId: true,
  filter: true,
  docExpansion: "list",
  defaultModelsExpandDepth: 0,
  plugins: [OperationFilter, SessionKey],
  requestInterceptor: (req) => {
    const method = (req.method || "GET").toUpperCase();
    if (method === "GET" || method === "HEAD") return req;
    const name = Object.keys(req.headers).find((h) => h.toLowerCase() === "idempotency-key");
    const value = name ? req.headers[name] : undefined;
    if (name) delete req.headers[name];
    req.headers["Idempotency-Key"] = !value || value === documentedKey ? newKey() : value;
    return req;
  },
  onComplete: () => {
    const parameter = window.ui.specSelectors.specJson().getIn(["components", "parameters", "IdempotencyKey"]);
    documentedKey = parameter && parameter.get("example");
    const saved = sessionStorage.getItem(KEY_ITEM);
    if (saved) window.ui.preauthorizeApiKey("bearerAuth", saved);
  },
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
