// What other folders (the agent runtime's knowledge tools) may use of knowledge bases.
export { searchKnowledge } from "./search-knowledge.js";
export { existingKnowledgeBaseIds } from "./knowledge-bases-service.js";
