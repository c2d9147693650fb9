/** purgeUploads: deletes at most `limit` uploads of an ended session, or expired by `before`; answers how many. */
import type { CleanupTarget } from "../../../core/retention/cleaners";
import type { Db } from "../../schema";

export async function purgeUploads(db: Db, which: { session: CleanupTarget } | { before: Date }, limit: number): Promise<number> {
  let q = db.selectFrom("ingest_uploads").select("id");
  q = "session" in which ? q.where("tenant_id", "=", which.session.tenant_id).where("session_id", "=", which.session.session_id) : q.where("expires_at", "<=", which.before);
  const ids = (await q.limit(limit).execute()).map((r) => r.id);
  if (ids.length > 0) await db.deleteFrom("ingest_uploads").where("id", "in", ids).execute();
  return ids.length;
}
