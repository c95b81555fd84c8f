import { z } from "zod";
import { idOf, Name, Timestamp } from "../common/fields.js";
import { cursorPage, PageQuerySchema } from "../common/pagination.js";
import { c, routerOptions } from "../common/router.js";

export const ProjectSchema = z
  .object({
    id: idOf("proj"),
    workspaceId: idOf("ws"),
    name: z.string(),
    defaultEnvironmentId: idOf("env").describe("Environment used when a session or automation names none"),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .describe("Project");

export const CreateProjectSchema = z.object({ name: Name }).strict();

export const projectsContract = c.router(
  {
    create: {
      method: "POST",
      path: "/v1/projects",
      body: CreateProjectSchema,
      responses: { 201: ProjectSchema },
      summary: "Create a project (admin key), with its default environment",
    },
    list: {
      method: "GET",
      path: "/v1/projects",
      query: PageQuerySchema,
      responses: { 200: cursorPage(ProjectSchema) },
      summary: "List the workspace's projects (admin key)",
    },
    get: {
      method: "GET",
      path: "/v1/projects/:projectId",
      pathParams: z.object({ projectId: z.string() }),
      responses: { 200: ProjectSchema },
      summary: "Get a project",
    },
  },
  routerOptions,
);

export type Project = z.infer<typeof ProjectSchema>;
