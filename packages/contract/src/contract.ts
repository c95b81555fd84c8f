import { agentsContract } from "./agents/routes.js";
import { artifactsContract } from "./artifacts/artifacts.js";
import { automationsContract } from "./automations/routes.js";
import { c } from "./common/router.js";
import { experimentsContract } from "./experiments/routes.js";
import { governanceContract } from "./governance/egress-policy.js";
import { apiKeysContract } from "./platform/api-keys.js";
import { builtinToolsContract, modelsContract } from "./platform/catalogue.js";
import { platformContract } from "./platform/context.js";
import { projectsContract } from "./platform/projects.js";
import { resourceContracts } from "./resources/index.js";
import { sessionFilesContract } from "./sessions/files.js";
import { sessionsContract } from "./sessions/routes.js";
import { skillsContract } from "./skills/routes.js";
import { webhooksContract } from "./webhooks/routes.js";

/**
 * The contract's type, spelled out by area so that its declaration names each area's router instead of inlining every
 * route's schemas (one inlined type over all areas passes the compiler's serialization limit, TS7056).
 */
export type Contract = {
  platform: typeof platformContract;
  projects: typeof projectsContract;
  apiKeys: typeof apiKeysContract;
  agents: typeof agentsContract;
  artifacts: typeof artifactsContract;
  governance: typeof governanceContract;
  sessions: typeof sessionsContract;
  sessionFiles: typeof sessionFilesContract;
  automations: typeof automationsContract;
  experiments: typeof experimentsContract;
  skills: typeof skillsContract;
  webhooks: typeof webhooksContract;
  environments: (typeof resourceContracts)["environments"];
  vaults: (typeof resourceContracts)["vaults"];
  memoryStores: (typeof resourceContracts)["memoryStores"];
  knowledgeBases: (typeof resourceContracts)["knowledgeBases"];
  datasets: (typeof resourceContracts)["datasets"];
  budgets: (typeof resourceContracts)["budgets"];
  serverlessTools: (typeof resourceContracts)["serverlessTools"];
  models: typeof modelsContract;
  tools: typeof builtinToolsContract;
};

/** Every /v1 route. Server, SDK and OpenAPI derive from this one object. */
export const contract: Contract = c.router({
  platform: platformContract,
  projects: projectsContract,
  apiKeys: apiKeysContract,
  agents: agentsContract,
  artifacts: artifactsContract,
  governance: governanceContract,
  sessions: sessionsContract,
  sessionFiles: sessionFilesContract,
  automations: automationsContract,
  experiments: experimentsContract,
  skills: skillsContract,
  webhooks: webhooksContract,
  ...resourceContracts,
  models: modelsContract,
  tools: builtinToolsContract,
});
