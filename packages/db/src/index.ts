export { connectDatabase, type Database, type DatabaseHandle } from "./client.js";
export { type EmbeddedDatabase, startEmbeddedPostgres } from "./embedded.js";
export { EmbeddedPostgresUnavailable } from "./embedded-as-root.js";
export type * from "./generated/prisma/client.js";
export { Prisma, PrismaClient } from "./generated/prisma/client.js";
export { migrationsAlreadyApplied } from "./migrations/applied-already.js";
export { applyMigrations } from "./migrations/apply.js";
export { createMigration } from "./migrations/create.js";
export { readMigrationList } from "./migrations/files.js";
