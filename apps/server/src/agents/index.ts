// What other folders (sessions, the agent runtime, automations, experiments) may use of agents.

export { checkGuardrails } from "./check-guardrails.js";
export { type LoadedAgentVersion, loadAgentVersion } from "./load-agent-version.js";
export { loadMcpHeaders } from "./mcp-credentials.js";
