// What the composition root uses of experiments (no other area reads it).
export { experimentCaseKind } from "./case-job.js";
export { experimentRoutes } from "./routes.js";
