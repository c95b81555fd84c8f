import { z } from "zod";
import { FileBytes, Timestamp } from "../common/fields.js";
import { c, routerOptions } from "../common/router.js";

/** Bounds of the session workspace's files API. */
export const SESSION_FILE_LIMITS = {
  pathLength: 1024,
  /** Decoded size of one upload (the request body holds it base64-encoded when binary). */
  uploadBytes: 7 * 1024 * 1024,
  listed: 10_000,
} as const;

const PathId = z.string().min(1).max(128);

export const WorkspacePathSchema = z
  .string()
  .min(1)
  .max(SESSION_FILE_LIMITS.pathLength)
  .refine((p) => !p.startsWith("/") || p.startsWith("/workspace/"), {
    message: "a path relative to the workspace (`src/main.py`) or under `/workspace/`",
  })
  .refine((p) => !p.split("/").some((part) => part === ".."), { message: "`..` is not allowed" })
  .refine((p) => ![...p].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f), {
    message: "no control characters",
  })
  .describe("Path inside the session's workspace: relative (`data/in.csv`) or absolute under `/workspace/`");

export const WorkspaceFileSchema = z
  .object({
    path: z.string().describe("Relative to `/workspace`"),
    bytes: z.number().int().min(0),
    modifiedAt: Timestamp,
  })
  .describe("A regular file of the workspace");

export const WorkspaceFileListSchema = z
  .object({
    data: z.array(WorkspaceFileSchema).describe("Every regular file, sorted by path (symbolic links are not listed)"),
    truncated: z.boolean().describe(`More than ${SESSION_FILE_LIMITS.listed} files: only the first ones are listed`),
    savedAt: Timestamp.nullable().describe(
      "When the workspace was last saved (the end of a turn, or an upload); null when it has never held a file",
    ),
  })
  .describe("The workspace as of the end of the last turn, with later uploads");

export const UploadWorkspaceFileSchema = z
  .object({
    path: WorkspacePathSchema,
    content: z.string().describe('The file\'s content: text, or base64 with `encoding: "base64"`'),
    encoding: z.enum(["utf8", "base64"]).default("utf8"),
  })
  .strict();

export const UploadedWorkspaceFileSchema = z.object({
  path: z.string().describe("Relative to `/workspace`"),
  bytes: z.number().int().min(0),
});

const base = "/v1/projects/:projectId/sessions/:id/files";

export const sessionFilesContract = c.router(
  {
    upload: {
      method: "POST",
      path: base,
      pathParams: z.object({ projectId: PathId, id: PathId }),
      body: UploadWorkspaceFileSchema,
      responses: { 201: UploadedWorkspaceFileSchema },
      summary: "Put a file into a session's workspace",
      description:
        "Creates or replaces one file (parent folders are created) while the session is idle; the agent's `bash` " +
        "and file tools see it from the next turn on. A session running a turn answers 409 `session.busy`; an " +
        "upload that would take the workspace past its environment's `workspaceMb` answers 409 " +
        `\`session.workspace_full\`. At most ${SESSION_FILE_LIMITS.uploadBytes} bytes once decoded.`,
    },
    list: {
      method: "GET",
      path: base,
      pathParams: z.object({ projectId: PathId, id: PathId }),
      responses: { 200: WorkspaceFileListSchema },
      summary: "List the files of a session's workspace",
      description:
        "The workspace as saved at the end of the last turn (and by uploads since). Files the agent is writing " +
        "during a running turn appear once the turn ends.",
    },
    download: {
      method: "GET",
      path: `${base}/:path`,
      pathParams: z.object({
        projectId: PathId,
        id: PathId,
        path: WorkspacePathSchema.describe(
          "Path of the file; send it with its slashes (`…/files/out/report.csv`) or percent-encoded as one segment",
        ),
      }),
      responses: {
        200: c.otherResponse({
          contentType: "application/octet-stream",
          body: FileBytes.describe("The file's bytes"),
        }),
      },
      summary: "Download one file of a session's workspace",
      description:
        "The file as saved at the end of the last turn. A path that is not a regular file (missing, a folder, a " +
        "symbolic link) answers 404 `session.file_not_found`: links are never followed.",
    },
  },
  routerOptions,
);

export type WorkspaceFile = z.infer<typeof WorkspaceFileSchema>;
export type WorkspaceFileList = z.infer<typeof WorkspaceFileListSchema>;
export type UploadWorkspaceFile = z.infer<typeof UploadWorkspaceFileSchema>;
