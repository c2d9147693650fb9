/** sweepMcpSessions: deletes up to `limit` sessions idle past the timeout, in one statement; answers how many. */
import type { Db } from "../../schema";
import { cutoff } from "./rows";

export async function sweepMcpSessions(db: Db, now: Date, limit: number): Promise<number> {
  const victims = db.selectFrom("mcp_sessions").select("id_hash").where("last_seen_at", "<=", cutoff(now)).limit(limit);
  const res = await db.deleteFrom("mcp_sessions").where("id_hash", "in", victims).executeTakeFirst();
  return Number(res.numDeletedRows);
}
