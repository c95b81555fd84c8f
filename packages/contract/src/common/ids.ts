/** Identifier prefixes. Ids are `<prefix>_<sortable random>`. */
export const ID_PREFIXES = {
  workspace: "ws",
  project: "proj",
  apiKey: "key",
  agent: "agent",
  environment: "env",
  vault: "vault",
  memoryStore: "ms",
  knowledgeBase: "kb",
  knowledgeDocument: "kbdoc",
  skill: "skill",
  automation: "auto",
  automationRun: "autrun",
  session: "sess",
  event: "evt",
  artifact: "art",
  dataset: "ds",
  datasetCase: "dscase",
  experiment: "exp",
  budget: "budget",
  serverlessTool: "stool",
  webhook: "wh",
  webhookDelivery: "whdel",
  webhookMessage: "msg",
  request: "req",
} as const;

export type IdKind = keyof typeof ID_PREFIXES;
