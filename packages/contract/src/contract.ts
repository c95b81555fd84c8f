import { agentsContract } from "./agents/routes.js";
import { artifactsContract } from "./artifacts/artifacts.js";
import { automationsContract } from "./automations/routes.js";
import { c } from "./common/router.js";
import { experimentsContract } from "./experiments/routes.js";
import { governanceContract } from "./governance/egress-policy.js";
import { apiKeysContract } from "./platform/api-keys.js";
import { platformContract } from "./platform/context.js";
import { projectsContract } from "./platform/projects.js";
import { resourceContracts } from "./resources/index.js";
import { sessionFilesContract } from "./sessions/files.js";
import { sessionsContract } from "./sessions/routes.js";
import { skillsContract } from "./skills/routes.js";
import { webhooksContract } from "./webhooks/routes.js";

/** Every /v1 route. Server, SDK and OpenAPI derive from this one object. */
export const contract = c.router({
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
});

export type Contract = typeof contract;
