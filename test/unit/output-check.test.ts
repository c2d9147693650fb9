/**
 * Every answer passes its operation's output schema before it leaves
 * (api/output-check.ts, through the REST mounter): a handler that adds a field
 * its schema lacks fails loudly under OUTPUT_SCHEMA_MISMATCH=fail (every test
 * runs so) and, in production (`strip`), goes out without that field and is
 * counted; a field of the wrong type is a 500 in both. The mounter is the real
 * one (operationRoutes) over one public operation, so no store is needed.
 */
import express from "express";
import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { AppContext } from "../../api/context";
import { errorMiddleware } from "../../api/http";
import { operationRoutes } from "../../api/operations";
import { conformOutput, droppedFields } from "../../api/output-check";
import { ManualClock } from "../../core/clock";
import { loadConfig } from "../../core/config";
import { AppError } from "../../core/errors";
import { silentLogger } from "../../core/log";
import { defineOperation, type Operation } from "../../ops/operation";
import { call, listen } from "../support/http";

const view = z.object({ id: z.string(), items: z.array(z.object({ name: z.string() })) });

/** A public operation whose handler answers what the test gives it. */
function opAnswering(answer: unknown): Operation {
  return defineOperation({
    name: "test.answer",
    title: "Answers",
    description: "Answers what the test gives it.",
    auth: "none",
    input: {},
    output: view,
    http: [{ method: "get", path: "/answer" }],
    run: async () => answer as z.infer<typeof view>,
  }) as Operation;
}

async function serve(op: Operation, mode: "strip" | "fail") {
  const registry = new Registry();
  const ctx = {
    db: undefined as never,
    identity: undefined as never,
    stores: undefined as never,
    clock: new ManualClock(0),
    config: loadConfig({ OUTPUT_SCHEMA_MISMATCH: mode }),
    logger: silentLogger(),
    jobMetrics: { registry } as never,
  } satisfies AppContext;
  const app = express();
  app.use(operationRoutes(ctx, [op]));
  app.use(errorMiddleware(ctx.logger));
  const srv = await listen(app);
  const counted = async () => (await registry.getSingleMetric("codesynapse_output_schema_mismatches_total")?.get())?.values ?? [];
  return { srv, counted };
}

describe("answers pass their output schema", () => {
  it("a handler that adds a field its schema lacks fails the request when mismatches fail (the tests' mode)", async () => {
    const { srv, counted } = await serve(opAnswering({ id: "a", items: [{ name: "x", secret: "s3" }], extra: 1 }), "fail");
    try {
      const r = await call(srv.url, "GET", "/answer");
      expect([r.status, r.body.error.code]).toEqual([500, "internal"]);
      expect(r.text).not.toContain("s3");
      expect(await counted()).toEqual([expect.objectContaining({ labels: { operation: "test.answer", kind: "extra_field" }, value: 1 })]);
    } finally {
      await srv.close();
    }
  });

  it("in production (strip) the added fields do not leave, and the mismatch is counted", async () => {
    const { srv, counted } = await serve(opAnswering({ id: "a", items: [{ name: "x", secret: "s3" }], extra: 1 }), "strip");
    try {
      const r = await call(srv.url, "GET", "/answer");
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ id: "a", items: [{ name: "x" }] });
      expect(await counted()).toEqual([expect.objectContaining({ labels: { operation: "test.answer", kind: "extra_field" }, value: 1 })]);
    } finally {
      await srv.close();
    }
  });

  it("a field of the wrong type or a missing one is a 500 in both modes; a conforming answer goes out as it is", async () => {
    for (const mode of ["strip", "fail"] as const) {
      const bad = await serve(opAnswering({ id: 7, items: [] }), mode);
      const good = await serve(opAnswering({ id: "a", items: [{ name: "x" }] }), mode);
      try {
        expect((await call(bad.srv.url, "GET", "/answer")).status).toBe(500);
        expect(await bad.counted()).toEqual([expect.objectContaining({ labels: { operation: "test.answer", kind: "invalid" }, value: 1 })]);
        const r = await call(good.srv.url, "GET", "/answer");
        expect([r.status, r.body]).toEqual([200, { id: "a", items: [{ name: "x" }] }]);
        expect(await good.counted()).toEqual([]);
      } finally {
        await bad.srv.close();
        await good.srv.close();
      }
    }
  });

  it("names the dropped fields by path, never their values", () => {
    const sent = { id: "a", items: [{ name: "x", secret: "v" }], gone: undefined, extra: { deep: 1 } };
    expect(droppedFields(sent, view.parse(sent))).toEqual(["items.0.secret", "extra"]);
    let thrown: unknown;
    try {
      conformOutput("test.answer", view, sent, { mode: "fail", logger: silentLogger() });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect(String((thrown as AppError).cause)).toContain("items.0.secret");
    expect(String((thrown as AppError).cause)).not.toContain('"v"');
  });
});
