/**
 * Vectors as stored: float32 little-endian bytes (`bytea`), L2-normalised by whoever wrote them, so that cosine
 * similarity is a dot product.
 */
export function vectorToBytes(vector: Float32Array): Buffer {
  const buffer = Buffer.allocUnsafe(vector.length * 4);
  for (let i = 0; i < vector.length; i++) buffer.writeFloatLE(vector[i]!, i * 4);
  return buffer;
}

/** Copies `bytes` (a stored vector) into `target` at `offset` (in floats). */
export function readVectorInto(bytes: Uint8Array, target: Float32Array, offset: number): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = bytes.byteLength >> 2;
  for (let i = 0; i < n; i++) target[offset + i] = view.getFloat32(i * 4, true);
}

export function bytesToVector(bytes: Uint8Array): Float32Array {
  const vector = new Float32Array(bytes.byteLength >> 2);
  readVectorInto(bytes, vector, 0);
  return vector;
}

/** pgvector's text form, `[0.1,0.2,…]`. */
export function vectorLiteral(vector: Float32Array): string {
  return `[${Array.prototype.join.call(vector, ",")}]`;
}

/**
 * The `limit` rows of `matrix` (rows of `dimensions` floats) with the highest dot product with `query`, best first,
 * among those `accept` admits. An exact scan: every row is compared (no index).
 */
export function topByDotProduct(
  matrix: Float32Array,
  dimensions: number,
  query: Float32Array,
  limit: number,
  accept?: (row: number) => boolean,
): { row: number; score: number }[] {
  const rows = dimensions === 0 ? 0 : matrix.length / dimensions;
  // A sorted array of at most `limit` entries (limit is small: tens), worst last.
  const best: { row: number; score: number }[] = [];
  let floor = Number.NEGATIVE_INFINITY;
  for (let r = 0; r < rows; r++) {
    if (accept && !accept(r)) continue;
    const base = r * dimensions;
    // Four running sums: independent additions the CPU overlaps (about a third faster than one).
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let i = 0;
    for (; i + 3 < dimensions; i += 4) {
      s0 += matrix[base + i]! * query[i]!;
      s1 += matrix[base + i + 1]! * query[i + 1]!;
      s2 += matrix[base + i + 2]! * query[i + 2]!;
      s3 += matrix[base + i + 3]! * query[i + 3]!;
    }
    for (; i < dimensions; i++) s0 += matrix[base + i]! * query[i]!;
    const dot = s0 + s1 + s2 + s3;
    if (best.length >= limit && dot <= floor) continue;
    let at = best.length;
    while (at > 0 && best[at - 1]!.score < dot) at--;
    best.splice(at, 0, { row: r, score: dot });
    if (best.length > limit) best.pop();
    if (best.length >= limit) floor = best[best.length - 1]!.score;
  }
  return best;
}
