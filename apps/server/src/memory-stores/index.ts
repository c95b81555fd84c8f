// What other folders (the agent runtime's memory tools) may use of memory stores.
export { listMemory, readMemory, searchMemory, writeMemory } from "./memory-entries.js";
export { findMemoryStoresByRefs } from "./memory-stores-service.js";
