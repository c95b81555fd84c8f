import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, sep } from "node:path";
import express, { type Router } from "express";

export const CONSOLE_PREFIX = "/console";

/** The built console (`apps/console/dist`), or undefined when it was not built (`pnpm build` builds it). */
export function consoleDist(): string | undefined {
  try {
    const require = createRequire(import.meta.url);
    const dist = join(dirname(require.resolve("@agent-platform/console/package.json")), "dist");
    return existsSync(join(dist, "index.html")) ? dist : undefined;
  } catch {
    return undefined;
  }
}

const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8" /><title>Agent Platform console</title></head>
<body><p>The console has not been built. Run <code>pnpm build</code> (or <code>pnpm start</code>) in the repository.</p></body>
</html>`;

/**
 * `/console`: the web console's static files, served from this origin only (no CDN, works offline). Hashed assets are
 * cached for a year; `index.html` is never cached so that a new build is picked up. Any other path under `/console`
 * that is not a file answers `index.html`, so that deep links (`/console/sessions/sess_…`) open the page the router
 * shows.
 */
export function consoleRouter(dist: string | undefined): Router {
  const router = express.Router();
  if (!dist) {
    router.get([CONSOLE_PREFIX, `${CONSOLE_PREFIX}/*`], (_req, res) => {
      res.status(503).type("html").send(NOT_BUILT);
    });
    return router;
  }
  const indexHtml = readFileSync(join(dist, "index.html"), "utf8");
  router.use(CONSOLE_PREFIX, precompressed(dist));
  const sendIndex: express.RequestHandler = (_req, res) => {
    res.setHeader("Cache-Control", "no-cache");
    res.type("html").send(indexHtml);
  };
  router.use(
    `${CONSOLE_PREFIX}/assets`,
    express.static(join(dist, "assets"), { index: false, immutable: true, maxAge: "365d" }),
    (_req: express.Request, res: express.Response) => void res.status(404).type("text").send("Not found"),
  );
  router.use(CONSOLE_PREFIX, express.static(dist, { index: false, redirect: false, maxAge: "1h" }));
  router.get([CONSOLE_PREFIX, `${CONSOLE_PREFIX}/*`], sendIndex);
  return router;
}

/**
 * The build's `<file>.br` / `<file>.gz` (written by `apps/console/scripts/precompress.mjs`), sent in place of `<file>`
 * to a client that accepts them (its `Accept-Encoding` q-values decide; brotli first when they tie): the request is
 * pointed at the compressed file, with the original's type and `Content-Encoding`, and served by the static
 * handlers that follow (ranges, caching headers). Only files listed at start are considered.
 */
function precompressed(dist: string): express.RequestHandler {
  const compressed = new Set(
    readdirSync(dist, { recursive: true })
      .map((entry) => `/${String(entry).split(sep).join("/")}`)
      .filter((path) => path.endsWith(".br") || path.endsWith(".gz")),
  );
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const br = compressed.has(`${req.path}.br`);
    const gz = compressed.has(`${req.path}.gz`);
    if (!br && !gz) return next();
    res.vary("Accept-Encoding");
    const offered = [...(br ? ["br"] : []), ...(gz ? ["gzip"] : [])];
    const encoding = req.acceptsEncodings(...offered);
    if (encoding !== "br" && encoding !== "gzip") return next();
    res.type(req.path.slice(req.path.lastIndexOf(".")));
    res.setHeader("Content-Encoding", encoding);
    req.url = req.url.replace(req.path, `${req.path}.${encoding === "br" ? "br" : "gz"}`);
    next();
  };
}
