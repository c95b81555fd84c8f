// What other folders (the agent runtime's knowledge tools) may use of knowledge bases.

export { existingKnowledgeBaseIds } from "./knowledge-bases-service.js";
export { readKnowledgeDocument } from "./read-knowledge.js";
export { searchKnowledge } from "./search-knowledge.js";
