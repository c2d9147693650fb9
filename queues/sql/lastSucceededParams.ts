/**
 * lastSucceededParams: the parameters of a repository's latest succeeded job of one kind, if any — a fix
 * job reads its repository's last ingest's source (workers/pools/fix.ts).
 */
import type { Db, Tx } from "../../db/schema";

export async function lastSucceededParams(db: Db | Tx, repoId: string, kind: string): Promise<unknown> {
  const row = await db
    .selectFrom("jobs")
    .select("params")
    .where("repo_id", "=", repoId)
    .where("kind", "=", kind)
    .where("status", "=", "succeeded")
    .orderBy("finished_at", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.params;
}
