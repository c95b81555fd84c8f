/** A call's body with the HTTP response it came from. */
export interface WithResponse<T> {
  data: T;
  response: Response;
  /** The `X-Request-Id` header: quote it when reporting a problem. */
  requestId: string | undefined;
}

/**
 * The result of a call: await it for the body, or `.withResponse()` for the body, the `Response` and the request id.
 * The request starts at once; a failure surfaces where it is awaited (never as an unhandled rejection).
 */
export class ApiPromise<T> implements PromiseLike<T> {
  readonly #result: Promise<WithResponse<T>>;

  constructor(result: Promise<WithResponse<T>>) {
    this.#result = result;
    result.catch(() => {});
  }

  withResponse(): Promise<WithResponse<T>> {
    return this.#result;
  }

  // biome-ignore lint/suspicious/noThenProperty: an awaitable result is the point of this class
  then<A = T, B = never>(
    onfulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#result.then((r) => r.data).then(onfulfilled, onrejected);
  }

  catch<B = never>(onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<T | B> {
    return this.then(undefined, onrejected);
  }

  finally(onfinally?: (() => void) | null): Promise<T> {
    return this.then().finally(onfinally);
  }

  get [Symbol.toStringTag](): string {
    return "ApiPromise";
  }
}

/** How to fetch the page after `page`, or null on the last one. */
export type NextPage<P> = (page: P) => Promise<WithResponse<P>> | null;

/**
 * One page of a list (await it) that is also an async iterable over every item of every page, fetched as needed:
 * `for await (const agent of platform.agents.list()) …`.
 */
export class PagePromise<P extends { data: readonly Item[] }, Item>
  extends ApiPromise<P>
  implements AsyncIterable<Item>
{
  readonly #next: NextPage<P>;

  constructor(first: Promise<WithResponse<P>>, next: NextPage<P>) {
    super(first);
    this.#next = next;
  }

  /** Every page, the first one included. */
  async *pages(): AsyncGenerator<P, void, undefined> {
    let page = (await this.withResponse()).data;
    for (;;) {
      yield page;
      const next = this.#next(page);
      if (!next) return;
      page = (await next).data;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    for await (const page of this.pages()) yield* page.data;
  }

  override get [Symbol.toStringTag](): string {
    return "PagePromise";
  }
}
