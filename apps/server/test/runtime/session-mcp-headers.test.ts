import { describe, expect, it } from "vitest";
import { MissingVaultSecret, resolveHeaderValues } from "../../src/runtime/mcp/session-mcp-headers.js";

describe("MCP header values from vaults", () => {
  it("keeps strings and takes references from the first vault holding the key", () => {
    const headers = {
      "X-Team": "core",
      Authorization: { vaultKey: "TOKEN", prefix: "Bearer " },
      "X-Raw": { vaultKey: "RAW" },
    };
    expect(resolveHeaderValues(headers, [{ RAW: "r1" }, { TOKEN: "t2", RAW: "r2" }])).toEqual({
      "X-Team": "core",
      Authorization: "Bearer t2",
      "X-Raw": "r1",
    });
  });

  it("names the header and the key, never a value, when no vault holds the key", () => {
    const error = (() => {
      try {
        resolveHeaderValues({ Authorization: { vaultKey: "TOKEN" } }, [{ OTHER: "secret-value" }]);
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error).toBeInstanceOf(MissingVaultSecret);
    expect(error!.message).toBe(
      "header Authorization needs the secret TOKEN, which none of the session's vaults holds",
    );
  });
});
