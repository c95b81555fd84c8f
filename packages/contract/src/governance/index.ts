export * from "./egress-policy.js";
