import { AgentPlatform, newIdempotencyKey } from "@agent-platform/sdk";

// Per client: 30 s per attempt, up to 4 retries; every call can override both.
const platform = new AgentPlatform({ timeout: 30_000, maxRetries: 4 });

const agents = await platform.agents.list(undefined, { timeout: 5_000, maxRetries: 0 });

// Mutations get a generated Idempotency-Key reused by the SDK's retries. Keep your own key with your job to make a
// retry after a crash safe too.
const key = newIdempotencyKey();
const agent = await platform.agents.create({ name: "Once", model: "builtin/echo" }, { idempotencyKey: key });

// Cancel with an AbortSignal; `withResponse()` gives the raw Response and the request id.
const { data, response, requestId } = await platform.agents
  .get(agent.id, undefined, { signal: AbortSignal.timeout(2_000) })
  .withResponse();
console.log(agents.data.length, data.version, response.status, requestId);
