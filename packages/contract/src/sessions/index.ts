export * from "./events.js";
export * from "./files.js";
export * from "./routes.js";
export * from "./sessions.js";
