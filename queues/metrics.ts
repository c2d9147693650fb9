/**
 * Prometheus metrics of the job machinery (JOB-9, RET-2). Labels are pool,
 * kind, outcome, stage, code and status: closed sets chosen by the platform.
 * No label ever carries a session, tenant, user or job id.
 *
 * `registry` is the process's registry: `/metrics` (the API's, and a worker
 * process's own server) serves it, the HTTP histogram (api/http-metrics.ts)
 * registers there too, and with `processMetrics` so do prom-client's default
 * process metrics (CPU, memory, event-loop lag, GC, handles).
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { JOB_STALE_MS } from "../core/limits";
import type { Db } from "../db/schema";
import { queueDepth, staleQueued } from "./sql/queueDepth";

export type JobOutcomeLabel = "succeeded" | "failed" | "retried" | "deferred" | "refused" | "canceled" | "abandoned" | "released" | "lease_lost";

export class JobMetrics {
  readonly registry: Registry;
  readonly #duration: Histogram<"pool" | "kind" | "outcome">;
  readonly #outcomes: Counter<"pool" | "kind" | "outcome">;
  readonly #reclaims: Counter<"pool" | "kind" | "result">;
  readonly #refusals: Counter<"pool" | "kind" | "stage" | "code">;
  readonly #redispatches: Counter<"pool" | "reason" | "result">;
  readonly #limited: Counter<"pool" | "limit">;

  /**
   * `staleMs`: the reconciler's bound (JOB_STALE_MS); rows queued and due for longer are counted as stale.
   * `processMetrics`: add prom-client's default process metrics (once per process: the composition root asks).
   */
  constructor(opts: { db?: Db; registry?: Registry; staleMs?: number; processMetrics?: boolean } = {}) {
    this.registry = opts.registry ?? new Registry();
    if (opts.processMetrics) {
      collectDefaultMetrics({ register: this.registry });
      // Gauges named like counters, which `promtool check metrics` refuses; each is the sum of its labelled twin
      // (nodejs_active_handles{type}, …), so nothing is lost.
      for (const name of ["nodejs_active_handles_total", "nodejs_active_requests_total", "nodejs_active_resources_total"]) this.registry.removeSingleMetric(name);
    }
    const registers = [this.registry];
    this.#duration = new Histogram({
      name: "codesynapse_job_duration_seconds",
      help: "Time from claim to the job's end, per pool, kind and outcome.",
      labelNames: ["pool", "kind", "outcome"],
      buckets: [0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300],
      registers,
    });
    this.#limited = new Counter({
      name: "codesynapse_job_limit_refusals_total",
      help: "Submissions refused by a cap on queued jobs (docs/jobs.md \"Caps\"), per pool and limit; no organisation or session label.",
      labelNames: ["pool", "limit"],
      registers,
    });
    this.#outcomes = new Counter({ name: "codesynapse_job_outcomes_total", help: "Jobs ended by a worker, per outcome.", labelNames: ["pool", "kind", "outcome"], registers });
    this.#reclaims = new Counter({ name: "codesynapse_job_reclaims_total", help: "Expired leases reclaimed by the sweeper.", labelNames: ["pool", "kind", "result"], registers });
    this.#refusals = new Counter({
      name: "codesynapse_job_recheck_refusals_total",
      help: "Authorization rechecks that refused a job (stage: before_work | before_persist).",
      labelNames: ["pool", "kind", "stage", "code"],
      registers,
    });
    this.#redispatches = new Counter({
      name: "codesynapse_job_redispatches_total",
      help: "Rows the reconciler handed to the dispatcher again (reason: reclaimed | stale; result: added | live | replaced).",
      labelNames: ["pool", "reason", "result"],
      registers,
    });
    const db = opts.db;
    const staleMs = opts.staleMs ?? JOB_STALE_MS;
    if (db) {
      new Gauge({
        name: "codesynapse_jobs_stale_queued",
        help: "Queued rows due for longer than the reconciler's bound without a claim (should be 0 but for a backlog).",
        labelNames: ["pool"],
        registers,
        async collect() {
          this.reset();
          for (const r of await staleQueued(db, new Date(Date.now() - staleMs))) this.set({ pool: r.pool }, r.count);
        },
      });
      new Gauge({
        name: "codesynapse_jobs",
        help: "Job rows per pool and status (depth = status queued).",
        labelNames: ["pool", "status"],
        registers,
        async collect() {
          this.reset();
          for (const r of await queueDepth(db)) this.set({ pool: r.pool, status: r.status }, r.count);
        },
      });
      new Gauge({
        name: "codesynapse_jobs_oldest_waiting_seconds",
        help: "Age of the oldest due queued job per pool.",
        labelNames: ["pool"],
        registers,
        async collect() {
          this.reset();
          const now = Date.now();
          for (const r of await queueDepth(db)) {
            if (r.status === "queued" && r.oldest_run_at) this.set({ pool: r.pool }, Math.max(0, (now - r.oldest_run_at.getTime()) / 1000));
          }
        },
      });
    }
  }

  /** The children of one (pool, kind, outcome), looked up once: labels come from closed sets, so the map stays small. */
  readonly #finishedChildren = new Map<string, { count: { inc(): void }; time: { observe(v: number): void } }>();

  finished(pool: string, kind: string, outcome: JobOutcomeLabel, seconds: number): void {
    const key = `${pool}\u0000${kind}\u0000${outcome}`;
    let c = this.#finishedChildren.get(key);
    if (!c) this.#finishedChildren.set(key, (c = { count: this.#outcomes.labels(pool, kind, outcome), time: this.#duration.labels(pool, kind, outcome) }));
    c.count.inc();
    c.time.observe(seconds);
  }

  reclaimed(pool: string, kind: string, result: string): void {
    this.#reclaims.inc({ pool, kind, result });
  }

  redispatched(pool: string, reason: "reclaimed" | "stale", result: string): void {
    this.#redispatches.inc({ pool, reason, result });
  }

  limited(pool: string, limit: string): void {
    this.#limited.inc({ pool, limit });
  }

  refused(pool: string, kind: string, stage: "before_work" | "before_persist", code: string): void {
    this.#refusals.inc({ pool, kind, stage, code });
  }
}
