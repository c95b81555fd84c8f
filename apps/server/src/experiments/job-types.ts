import { jobType, NO_PAYLOAD } from "../jobs/index.js";

/** The job kind of experiment cases; its key is `<experimentId>:<position>`. */
export const CASE_JOB = jobType("experiment.case", NO_PAYLOAD);

export function caseKey(experimentId: string, position: number): string {
  return `${experimentId}:${position}`;
}

export function parseCaseKey(key: string): { experimentId: string; position: number } | null {
  const colon = key.lastIndexOf(":");
  const position = Number(key.slice(colon + 1));
  if (colon <= 0 || !Number.isSafeInteger(position)) return null;
  return { experimentId: key.slice(0, colon), position };
}
