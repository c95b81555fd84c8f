-- AlterTable
ALTER TABLE "session_loop_settings" ADD COLUMN     "delegationRoot" TEXT;

-- CreateIndex
CREATE INDEX "session_loop_settings_delegationRoot_idx" ON "session_loop_settings"("delegationRoot");
