export * from "./config.js";
export * from "./model.js";
export * from "./records.js";
export * from "./routes.js";
export * from "./tools.js";
