import type { BootstrapResult } from "./bootstrap.js";
import type { Config } from "./config.js";

/** The start banner, printed once on standard output (by the one process, or by the supervisor of several). */
export function startBanner(
  config: Config,
  url: string,
  bootstrap: Pick<BootstrapResult, "projectId" | "generated" | "apiKey"> | null,
  processes = 1,
): string {
  const lines = [
    "",
    `Agent Platform is running (ROLE=${config.role}${processes > 1 ? `, ${processes} processes` : ""})`,
    `  Base URL:   ${url}`,
    `  API docs:   ${url}/docs`,
    `  Console:    ${url}/console`,
    `  Project id: ${bootstrap?.projectId ?? "(none yet: POST /v1/projects)"}`,
  ];
  if (bootstrap?.generated) {
    lines.push(`  API key:    ${bootstrap.apiKey}   (shown once; also saved to ${config.dataDir}/api-key)`);
  } else if (config.bootstrapApiKey) {
    lines.push("  API key:    the value of BOOTSTRAP_API_KEY");
  } else {
    lines.push(`  API key:    created on the first start (see ${config.dataDir}/api-key)`);
  }
  return `${lines.join("\n")}\n\n`;
}
