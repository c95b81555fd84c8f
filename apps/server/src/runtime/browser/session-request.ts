import { ARTIFACT_LIMITS, ArtifactLimitError, writeArtifact } from "../../artifacts/index.js";
import { checkEgress, type MergedEgressPolicy } from "../../governance/index.js";
import { openVaultSecrets } from "../../vaults/index.js";
import type { ToolRunContext } from "../tools/types.js";
import type { OpenRequest } from "./browser-contexts.js";
import type { BrowserTooling } from "./browser-tooling.js";

export const RECORDING_ARTIFACT = "browser-recording.zip";

/** What a session's context is opened with: its agent's browser settings, its egress rules, where its recording goes. */
export function sessionOpenRequest(
  tooling: BrowserTooling,
  run: ToolRunContext,
  policy: MergedEgressPolicy,
): OpenRequest {
  const sessionId = run.session.id;
  const browser = run.agent.browser;
  return {
    provider: browser?.provider ?? "self_hosted",
    ...(browser?.viewport ? { viewport: browser.viewport } : {}),
    ...(browser?.region ? { region: browser.region } : {}),
    record: run.agent.recordBrowser === true,
    judge: (url) => {
      const decision = checkEgress(tooling.policies.get(sessionId) ?? policy, url);
      return decision.allowed ? null : decision.reason;
    },
    sessionSecrets: async () => {
      const vaults = await Promise.all(
        run.session.vaultIds.map((id) => openVaultSecrets(run.ctx, run.session.workspaceId, id).catch(() => ({}))),
      );
      return Object.assign({}, ...vaults) as Record<string, string>;
    },
    onClosed: async (recording) => {
      tooling.policies.delete(sessionId);
      if (!recording) return;
      await writeArtifact(run.ctx.db.pool, {
        sessionId,
        projectId: run.session.projectId,
        name: RECORDING_ARTIFACT,
        content: recording,
        contentType: "application/zip",
      }).catch((error: unknown) => {
        if (!(error instanceof ArtifactLimitError)) throw error;
        run.ctx.logger.warn(
          { sessionId, bytes: recording.byteLength, limit: ARTIFACT_LIMITS.binaryBytes },
          "browser recording too large to keep",
        );
      });
    },
  };
}
