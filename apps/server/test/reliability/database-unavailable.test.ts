import { connectDatabase } from "@agent-platform/db";
import { describe, expect, it } from "vitest";
import { AppError } from "../../src/http/app-error.js";
import { isDatabaseUnavailable, isPoolExhausted } from "../../src/lib/database-unavailable.js";
import { createTestDatabase } from "../support/database.js";

const withCode = (code: string, message = "x") => Object.assign(new Error(message), { code });

describe("isDatabaseUnavailable", () => {
  it("recognises unreachable, restarting and exhausted databases, also when wrapped", () => {
    expect(isDatabaseUnavailable(withCode("ECONNREFUSED", "connect ECONNREFUSED 127.0.0.1:5432"))).toBe(true);
    expect(isDatabaseUnavailable(withCode("57P01", "terminating connection due to administrator command"))).toBe(true);
    expect(isDatabaseUnavailable(withCode("57P03", "the database system is starting up"))).toBe(true);
    expect(isDatabaseUnavailable(withCode("08006"))).toBe(true);
    expect(isDatabaseUnavailable(withCode("53300", "sorry, too many clients already"))).toBe(true);
    expect(isDatabaseUnavailable(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isDatabaseUnavailable(new Error("timeout exceeded when trying to connect"))).toBe(true);
    expect(isDatabaseUnavailable(withCode("P1001", "Can't reach database server at 127.0.0.1:5432"))).toBe(true);
    const wrapped = Object.assign(new Error("Invalid `prisma.agent.findMany()` invocation"), {
      code: "P2010",
      meta: { driverAdapterError: { cause: { kind: "postgres", code: "57P01" } } },
    });
    expect(isDatabaseUnavailable(wrapped)).toBe(true);
    expect(isDatabaseUnavailable(new Error("query failed", { cause: withCode("ECONNRESET") }))).toBe(true);
  });

  it("leaves every other error alone", () => {
    expect(isDatabaseUnavailable(withCode("23505", "duplicate key value violates unique constraint"))).toBe(false);
    expect(isDatabaseUnavailable(withCode("08", "not a SQLSTATE"))).toBe(false);
    expect(isDatabaseUnavailable(new AppError("agent.not_found", "Agent a was not found"))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("Cannot read properties of undefined"))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
    const cycle: { cause?: unknown } = new Error("loop");
    cycle.cause = cycle;
    expect(isDatabaseUnavailable(cycle)).toBe(false);
  });
});

describe("isPoolExhausted", () => {
  it("tells a wait for a busy pool's connection from a database out of reach", async () => {
    const db = await createTestDatabase();
    const handle = connectDatabase(db.url, { max: 1, connectTimeoutMs: 100 });
    try {
      const held = await handle.pool.connect();
      const waited = await handle.pool.query("SELECT 1").catch((error: unknown) => error);
      held.release();
      expect(isDatabaseUnavailable(waited)).toBe(true);
      expect(isPoolExhausted(waited)).toBe(true);
      expect((await handle.pool.query("SELECT 1 AS one")).rows[0]).toEqual({ one: 1 });
    } finally {
      await handle.close();
      await db.drop();
    }
    expect(isPoolExhausted(withCode("ECONNREFUSED", "connect ECONNREFUSED 127.0.0.1:5432"))).toBe(false);
    expect(isPoolExhausted(new Error("Connection terminated due to connection timeout"))).toBe(false);
    expect(isPoolExhausted(withCode("P2024", "Timed out fetching a new connection from the connection pool"))).toBe(
      true,
    );
  });
});
