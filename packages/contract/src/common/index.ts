export * from "./errors.js";
export * from "./fields.js";
export * from "./ids.js";
export * from "./limits.js";
export * from "./pagination.js";
export * from "./router.js";
