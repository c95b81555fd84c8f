import type { RequestHandler } from "express";

/**
 * Express 4 cannot match one named parameter across `/`: a file path sent with literal slashes after `prefix`
 * (`…/files/scripts/run.py`, what the SDK sends) is rewritten to its single-segment form (`…/files/scripts%2Frun.py`,
 * what OpenAPI clients send) before routing, so both reach the same ts-rest route with the whole path as the parameter.
 * `prefix` matches the path up to and including the slash before the file path, as its first group.
 */
export function pathAsOneSegment(prefix: RegExp): RequestHandler {
  const pattern = new RegExp(`^(${prefix.source})(.+)$`, prefix.flags);
  return (req, _res, next) => {
    const q = req.url.indexOf("?");
    const pathname = q === -1 ? req.url : req.url.slice(0, q);
    const match = pattern.exec(pathname);
    const rest = match?.[match.length - 1];
    if (match && rest?.includes("/")) {
      req.url = `${match[1]}${rest.replaceAll("/", "%2F")}${q === -1 ? "" : req.url.slice(q)}`;
    }
    next();
  };
}
