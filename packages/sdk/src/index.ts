// The root entry: the client, its errors and helpers, and the API's types as named interfaces generated from the
// contract (src/generated). It loads neither Zod nor the contract's schemas; `@agent-platform/sdk/contract` does.
export { AgentPlatform, type AgentPlatformOptions } from "./agent-platform.js";
export { ApiPromise, PagePromise, type WithResponse } from "./api-promise.js";
export type { ClientOptions } from "./client-options.js";
export {
  AgentPlatformError,
  ApiError,
  type ApiErrorCode,
  type ApiErrorDetails,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  InternalServerError,
  isApiError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  ServiceUnavailableError,
  TimeoutError,
  UnprocessableEntityError,
} from "./errors.js";
export type * from "./generated/api.js";
export type * from "./generated/contract-types.js";
export type { components, operations } from "./generated/openapi.js";
export { newIdempotencyKey } from "./idempotency.js";
export { type CursorPageLike, paginate } from "./paginate.js";
export { downloadWorkspaceFile, type WorkspaceFileRef } from "./session-files.js";
export type { FollowItem, FollowOptions } from "./sessions/follow.js";
export type { SendableEvent } from "./sessions/send.js";
export type { SessionLogPage, SessionsResource } from "./sessions/sessions-resource.js";
export type { StreamedReply, StreamReplyOptions } from "./sessions/stream-reply.js";
export type { WaitForIdleOptions } from "./sessions/wait-for-idle.js";
export { parseSse, type SseMessage } from "./sse.js";
export { DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS, type RequestOptions } from "./transport.js";
export type { AnsweredRoute, ResponseValidationIssue, ResponseValidator } from "./validate-response.js";
export { verifyWebhook, WebhookVerificationError } from "./webhooks.js";
