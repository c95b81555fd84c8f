import { contract } from "@agent-platform/contract";
import { type AppRoute, type AppRouter, isAppRoute } from "@ts-rest/core";
import type { z } from "zod";
import { PUBLIC_PREFIX } from "../../../src/http/public-routes.js";

/** One operation of the contract, as the security suites see it. */
export interface ContractRoute {
  /** `agents.create` */
  name: string;
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  route: AppRoute;
  /** Served without an API key: signed file links (`/v1/files/…`). */
  isPublic: boolean;
  /** Workspace administration: a member key gets 403 `auth.forbidden`. */
  adminOnly: boolean;
  body?: z.ZodTypeAny;
  query?: z.ZodTypeAny;
}

/**
 * Every route of the contract, found by walking it (never listed by hand, so routes added later are covered). The
 * explicit rule for public routes: the signed-link prefix. Health, OpenAPI and /docs are not in the contract.
 * Administration routes are those the contract marks as such (`metadata.docs.admin`, or "(admin key)" in the summary).
 */
export function contractRoutes(router: AppRouter = contract): ContractRoute[] {
  const out: ContractRoute[] = [];
  const walk = (node: AppRouter | AppRoute, names: string[]) => {
    if (isAppRoute(node)) {
      const metadata = node.metadata as { docs?: { admin?: boolean; public?: boolean } } | undefined;
      const route = node as AppRoute & { body?: unknown; query?: unknown };
      out.push({
        name: names.join("."),
        method: node.method as ContractRoute["method"],
        path: node.path,
        route: node,
        isPublic: node.path.startsWith(`${PUBLIC_PREFIX}/`) || metadata?.docs?.public === true,
        adminOnly: metadata?.docs?.admin === true || /\(admin key\)/.test(node.summary ?? ""),
        ...(isZod(route.body) ? { body: route.body } : {}),
        ...(isZod(route.query) ? { query: route.query } : {}),
      });
      return;
    }
    for (const [key, child] of Object.entries(node)) walk(child as AppRouter | AppRoute, [...names, key]);
  };
  walk(router, []);
  return out;
}

function isZod(value: unknown): value is z.ZodTypeAny {
  return typeof value === "object" && value !== null && "_def" in value && "safeParse" in value;
}

/**
 * The path with its parameters filled: `:projectId` from `ids.projects`, `:id` from the id of the resource named by the
 * segment before it (`/vaults/:id` → `ids.vaults`), other parameters by name (`ids[":version"]`). A parameter the
 * seeds do not know gets a well-formed id that exists nowhere.
 */
export function fillPath(path: string, ids: Record<string, string>): string {
  const segments = path.split("/");
  return segments
    .map((segment, i) => {
      if (!segment.startsWith(":")) return segment;
      const name = segment.slice(1);
      const previous = segments[i - 1] ?? "";
      const value =
        name === "projectId"
          ? ids.projects
          : name === "id"
            ? ids[previous]
            : (ids[`${previous}/:${name}`] ?? ids[`:${name}`]);
      return encodeURIComponent(value ?? "zz_00000000000000000000000000");
    })
    .join("/");
}
