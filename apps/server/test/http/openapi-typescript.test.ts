import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../support/test-app.js";

const documentPath = join(import.meta.dirname, "..", "..", "..", "..", "packages", "contract", "openapi.json");

/** A client's view: code that names the generated models must typecheck, and a misspelled one must not. */
const CLIENT = `import type { components, operations } from "./api.js";
type Schemas = components["schemas"];
export const agent: Pick<Schemas["Agent"], "id" | "version"> = { id: "agent_1", version: 1 };
export const status: Schemas["Session"]["status"] = "idle";
export const seq: Schemas["SessionLogEvent"]["seq"] = 1;
export const skillName: Schemas["Skill"]["name"] = "release-notes";
export const code: Schemas["ErrorEnvelope"]["error"]["code"] = "agent.not_found";
export type Models = [
  Schemas["AgentPage"], Schemas["CreateAgentRequest"], Schemas["SessionEventPage"], Schemas["UserEvent"],
  Schemas["Automation"], Schemas["AutomationRun"], Schemas["Experiment"], Schemas["SkillVersion"],
  Schemas["Dataset"], Schemas["Webhook"],
];
export type Created = operations["agents.create"]["responses"][201]["content"]["application/json"];
export const created: Created["id"] = agent.id;
// @ts-expect-error: only named models exist
export type Missing = Schemas["NoSuchModel"];
`;

/**
 * A generated fetch client (openapi-fetch over openapi-typescript's `paths`), as a third-party developer would write
 * it: bodies are required where the server needs them, and a log entry narrows on `type` to its own fields.
 */
const FETCH_CLIENT = `import createClient from "openapi-fetch";
import type { components, paths } from "./api.js";

type Entry = components["schemas"]["SessionLogEvent"];

export function replyText(e: Entry): string | undefined {
  return e.type === "agent.message" ? e.content.map((part) => part.text).join("") : undefined;
}
// @ts-expect-error: \`content\` belongs to some entry types only, so it needs the narrowing above
export const unnarrowed = (e: Entry) => e.content;
// @ts-expect-error: creating an agent needs a body
export const noBody = (c: ReturnType<typeof createClient<paths>>) => c.POST("/v1/projects/{projectId}/agents", { params: { path: { projectId: "p" } } });

export async function run(baseUrl: string, key: string, projectId: string): Promise<string> {
  const client = createClient<paths>({ baseUrl, headers: { Authorization: \`Bearer \${key}\` } });
  const path = { projectId };
  const agent = await client.POST("/v1/projects/{projectId}/agents", {
    params: { path },
    body: { name: "Generated", model: "builtin/echo" },
  });
  if (!agent.data) throw new Error(JSON.stringify(agent.error));
  const session = await client.POST("/v1/projects/{projectId}/sessions", { params: { path }, body: { agent: agent.data.id } });
  if (!session.data) throw new Error(JSON.stringify(session.error));
  const id = session.data.id;
  const sent = await client.POST("/v1/projects/{projectId}/sessions/{id}/events", {
    params: { path: { projectId, id } },
    body: { events: [{ type: "user.message", content: [{ type: "text", text: "Hello from a generated client" }] }] },
  });
  if (!sent.data) throw new Error(JSON.stringify(sent.error));
  for (let attempt = 0; attempt < 400; attempt++) {
    const page = await client.GET("/v1/projects/{projectId}/sessions/{id}/events", {
      params: { path: { projectId, id }, query: { afterSeq: 0 } },
    });
    const entries = page.data?.data ?? [];
    if (entries.some((e) => e.type === "session.status_idle")) return entries.map(replyText).filter(Boolean).join("\\n");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("the session never became idle");
}
`;

/** Type-checks `file` (strict, nodenext): the compiler's messages, none when it passes. */
function typecheck(file: string): string[] {
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ["lib.es2023.d.ts", "lib.dom.d.ts"],
    skipLibCheck: false,
    types: [],
  });
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ role: "all" });
});
afterAll(async () => {
  await t?.close();
});

describe("TypeScript types generated from the OpenAPI document (openapi-typescript)", () => {
  it("names the main models in components.schemas", async () => {
    const dir = mkdtempSync(join(tmpdir(), "openapi-ts-"));
    const document = JSON.parse(readFileSync(documentPath, "utf8"));
    writeFileSync(join(dir, "api.d.ts"), astToString(await openapiTS(document)));
    writeFileSync(join(dir, "client.ts"), CLIENT);
    const program = ts.createProgram([join(dir, "client.ts")], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      skipLibCheck: false,
      types: [],
    });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    expect(problems).toEqual([]);
  }, 60_000);

  it("drive a real server through a generated fetch client that narrows a log entry", async () => {
    // Inside this package, so that the client resolves openapi-fetch from its node_modules (gitignored folder).
    const dir = join(import.meta.dirname, "..", "..", ".artifacts", `openapi-fetch-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    try {
      const document = JSON.parse(readFileSync(documentPath, "utf8"));
      writeFileSync(join(dir, "api.d.ts"), astToString(await openapiTS(document)));
      writeFileSync(join(dir, "client.ts"), FETCH_CLIENT);
      expect(typecheck(join(dir, "client.ts"))).toEqual([]);
      const js = ts.transpileModule(FETCH_CLIENT, {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      });
      writeFileSync(join(dir, "client.mjs"), js.outputText);
      const client = (await import(pathToFileURL(join(dir, "client.mjs")).href)) as {
        run(baseUrl: string, key: string, projectId: string): Promise<string>;
      };
      expect(await client.run(t.url, t.tenant.key, t.tenant.projectId)).toBe("Hello from a generated client");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
