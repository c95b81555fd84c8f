/** The badge class of an experiment's status. */
export function statusClass(status: string): string {
  return status === "completed" ? "done" : status === "failed" ? "failed" : "running";
}
