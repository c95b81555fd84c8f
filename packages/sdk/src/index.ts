export * from "@agent-platform/contract";
export { ApiError, type ApiErrorCode, ConnectionError, isApiError } from "./api-error.js";
export {
  type AgentPlatformClient,
  type ClientOptions,
  createClient,
  type RequestOptions,
  type TypedClient,
} from "./client.js";
export { type FollowOptions, followSessionEvents } from "./follow-events.js";
export { newIdempotencyKey } from "./idempotency.js";
export { type CursorPageLike, paginate } from "./paginate.js";
export { downloadWorkspaceFile, type WorkspaceFileRef } from "./session-files.js";
export { parseSse, type SseMessage } from "./sse.js";
export { verifyWebhook, WebhookVerificationError } from "./webhooks.js";
