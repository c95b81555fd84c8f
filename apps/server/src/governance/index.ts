// What other folders (the agent runtime's outbound tools) may use of governance.
export {
  checkEgress,
  type EgressPolicy,
  type MergedEgressPolicy,
  mergeEgressPolicies,
} from "./egress-policy.js";
export { loadWorkspaceEgressPolicy } from "./egress-policy-service.js";
