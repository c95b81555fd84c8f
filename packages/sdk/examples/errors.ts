import {
  AgentPlatform,
  ApiError,
  ConnectionError,
  isApiError,
  NotFoundError,
  RateLimitError,
  TimeoutError,
} from "@agent-platform/sdk";

const platform = new AgentPlatform();

try {
  await platform.agents.update("agent_123", { version: 3, name: "Renamed" });
} catch (error) {
  if (isApiError(error, "agent.version_conflict")) {
    // `code` is narrowed; read the agent again and retry with its current version.
    console.log("someone else changed it", error.requestId);
  } else if (isApiError(error, "request.invalid")) {
    for (const issue of error.details.issues) console.log(issue.path, issue.message);
  } else if (error instanceof NotFoundError) {
    console.log("no such agent");
  } else if (error instanceof RateLimitError) {
    console.log("slow down; retry after", error.headers.get("retry-after"));
  } else if (error instanceof ApiError) {
    console.log(error.status, error.code, error.message, error.requestId, error.details);
  } else if (error instanceof TimeoutError || error instanceof ConnectionError) {
    console.log("no answer from the server:", error.message);
  } else {
    throw error;
  }
}
