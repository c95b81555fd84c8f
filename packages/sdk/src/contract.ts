// `@agent-platform/sdk/contract`: the contract itself (Zod schemas, the ts-rest router, error codes, limits), the
// response validator built on it, the `{ params, query, body }` client kept for existing code, and the router-derived
// helper types. Its declarations are the contract's inferred types: heavier to type-check than the root entry's.
export * from "@agent-platform/contract";
export { contractValidator } from "./contract-validator.js";
export { type AgentPlatformClient, createClient, type TypedClient } from "./legacy-client.js";
export type { Resource, RouteInput, RouteMethod, RouteOutput } from "./route-types.js";
