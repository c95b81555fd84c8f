import { z } from "zod";
import { LIMITS } from "../common/limits.js";
import { boundedText } from "./shared.js";

/** Turns before a multi-turn case's `input`, oldest first. */
export const CASE_CONVERSATION_MAX = 200;
/** Tool calls a case may expect. */
export const CASE_EXPECTED_TOOLS_MAX = 100;

export const ConversationTurnSchema = z
  .object({
    role: z.enum(["user", "assistant"]),
    text: boundedText(LIMITS.datasetCaseTextBytes),
  })
  .strict()
  .describe("One earlier message of a multi-turn case");

export const CaseConversationSchema = z
  .array(ConversationTurnSchema)
  .max(CASE_CONVERSATION_MAX)
  .describe(
    `Multi-turn cases: the messages before \`input\`, oldest first (at most ${CASE_CONVERSATION_MAX}); an agent task ` +
      "starts the case's session with them as finished turns, a model task sends them before `input`",
  );

export const ExpectedToolCallSchema = z
  .object({
    name: z.string().min(1).max(200).describe("Tool name as the agent calls it (`<server>__<tool>` for MCP tools)"),
    arguments: z
      .record(z.string(), z.unknown())
      .optional()
      .describe("Matched by subset: each key given must be in the call, with an equal (deep) value"),
  })
  .strict();

export const ExpectedToolsSchema = z
  .array(ExpectedToolCallSchema)
  .max(CASE_EXPECTED_TOOLS_MAX)
  .describe(`The tool calls the \`trajectory\` scorer expects, in order (at most ${CASE_EXPECTED_TOOLS_MAX})`);

export type ConversationTurn = z.infer<typeof ConversationTurnSchema>;
export type ExpectedToolCall = z.infer<typeof ExpectedToolCallSchema>;
