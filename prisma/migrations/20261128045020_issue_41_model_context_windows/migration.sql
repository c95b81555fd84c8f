-- CreateTable
CREATE TABLE "model_context_windows" (
    "model" TEXT NOT NULL,
    "contextWindow" INTEGER NOT NULL,
    "learnedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "model_context_windows_pkey" PRIMARY KEY ("model")
);
