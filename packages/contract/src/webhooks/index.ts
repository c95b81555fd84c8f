export * from "./events.js";
export * from "./routes.js";
export * from "./webhooks.js";
