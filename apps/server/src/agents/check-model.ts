import type { ModelRef } from "@agent-platform/contract";
import { AppError } from "../http/app-error.js";
import { checkModelAvailable, type ProviderSettings, parseModelSpec } from "../models/index.js";

/**
 * A model reference is checked at write time as far as it can be known then (design.md §4): the provider must exist
 * and have credentials in this server's environment; `builtin/echo` needs none. Whether the provider knows the model
 * id only shows at run time.
 */
export function checkModel(model: ModelRef, settings: ProviderSettings, where: string): void {
  const parsed = parseModelSpec(model);
  if (!parsed.ok) throw new AppError("agent.invalid_model", `${where}: ${parsed.error.message}`);
  const unavailable = checkModelAvailable(parsed.spec, settings);
  if (unavailable) throw new AppError("agent.invalid_model", `${where}: ${unavailable}`);
}
