// What other folders (the agent runtime: the serverless tools of a turn) may use of serverless tools.
export { loadPinnedServerlessTools, type PinnedServerlessTool } from "./pinned-versions.js";
