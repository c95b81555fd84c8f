import { contract } from "@agent-platform/contract";
import express from "express";
import { agentRoutes } from "./agents/routes.js";
import { artifactsRoutes } from "./artifacts/routes.js";
import { artifactFileDownloads } from "./artifacts/serve-artifact-file.js";
import { automationRoutes } from "./automations/index.js";
import { budgetRoutes } from "./budgets/routes.js";
import type { AppContext } from "./context.js";
import { datasetRoutes } from "./datasets/routes.js";
import { environmentRoutes } from "./environments/routes.js";
import { experimentRoutes } from "./experiments/index.js";
import { governanceRoutes } from "./governance/routes.js";
import { ApiRoutes } from "./http/api-dispatch.js";
import { authenticate } from "./http/authenticate.js";
import { compressResponses } from "./http/compression.js";
import { consoleDist, consoleRouter } from "./http/console.js";
import { corsFor } from "./http/cors.js";
import { docsRouter } from "./http/docs.js";
import { errorHandler } from "./http/error-envelope.js";
import { installFastJson } from "./http/fast-json.js";
import { healthRouter } from "./http/health.js";
import { idempotency } from "./http/idempotency.js";
import { refuseNulInUrl } from "./http/input-guards.js";
import { jsonBody } from "./http/json-body.js";
import { unknownRoute } from "./http/not-found.js";
import { PUBLIC_PREFIX } from "./http/public-routes.js";
import { rateLimitFor } from "./http/rate-limit.js";
import { requestIdAndLog } from "./http/request-id.js";
import { requestValidationErrorHandler } from "./http/request-validation.js";
import { securityHeaders } from "./http/security-headers.js";
import { traceRequests } from "./http/trace-requests.js";
import { knowledgeBaseRoutes } from "./knowledge-bases/routes.js";
import type { Telemetry } from "./lib/telemetry/telemetry.js";
import { memoryStoreRoutes } from "./memory-stores/routes.js";
import { platformRoutes } from "./platform/routes.js";
import { serverlessToolRoutes } from "./serverless-tools/routes.js";
import type { LocalTurnsLink } from "./sessions/index.js";
import { sessionRoutes } from "./sessions/routes.js";
import { skillFileDownloads } from "./skills/file-links.js";
import { registerSkillsRoutes, skillsApiContract } from "./skills/routes.js";
import { vaultRoutes } from "./vaults/routes.js";
import { webhookRoutes } from "./webhooks/index.js";
import { registerSessionFileRoutes } from "./workspaces/routes.js";

/** `telemetry`: when on, a span and a duration per request, and `GET /metrics` when Prometheus is asked for. */
export function createApp(
  ctx: AppContext,
  telemetry?: Pick<Telemetry, "enabled" | "prometheus">,
  /** This process's turn slots, connected by `startBackground` when the process also runs jobs (`ROLE=all`). */
  localTurns?: LocalTurnsLink,
): express.Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.set("query parser", "extended");
  installFastJson(app);
  app.use(requestIdAndLog(ctx.logger));
  if (telemetry?.enabled) app.use(traceRequests());
  app.use(securityHeaders());
  app.use(refuseNulInUrl);
  if (!/^(false|0|off)$/i.test(ctx.config.env.HTTP_COMPRESSION ?? "")) app.use(compressResponses());
  const cors = corsFor(ctx.config.env.CORS_ORIGINS);
  if (cors) app.use(cors);
  const api = new ApiRoutes();
  // What is not the keyed API (health, metrics, docs, console, signed file links), skipped by the API's requests.
  const site = express.Router();
  site.use(healthRouter(ctx));
  const prometheus = telemetry?.prometheus;
  if (prometheus) site.get("/metrics", (req, res) => prometheus(req, res));
  site.use(docsRouter());
  site.use(consoleRouter(consoleDist()));
  site.use(`${PUBLIC_PREFIX}/skills`, skillFileDownloads(ctx));
  site.use(`${PUBLIC_PREFIX}/artifacts`, artifactFileDownloads(ctx));
  app.use((req, res, next) => (api.owns(req.path) ? next() : site(req, res, next)));
  const auth = authenticate(ctx);
  // Unset RATE_LIMIT_PER_MINUTE: no limiter in the chain at all.
  const rateLimit = rateLimitFor(ctx.config.env.RATE_LIMIT_PER_MINUTE, ctx.db.pool, ctx.logger);
  app.use("/v1", auth, ...(rateLimit ? [rateLimit] : []), jsonBody, idempotency(ctx));

  const options = { requestValidationErrorHandler, responseValidation: true } as const;
  const unvalidated = { ...options, responseValidation: false } as const;
  // Within an area, Express tries routes in registration order, so the busiest come first. The hottest routes (event
  // ingestion and log reads) skip response re-validation: their bodies are built field by field by the session
  // serializers, and test/sessions/sessions-contract.test.ts checks them against the contract.
  api.endpoints(contract.sessions, sessionRoutes(ctx, localTurns), unvalidated);
  // Agent creation is built from the configuration the contract just validated on input, and reads (get, list, list
  // versions) from each version's configuration as the contract shapes it (version-snapshots.ts, readableConfig):
  // test/agents/agents-contract.test.ts checks what they send. The agent's writes keep the re-validation.
  const { create, get, list, listVersions, ...writeRoutes } = agentRoutes(ctx);
  const agentsContract = contract.agents;
  const agentReads = {
    create: agentsContract.create,
    get: agentsContract.get,
    list: agentsContract.list,
    listVersions: agentsContract.listVersions,
  };
  api.endpoints(agentReads, { create, get, list, listVersions }, unvalidated);
  const { create: _c, get: _g, list: _l, listVersions: _v, ...writeContract } = agentsContract;
  api.endpoints(writeContract, writeRoutes, options);
  const platform = platformRoutes(ctx);
  api.endpoints(contract.platform, platform.platform, options);
  api.endpoints(contract.projects, platform.projects, options);
  api.endpoints(contract.apiKeys, platform.apiKeys, options);
  api.endpoints(contract.models, platform.models, options);
  api.endpoints(contract.tools, platform.tools, options);
  api.endpoints(contract.environments, environmentRoutes(ctx), options);
  api.endpoints(contract.vaults, vaultRoutes(ctx), options);
  api.endpoints(contract.memoryStores, memoryStoreRoutes(ctx), options);
  api.endpoints(contract.knowledgeBases, knowledgeBaseRoutes(ctx), options);
  api.endpoints(contract.datasets, datasetRoutes(ctx), options);
  api.endpoints(contract.budgets, budgetRoutes(ctx), options);
  api.endpoints(contract.serverlessTools, serverlessToolRoutes(ctx), options);
  api.endpoints(contract.automations, automationRoutes(ctx), options);
  api.endpoints(contract.experiments, experimentRoutes(ctx), options);
  api.endpoints(contract.governance, governanceRoutes(ctx), options);
  api.endpoints(contract.artifacts, artifactsRoutes(ctx), options);
  api.endpoints(contract.webhooks, webhookRoutes(ctx), options);
  api.add(skillsApiContract, (r) => registerSkillsRoutes(r, ctx, options));
  api.add(contract.sessionFiles, (r) => registerSessionFileRoutes(r, ctx, options));
  app.use(api.handler());

  app.use(unknownRoute(contract));
  app.use(errorHandler(ctx.logger));
  return app;
}
