import { describe, expect, it } from "vitest";
import { replaceWithRefs } from "../src/openapi/components.js";
import { nameUnionMembers } from "../src/openapi/discriminators.js";
import { canonical, type JsonObject } from "../src/openapi/json.js";
import { normalizeSchema } from "../src/openapi/nullable.js";
import { namePages } from "../src/openapi/page-models.js";

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

describe("normalizeSchema (OpenAPI 3.0 nullable rules)", () => {
  it("drops a bare nullable (z.unknown) and keeps a typed one", () => {
    expect(normalizeSchema({ type: "object", additionalProperties: { nullable: true } })).toEqual({
      type: "object",
      additionalProperties: {},
    });
    expect(normalizeSchema({ type: "string", nullable: true })).toEqual({ type: "string", nullable: true });
  });

  it("moves nullable onto the first typed member of a union and lists null in nullable enums", () => {
    expect(normalizeSchema({ nullable: true, anyOf: [ref("A"), { type: "string" }] })).toEqual({
      anyOf: [ref("A"), { type: "string", nullable: true }],
    });
    expect(normalizeSchema({ type: "string", enum: ["a"], nullable: true })).toEqual({
      type: "string",
      enum: ["a", null],
      nullable: true,
    });
  });

  it("writes a plain union as anyOf (first member that parses) and keeps a discriminated union oneOf", () => {
    expect(normalizeSchema({ oneOf: [ref("A"), ref("B")] })).toEqual({ anyOf: [ref("A"), ref("B")] });
    const discriminated = { oneOf: [ref("A"), ref("B")], discriminator: { propertyName: "type" } };
    expect(normalizeSchema(discriminated)).toEqual(discriminated);
  });

  it("leaves examples alone", () => {
    const example = { nullable: true };
    expect(normalizeSchema({ type: "object", example })).toEqual({ type: "object", example });
  });
});

describe("replaceWithRefs", () => {
  const model: JsonObject = { type: "object", properties: { id: { type: "string" } }, description: "A thing" };
  const byShape = new Map([[canonical({ type: "object", properties: { id: { type: "string" } } }), "Thing"]]);
  const models = { Thing: model };

  it("replaces deep-equal subschemas, keeping a use site's own description and nullability", () => {
    const tree = {
      schema: {
        type: "object",
        properties: {
          same: model,
          described: { ...model, description: "The thing of this call" },
          nullable: { ...model, nullable: true },
          other: { type: "object", properties: { id: { type: "integer" } } },
        },
      },
    };
    expect(replaceWithRefs(tree, byShape, models)).toEqual({
      schema: {
        type: "object",
        properties: {
          same: ref("Thing"),
          described: { description: "The thing of this call", allOf: [ref("Thing")] },
          nullable: { type: "object", nullable: true, allOf: [ref("Thing")] },
          other: { type: "object", properties: { id: { type: "integer" } } },
        },
      },
    });
  });

  it("does not replace a model's own root, nor anything inside examples", () => {
    expect(replaceWithRefs(model, byShape, models, true)).toEqual(model);
    expect(replaceWithRefs({ example: model }, byShape, models)).toEqual({ example: model });
  });
});

describe("nameUnionMembers", () => {
  it("hoists inline members as <Value><Owner> and maps every value", () => {
    const member = (type: string) => ({ type: "object", properties: { type: { type: "string", enum: [type] } } });
    const schemas: Record<string, JsonObject> = {
      Known: member("known"),
      Task: { oneOf: [ref("Known"), member("model_call")], discriminator: { propertyName: "type" } },
    };
    nameUnionMembers(schemas);
    expect(schemas.Task).toEqual({
      oneOf: [ref("Known"), ref("ModelCallTask")],
      discriminator: {
        propertyName: "type",
        mapping: { known: "#/components/schemas/Known", model_call: "#/components/schemas/ModelCallTask" },
      },
    });
    expect(schemas.ModelCallTask).toEqual(member("model_call"));
  });
});

describe("namePages", () => {
  it("names an inline cursor page of a model <Item>Page", () => {
    const page = {
      type: "object",
      properties: { data: { type: "array", items: ref("Thing") }, hasMore: { type: "boolean" }, nextCursor: {} },
    };
    const operation: JsonObject = { responses: { "200": { content: { "application/json": { schema: page } } } } };
    const schemas: Record<string, JsonObject> = {};
    namePages(operation, schemas);
    expect(schemas.ThingPage).toEqual(page);
    expect(operation).toEqual({
      responses: { "200": { content: { "application/json": { schema: ref("ThingPage") } } } },
    });
  });
});
