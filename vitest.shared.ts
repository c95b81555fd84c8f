import { fileURLToPath } from "node:url";

const src = (pkg: string) => fileURLToPath(new URL(`./packages/${pkg}/src/index.ts`, import.meta.url));

/** Tests consume workspace packages from source, so no build is needed before `vitest`. */
export const workspaceAliases = {
  "@agent-platform/contract": src("contract"),
  "@agent-platform/db": src("db"),
  "@agent-platform/sdk": src("sdk"),
};
