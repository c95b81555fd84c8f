import { z } from "zod";
import { ARTIFACT_LIMITS, ArtifactLimitError, writeArtifact } from "../../../artifacts/index.js";
import { defineBuiltinTool } from "../define-tool.js";
import { fail, ok } from "../tool-result.js";
import type { RuntimeTool } from "../types.js";

const BY_EXTENSION: Record<string, string> = {
  md: "text/markdown",
  markdown: "text/markdown",
  txt: "text/plain",
  csv: "text/csv",
  tsv: "text/tab-separated-values",
  json: "application/json",
  html: "text/html",
  htm: "text/html",
  xml: "application/xml",
  yaml: "application/yaml",
  yml: "application/yaml",
  svg: "image/svg+xml",
  js: "text/javascript",
  ts: "text/plain",
  py: "text/x-python",
  sql: "application/sql",
};

/** Content type when the model gives none: from the name's extension, else plain text. */
export function contentTypeForName(name: string): string {
  const extension = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  return (extension && BY_EXTENSION[extension]) || "text/plain";
}

const Input = z
  .object({
    name: z
      .string()
      .min(1)
      .max(ARTIFACT_LIMITS.nameLength)
      .refine((name) => ![...name].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f), {
        message: "no control characters",
      })
      .refine((name) => name.trim() === name, { message: "no leading or trailing spaces" }),
    content: z.string().refine((text) => Buffer.byteLength(text, "utf8") <= ARTIFACT_LIMITS.contentBytes, {
      message: `at most ${ARTIFACT_LIMITS.contentBytes} bytes (UTF-8)`,
    }),
    contentType: z
      .string()
      .max(ARTIFACT_LIMITS.contentTypeLength)
      .regex(
        /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*(\s*;\s*[a-z0-9_-]+=[^;\s]+)*$/i,
        "a MIME type such as text/markdown",
      )
      .optional(),
  })
  .strict();

export function artifactWriteTool(): RuntimeTool {
  return defineBuiltinTool({
    name: "artifact_write",
    description:
      "Save a deliverable of this session (a report, a data file, code…) as a named artifact. Writing the same name " +
      "again creates a new version; earlier versions are kept. Users download artifacts from the session. " +
      `Text content, at most ${ARTIFACT_LIMITS.contentBytes} bytes.`,
    inputSchema: {
      type: "object",
      properties: {
        name: {
          type: "string",
          maxLength: ARTIFACT_LIMITS.nameLength,
          description: "File-like name, e.g. `report.md` or `data/results.csv`; the same name makes a new version",
        },
        content: { type: "string", description: "The full text of this version" },
        contentType: {
          type: "string",
          description: "MIME type (default: from the name's extension, else text/plain)",
        },
      },
      required: ["name", "content"],
      additionalProperties: false,
    },
    input: Input,
    async run(input, run) {
      const contentType = input.contentType ?? contentTypeForName(input.name);
      try {
        const written = await writeArtifact(run.ctx.db.pool, {
          sessionId: run.session.id,
          projectId: run.session.projectId,
          name: input.name,
          content: input.content,
          contentType,
        });
        return ok(
          `Saved artifact "${written.name}" version ${written.version} (${written.bytes} bytes, ${written.contentType}).`,
        );
      } catch (error) {
        if (error instanceof ArtifactLimitError) return fail(error.message);
        throw error;
      }
    },
  });
}
