import type { AppRoute, AppRouter } from "@ts-rest/core";
import { isAppRoute } from "@ts-rest/core";
import { createExpressEndpoints, type TsRestExpressOptions } from "@ts-rest/express";
import express, { type RequestHandler, type Router } from "express";

/**
 * The segment of an API path that tells its area apart: the one after `/v1/projects/:projectId/` on project routes
 * (`agents`, `sessions`, `usage`…), else the one after `/v1/` (`projects`, `skills`, `platform`…). Lower-cased, and a
 * trailing slash ignored, as Express matches routes (neither case-sensitive nor strict).
 */
export function areaOf(path: string): string {
  const segments = path.split("/", 6);
  if (segments[1]?.toLowerCase() !== "v1") return "";
  const top = segments[2]?.toLowerCase() ?? "";
  if (top === "projects" && segments.length > 4 && segments[4] !== "") return segments[4]!.toLowerCase();
  return top;
}

function areasOf(routes: AppRouter | AppRoute, into = new Set<string>()): Set<string> {
  if (isAppRoute(routes)) into.add(areaOf(routes.path));
  else for (const child of Object.values(routes)) areasOf(child as AppRouter | AppRoute, into);
  return into;
}

/**
 * The API's routes, each group of them (one contract's, as `createExpressEndpoints` registers it) on a router of its
 * own, and a handler that sends a request only to the routers of its path's area (`areaOf`), in the order they were
 * added. Express tries the layers of one router in order, a regular expression each: with every route on the app, a
 * request walked the hundred-odd routes registered before its own, which cost more than its handler's own logic on
 * the busiest routes. A path of no area, or one that no route of its area matches, goes on to the next handler (404,
 * 405) as before.
 */
export class ApiRoutes {
  private readonly byArea = new Map<string, Router[]>();

  /** Adds the routes of `contract`, which `register` puts on the router it is given. */
  add(contract: AppRouter, register: (router: Router) => void): void {
    const router = express.Router();
    register(router);
    for (const area of areasOf(contract)) {
      const routers = this.byArea.get(area);
      if (routers) routers.push(router);
      else this.byArea.set(area, [router]);
    }
  }

  /** Adds the routes of `contract` as ts-rest builds them from `routes`. */
  endpoints<T extends AppRouter>(
    contract: T,
    routes: Parameters<typeof createExpressEndpoints<T>>[1],
    options: TsRestExpressOptions<T>,
  ): void {
    this.add(contract, (router) => createExpressEndpoints(contract, routes, router, options));
  }

  /** Whether `path` is in an area of the API (whether or not one of its routes matches it). */
  owns(path: string): boolean {
    return this.byArea.has(areaOf(path));
  }

  handler(): RequestHandler {
    return (req, res, next) => {
      const routers = this.byArea.get(areaOf(req.path));
      if (!routers) {
        next();
        return;
      }
      let i = 0;
      // A router that matched nothing calls this without an error (also after a route's `next("router")`).
      const tryNext = (error?: unknown) => {
        if (error || i === routers.length) next(error);
        else routers[i++]!(req, res, tryNext);
      };
      tryNext();
    };
  }
}
