export * from "./artifacts.js";
