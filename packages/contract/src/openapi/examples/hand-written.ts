import type { Json } from "../json.js";

export interface OperationExamples {
  parameters?: Record<string, Json>;
  request?: Json;
  response?: Json;
}

/** Realistic examples of the main operations, laid over values sampled from their schemas. */
export const HAND_WRITTEN_EXAMPLES: Record<string, OperationExamples> = {};
