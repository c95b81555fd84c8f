import { Stream } from "node:stream";
import type { Response } from "express";

/**
 * A response body that is already JSON text (built by the database), sent as is with one write. ts-rest sends any
 * `Stream` body by piping it into the response, so this is a `Stream` whose `pipe` ends the response with the text.
 */
class JsonText extends Stream {
  constructor(private readonly text: string) {
    super();
  }

  override pipe<T extends NodeJS.WritableStream>(destination: T): T {
    const res = destination as unknown as Response;
    res.setHeader("Content-Type", "application/json; charset=utf-8");
    res.setHeader("Content-Length", Buffer.byteLength(this.text));
    res.end(this.text);
    return destination;
  }
}

/** `text` as a handler's body; typed as the route's body, which its JSON is (the contract's tests check it). */
export function jsonTextBody<T>(text: string): T {
  return new JsonText(text) as unknown as T;
}
