export * from "./common/index.js";
export { type Contract, contract } from "./contract.js";
export { API_VERSION, buildOpenApiDocument } from "./openapi.js";
export * from "./agents/index.js";
export * from "./artifacts/index.js";
export * from "./governance/index.js";
export * from "./platform/index.js";
export * from "./sessions/index.js";
export * from "./skills/index.js";
