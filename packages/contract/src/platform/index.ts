export * from "./api-keys.js";
export * from "./catalogue.js";
export * from "./context.js";
export * from "./health.js";
export * from "./projects.js";
