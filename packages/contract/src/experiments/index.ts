export * from "./comparison.js";
export * from "./experiments.js";
export * from "./routes.js";
export * from "./scorers.js";
export * from "./task.js";
