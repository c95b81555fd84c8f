import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { AgentConfig } from "@agent-platform/contract";
import { expect } from "vitest";
import { newId } from "../../src/ids.js";
import type { MemoryMount, RuntimeTool, SessionRuntimeInfo, ToolRunContext } from "../../src/runtime/tools/types.js";
import type { Tenant } from "../support/factories.js";
import type { TestApp } from "../support/test-app.js";

/** An agent version's configuration with the defaults of a fresh agent; `overrides` replace whole fields. */
export function agentConfig(overrides: Partial<AgentConfig> = {}): AgentConfig {
  return {
    name: "Tool tester",
    model: "builtin/echo",
    system: "",
    tools: [],
    mcpServers: [],
    toolPermissions: {},
    skills: [],
    serverlessTools: [],
    metadata: {},
    ...overrides,
  };
}

/** A real session row of the tenant's project (what artifacts and the memory mounts hang off). */
export async function seedSession(
  t: TestApp,
  tenant: Tenant,
  options: { resources?: MemoryMount[]; vaultIds?: string[] } = {},
): Promise<SessionRuntimeInfo> {
  const info: SessionRuntimeInfo = {
    id: newId("session"),
    projectId: tenant.projectId,
    workspaceId: tenant.workspaceId,
    agentId: newId("agent"),
    agentVersion: 1,
    environmentId: tenant.defaultEnvironmentId,
    vaultIds: options.vaultIds ?? [],
    resources: options.resources ?? [],
  };
  await t.platform.ctx.db.prisma.session.create({
    data: {
      id: info.id,
      projectId: info.projectId,
      workspaceId: info.workspaceId,
      agentId: info.agentId,
      agentVersion: info.agentVersion,
      environmentId: info.environmentId,
      vaultIds: info.vaultIds,
      resources: info.resources.map((r) => ({ ...r })),
    },
  });
  return info;
}

export function runContext(
  t: TestApp,
  session: SessionRuntimeInfo,
  agent: AgentConfig,
  signal: AbortSignal = new AbortController().signal,
): ToolRunContext {
  return { ctx: t.platform.ctx, session, agent, signal, toolUseId: newId("event") };
}

export function toolNamed(tools: RuntimeTool[], name: string): RuntimeTool {
  const tool = tools.find((candidate) => candidate.name === name);
  expect(tool, `tool ${name} among ${tools.map((x) => x.name).join(", ")}`).toBeDefined();
  return tool!;
}

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

export interface Loopback {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

/** A real HTTP server on loopback that records what it receives. */
export async function startLoopback(
  handler: (req: IncomingMessage, res: ServerResponse, body: string) => void,
): Promise<Loopback> {
  const requests: ReceivedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      handler(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Sets the workspace egress policy through the API (admin key). */
export async function putWorkspaceEgress(t: TestApp, tenant: Tenant, policy: Record<string, unknown>): Promise<void> {
  const res = await t.http.put("/v1/governance/egress-policy").set(tenant.auth).send(policy);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** POSTs/PUTs through the API and returns the body, asserting the expected status. */
export async function api(
  t: TestApp,
  tenant: Tenant,
  method: "post" | "put",
  path: string,
  body: unknown,
  status = method === "post" ? 201 : 200,
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected freely by tests
): Promise<any> {
  const res = await t.http[method](path)
    .set(tenant.auth)
    .send(body as object);
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  return res.body;
}
