import { z } from "zod";
import { Description, EmptyBodySchema, idOf, Name, NullableTimestamp, Timestamp } from "../common/fields.js";
import { LIMITS } from "../common/limits.js";
import { cursorPage } from "../common/pagination.js";
import { c, routerOptions } from "../common/router.js";
import {
  NetworkingSchema,
  PackagesSchema,
  ResolvedResourcesSchema,
  ResourcesSchema,
  SecretVariablesSchema,
} from "./execution-config.js";
import { boundedText, ProjectItemParams, ProjectParams, StatusFilterQuery } from "./shared.js";

const VariableName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, "letters, digits and `_`, not starting with a digit, at most 128");

export const EnvironmentVariablesSchema = z
  .record(VariableName, boundedText(LIMITS.environmentVariableValueBytes))
  .refine((vars) => Object.keys(vars).length <= LIMITS.environmentVariables, {
    message: `at most ${LIMITS.environmentVariables} variables`,
  })
  .describe("Plain configuration made available to the agent's execution; not secret (use a vault for secrets)");

export const EnvironmentSchema = z
  .object({
    id: idOf("env"),
    projectId: idOf("proj"),
    name: z.string(),
    description: z.string().nullable(),
    variables: z.record(z.string()),
    networking: NetworkingSchema,
    packages: z.object({ npm: z.array(z.string()), pip: z.array(z.string()) }),
    secrets: SecretVariablesSchema.describe("Variables from vault secrets (references only, never values)"),
    resources: ResolvedResourcesSchema.describe("Limits of each code-execution call (defaults filled in)"),
    isDefault: z.boolean().describe("The project's default environment (cannot be archived)"),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    archivedAt: NullableTimestamp,
  })
  .describe(
    "Environment: the execution configuration a session runs with: variables, and for code execution (the `bash` " +
      "and file tools) networking, packages, secret variables and resources",
  );

export const CreateEnvironmentSchema = z
  .object({
    name: Name,
    description: Description.optional(),
    variables: EnvironmentVariablesSchema.optional(),
    networking: NetworkingSchema.optional(),
    packages: PackagesSchema.optional(),
    secrets: SecretVariablesSchema.optional(),
    resources: ResourcesSchema.optional(),
  })
  .strict();

export const UpdateEnvironmentSchema = z
  .object({
    name: Name.optional(),
    description: Description.nullable().optional().describe("null removes the description"),
    variables: EnvironmentVariablesSchema.optional().describe(
      "Replaces every variable: send the whole map (`{}` removes them all)",
    ),
    networking: NetworkingSchema.optional().describe("Replaces the networking"),
    packages: PackagesSchema.optional().describe("Replaces both package lists (`{}` removes them)"),
    secrets: SecretVariablesSchema.optional().describe("Replaces every secret variable"),
    resources: ResourcesSchema.optional().describe("Replaces the resources (fields left out take their defaults)"),
  })
  .strict()
  .describe("Only the fields present change");

export const environmentsContract = c.router(
  {
    create: {
      method: "POST",
      path: "/v1/projects/:projectId/environments",
      pathParams: ProjectParams,
      body: CreateEnvironmentSchema,
      responses: { 201: EnvironmentSchema },
      summary: "Create an environment",
    },
    list: {
      method: "GET",
      path: "/v1/projects/:projectId/environments",
      pathParams: ProjectParams,
      query: StatusFilterQuery,
      responses: { 200: cursorPage(EnvironmentSchema) },
      summary: "List environments, newest first",
    },
    get: {
      method: "GET",
      path: "/v1/projects/:projectId/environments/:id",
      pathParams: ProjectItemParams,
      responses: { 200: EnvironmentSchema },
      summary: "Get an environment",
    },
    update: {
      method: "PATCH",
      path: "/v1/projects/:projectId/environments/:id",
      pathParams: ProjectItemParams,
      body: UpdateEnvironmentSchema,
      responses: { 200: EnvironmentSchema },
      summary: "Edit an environment's name, description, variables or code-execution configuration",
      description:
        "Same validation as create; only the fields present change. An archived environment cannot be edited (409 " +
        "`environment.archived`). Sessions keep the environment they resolved at creation: an edit never changes " +
        "which environment a session runs with.",
    },
    archive: {
      method: "POST",
      path: "/v1/projects/:projectId/environments/:id/archive",
      pathParams: ProjectItemParams,
      body: EmptyBodySchema,
      responses: { 200: EnvironmentSchema },
      summary: "Archive an environment (not the project's default); new references to it are refused",
    },
  },
  routerOptions,
);

export type Environment = z.infer<typeof EnvironmentSchema>;
export type CreateEnvironment = z.infer<typeof CreateEnvironmentSchema>;
export type UpdateEnvironment = z.infer<typeof UpdateEnvironmentSchema>;
