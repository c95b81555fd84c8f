import { ID_PREFIXES, type IdKind } from "../../common/ids.js";

/** The kind of resource each area's `{id}` names. */
const ID_KIND_BY_TAG: Record<string, IdKind> = {
  projects: "project",
  apiKeys: "apiKey",
  agents: "agent",
  artifacts: "session",
  sessions: "session",
  sessionFiles: "session",
  automations: "automation",
  experiments: "experiment",
  skills: "skill",
  webhooks: "webhook",
  environments: "environment",
  vaults: "vault",
  memoryStores: "memoryStore",
  knowledgeBases: "knowledgeBase",
  datasets: "dataset",
  budgets: "budget",
  serverlessTools: "serverlessTool",
};

const exampleId = (kind: IdKind) => `${ID_PREFIXES[kind]}_01JD3ZK8Q4W5X6Y7Z8A9B0C1D2`;

/** Other path parameters: a file path, an MCP server name. */
const OTHER_PATH_EXAMPLES: Record<string, string> = { path: "notes/summary.md", name: "tickets" };

/** A realistic example of a path parameter (`projectId`, the area's `{id}`, `deliveryId`, `path`…), else undefined. */
export function pathParameterExample(name: string, tag: string): string | undefined {
  if (OTHER_PATH_EXAMPLES[name]) return OTHER_PATH_EXAMPLES[name];
  if (name === "projectId") return exampleId("project");
  if (name === "deliveryId") return exampleId("webhookDelivery");
  if (name === "documentId") return exampleId("knowledgeDocument");
  const kind = ID_KIND_BY_TAG[tag];
  return name === "id" && kind ? exampleId(kind) : undefined;
}
