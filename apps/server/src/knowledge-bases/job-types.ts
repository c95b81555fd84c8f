import { jobType, NO_PAYLOAD } from "../jobs/index.js";

/**
 * The background work of a knowledge base (key: the base id): split documents stored before chunks existed, embed
 * the passages that have no vector of the base's embedding space, and switch searches to a new model once every
 * passage has its vector. One run at a time per base, so a base's passages are embedded once.
 */
export const KNOWLEDGE_INDEX_JOB = jobType("knowledge.index", NO_PAYLOAD);

/** `knowledge_vectors` NOTIFY (payload: base id): the base's vectors changed; per-process scan caches drop it. */
export const KNOWLEDGE_VECTORS_CHANNEL = "knowledge_vectors";
