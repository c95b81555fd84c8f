import { jobType, NO_PAYLOAD } from "../jobs/index.js";

/**
 * The background work of a memory store (key: the store id): embed entries whose vector of the store's embedding
 * space is missing or older than the entry, and switch searches to a new model once every entry has its vector.
 */
export const MEMORY_INDEX_JOB = jobType("memory.index", NO_PAYLOAD);
