export * from "./api-keys.js";
export * from "./context.js";
export * from "./health.js";
export * from "./projects.js";
export * from "./catalogue.js";
