// What other folders (the runtime's code-execution tools) may use of session workspaces.
export {
  loadWorkspaceSnapshot,
  saveWorkspaceSnapshot,
  type WorkspaceSnapshot,
  workspaceGeneration,
} from "./workspace-store.js";
export { readTar, type TarEntry } from "./workspace-tar.js";
