/**
 * The worker's span for one run of a job (docs/observability.md): a child of
 * the span that submitted the row (its stored `traceparent`), active while the
 * run rechecks, works and persists, so the run's store calls (pg, ioredis) are
 * its children in the request's trace. A row without one (a system schedule,
 * tracing off at submit) starts a trace of its own.
 *
 * Attributes: tenant and job ids, kind, pool, attempt and the outcome —
 * never the session, the parameters or the result. With tracing off the API
 * is a no-op and this costs a function call.
 */
import { context, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import type { JobRow } from "../queues/jobs";
import type { JobOutcomeLabel } from "../queues/metrics";
import { ATTR, contextFromTraceparent } from "../queues/trace-context";

const tracer = trace.getTracer("codesynapse.worker");

export async function inJobSpan(row: JobRow, run: () => Promise<JobOutcomeLabel>): Promise<JobOutcomeLabel> {
  const parent = contextFromTraceparent(row.traceparent);
  const span = tracer.startSpan(
    `job ${row.kind}`,
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        [ATTR.job]: row.id,
        [ATTR.kind]: row.kind,
        [ATTR.pool]: row.pool,
        [ATTR.attempt]: row.attempts,
        ...(row.tenant_id ? { [ATTR.tenant]: row.tenant_id } : {}),
      },
    },
    parent,
  );
  try {
    const outcome = await context.with(trace.setSpan(parent, span), run);
    span.setAttribute(ATTR.outcome, outcome);
    if (outcome === "failed" || outcome === "lease_lost") span.setStatus({ code: SpanStatusCode.ERROR });
    return outcome;
  } catch (err) {
    span.setStatus({ code: SpanStatusCode.ERROR });
    throw err;
  } finally {
    span.end();
  }
}
