/** queueDepth: per pool and status, the number of rows, and the oldest due queued row (operators, metrics). */
import { sql } from "kysely";
import type { Db } from "../../db/schema";
import type { JobStatus } from "../jobs";

export interface DepthRow {
  pool: string;
  status: JobStatus;
  count: number;
  oldest_run_at: Date | null;
}

export async function queueDepth(db: Db): Promise<DepthRow[]> {
  const rows = await db
    .selectFrom("jobs")
    .select(["pool", "status", sql<string>`count(*)`.as("count"), sql<Date | null>`min(run_at)`.as("oldest_run_at")])
    .groupBy(["pool", "status"])
    .orderBy("pool")
    .orderBy("status")
    .execute();
  return rows.map((r) => ({ pool: r.pool, status: r.status, count: Number(r.count), oldest_run_at: r.oldest_run_at ? new Date(r.oldest_run_at) : null }));
}

/** Per pool, queued rows due since before `before` (the reconciler's bound ago): waiting that long unclaimed. */
export async function staleQueued(db: Db, before: Date): Promise<Array<{ pool: string; count: number }>> {
  const rows = await db
    .selectFrom("jobs")
    .select(["pool", sql<string>`count(*)`.as("count")])
    .where("status", "=", "queued")
    .where("run_at", "<=", before)
    .groupBy("pool")
    .execute();
  return rows.map((r) => ({ pool: r.pool, count: Number(r.count) }));
}
