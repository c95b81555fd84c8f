import type { ApiKeyRoleSchema } from "@agent-platform/contract";
import type { z } from "zod";

/** Who is calling: the API key of the request, its role, workspace and project. */
export interface AuthContext {
  keyId: string;
  keyName: string;
  role: z.infer<typeof ApiKeyRoleSchema>;
  workspaceId: string;
  projectId: string;
}
