import type { ModelRef } from "@agent-platform/contract";
import { AppError } from "../http/app-error.js";
import {
  checkModelAvailable,
  formatModelSpec,
  type ModelCatalogue,
  type ProviderSettings,
  parseModelSpec,
} from "../models/index.js";

/**
 * A model reference is checked at write time as far as it can be known then (design.md §4): the provider must exist
 * and have credentials in this server's environment; `builtin/echo` needs none. Whether the provider knows the model
 * id only shows at run time.
 */
export function checkModel(
  model: ModelRef,
  settings: ProviderSettings,
  where: string,
  catalogue?: ModelCatalogue,
): void {
  const parsed = parseModelSpec(model);
  if (!parsed.ok) throw new AppError("agent.invalid_model", `${where}: ${parsed.error.message}`);
  // A reasoning setting only on a model the catalogue says can reason (the provider would refuse it, mid-session).
  const name = formatModelSpec(parsed.spec);
  if (parsed.spec.reasoning && catalogue?.lookup(name)?.capabilities?.reasoning !== true) {
    throw new AppError(
      "agent.invalid_model",
      `${where}: ${name} cannot reason according to the model catalogue; remove \`reasoning\` or declare the model's ` +
        "`capabilities.reasoning` in MODEL_CATALOGUE",
    );
  }
  const unavailable = checkModelAvailable(parsed.spec, settings);
  if (unavailable) throw new AppError("agent.invalid_model", `${where}: ${unavailable}`);
}
