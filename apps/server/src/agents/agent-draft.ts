import type { AgentConfig, CreateAgentInput } from "@agent-platform/contract";

/**
 * A configuration as written: the create body's shape. MCP servers may carry write-only `headers`, defaults may name
 * vaults and memory stores, roster entries may omit `version`. Resolution turns it into an `AgentConfig`.
 */
export type AgentDraft = CreateAgentInput;

/** The draft that reproduces a stored configuration (no header values: omitted headers keep the stored credential). */
export function draftOfConfig(config: AgentConfig): AgentDraft {
  const { mcpServers, ...rest } = config;
  return { ...rest, mcpServers: mcpServers.map(({ name, url }) => ({ name, url })) };
}

/**
 * The canonical stored form of a resolved draft. Empty values that mean "nothing" are dropped so that equal meanings
 * compare equal: an empty description, `knowledgeBases: []`, `recordBrowser: false`, metadata keys set to "".
 */
export function finalizeConfig(draft: AgentDraft, headerKeys: ReadonlyMap<string, string[]>): AgentConfig {
  const metadata = Object.fromEntries(Object.entries(draft.metadata ?? {}).filter(([, value]) => value !== ""));
  return {
    name: draft.name,
    ...(draft.description ? { description: draft.description } : {}),
    model: draft.model,
    system: draft.system ?? "",
    tools: draft.tools ?? [],
    mcpServers: (draft.mcpServers ?? []).map(({ name, url }) => ({
      name,
      url,
      headerKeys: headerKeys.get(name) ?? [],
    })),
    toolPermissions: draft.toolPermissions ?? {},
    skills: draft.skills ?? [],
    ...(draft.knowledgeBases?.length ? { knowledgeBases: draft.knowledgeBases } : {}),
    serverlessTools: draft.serverlessTools ?? [],
    ...(draft.egressPolicy ? { egressPolicy: draft.egressPolicy } : {}),
    ...(draft.defaults ? { defaults: draft.defaults } : {}),
    ...(draft.multiagent
      ? {
          multiagent: {
            ...draft.multiagent,
            roster: draft.multiagent.roster.map((entry) => {
              if (entry.version === undefined) throw new Error(`roster entry ${entry.role} was not resolved`);
              return { ...entry, version: entry.version };
            }),
          },
        }
      : {}),
    ...(draft.browser ? { browser: draft.browser } : {}),
    ...(draft.recordBrowser ? { recordBrowser: true } : {}),
    ...(draft.tts ? { tts: draft.tts } : {}),
    metadata,
    ...(draft.guardrails?.length ? { guardrails: draft.guardrails } : {}),
  };
}

/** JSON with object keys sorted at every depth: equal values give equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}

/**
 * Whether two configurations are the same version. `headerKeys` are left out: credentials live in the sealed store,
 * and changing them publishes no version.
 */
export function sameConfig(a: AgentConfig, b: AgentConfig): boolean {
  const withoutKeys = (c: AgentConfig) => ({ ...c, mcpServers: c.mcpServers.map(({ name, url }) => ({ name, url })) });
  return canonicalJson(withoutKeys(a)) === canonicalJson(withoutKeys(b));
}
