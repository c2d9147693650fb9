/**
 * followUpsOf: the follow-up jobs that began with each of the given jobs (their
 * `origin_job_id`: workers/pools/child-job.ts), the newest `limit` of each, oldest
 * first. One statement for a page of jobs, served by the jobs_origin_job index.
 *
 * embeddingUnderway: whether an embedding job of the repository is queued or running
 * (any session's): the repository's missing vectors are on their way.
 */
import { sql } from "kysely";
import { EMBEDDING_KIND } from "../../core/jobs/embedding";
import type { Db, Tx } from "../../db/schema";
import type { JobStatus } from "../jobs";

export interface FollowUp {
  job_id: string;
  kind: string;
  status: JobStatus;
}

export async function followUpsOf(db: Db | Tx, originIds: readonly string[], limit: number): Promise<Map<string, FollowUp[]>> {
  const out = new Map<string, FollowUp[]>(originIds.map((id) => [id, []]));
  if (originIds.length === 0) return out;
  const rows = await db
    .selectFrom((qb) =>
      qb
        .selectFrom("jobs")
        .select(["id", "kind", "status", "origin_job_id", "created_at"])
        .select(sql<number>`row_number() over (partition by origin_job_id order by created_at desc, id desc)`.as("n"))
        .where("origin_job_id", "in", [...originIds])
        .as("f"),
    )
    .selectAll()
    .where("n", "<=", limit)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  for (const r of rows) out.get(r.origin_job_id!)?.push({ job_id: r.id, kind: r.kind, status: r.status });
  return out;
}

export async function embeddingUnderway(db: Db | Tx, repoId: string): Promise<boolean> {
  const row = await db
    .selectFrom("jobs")
    .select("id")
    .where("pool", "=", "embedding")
    .where("kind", "=", EMBEDDING_KIND)
    .where("status", "in", ["queued", "running"])
    .where("repo_id", "=", repoId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
