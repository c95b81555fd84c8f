/**
 * What `pnpm bench:scale` hands to the measurements other files add (the followers' measurement,
 * `bench/scale/followers.ts`, exports `measureFollowers(context)`): a running platform, its key and project, the slow
 * fake model, and where to print.
 */
export interface ScaleContext {
  /** Base URL of the platform as started by the run (the defaults of `pnpm start`). */
  platformUrl: string;
  apiKey: string;
  projectId: string;
  /** The OpenAI-compatible fake model (`/v1`), answering after `modelDelayMs`. */
  modelUrl: string;
  modelDelayMs: number;
  /** The platform's processes (the supervisor first), for CPU and memory figures. */
  pids(): number[];
  /** Prints a line of the report. */
  out(line: string): void;
}

/** A measurement added to the run: returns rows of the report's table ([label, platform, floor, note]). */
export type ScaleMeasurement = (context: ScaleContext) => Promise<string[][]>;
