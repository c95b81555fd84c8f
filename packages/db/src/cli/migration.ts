// `pnpm db:migration <name>`: writes the next migration from the difference between the schema and the last migration.
import { resolve } from "node:path";
import { startEmbeddedPostgres } from "../embedded.js";
import { createMigration } from "../migrations/create.js";

const name = process.argv[2];
if (!name) {
  console.error("usage: pnpm db:migration <name>");
  process.exit(2);
}
const url = process.env.DATABASE_URL;
const embedded = url
  ? undefined
  : await startEmbeddedPostgres({
      dataDir: resolve(process.env.INIT_CWD ?? process.cwd(), process.env.DATA_DIR ?? ".data"),
    });
let folder: string | null;
try {
  folder = await createMigration(name, url ?? embedded!.connectionString);
} finally {
  await embedded?.stop();
}
console.log(
  folder ? `Created prisma/migrations/${folder}/migration.sql` : "The schema matches the migrations: nothing to do.",
);
process.exit(0);
