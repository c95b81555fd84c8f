import { fileURLToPath } from "node:url";

const src = (pkg: string, entry = "index") =>
  fileURLToPath(new URL(`./packages/${pkg}/src/${entry}.ts`, import.meta.url));

/** Tests consume workspace packages from source, so no build is needed before `vitest`. */
export const workspaceAliases = {
  "@agent-platform/contract": src("contract"),
  "@agent-platform/db": src("db"),
  // Subpaths before the package: an alias also matches the specifiers that start with `<key>/`.
  "@agent-platform/sdk/contract": src("sdk", "contract"),
  "@agent-platform/sdk/webhooks": src("sdk", "webhooks"),
  "@agent-platform/sdk": src("sdk"),
};
