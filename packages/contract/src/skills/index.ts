export * from "./paths.js";
export * from "./routes.js";
export * from "./schemas.js";
