-- CreateTable
CREATE TABLE "rate_limits" (
    "key" VARCHAR(255) NOT NULL,
    "points" INTEGER NOT NULL DEFAULT 0,
    "expire" BIGINT,

    CONSTRAINT "rate_limits_pkey" PRIMARY KEY ("key")
);

-- Counters need neither WAL nor crash safety (added by hand: Prisma's schema language cannot say UNLOGGED).
ALTER TABLE "rate_limits" SET UNLOGGED;
