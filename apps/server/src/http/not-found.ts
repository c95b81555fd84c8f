import type { AppRouter } from "@ts-rest/core";
import type { RequestHandler } from "express";
import { AppError } from "./app-error.js";
import { routePatterns } from "./route-table.js";

export function unknownRoute(router: AppRouter): RequestHandler {
  const patterns = routePatterns(router);
  return (req, res, next) => {
    const allowed = patterns.filter((p) => p.regex.test(req.path)).map((p) => p.method);
    if (allowed.length > 0) {
      res.setHeader("Allow", [...new Set(allowed)].join(", "));
      next(new AppError("route.method_not_allowed", `${req.method} is not allowed on ${req.path}`));
      return;
    }
    next(new AppError("route.not_found", `No route ${req.method} ${req.path}`));
  };
}
