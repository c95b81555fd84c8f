import type pg from "pg";
import type { AppContext } from "../context.js";
import { publishWebhookEvent } from "../webhooks/index.js";
import type { ExperimentRow } from "./serialize.js";

/** `experiment.completed` / `experiment.failed`, in the transaction that ends the experiment. */
export async function publishExperimentEnd(ctx: AppContext, client: pg.PoolClient, experiment: ExperimentRow) {
  const base = { projectId: experiment.projectId, experimentId: experiment.id, datasetId: experiment.datasetId };
  const common = { workspaceId: experiment.workspaceId, projectId: experiment.projectId, orderKey: experiment.id };
  if (experiment.status === "completed" && experiment.totals) {
    await publishWebhookEvent(ctx, client, {
      ...common,
      type: "experiment.completed",
      data: { ...base, totals: experiment.totals },
    });
  } else if (experiment.status === "failed") {
    await publishWebhookEvent(ctx, client, {
      ...common,
      type: "experiment.failed",
      data: { ...base, error: experiment.error ?? "" },
    });
  }
}
