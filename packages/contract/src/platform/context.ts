import { z } from "zod";
import { idOf } from "../common/fields.js";
import { c, routerOptions } from "../common/router.js";
import { ProjectSchema } from "./projects.js";

export const ApiKeyRoleSchema = z.enum(["admin", "member"]);

export const PlatformContextSchema = z
  .object({
    project: ProjectSchema,
    workspace: z.object({ id: idOf("ws"), name: z.string() }),
    apiKey: z.object({ id: idOf("key"), name: z.string(), role: ApiKeyRoleSchema }),
  })
  .describe("The project, workspace and key the request is authenticated as");

export const platformContract = c.router(
  {
    context: {
      method: "GET",
      path: "/v1/platform/context",
      responses: { 200: PlatformContextSchema },
      summary: "The project associated with the API key",
    },
  },
  routerOptions,
);

export type PlatformContext = z.infer<typeof PlatformContextSchema>;
