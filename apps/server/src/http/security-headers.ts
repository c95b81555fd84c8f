import type { RequestHandler } from "express";
import helmet, { type HelmetOptions } from "helmet";
import { CONSOLE_PREFIX } from "./console.js";
import { PUBLIC_PREFIX } from "./public-routes.js";

/**
 * Secure headers (helmet) on every response: `nosniff`, no framing, same-origin opener, no referrer leaks, HSTS on answers
 * over HTTPS only (see `isHttps`), and a Content-Security-Policy per kind of answer:
 * - API (JSON): `default-src 'none'`, nothing may load or run;
 * - `/docs`: the interactive reference, served from this origin only (its scripts are files, never inline; styles may
 *   be inline because Swagger UI and Redoc set them; Redoc's search runs in a `blob:` worker). No external host;
 * - `/console`: the web console, stricter than `/docs`: scripts and styles are files of this origin (no inline script
 *   nor style element), and it talks to this origin's API only;
 * - signed files (`/v1/files/…`) set their own sandboxing CSP and may be embedded by other origins.
 */
const API_CSP = {
  useDefaults: false,
  directives: {
    defaultSrc: ["'none'"],
    baseUri: ["'none'"],
    formAction: ["'none'"],
    frameAncestors: ["'none'"],
  },
} as const;

export const DOCS_CSP = {
  useDefaults: false,
  directives: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", "data:", "blob:"],
    fontSrc: ["'self'", "data:"],
    connectSrc: ["'self'"],
    workerSrc: ["'self'", "blob:"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  },
} as const;

export const CONSOLE_CSP = {
  useDefaults: false,
  directives: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'"],
    imgSrc: ["'self'", "data:"],
    fontSrc: ["'self'"],
    connectSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'none'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  },
} as const;

const COMMON: HelmetOptions = {
  // Sent by `securityHeaders` itself, over HTTPS only.
  strictTransportSecurity: false,
  referrerPolicy: { policy: "no-referrer" },
  crossOriginResourcePolicy: { policy: "same-origin" },
};

function isDocs(path: string): boolean {
  return path === "/docs" || path.startsWith("/docs/");
}

function isConsole(path: string): boolean {
  return path === CONSOLE_PREFIX || path.startsWith(`${CONSOLE_PREFIX}/`);
}

type Header = [name: string, value: string | number | readonly string[]];

/**
 * The headers a helmet middleware sets, read once: with static options (ours) they do not depend on the request, and
 * setting a list is a tenth of running helmet's chain of a dozen middlewares on every request.
 */
function headersOf(options: HelmetOptions): Header[] {
  const headers: Header[] = [];
  const recorder = {
    setHeader: (name: string, value: Header[1]) => headers.push([name, value]),
    removeHeader: () => {},
  };
  let called = false;
  helmet(options)({} as never, recorder as never, () => {
    called = true;
  });
  if (!called) throw new Error("helmet did not set its headers synchronously");
  return headers;
}

function setting(headers: Header[]): RequestHandler {
  return (req, res, next) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    if (isHttps(req)) res.setHeader("Strict-Transport-Security", HSTS);
    next();
  };
}

const HSTS = "max-age=15552000";

/**
 * HSTS belongs on HTTPS answers only (RFC 6797 §7.2: a browser ignores it over plain HTTP, and an HTTP answer that
 * carries it says the server believes it is on HTTPS when it is not). HTTPS is the connection's own TLS, or the
 * `X-Forwarded-Proto: https` of a TLS-terminating proxy in front: trusting that header costs nothing, since a client
 * that forges it over plain HTTP gets a header its browser ignores.
 */
function isHttps(req: Parameters<RequestHandler>[0]): boolean {
  if ((req.socket as { encrypted?: boolean }).encrypted) return true;
  const forwarded = req.headers["x-forwarded-proto"];
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(",")[0]?.trim().toLowerCase();
  return first === "https";
}

export function securityHeaders(): RequestHandler {
  const api = setting(headersOf({ ...COMMON, contentSecurityPolicy: API_CSP }));
  const docs = setting(headersOf({ ...COMMON, contentSecurityPolicy: DOCS_CSP }));
  const consolePages = setting(headersOf({ ...COMMON, contentSecurityPolicy: CONSOLE_CSP }));
  // Signed links are handed to other parties (an <img> on another site): readable cross-origin, no CSP of ours.
  const files = setting(
    headersOf({ ...COMMON, contentSecurityPolicy: false, crossOriginResourcePolicy: { policy: "cross-origin" } }),
  );
  return (req, res, next) => {
    if (isDocs(req.path)) docs(req, res, next);
    else if (isConsole(req.path)) consolePages(req, res, next);
    else if (req.path.startsWith(`${PUBLIC_PREFIX}/`)) files(req, res, next);
    else api(req, res, next);
  };
}
