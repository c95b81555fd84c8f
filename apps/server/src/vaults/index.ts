// What other folders (serverless tool calls) may use of vaults.
export { findVaultsByRefs, openVaultSecrets } from "./vault-secrets.js";
