/** What other areas use from skills: reference validation (agents) and file loading (runtime). */

export type { StoredSkillFile } from "./files.js";
export {
  type DbClient,
  type FoundSkillVersion,
  findSkillVersions,
  type LoadedSkillFiles,
  loadSkillFiles,
  type SkillVersionRef,
} from "./version-store.js";
