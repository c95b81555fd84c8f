import { setFlagsFromString } from "node:v8";

// Imported first by main.ts, before any WebAssembly is compiled and before the heap has grown. Measured with
// `pnpm bench:load` (500 sessions; docs/performance.md, "Peak RSS"):
// - Prisma's query compiler (WebAssembly) is compiled by Liftoff only: TurboFan's tier-up of it held 60–75 MiB of
//   resident memory for no measurable CPU (Prisma caches its query plans, so the compiler runs rarely).
// - The old generation grows by 40 % past its live size before the next full collection, not by V8's default of up to
//   4×: under load the live heap is ~75 MiB while the default let it reach ~230 MiB of mostly garbage. 20 % cost 30 %
//   more CPU per turn; 40 % costs nothing measurable.
setFlagsFromString("--liftoff-only");
setFlagsFromString("--heap-growing-percent=40");
