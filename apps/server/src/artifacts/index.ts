// What other folders (the agent runtime's artifact_write tool) may use of artifacts.
export { ARTIFACT_LIMITS, ArtifactLimitError, writeArtifact } from "./write-artifact.js";
