// What other folders (serverless tool calls) may use of vaults.
export { findVaultSecretKeys, findVaultsByRefs, openVaultSecrets } from "./vault-secrets.js";
