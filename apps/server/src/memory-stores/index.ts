// What other folders (the agent runtime's memory tools, the composition root) may use of memory stores.
export { memoryIndexKind } from "./index-job.js";
export { listMemory, readMemory, searchMemory, writeMemory } from "./memory-entries.js";
export { findMemoryStoresByRefs } from "./memory-stores-service.js";
export { type MemorySearchInput, searchMemoryHybrid } from "./search-memory-hybrid.js";
