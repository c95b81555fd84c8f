export * from "@agent-platform/contract";
export { AgentPlatform, type AgentPlatformOptions } from "./agent-platform.js";
export { ApiPromise, PagePromise, type WithResponse } from "./api-promise.js";
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
export { newIdempotencyKey } from "./idempotency.js";
export {
  type AgentPlatformClient,
  type ClientOptions,
  createClient,
  type TypedClient,
} from "./legacy-client.js";
export { type CursorPageLike, paginate } from "./paginate.js";
export type { Resource, RouteInput, RouteMethod, RouteOutput } from "./route-types.js";
export { downloadWorkspaceFile, type WorkspaceFileRef } from "./session-files.js";
export type { FollowOptions } from "./sessions/follow.js";
export type { SendableEvent } from "./sessions/send.js";
export type { IngestAcknowledgement, SessionLogPage, SessionsResource } from "./sessions/sessions-resource.js";
export type { WaitForIdleOptions } from "./sessions/wait-for-idle.js";
export { parseSse, type SseMessage } from "./sse.js";
export { DEFAULT_MAX_RETRIES, DEFAULT_TIMEOUT_MS, type RequestOptions } from "./transport.js";
export type { ResponseValidationIssue } from "./validate-response.js";
export { verifyWebhook, WebhookVerificationError } from "./webhooks.js";
