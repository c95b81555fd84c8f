export * from "./deltas.js";
export * from "./events.js";
export * from "./files.js";
export * from "./log-events.js";
export * from "./outcomes.js";
export * from "./routes.js";
export * from "./sessions.js";
export * from "./usage.js";
