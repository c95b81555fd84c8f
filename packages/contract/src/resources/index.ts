import { budgetsContract } from "./budgets.js";
import { datasetsContract } from "./datasets.js";
import { environmentsContract } from "./environments.js";
import { knowledgeBasesContract } from "./knowledge-bases.js";
import { memoryStoresContract } from "./memory-stores.js";
import { serverlessToolsContract } from "./serverless-tools.js";
import { vaultsContract } from "./vaults.js";

export * from "./budgets.js";
export * from "./dataset-case-fields.js";
export * from "./datasets.js";
export * from "./embedding-model.js";
export * from "./environments.js";
export * from "./knowledge-bases.js";
export * from "./memory-stores.js";
export * from "./serverless-tools.js";
export { utf8Bytes } from "./shared.js";
export * from "./vaults.js";

/** The supporting resources' routers, spread into the root contract (design.md §6). */
export const resourceContracts = {
  environments: environmentsContract,
  vaults: vaultsContract,
  memoryStores: memoryStoresContract,
  knowledgeBases: knowledgeBasesContract,
  datasets: datasetsContract,
  budgets: budgetsContract,
  serverlessTools: serverlessToolsContract,
};
export * from "./execution-config.js";
