// Errors that mean "the database cannot be reached right now" (down, restarting, unreachable, out of connections),
// as opposed to a bug or a refused statement: requests that meet one answer 503 `service.unavailable`.

/** SQLSTATEs: class 08 (connection exception), shutdowns, "cannot connect now", too many connections. */
const UNAVAILABLE_STATES = new Set(["57P01", "57P02", "57P03", "53300"]);
/** Node.js socket errors. */
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH"]);
/** Prisma's codes for an unreachable server, a closed connection and a timeout waiting for a connection. */
const PRISMA_CODES = new Set(["P1001", "P1002", "P1017", "P2024"]);
/** What pg and pg-pool say when a connection ends or cannot be had (they set no code). */
const MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection refused|Can't reach database server|Server has closed the connection/i;

function unavailableHere(error: object): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === "string") {
    if (code.startsWith("08") && code.length === 5) return true;
    if (UNAVAILABLE_STATES.has(code) || SOCKET_CODES.has(code) || PRISMA_CODES.has(code)) return true;
  }
  return typeof message === "string" && MESSAGES.test(message);
}

/** True when `error`, or an error it wraps (`cause`, Prisma's driver-adapter details), says the database is out of reach. */
export function isDatabaseUnavailable(error: unknown): boolean {
  return inChain(error, unavailableHere);
}

/**
 * True when the wait was for one of the process's own pooled connections, all busy (pg-pool's queue timeout, Prisma's
 * P2024): the database answers, the process is overloaded. A kind of `isDatabaseUnavailable`.
 */
export function isPoolExhausted(error: unknown): boolean {
  return inChain(error, (e) => {
    const { code, message } = e as { code?: unknown; message?: unknown };
    return (
      code === "P2024" || (typeof message === "string" && /timeout exceeded when trying to connect/i.test(message))
    );
  });
}

function inChain(error: unknown, test: (error: object) => boolean): boolean {
  const seen = new Set<object>();
  const queue: unknown[] = [error];
  while (queue.length > 0) {
    const current = queue.shift();
    if (!current || typeof current !== "object" || seen.has(current)) continue;
    seen.add(current);
    if (test(current)) return true;
    const wrapped = current as { cause?: unknown; meta?: { driverAdapterError?: unknown }; errors?: unknown };
    queue.push(wrapped.cause, wrapped.meta?.driverAdapterError);
    if (Array.isArray(wrapped.errors)) queue.push(...wrapped.errors);
  }
  return false;
}
