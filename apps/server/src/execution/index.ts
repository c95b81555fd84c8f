export {
  type ExecutionReferences,
  type MissingReferences,
  type ReferenceErrorCodes,
  type ResolvedReferences,
  resolveExecutionReferences,
} from "./resolve-references.js";
