import { ApiPromise, type WithResponse } from "./api-promise.js";
import { readEnv } from "./env.js";
import { AgentPlatformError } from "./errors.js";
import type { GeneratedAreas, PlatformContext } from "./generated/api.js";
import { routes } from "./generated/routes.js";
import { buildArea, type ResourceClient, type Route, routeOf, routeRequest } from "./resources.js";
import { type SessionsResource, sessionsResource } from "./sessions/sessions-resource.js";
import {
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  type RequestOptions,
  send,
  type TransportConfig,
} from "./transport.js";
import type { ResponseValidationIssue, ResponseValidator } from "./validate-response.js";

export interface AgentPlatformOptions {
  /** Default: `AGENT_PLATFORM_API_KEY`. */
  apiKey?: string;
  /** Default: `AGENT_PLATFORM_BASE_URL`, else `http://127.0.0.1:3000`. */
  baseUrl?: string;
  /** The project of project-scoped routes. Default: the API key's project (`GET /v1/platform/context`, asked once). */
  projectId?: string;
  /** Milliseconds one attempt may take before it is abandoned (and retried when retries are left). Default 60000. */
  timeout?: number;
  /** Extra attempts after the first for network errors, timeouts, 408, 429, 5xx, 409 `idempotency.in_progress`. Default 2. */
  maxRetries?: number;
  /** A fetch implementation (default: the global one). */
  fetch?: typeof fetch;
  /** Headers sent with every request (in browsers, the server's CORS rules must allow them). */
  headers?: Record<string, string>;
  /**
   * Check success bodies against the contract's schemas: pass `contractValidator` from `@agent-platform/sdk/contract`
   * (kept out of the root entry, so that clients that do not validate do not load Zod and the schemas). Default: none.
   * A mismatch (a field or enum value a newer server added, …) never fails the call nor changes the body: it is
   * reported to `onValidationIssue` (default `console.warn`).
   */
  validateResponses?: ResponseValidator | false;
  onValidationIssue?: (issue: ResponseValidationIssue) => void;
}

const DEFAULT_BASE_URL = "http://127.0.0.1:3000";

type Areas = Omit<GeneratedAreas, "sessions">;
const CONTEXT_ROUTE = routeOf("platform.context", ["GET", "/v1/platform/context", ""]);

/**
 * The Agent Platform API. Every router of the contract is an area (`agents`, `sessions`, `skills`, …) whose operations
 * are methods: `platform.agents.get(agentId)`, `platform.agents.list({ status: "all" })`.
 */
export interface AgentPlatform extends Areas {}

// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface's areas are built from the contract in the constructor
export class AgentPlatform {
  readonly sessions: SessionsResource;
  readonly baseUrl: string;
  readonly #config: TransportConfig;
  readonly #validate: ResponseValidator | false;
  readonly #onIssue: (issue: ResponseValidationIssue) => void;
  #projectId: string | undefined;
  #projectIdPromise: Promise<string> | undefined;

  constructor(options: AgentPlatformOptions = {}) {
    const apiKey = options.apiKey ?? readEnv("AGENT_PLATFORM_API_KEY");
    if (!apiKey) {
      throw new AgentPlatformError("No API key: pass `apiKey` or set the AGENT_PLATFORM_API_KEY environment variable");
    }
    this.baseUrl = (options.baseUrl ?? readEnv("AGENT_PLATFORM_BASE_URL") ?? DEFAULT_BASE_URL).replace(/\/+$/, "");
    const doFetch = options.fetch ?? globalThis.fetch;
    this.#config = {
      baseUrl: this.baseUrl,
      apiKey,
      timeout: options.timeout ?? DEFAULT_TIMEOUT_MS,
      maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
      // Bound, so that a browser's fetch is not called with this client as `this`.
      fetch: (input, init) => doFetch(input, init),
      headers: options.headers ?? {},
      baseDelayMs: 250,
      autoIdempotencyKeys: true,
    };
    this.#projectId = options.projectId;
    if (options.validateResponses === (true as unknown)) {
      throw new AgentPlatformError(
        "validateResponses takes a validator: import { contractValidator } from '@agent-platform/sdk/contract'",
      );
    }
    this.#validate = options.validateResponses ?? false;
    this.#onIssue = options.onValidationIssue ?? ((issue) => console.warn(`[agent-platform] ${issue.message}`));
    const client = this.#resourceClient();
    const { sessions, ...areas } = routes;
    for (const [area, specs] of Object.entries(areas)) Object.assign(this, { [area]: buildArea(client, area, specs) });
    this.sessions = sessionsResource(client, buildArea(client, "sessions", sessions!), this.#config);
  }

  /** The project, workspace and key this client is authenticated as. */
  context(options?: RequestOptions): ApiPromise<PlatformContext> {
    return new ApiPromise(
      this.#request(CONTEXT_ROUTE, {}, undefined, options ?? {}) as Promise<WithResponse<PlatformContext>>,
    );
  }

  /** The project of project-scoped routes: the configured one, else the key's (asked once, shared by concurrent calls). */
  async projectId(options: Pick<RequestOptions, "projectId" | "signal"> = {}): Promise<string> {
    if (options.projectId) return options.projectId;
    if (this.#projectId) return this.#projectId;
    this.#projectIdPromise ??= this.context().then(
      (context) => {
        this.#projectId = context.project.id;
        return context.project.id;
      },
      (error: unknown) => {
        // A failure is not remembered: the next call asks again.
        this.#projectIdPromise = undefined;
        throw error;
      },
    );
    return this.#projectIdPromise;
  }

  #resourceClient(): ResourceClient {
    return {
      projectId: (options) => this.projectId(options),
      request: (route, params, input, options) => this.#request(route, params, input, options),
    };
  }

  async #request(
    route: Route,
    params: Record<string, string>,
    input: unknown,
    options: RequestOptions,
  ): Promise<WithResponse<unknown>> {
    const { response, body } = await send(this.#config, routeRequest(route, params, input), options);
    if (this.#validate) {
      const issue = this.#validate(route, response.status, body);
      if (issue) this.#onIssue(issue);
    }
    return { data: body, response, requestId: response.headers.get("x-request-id") ?? undefined };
  }
}
