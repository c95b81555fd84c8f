export * from "./guardrails.js";
