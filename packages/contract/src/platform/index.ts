export * from "./api-keys.js";
export * from "./context.js";
export * from "./projects.js";
