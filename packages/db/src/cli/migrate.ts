// `pnpm db:migrate`: applies pending migrations to DATABASE_URL, or to the embedded PostgreSQL under DATA_DIR.

import { resolve } from "node:path";
import { startEmbeddedPostgres } from "../embedded.js";
import { applyMigrations } from "../migrations/apply.js";

const url = process.env.DATABASE_URL;
const embedded = url
  ? undefined
  : await startEmbeddedPostgres({
      dataDir: resolve(process.env.INIT_CWD ?? process.cwd(), process.env.DATA_DIR ?? ".data"),
    });
try {
  const applied = await applyMigrations(url ?? embedded!.connectionString);
  console.log(applied.length ? `Applied: ${applied.join(", ")}` : "No pending migrations.");
} finally {
  await embedded?.stop();
}
// The schema engine leaves a timer behind; exit explicitly.
process.exit(0);
