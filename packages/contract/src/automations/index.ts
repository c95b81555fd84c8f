export * from "./automations.js";
export * from "./parse-schedule.js";
export * from "./routes.js";
export * from "./runs.js";
export * from "./trigger.js";
