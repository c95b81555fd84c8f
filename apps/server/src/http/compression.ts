import compression from "compression";
import type { RequestHandler } from "express";

/** Smaller bodies gain too little to pay for the compressor's work and its headers. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * Response compression (the `compression` middleware): a body of at least COMPRESSION_THRESHOLD_BYTES goes out with
 * the client's best accepted coding by its `Accept-Encoding` q-values (br, gzip or deflate; brotli at quality 4, gzip
 * at level 6) and `Vary: Accept-Encoding`; without `Accept-Encoding`, or with `identity` only, it goes as is. Event
 * streams are never compressed: a compressor holds bytes back until it has enough of them, so an entry would wait
 * for the next one (and their `Cache-Control: no-transform` says the same to proxies). Bodies already encoded (the
 * console's precompressed files) pass through.
 */
export function compressResponses(): RequestHandler {
  const compress = compression({
    threshold: COMPRESSION_THRESHOLD_BYTES,
    filter: (req, res) => {
      const type = String(res.getHeader("Content-Type") ?? "");
      return !type.startsWith("text/event-stream") && compression.filter(req, res);
    },
  });
  // A client that accepts no coding gets nothing from the middleware but its cost (it wraps the response's writes and
  // headers on every request); what it would add, `Vary: Accept-Encoding` on an identity body, a cache needs only
  // beside the compressed variants, which carry it.
  return (req, res, next) => (req.headers["accept-encoding"] ? compress(req, res, next) : next());
}
