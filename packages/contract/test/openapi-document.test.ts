import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ERROR_STATUS } from "../src/common/errors.js";
import { buildOpenApiDocument } from "../src/openapi/index.js";
import { OTHER_OPERATION_ERRORS } from "../src/openapi/operation-errors.js";

// biome-ignore lint/suspicious/noExplicitAny: the document is plain JSON, read freely by the assertions
type Obj = Record<string, any>;

const doc = buildOpenApiDocument() as Obj;
const allOperations: Obj[] = Object.values(doc.paths as Record<string, Obj>).flatMap((item) => Object.values(item));
// The /v1 operations; the `system` ones (probes, the document) answer plain JSON without the envelope or its headers.
const operations = allOperations.filter((o) => !String(o.operationId).startsWith("system."));
const byId = new Map(allOperations.map((op) => [op.operationId as string, op]));
const op = (id: string) => byId.get(id)!;
const statuses = (id: string) => Object.keys(op(id).responses);

describe("OpenAPI document", () => {
  it("describes every operation beyond its summary", () => {
    for (const o of allOperations) {
      expect(o.summary, o.operationId).toBeTruthy();
      expect(o.description, o.operationId).toBeTruthy();
      expect(o.description, o.operationId).not.toBe(o.summary);
    }
  });

  it("has a description for every tag used, and describes only areas that have routes", () => {
    const tags = new Map((doc.tags as Obj[]).map((t) => [t.name, t.description]));
    for (const o of allOperations) expect(tags.get(o.tags[0]), o.operationId).toBeTruthy();
    for (const area of ["agents", "sessions", "automations", "experiments", "skills"]) {
      expect(operations.some((o) => o.tags[0] === area)).toBe(true);
    }
  });

  it("names the main models and refers to them", () => {
    const schemas = doc.components.schemas as Obj;
    for (const name of [
      "Agent",
      "Session",
      "SessionLogEvent",
      "Skill",
      "SkillVersion",
      "Automation",
      "AutomationRun",
    ]) {
      expect(schemas[name], name).toBeDefined();
    }
    for (const name of ["Experiment", "Dataset", "Webhook", "ErrorEnvelope", "AgentPage", "UserEvent"]) {
      expect(schemas[name], name).toBeDefined();
    }
    expect(op("agents.get").responses["200"].content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/Agent",
    });
    expect(op("agents.list").responses["200"].content["application/json"].schema.$ref).toBe(
      "#/components/schemas/AgentPage",
    );
  });

  it("maps every discriminator value to a named member", () => {
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) {
        node.forEach(walk);
        return;
      }
      if (typeof node !== "object" || node === null) return;
      const n = node as Obj;
      if (n.discriminator && n.oneOf) {
        for (const member of n.oneOf) expect(member.$ref).toMatch(/^#\/components\/schemas\//);
        expect(Object.keys(n.discriminator.mapping ?? {})).toHaveLength(n.oneOf.length);
      }
      for (const [k, v] of Object.entries(n)) if (k !== "example" && k !== "examples") walk(v);
    };
    walk(doc);
    expect(doc.components.schemas.UserEvent.discriminator.mapping["user.message"]).toBe(
      "#/components/schemas/UserMessageInput",
    );
  });

  it("lists only the error statuses an operation can return", () => {
    expect(statuses("platform.context").sort()).toEqual(["200", "401", "429", "500", "503"]);
    for (const id of ["agents.create", "sessions.ingestEvents", "skills.publish"]) {
      expect(statuses(id)).toEqual(expect.arrayContaining(["400", "401", "409", "413", "415", "429", "503"]));
    }
    for (const id of ["agents.get", "sessions.listEvents", "skills.list"]) {
      expect(statuses(id)).not.toContain("409");
      expect(statuses(id)).not.toContain("413");
      expect(statuses(id)).not.toContain("415");
    }
    expect(statuses("skills.downloadFile")).not.toContain("401");
    expect(op("agents.update").responses["409"]["x-error-codes"]).toEqual(
      expect.arrayContaining(["agent.version_conflict", "agent.archived", "idempotency.conflict"]),
    );
    expect(op("agents.get").responses["404"]["x-error-codes"]).toEqual(["agent.not_found", "agent.version_not_found"]);
    expect(op("projects.create").responses["403"]["x-error-codes"]).toEqual(["auth.forbidden"]);
  });

  it("documents each error code under its own status, with an example envelope", () => {
    for (const o of operations) {
      for (const [status, response] of Object.entries(o.responses as Obj)) {
        if (Number(status) < 400) continue;
        const codes = response["x-error-codes"] as (keyof typeof ERROR_STATUS)[];
        expect(codes.length, `${o.operationId} ${status}`).toBeGreaterThan(0);
        for (const code of codes) {
          expect(ERROR_STATUS[code], code).toBe(Number(status));
          expect(response.description).toContain(`\`${code}\``);
          expect(response.content["application/json"].examples[code].value.error.code).toBe(code);
        }
      }
    }
    for (const id of Object.keys(OTHER_OPERATION_ERRORS)) expect(byId.has(id), id).toBe(true);
  });

  it("documents the request and response headers", () => {
    const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });
    for (const o of operations) {
      for (const response of Object.values(o.responses as Obj)) {
        expect(response.headers["X-Request-Id"]).toEqual(ref("headers", "XRequestId"));
      }
      const mutating = o.operationId !== "skills.downloadFile" && o.responses["409"] !== undefined;
      expect(o.parameters.some((p: Obj) => p.$ref === ref("parameters", "IdempotencyKey").$ref)).toBe(mutating);
      for (const s of ["429", "503"]) {
        if (o.responses[s]) expect(o.responses[s].headers["Retry-After"]).toEqual(ref("headers", "RetryAfter"));
      }
    }
    expect(op("agents.create").responses["201"].headers["Idempotent-Replayed"]).toEqual(
      ref("headers", "IdempotentReplayed"),
    );
    expect(op("sessions.streamEvents").parameters).toContainEqual(ref("parameters", "LastEventId"));
    expect(doc.components.parameters.LastEventId.name).toBe("Last-Event-ID");
  });

  it("states the rules the server checks that JSON Schema can say, and marks needed bodies required", () => {
    const schemas = doc.components.schemas as Obj;
    expect(schemas.CreateWebhookRequest.properties.events.uniqueItems).toBe(true);
    expect(new RegExp(schemas.RegexScorer.properties.flags.pattern).test("ii")).toBe(false);
    expect(new RegExp(schemas.RegexScorer.properties.flags.pattern).test("si")).toBe(true);
    expect(schemas.CreateServerlessToolRequest.properties.inputSchema.required).toEqual(["type"]);
    expect(schemas.CreateBudgetRequest.oneOf).toHaveLength(2);
    expect(op("agents.create").requestBody.required).toBe(true);
    expect(op("agents.archive").requestBody.required).toBe(false);
    expect(op("sessions.archive").requestBody.content["application/json"]).toBeDefined();
    expect(JSON.stringify(doc)).not.toContain("SessionLogEntry");
  });

  it("documents the probes and itself, without a key", () => {
    for (const id of ["system.health", "system.readiness", "system.openapi"]) {
      expect(op(id).security, id).toEqual([]);
      expect(op(id).responses["200"].content["application/json"].example, id).toBeDefined();
    }
    expect(statuses("system.readiness")).toEqual(["200", "503"]);
  });

  it("describes the Server-Sent Events stream with an example", () => {
    const ok = op("sessions.streamEvents").responses["200"];
    expect(ok.description).toContain("id: <seq>");
    expect(ok.description).toContain(": ping");
    const media = ok.content["text/event-stream"];
    expect(media.example).toMatch(/^id: 1\nevent: user\.message\ndata: \{/);
    expect(media.schema["x-event-schema"]).toEqual({ $ref: "#/components/schemas/SessionLogEvent" });
  });

  it("gives every operation a request and a response example", () => {
    for (const o of operations) {
      const body = o.requestBody?.content?.["application/json"];
      if (body) expect(body.example, o.operationId).toBeDefined();
      for (const p of o.parameters as Obj[]) if (!p.$ref) expect(p.example, `${o.operationId} ${p.name}`).toBeDefined();
      const success = Object.entries(o.responses as Obj).filter(([s]) => Number(s) < 300 && Number(s) !== 204);
      for (const [, response] of success) {
        const media = Object.values(response.content ?? {})[0] as Obj | undefined;
        if (response.content?.["application/json"]) expect(media?.example, o.operationId).toBeDefined();
      }
    }
    expect(op("agents.create").requestBody.content["application/json"].example.name).toBe("Support triage");
  });

  it("is the committed openapi.json (run `pnpm openapi` after changing the contract)", () => {
    const committed = readFileSync(join(import.meta.dirname, "..", "openapi.json"), "utf8");
    expect(committed).toBe(`${JSON.stringify(doc, null, 2)}\n`);
  });

  it("is deterministic", () => {
    expect(JSON.stringify(buildOpenApiDocument())).toBe(JSON.stringify(doc));
  });
});
