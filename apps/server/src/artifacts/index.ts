// What other folders (the agent runtime: artifact_write, the browser, code execution) may use of artifacts.

export { artifactData } from "./artifact-data.js";
export { latestArtifactContents } from "./latest-contents.js";
export { ARTIFACT_LIMITS, ArtifactLimitError, writeArtifact } from "./write-artifact.js";
