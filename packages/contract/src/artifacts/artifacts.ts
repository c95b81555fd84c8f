import { z } from "zod";
import { idOf, Timestamp } from "../common/fields.js";
import { c, routerOptions } from "../common/router.js";

const PathId = z.string().min(1).max(128);

export const ArtifactVersionSchema = z
  .object({
    id: idOf("art"),
    version: z.number().int().min(1),
    contentType: z.string(),
    bytes: z
      .number()
      .int()
      .min(0)
      .describe("Size of the content in bytes (UTF-8 for text; screenshots and browser recordings are binary)"),
    createdAt: Timestamp,
    url: z.string().url().describe("Signed link to this version's content, served by the platform without a key"),
    expiresAt: Timestamp.describe("When `url` stops working"),
  })
  .describe("One immutable version of an artifact");

export const ArtifactSchema = z
  .object({
    name: z.string(),
    latestVersion: z.number().int().min(1),
    contentType: z.string().describe("Content type of the latest version"),
    bytes: z.number().int().min(0).describe("Size of the latest version"),
    updatedAt: Timestamp.describe("When the latest version was written"),
    url: z.string().url().describe("Signed link to the latest version's content"),
    expiresAt: Timestamp.describe("When `url` stops working"),
    versions: z.array(ArtifactVersionSchema).describe("Every version, newest first"),
  })
  .describe("A deliverable of the session: all versions written under one name");

export const ArtifactListSchema = z
  .object({ data: z.array(ArtifactSchema).describe("One entry per artifact name, sorted by name (code point order)") })
  .describe("The session's deliverables grouped by name");

export const artifactsContract = c.router(
  {
    list: {
      method: "GET",
      path: "/v1/projects/:projectId/sessions/:id/artifacts",
      pathParams: z.object({ projectId: PathId, id: PathId }),
      responses: { 200: ArtifactListSchema },
      summary: "List a session's artifacts",
      description:
        "Deliverables written by the session's agent with `artifact_write`, and the `browser` tool's screenshots and " +
        "recordings, grouped by name: the latest version with " +
        "a signed URL (valid one hour, served under `/v1/files/artifacts/…` without an API key), and every version.",
    },
  },
  routerOptions,
);

export type Artifact = z.infer<typeof ArtifactSchema>;
export type ArtifactVersion = z.infer<typeof ArtifactVersionSchema>;
export type ArtifactList = z.infer<typeof ArtifactListSchema>;
