/** liveMcpSessions: which of these sessions still exist and are not idle, in one statement. */
import type { Db } from "../../schema";
import { cutoff, key } from "./rows";

export async function liveMcpSessions(db: Db, sids: readonly string[], now: Date): Promise<Set<string>> {
  if (sids.length === 0) return new Set();
  const byKey = new Map(sids.map((s) => [key(s), s]));
  const rows = await db
    .selectFrom("mcp_sessions")
    .select("id_hash")
    .where("id_hash", "in", [...byKey.keys()])
    .where("last_seen_at", ">", cutoff(now))
    .execute();
  return new Set(rows.map((r) => byKey.get(r.id_hash)!));
}
