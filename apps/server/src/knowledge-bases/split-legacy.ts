import type { AppContext } from "../context.js";
import type { NoPayload, RunningJob } from "../jobs/index.js";
import { insertChunks, splitDocument } from "./split-document.js";

/**
 * Documents stored before passages existed (the migration that added them queued every such base): split them, a few
 * at a time, each document's passages inserted fenced on the run's lease (at most once: the insert skips positions
 * present).
 */
export async function chunkLegacyDocuments(ctx: AppContext, job: RunningJob<NoPayload>): Promise<void> {
  for (;;) {
    const { rows } = await ctx.db.pool.query<{
      id: string;
      knowledgeBaseId: string;
      title: string;
      content: string;
      contentType: string;
      chunkMaxTokens: number;
      chunkOverlapTokens: number;
    }>(
      `SELECT d."id", d."knowledgeBaseId", d."title", d."content", d."contentType", kb."chunkMaxTokens",
              kb."chunkOverlapTokens"
       FROM knowledge_documents d JOIN knowledge_bases kb ON kb."id" = d."knowledgeBaseId"
       WHERE d."knowledgeBaseId" = $1 AND d."chunkCount" = 0
       LIMIT 20`,
      [job.key],
    );
    if (rows.length === 0) return;
    for (const doc of rows) {
      if (job.signal.aborted) throw job.signal.reason;
      const chunks = splitDocument(doc, doc);
      await job.fenced((tx) => insertChunks(tx, doc, chunks));
    }
  }
}
