export * from "./config.js";
export * from "./model.js";
export * from "./tools.js";
