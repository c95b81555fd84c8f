import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const documentPath = join(import.meta.dirname, "..", "..", "..", "..", "packages", "contract", "openapi.json");

/** A client's view: code that names the generated models must typecheck, and a misspelled one must not. */
const CLIENT = `import type { components, operations } from "./api.js";
type Schemas = components["schemas"];
export const agent: Pick<Schemas["Agent"], "id" | "version"> = { id: "agent_1", version: 1 };
export const status: Schemas["Session"]["status"] = "idle";
export const seq: Schemas["SessionEvent"]["seq"] = 1;
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
});
