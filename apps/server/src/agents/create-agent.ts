import type { Agent, CreateAgentInput } from "@agent-platform/contract";
import type { AppContext } from "../context.js";
import type { AuthContext } from "../http/auth-context.js";
import { insertAgent } from "./agent-store.js";
import { credentialPlan } from "./mcp-credentials.js";
import { referenceScope } from "./reference-scope.js";
import { REFERENCE_FIELDS, resolveReferences } from "./resolve-references.js";
import { headerKeysOfConfig, toAgent } from "./serialize.js";

/** Create publishes version 1 after checking every reference; `headers` go to the sealed store. */
export async function createAgent(ctx: AppContext, auth: AuthContext, input: CreateAgentInput): Promise<Agent> {
  const draft = await resolveReferences(ctx, referenceScope(auth), input, REFERENCE_FIELDS);
  const { head, snapshot } = await insertAgent(ctx, auth.projectId, draft, { plan: credentialPlan(draft) });
  return toAgent(head, snapshot, headerKeysOfConfig(snapshot.config));
}
