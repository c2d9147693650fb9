/**
 * Which errors are transient (retried by core/retry.ts, answered 503
 * `dependency_unavailable` by coerceError) and which are not (a bug or bad
 * input: never retried, 500 or the input's own 4xx).
 */
import { describe, expect, it } from "vitest";
import { AppError, coerceError, isTransientError } from "../../core/errors";

const withCode = (code: string | number, message = "x", extra: object = {}) => Object.assign(new Error(message), { code }, extra);

const TRANSIENT: Array<[string, unknown]> = [
  ["a serialization failure", withCode("40001")],
  ["a deadlock", withCode("40P01")],
  ["the server shutting down (restart, pg_terminate_backend)", withCode("57P01")],
  ["the server starting up", withCode("57P03")],
  ["a connection exception (class 08)", withCode("08006")],
  ["a refused connection", withCode("ECONNREFUSED")],
  ["a reset connection", withCode("ECONNRESET")],
  ["pg's lost connection", new Error("Connection terminated unexpectedly")],
  ["ioredis's closed connection", new Error("Connection is closed.")],
  ["a dual-stack connect that failed twice", new AggregateError([withCode("ECONNREFUSED"), withCode("ECONNREFUSED")])],
  ["fetch to a server that is down (HugeGraph)", new TypeError("fetch failed", { cause: withCode("ECONNREFUSED") })],
  ["Neo4j unreachable", withCode("ServiceUnavailable")],
  ["Neo4j transient", withCode("Neo.TransientError.Transaction.DeadlockDetected")],
  ["gRPC UNAVAILABLE (Milvus)", withCode(14, "14 UNAVAILABLE: No connection established", { details: "No connection established" })],
  ["a store adapter's own unavailable", new AppError("unavailable")],
];
const NOT_TRANSIENT: Array<[string, unknown]> = [
  ["a unique violation", withCode("23505")],
  ["a NUL in text", withCode("22021", 'invalid byte sequence for encoding "UTF8": 0x00')],
  ["a syntax error", withCode("42601")],
  ["a plain bug", new TypeError("cannot read properties of undefined")],
  ["a limit", new AppError("limit_exceeded")],
  ["a gRPC invalid argument", withCode(3, "3 INVALID_ARGUMENT", { details: "bad" })],
  ["nothing", undefined],
];

describe("transient errors", () => {
  it.each(TRANSIENT)("%s is transient, and a request that meets it is answered 503 dependency_unavailable", (_name, err) => {
    expect(isTransientError(err)).toBe(true);
    if (!(err instanceof AppError)) expect([coerceError(err).code, coerceError(err).status]).toEqual(["dependency_unavailable", 503]);
  });
  it.each(NOT_TRANSIENT)("%s is not transient", (_name, err) => {
    expect(isTransientError(err)).toBe(false);
    if (err !== undefined && !(err instanceof AppError)) expect(coerceError(err).code).toBe("internal");
  });
  it("never leaks the driver's message", () => {
    const e = coerceError(new Error("Connection terminated: postgres://u:secret@db/x"));
    expect(e.message).not.toContain("secret");
  });
});
