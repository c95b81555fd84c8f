// Used by the Prisma CLI (generate, validate, format). Migrations run through packages/db (WebAssembly schema engine).
export default {
  schema: "prisma/schema",
  migrations: { path: "prisma/migrations" },
};
