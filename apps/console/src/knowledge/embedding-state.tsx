import type { KnowledgeBase } from "@agent-platform/sdk";

type Reference = KnowledgeBase["embeddingModel"];

export function modelName(model: Reference): string {
  return typeof model === "string"
    ? model
    : `${model.id}${model.dimensions ? ` (${model.dimensions} dimensions)` : ""}`;
}

/** Where a base's or store's vectors stand: ready, embedding, or re-embedding while searches use the previous model. */
export function EmbeddingState({ model, embedding }: { model: Reference; embedding: KnowledgeBase["embedding"] }) {
  const label =
    embedding.status === "ready"
      ? "vectors ready"
      : embedding.status === "embedding"
        ? "embedding…"
        : `re-embedding: searches use ${modelName(embedding.servingModel)} until done`;
  return (
    <>
      <code>{modelName(model)}</code>{" "}
      <span className={`badge ${embedding.status === "ready" ? "done" : "pending"}`}>{label}</span>
    </>
  );
}
