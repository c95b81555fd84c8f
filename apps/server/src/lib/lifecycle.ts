/** Something started with the process that must be stopped before it exits (background work, housekeeping). */
export interface Stoppable {
  stop(): Promise<void>;
}
