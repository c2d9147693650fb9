/**
 * W3C trace context on the job row (docs/observability.md): a submission
 * stores the `traceparent` of the span it was made in, and the worker that
 * runs the row continues that trace — one trace from the HTTP request through
 * the row to the worker's spans and store calls, across processes and restarts.
 *
 * Only `@opentelemetry/api` (a no-op until an SDK registers): with tracing off
 * no span is active, `currentTraceparent()` is null and nothing is stored.
 * The value is data read back from a row, so it is parsed strictly
 * (`00-<32 hex>-<16 hex>-<2 hex>`, all-zero ids refused); anything else is no
 * parent at all.
 */
import { context, isSpanContextValid, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Context } from "@opentelemetry/api";

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The active span's context as a `traceparent`, or null (no span, tracing off). */
export function currentTraceparent(ctx: Context = context.active()): string | null {
  const sc = trace.getSpanContext(ctx);
  if (!sc || !isSpanContextValid(sc)) return null;
  return `00-${sc.traceId}-${sc.spanId}-${(sc.traceFlags & 0xff).toString(16).padStart(2, "0")}`;
}

/** A context whose parent is the stored `traceparent`, or the root context when there is none (or it is not valid). */
export function contextFromTraceparent(value: string | null | undefined): Context {
  const m = value ? TRACEPARENT.exec(value) : null;
  if (!m) return ROOT_CONTEXT;
  const sc = { traceId: m[1]!, spanId: m[2]!, traceFlags: parseInt(m[3]!, 16), isRemote: true };
  return isSpanContextValid(sc) ? trace.setSpanContext(ROOT_CONTEXT, sc) : ROOT_CONTEXT;
}

/** The span attributes CodeSynapse sets itself: ids of tenants and jobs, the kind, pool and attempt — never a session id. */
export const ATTR = {
  tenant: "codesynapse.tenant.id",
  job: "codesynapse.job.id",
  kind: "codesynapse.job.kind",
  pool: "codesynapse.job.pool",
  attempt: "codesynapse.job.attempt",
  outcome: "codesynapse.job.outcome",
} as const;

const tracer = trace.getTracer("codesynapse.queues");

/**
 * A submission's own span (`submit <kind>`, a producer): `run` gets its traceparent to store on the
 * row, and the span gets the job id once the row exists. The worker's run of the row is its child.
 */
export async function inSubmitSpan<T extends { row: { id: string } }>(kind: string, tenantId: string, run: (traceparent: string | null) => Promise<T>): Promise<T> {
  return tracer.startActiveSpan(`submit ${kind}`, { kind: SpanKind.PRODUCER, attributes: { [ATTR.tenant]: tenantId, [ATTR.kind]: kind } }, async (span) => {
    try {
      const out = await run(currentTraceparent());
      span.setAttribute(ATTR.job, out.row.id);
      return out;
    } catch (err) {
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw err;
    } finally {
      span.end();
    }
  });
}
