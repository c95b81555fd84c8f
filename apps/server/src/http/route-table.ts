import type { AppRoute, AppRouter } from "@ts-rest/core";
import { isAppRoute } from "@ts-rest/core";

export interface RoutePattern {
  method: string;
  regex: RegExp;
}

/** Flattens a ts-rest router into method + path regexes, to tell an unknown path (404) from a wrong method (405). */
export function routePatterns(router: AppRouter): RoutePattern[] {
  const out: RoutePattern[] = [];
  const walk = (node: AppRouter | AppRoute) => {
    if (isAppRoute(node)) {
      const source = node.path
        .split("/")
        .map((seg) => (seg.startsWith(":") ? "[^/]+" : seg === "*" ? ".*" : seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
        .join("/");
      out.push({ method: node.method, regex: new RegExp(`^${source.replace(/\/\[\^\/\]\+\*$/, "/.+")}/?$`) });
      return;
    }
    for (const child of Object.values(node)) walk(child as AppRouter | AppRoute);
  };
  walk(router);
  return out;
}
