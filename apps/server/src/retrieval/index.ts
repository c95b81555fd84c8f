// Retrieval building blocks shared by knowledge bases and memory stores (pure: no tables, no area knowledge).
export { type ChunkOptions, chunkText, type TextChunk } from "./chunk-text.js";
export { type FusedHit, fuseRanks, type RankedList, RRF_K } from "./fuse-ranks.js";
export { htmlToMarkdown } from "./html-to-markdown.js";
export { pdfToMarkdown, UnreadablePdf } from "./pdf-to-markdown.js";
export { bytesToVector, readVectorInto, topByDotProduct, vectorLiteral, vectorToBytes } from "./vectors.js";
