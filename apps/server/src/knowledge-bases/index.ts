// What other folders (the agent runtime's knowledge tools, memory stores, the composition root) may use of knowledge
// bases.

export { EmbeddingBudgetExceeded, embeddingFailure, embedMetered } from "./embed-metered.js";
export { knowledgeIndexKind } from "./index-job.js";
export { embeddingModelOf, existingKnowledgeBaseIds } from "./knowledge-bases-service.js";
export { type KnowledgePassage, readKnowledgeDocument, readKnowledgePassage } from "./read-knowledge.js";
export { type KnowledgeSearchInput, searchKnowledge } from "./search-knowledge.js";
export { vectorBackendOf } from "./vector-backend.js";
